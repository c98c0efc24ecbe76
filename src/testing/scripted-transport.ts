// An in-memory scripted Transport for unit and spec tests: exact control of
// the wire, works under fake timers. Records what the client sends; answers
// requests from a script; the test injects whatever the server would send.

import { ClosedError } from '../errors.js';
import type { JsonRpcMessage } from '../jsonrpc/message.js';
import type { Transport, TransportEnd, TransportHandlers } from '../transport/transport.js';
import type { WireMessage } from './wire-message.js';

export type { WireMessage } from './wire-message.js';

/** What the scripted server answers to one request: a result, `{ error }`, or NO_ANSWER. */
export type Script = (request: WireMessage) => unknown;
export const NO_ANSWER = Symbol('no answer');

export const INIT_RESULT = { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'scripted', version: '1.0.0' } };

/** A script that completes the handshake with `init` and hands every other request to `rest`. */
export function handshake(rest: Script = () => ({}), init: unknown = INIT_RESULT): Script {
  return (request) => (request.method === 'initialize' ? init : rest(request));
}

/**
 * Records every message the client sends and lets the test inject what the
 * server sends. With a script, requests are answered automatically, on the
 * next turn of the event loop like a real server.
 */
export class ScriptedTransport implements Transport {
  readonly server: string;
  readonly kind = 'stdio' as const;
  readonly sent: WireMessage[] = [];
  handlers: TransportHandlers | undefined;
  ended = false;
  closeCalls = 0;
  /** What McpClient told the transport it negotiated. */
  protocolVersionSet: string | undefined;
  private waiters: { match: (m: WireMessage) => boolean; resolve: (m: WireMessage) => void }[] = [];

  constructor(
    private readonly script?: Script,
    options: { server?: string } = {},
  ) {
    this.server = options.server ?? 'scripted';
  }

  setProtocolVersion(version: string): void {
    this.protocolVersionSet = version;
  }

  start(handlers: TransportHandlers): Promise<void> {
    this.handlers = handlers;
    return Promise.resolve();
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.ended) return Promise.reject(new ClosedError({ server: this.server }, { reason: 'exited' }));
    const m = JSON.parse(JSON.stringify(message)) as WireMessage;
    this.sent.push(m);
    this.waiters = this.waiters.filter((w) => (w.match(m) ? (w.resolve(m), false) : true));
    if (this.script && m.method !== undefined && m.id !== undefined) {
      const answer = this.script(m);
      if (answer !== NO_ANSWER) {
        const isError = typeof answer === 'object' && answer !== null && Object.keys(answer).length === 1 && 'error' in answer;
        setImmediate(() => this.inject(isError ? { jsonrpc: '2.0', id: m.id, ...(answer as object) } : { jsonrpc: '2.0', id: m.id, result: answer }));
      }
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closeCalls++;
    this.end({ reason: 'closed' });
    return Promise.resolve();
  }

  /** The server sends a value: a message, a batch, or garbage. */
  inject(value: unknown): void {
    if (!this.ended) this.handlers!.onMessage(value);
  }

  end(end: TransportEnd): void {
    if (this.ended) return;
    this.ended = true;
    this.handlers!.onClose(end);
  }

  /** The first message, already sent or still to come, that matches. */
  next(match: (m: WireMessage) => boolean): Promise<WireMessage> {
    const found = this.sent.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  methods(): string[] {
    return this.sent.filter((m) => m.method !== undefined).map((m) => m.method!);
  }

  requests(method: string): WireMessage[] {
    return this.sent.filter((m) => m.method === method && m.id !== undefined);
  }

  cancellations(): unknown[] {
    return this.sent.filter((m) => m.method === 'notifications/cancelled').map((m) => m.params?.requestId);
  }
}
