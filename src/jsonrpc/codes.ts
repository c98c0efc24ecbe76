// JSON-RPC 2.0 §5.1 reserved error codes, as literal-typed constants.
export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** 2026-07-28: HTTP headers do not match the body (HeaderMismatch). */
  HeaderMismatch: -32020,
  /** 2026-07-28: MissingRequiredClientCapability. */
  MissingClientCapability: -32021,
  /** 2026-07-28: UnsupportedProtocolVersion; data.supported lists the server's versions. */
  UnsupportedProtocolVersion: -32022,
} as const;
