// The seam between the wire and MCP: a Transport moves JSON-RPC messages and
// reports how it ended. It knows nothing of MCP methods and never restarts
// itself (restart policy belongs to the supervisor above the client).

import type { ClosedDetail } from '../errors.js';
import type { DiagnosticHook } from '../diagnostics.js';
import type { JsonRpcMessage } from '../jsonrpc/message.js';

/** Why a transport ended: a ClosedDetail, or a message that broke the size cap (W2). */
export type TransportEnd = ClosedDetail | { reason: 'too-large'; limitBytes: number };

export interface TransportHandlers {
  /** One decoded JSON value (a message, a batch, or garbage the connection must sort out). */
  onMessage(value: unknown): void;
  /** Called exactly once, when the transport can no longer deliver messages. */
  onClose(end: TransportEnd): void;
  onDiagnostic?: DiagnosticHook;
}

export interface Transport {
  /** The server's label used in errors and diagnostics. */
  readonly server: string;
  /** Opens the connection (spawns the process, opens the stream). Rejects with a ClosedError if it cannot. */
  start(handlers: TransportHandlers): Promise<void>;
  /**
   * Sends one message. Resolves once it is delivered (stdio: written to the
   * pipe; HTTP: for a request, once its answer has arrived). Rejects with a
   * typed error when delivery fails, or, over HTTP, when the stream that
   * would carry a request's answer ends without it: the Connection then fails
   * that request at once instead of letting it wait for its timeout.
   */
  send(message: JsonRpcMessage): Promise<void>;
  /** Graceful, idempotent shutdown. onClose fires (with reason 'closed') if it has not already. */
  close(): Promise<void>;
  /**
   * Removes the secret values this transport sends (auth headers) from text
   * that came from the server, before it goes into an error or a diagnostic (T4).
   */
  scrub?(text: string): string;
  /** Tells the transport the negotiated protocol version (HTTP transports send it as a header). */
  setProtocolVersion?(version: string): void;
}
