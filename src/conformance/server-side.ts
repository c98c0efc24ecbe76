// The seam between the replayer and the transport it replays over: a
// ServerSide plays "the server" for one case. The runner only matches and
// decides; a ServerSide only moves bytes. Implementations: stdio
// (stdio-server-side.ts, a relay child process), Streamable HTTP and legacy
// HTTP+SSE (streamable-http-server-side.ts, sse-server-side.ts, hosted on
// 127.0.0.1 in the runner's process); server-sides.ts maps names to them.

import type { Transport } from '../transport/transport.js';
import type { Transcript } from './transcript.js';

export interface ServerSideEvents {
  /** One JSON value the client sent. */
  onMessage(value: unknown): void;
  /**
   * The client sent something that is not a JSON message (a non-JSON line,
   * an unterminated line), or broke its transport's rules (over HTTP: a
   * request the server must refuse, e.g. one without the session id).
   */
  onBadOutput(detail: string): void;
  /** No more can arrive from the client (its stream ended, or the server side went away). */
  onGone(detail: string): void;
}

export interface ServerSide {
  /** Opens whatever the client will connect to. Called once, before createTransport(). */
  start(events: ServerSideEvents): Promise<void>;
  /** The client transport that reaches this server side (the real one the library ships). */
  createTransport(): Transport;
  /** Sends one message (or batch) as the server would, ids already rewritten. */
  sendMessage(msg: unknown): void;
  /** Sends exact bytes (s2c raw / rawBase64). Only where `supportsRawBytes`. */
  sendBytes(bytes: Buffer): void;
  /** The server exits (s2c close). */
  closeServer(): void;
  /** What is worth knowing after a failure (e.g. the relay's stderr). */
  describe(): string;
  /** Stops everything it started; afterwards no process or socket of this case remains. Idempotent. */
  dispose(): Promise<void>;
}

export interface ServerSideFactory {
  readonly transport: 'stdio' | 'sse' | 'streamable-http';
  /** Why this transport cannot replay the case (e.g. raw bytes over HTTP), or undefined when it can. */
  skipReason(transcript: Transcript): string | undefined;
  create(caseName: string): ServerSide;
}
