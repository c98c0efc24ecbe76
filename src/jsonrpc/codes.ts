// JSON-RPC 2.0 §5.1 reserved error codes, as literal-typed constants.
export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;
