// The seam between the wire and MCP: a Transport moves JSON-RPC messages and
// reports what happened to them. It knows no MCP method: the handshake,
// correlation of answers with requests, timeouts and retries belong to the
// Connection and the client above it. It never restarts itself (restart
// policy belongs to the supervisor above the client).

import type { ClosedDetail, McpClientError } from '../errors.js';
import type { DiagnosticHook } from '../diagnostics.js';
import type { JsonRpcId, JsonRpcMessage } from '../jsonrpc/message.js';

/** Why a transport ended: a ClosedDetail, or a message that broke the size cap (W2). */
export type TransportEnd = ClosedDetail | { reason: 'too-large'; limitBytes: number };

/** Which wire a transport speaks (what `connect()` ended up using, after a fallback). */
export type TransportKind = 'stdio' | 'streamable-http' | 'sse';

/**
 * Whether the stream that carries the session is up (#16 item 6). A
 * transport reports `reconnecting` the moment the stream that carries its
 * session drops (the legacy SSE stream; the Streamable HTTP GET stream, once
 * the server cannot be reached), again after each failed attempt with the
 * next attempt's time, and `connected` once it is back. Giving up is
 * reported by onClose, as any other end.
 */
export type TransportState =
  | {
      state: 'reconnecting';
      /** When the stream dropped (epoch ms); the same for every report of one outage. */
      since: number;
      /** When the next attempt to reopen it starts (epoch ms), if one is scheduled. */
      nextAttemptAt?: number;
      /** Why, in words, secrets scrubbed: "the SSE stream dropped (terminated)". */
      reason: string;
    }
  | { state: 'connected' };

export interface TransportHandlers {
  /** One decoded JSON value (a message, a batch, or garbage the connection must sort out). */
  onMessage(value: unknown): void;
  /**
   * The answers to these requests can no longer arrive ('all': to every
   * request in flight), e.g. the HTTP stream that would carry them ended.
   * The Connection fails those requests at once with `error` instead of
   * letting them wait for their timeouts. The transport itself goes on.
   */
  onAnswersLost(ids: readonly JsonRpcId[] | 'all', error: McpClientError): void;
  /**
   * The server no longer knows this client's session (a reopened legacy SSE
   * stream is a new session): the handshake must run again before anything
   * else is sent. Streamable HTTP reports an expired session by rejecting
   * send() with a SessionExpiredError instead, since that message was not
   * processed and can be sent again.
   */
  onSessionExpired(): void;
  /** The session's stream dropped or is back (see TransportState). */
  onConnectionState?(state: TransportState): void;
  /** Called exactly once, when the transport can no longer deliver messages. */
  onClose(end: TransportEnd): void;
  onDiagnostic?: DiagnosticHook;
}

export interface SendOptions {
  /**
   * Aborted once the Connection has given up on this request (timeout or
   * abort) and told the server so: the transport may stop the work tied to
   * it (an HTTP response stream). Passed only to transports that set
   * `usesRequestSignals`, so the others cost nothing per request. A real
   * AbortSignal, except for mcpwire's own transports that set
   * ACCEPTS_REQUEST_SIGNAL (the Connection's cheaper look-alike).
   */
  signal?: AbortSignal;
  /** Extra HTTP headers for this message (2026-07-28 Mcp-Param-*); transports without headers ignore them. */
  headers?: Record<string, string>;
}

/**
 * Set to true by a transport of mcpwire's own whose send() is content with
 * an AbortSignal look-alike as SendOptions.signal (the Connection's
 * RequestSignal: aborted, reason, onabort and 'abort' events; not one
 * AbortSignal.any() follows). Not exported from the package: a host's
 * transport always gets a real AbortSignal.
 */
export const ACCEPTS_REQUEST_SIGNAL = Symbol('mcpwire.acceptsRequestSignal');

export interface Transport {
  /** The server's label used in errors and diagnostics. */
  readonly server: string;
  readonly kind: TransportKind;
  /** Whether send() makes use of SendOptions.signal for requests. */
  readonly usesRequestSignals?: boolean;
  /** The server's process id, for transports that start a process, once started. */
  readonly pid?: number | undefined;
  /** The last bytes the server wrote to stderr, for transports that start a process. */
  stderrTail?(): string;
  /**
   * Opens the connection (spawns the process, opens the stream). Rejects with
   * a typed error that says, in this transport's own terms, why it could not
   * start: a ClosedError (`spawn-failed` for a process, `transport` or `http`
   * for a URL) or a ConfigError for a setting that cannot work.
   */
  start(handlers: TransportHandlers): Promise<void>;
  /**
   * Sends one message. Resolves once it is handed off: written to the pipe
   * (stdio), or accepted by the server (HTTP; a request's answer then
   * arrives through onMessage, or onAnswersLost if it cannot). Rejects with
   * a typed error when the message could not be handed off; with a
   * SessionExpiredError when the server no longer knows the session and did
   * not process the message.
   */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  /** Graceful, idempotent shutdown. onClose fires (with reason 'closed') if it has not already. */
  close(): Promise<void>;
  /**
   * Forced shutdown, for a server that never completed its handshake (#16
   * item 9): nothing of it is worth a grace period. Stdio SIGKILLs the
   * process group at once and resolves once it is gone. Transports without
   * it are closed with close(). Idempotent; escalates a close() under way.
   */
  kill?(): Promise<void>;
  /**
   * Stop now, for a host that is itself being stopped (a deadline, Ctrl-C:
   * #18 item 5): stdio sends SIGTERM to the process group at once and
   * SIGKILL after a short grace (HURRY_GRACE_MS), skipping the end-of-input
   * step and the long waits of close(). Transports without it are closed
   * with close(). Idempotent; escalates a close() under way.
   */
  hurry?(): Promise<void>;
  /**
   * Values the owner of the client wants removed from everything this
   * transport reports (stderr tail, noise, error text), beside those it
   * knows itself (McpClientOptions.secrets). Called before start().
   */
  addSecrets?(values: readonly string[]): void;
  /**
   * Removes the secret values this transport sends (auth headers) from text
   * that came from the server, before it goes into an error or a diagnostic (T4).
   */
  scrub?(text: string): string;
  /** The negotiated protocol version, set before the handshake's last message (HTTP transports send it as a header). */
  setProtocolVersion?(version: string): void;
  /**
   * The 2026-07-28 wire with this protocol version, or (undefined) the 2025
   * wire exactly as before (#17). Only transports whose wire differs between
   * the eras implement it (Streamable HTTP: stateless, metadata headers).
   */
  setModern?(version: string | undefined): void;
  /** The handshake is complete; called again after each renewal (Streamable HTTP then opens its GET stream). */
  handshakeComplete?(): void;
}
