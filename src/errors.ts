// The whole error taxonomy of mcpwire (a leaf: imports nothing from src/).
// Every error the library raises on purpose is one of these, with a stable
// `code` that maps one-to-one onto the transcript `expect` vocabulary.
// Deliberately NOT part of it: a `CallToolResult` with `isError: true` (that
// is a result, handed back as such) and a user's own AbortSignal reason
// (rejected untouched, so an abort is never mistaken for a timeout).

export type McpErrorCode = 'timeout' | 'closed' | 'protocol' | 'rpc' | 'config' | 'unknown-tool';

/** Where a failure happened: which server, and which request if any. */
export interface ErrorSite {
  /** The server's label (config key, or the command line when there is none). */
  server: string;
  /** The JSON-RPC method of the request that failed, when one did. */
  method?: string;
}

export abstract class McpClientError extends Error {
  abstract readonly code: McpErrorCode;
  readonly server: string;
  readonly method: string | undefined;

  constructor(site: ErrorSite, message: string, options?: { cause?: unknown }) {
    super(`${prefix(site)}${message}`, options);
    this.server = site.server;
    this.method = site.method;
  }
}

function prefix(site: ErrorSite): string {
  if (!site.server) return '';
  return site.method ? `server "${site.server}", ${site.method}: ` : `server "${site.server}": `;
}

/** Our own timer ran out before the server answered (W7). */
export class TimeoutError extends McpClientError {
  override readonly name = 'TimeoutError' as const;
  readonly code = 'timeout' as const;
  constructor(site: ErrorSite, readonly timeoutMs: number, detail = '') {
    super(site, `no answer within ${timeoutMs} ms${detail}`);
  }
}

export type ClosedReason =
  | 'exited' // the server process ended
  | 'output-closed' // the server closed its stdout while still running
  | 'spawn-failed' // the process never started
  | 'closed' // our own close()
  | 'not-connected' // used before connect() or after close()
  | 'transport' // the transport failed (stream error, HTTP connection lost)
  | 'http' // an HTTP request was answered with an error status
  | 'unavailable'; // a supervised server is restarting, failed, or disabled, or the client is reconnecting a dropped stream: the cause says which

export interface ClosedDetail {
  reason: ClosedReason;
  exitCode?: number | null;
  signal?: string | null;
  /** The last bytes the server wrote to stderr, as text. */
  stderrTail?: string;
  /** The HTTP status, for reason 'http'. */
  status?: number;
  /**
   * For reason 'unavailable' while the client reconnects a dropped stream:
   * when (epoch ms) it tries next. Absent when no attempt is scheduled.
   */
  nextAttemptAt?: number;
  cause?: unknown;
}

/** The transport or the process went away before the answer came (W8, S3). */
export class ClosedError extends McpClientError {
  override readonly name: 'ClosedError' | 'AuthError' | 'SessionExpiredError' | 'EraProbeClosedError' = 'ClosedError';
  readonly code = 'closed' as const;
  readonly reason: ClosedReason;
  readonly exitCode: number | null | undefined;
  readonly signal: string | null | undefined;
  readonly stderrTail: string | undefined;
  readonly status: number | undefined;
  readonly nextAttemptAt: number | undefined;
  constructor(site: ErrorSite, detail: ClosedDetail) {
    super(site, describeClosed(detail), { cause: detail.cause });
    this.reason = detail.reason;
    this.exitCode = detail.exitCode;
    this.signal = detail.signal;
    this.stderrTail = detail.stderrTail;
    this.status = detail.status;
    this.nextAttemptAt = detail.nextAttemptAt;
  }
}

/**
 * The HTTP server refused our credentials (401) or our access (403). Its
 * message names the server and the status, never the credential itself (T4).
 */
export class AuthError extends ClosedError {
  override readonly name = 'AuthError' as const;
  constructor(site: ErrorSite, status: number) {
    super(site, { reason: 'http', status });
  }
}

/**
 * The OAuth flow a server's 401 asked for could not go on (#19): its
 * metadata could not be found or failed a check the spec makes (a resource
 * that names another server, an issuer that is not the one asked, no PKCE
 * S256), or a step of the authorization failed. `step` says which; the
 * message says what to do. Never holds a token, code, verifier or secret.
 */
export class OAuthError extends McpClientError {
  override readonly name = 'OAuthError' as const;
  readonly code = 'closed' as const;
  constructor(
    site: ErrorSite,
    readonly step: 'resource-metadata' | 'authorization-server' | 'registration' | 'authorization' | 'token',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(site, message, options);
  }
}

/**
 * The server answered 404 or 410 to a message carrying its session id (MCP
 * transports, "Session Management"), or 400 with a body that says it does
 * not know the session (what servers built on the SDK's examples answer,
 * server-everything among them: "Bad Request: No valid session ID
 * provided"): the message was not processed and the
 * client must run the handshake again. The Connection does that and sends the
 * message once more; a caller sees this error only when the session expired
 * again right after a new handshake.
 */
export class SessionExpiredError extends ClosedError {
  override readonly name = 'SessionExpiredError' as const;
  constructor(site: ErrorSite, status: number) {
    super(site, { reason: 'http', status, cause: new Error('the server no longer knows this session') });
  }
}

function describeClosed(d: ClosedDetail): string {
  let text: string;
  switch (d.reason) {
    case 'exited':
      text = d.signal
        ? `the server process was killed by ${d.signal}`
        : `the server process exited with code ${d.exitCode ?? 'unknown'}`;
      break;
    case 'output-closed':
      text = 'the server closed its output';
      break;
    case 'spawn-failed':
      text = `the server process could not be started: ${causeText(d.cause)}`;
      break;
    case 'closed':
      text = 'the connection was closed by the client';
      break;
    case 'not-connected':
      text = 'the client is not connected; call connect() first';
      break;
    case 'transport':
      text = `the transport failed (${causeText(d.cause)})`;
      break;
    case 'unavailable':
      text = `the server is not available: ${causeText(d.cause)}`;
      break;
    case 'http':
      text =
        d.status === 401 || d.status === 403
          ? `the server refused the request with HTTP ${d.status} (${d.status === 401 ? 'unauthorized' : 'forbidden'}); check the credentials configured for this server`
          : `the server answered HTTP ${d.status ?? '?'}${d.cause ? ` (${causeText(d.cause)})` : ''}`;
      break;

  }
  const tail = d.stderrTail?.trim();
  return tail ? `${text}; last stderr:\n${tail}` : text;
}

function causeText(cause: unknown): string {
  return cause === undefined || cause === null ? 'no detail' : causeChain(cause);
}
// causeChain: the words of an error and of everything under it (#18 item 8). fetch()
// fails with "fetch failed" and keeps what happened in `cause`:
// "connect ECONNREFUSED 127.0.0.1:3000", "getaddrinfo ENOTFOUND host", a TLS
// verdict, "other side closed"; happy-eyeballs connects wrap several such
// errors in one AggregateError. A message that stops at the top says nothing
// a user can act on, so every error the library builds from a cause carries
// the whole chain, and hosts get it as the CLI does.

/** How deep a chain is followed: real ones are two or three levels; a cycle or a hostile one stops here. */
const MAX_DEPTH = 6;

/**
 * "fetch failed: connect ECONNREFUSED 127.0.0.1:3000": each level's message,
 * outermost first, joined by ": ". A level's `code` is added in brackets when
 * its message does not already say it (TLS errors name the reason but not
 * the code); a message that repeats one already shown is left out.
 */
export function causeChain(error: unknown): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  const add = (text: string) => {
    const trimmed = text.trim();
    if (trimmed !== '' && !parts.some((part) => part.includes(trimmed))) parts.push(trimmed);
  };
  let level: unknown = error;
  for (let depth = 0; depth < MAX_DEPTH && level !== undefined && level !== null && !seen.has(level); depth++) {
    seen.add(level);
    if (!(level instanceof Error)) {
      add(String(level));
      break;
    }
    if (level instanceof AggregateError && level.errors.length > 0) {
      // Each address tried: their messages, once each, in one part.
      const each = [...new Set(level.errors.map((inner) => (inner instanceof Error ? withCode(inner) : String(inner))))];
      add(level.message && !each.includes(level.message) ? `${level.message} (${each.join('; ')})` : each.join('; '));
    } else {
      add(withCode(level));
    }
    level = level.cause;
  }
  return parts.length > 0 ? parts.join(': ') : 'no detail';
}

function withCode(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code !== '' && !error.message.includes(code) ? `${error.message} [${code}]` : error.message;
}


/** The peer broke the protocol: bad JSON-RPC, an invalid result, a version we do not speak. */
export class ProtocolError extends McpClientError {
  override readonly name: 'ProtocolError' | 'MessageTooLargeError' | 'UnhandledInputRequestError' = 'ProtocolError';
  readonly code = 'protocol' as const;
}

/**
 * A tool call the server ran as a task (M5) ended without a result: the
 * task was cancelled by someone other than this client, or it needs input
 * the client has no handler for (it is then cancelled). Code 'rpc': it is
 * the server's answer to the call, as a JSON-RPC error would be. A task that
 * failed with a JSON-RPC error rejects with that RpcError instead.
 */
export class TaskError extends McpClientError {
  override readonly name = 'TaskError' as const;
  readonly code = 'rpc' as const;
  constructor(
    site: ErrorSite,
    readonly taskId: string,
    readonly status: string,
    detail: string,
  ) {
    super(site, `task ${JSON.stringify(taskId)} ${detail}`);
  }
}

/** A single message exceeded the configured maximum size (W2); the connection is dropped. */
export class MessageTooLargeError extends ProtocolError {
  override readonly name = 'MessageTooLargeError' as const;
  constructor(site: ErrorSite, readonly limitBytes: number) {
    super(
      site,
      `a message from the server exceeded the maximum message size of ${limitBytes} bytes; ` +
        'the connection was dropped (raise maxMessageBytes if the server legitimately sends larger messages)',
    );
  }
}

/**
 * 2026-07-28 input-required result (MRTR, #17 item 3): the server asked for
 * input (`inputMethod`: `elicitation/create`, `sampling/createMessage`,
 * `roots/list`, …) that this client has no handler for. A server MUST NOT
 * ask for what the client did not declare, and the client declares only what
 * it has a handler for, so the call fails here instead of being retried
 * without the answer. Install the handler (McpClientOptions.handlers or
 * requestHandlers) and call again.
 */
export class UnhandledInputRequestError extends ProtocolError {
  override readonly name = 'UnhandledInputRequestError' as const;
  constructor(
    site: ErrorSite,
    readonly inputMethod: string,
    readonly inputKey: string,
  ) {
    super(site, `the server needs input through ${JSON.stringify(inputMethod)} (inputRequests key ${JSON.stringify(inputKey)}), which this client has no handler for: install one (McpClientOptions.handlers, or requestHandlers[${JSON.stringify(inputMethod)}]) and call again`);
  }
}

/** A JSON-RPC error object the server sent, as sent: never a local condition. */
export class RpcError extends McpClientError {
  override readonly name = 'RpcError' as const;
  readonly code = 'rpc' as const;
  constructor(
    site: ErrorSite,
    readonly rpcCode: number,
    readonly rpcMessage: string,
    readonly data?: unknown,
  ) {
    super(site, `the server answered with error ${rpcCode}: ${rpcMessage}`);
  }
}

/**
 * `-32021` (2026-07-28, MissingRequiredClientCapability): the server needs a
 * client capability this client did not declare, which it declares only for
 * what it has a handler for. `capability` names it when the server said.
 * Install the handler (McpClientOptions.handlers) and call again.
 */
export class MissingClientCapabilityError extends RpcError {
  readonly capability: string | undefined;
  constructor(site: ErrorSite, rpcMessage: string, data?: unknown) {
    super(site, -32021, rpcMessage, data);
    this.capability = capabilityNamed(data);
    this.message = `${prefix(site)}the server requires the client capability ${this.capability ? `"${this.capability}"` : '(unnamed)'}, which this client does not declare: install its handler (${rpcMessage})`;
  }
}

/**
 * `-32022` (2026-07-28, UnsupportedProtocolVersion): the server does not
 * speak the version the request declared; `supported` lists those it does.
 */
export class UnsupportedVersionError extends RpcError {
  readonly supported: readonly string[];
  readonly requested: string | undefined;
  constructor(site: ErrorSite, rpcMessage: string, data?: unknown) {
    super(site, -32022, rpcMessage, data);
    const d = (typeof data === 'object' && data !== null ? data : {}) as { supported?: unknown; requested?: unknown };
    this.supported = Array.isArray(d.supported) ? d.supported.filter((v): v is string => typeof v === 'string') : [];
    this.requested = typeof d.requested === 'string' ? d.requested : undefined;
  }
}

/** The server's capability name in a -32021 error's data: `{ capability }`, `{ required: [..] }` or `{ capabilities: [..] }`. */
function capabilityNamed(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const d = data as Record<string, unknown>;
  for (const key of ['capability', 'missing', 'required', 'requiredCapabilities', 'capabilities']) {
    const v = d[key];
    if (typeof v === 'string') return v;
    if (Array.isArray(v) && v.length > 0) return v.map(String).join(', ');
    if (typeof v === 'object' && v !== null && Object.keys(v).length > 0) return Object.keys(v).join(', ');
  }
  return undefined;
}

/** The typed error for a JSON-RPC error answer: the 2026-07-28 codes get their own classes. */
export function rpcErrorFor(site: ErrorSite, code: number, rpcMessage: string, data?: unknown): RpcError {
  if (code === -32021) return new MissingClientCapabilityError(site, rpcMessage, data);
  if (code === -32022) return new UnsupportedVersionError(site, rpcMessage, data);
  return new RpcError(site, code, rpcMessage, data);
}

/**
 * A configuration that cannot be used: names the file, the line and column
 * when the parser knows them (1-based, `file:line:column` as editors read
 * it), and the path inside it.
 */
export class ConfigError extends McpClientError {
  override readonly name = 'ConfigError' as const;
  readonly code = 'config' as const;
  readonly line: number | undefined;
  readonly column: number | undefined;
  constructor(
    readonly file: string | undefined,
    readonly path: readonly (string | number)[],
    readonly detail: string,
    options?: { cause?: unknown; server?: string; line?: number; column?: number },
  ) {
    const where = options?.line === undefined ? '' : `:${options.line}${options.column === undefined ? '' : `:${options.column}`}`;
    super(
      { server: options?.server ?? '' },
      `${file ?? 'config'}${where}${path.length ? ` at ${shownPath(path)}` : ''}: ${cut(detail, MAX_CONFIG_DETAIL_CHARS)}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.line = options?.line;
    this.column = options?.column;
  }
}

/**
 * A call named a tool (or a server) that is not registered: a mistake of the
 * caller's, not of the config or a server. Built by the tool source with the
 * nearest registered names in the naming scheme of the host that asked, and
 * the servers that are down (their tools are not registered while they are).
 */
export class UnknownToolError extends McpClientError {
  override readonly name = 'UnknownToolError' as const;
  readonly code = 'unknown-tool' as const;
  /** The name as the caller gave it. */
  readonly tool: string;
  /** What is missing: the tool, or the server its name points into. */
  readonly missing: 'tool' | 'server';
  /** The nearest registered names (or server keys, when `missing` is `server`), nearest first; may be empty. */
  readonly suggestions: readonly string[];
  /** Configured servers that are not available now, so whose tools are not registered. */
  readonly unavailable: readonly string[];
  /**
   * `server` is the configured server the name points into (`mcp.<key>.…`)
   * when it is one, else "".
   */
  constructor(
    site: ErrorSite,
    detail: { tool: string; missing: 'tool' | 'server'; suggestions: readonly string[]; unavailable: readonly string[]; message: string },
  ) {
    super(site, detail.message);
    this.tool = detail.tool;
    this.missing = detail.missing;
    this.suggestions = detail.suggestions;
    this.unavailable = detail.unavailable;
  }
}

/**
 * A config file can hold a megabyte key or a thousand-level path, and a
 * message is read by a person: the path shows at most 12 segments of at most
 * 80 characters, the detail at most 2000 characters, each cut with "…". The
 * full path stays in `path`.
 */
const MAX_CONFIG_DETAIL_CHARS = 2000;
const MAX_SHOWN_SEGMENTS = 12;
const MAX_SEGMENT_CHARS = 80;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function shownPath(path: readonly (string | number)[]): string {
  const shown = path.slice(0, MAX_SHOWN_SEGMENTS).map((segment) => cut(String(segment), MAX_SEGMENT_CHARS));
  return path.length > MAX_SHOWN_SEGMENTS ? `${shown.join('.')}.…` : shown.join('.');
}

export function isMcpClientError(value: unknown): value is McpClientError {
  return value instanceof McpClientError;
}
