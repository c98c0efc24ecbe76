// A Transport that wraps another and reports every message that crosses it,
// for the recorder's ops mode: what the client sends (c2s), what the server
// sends (s2c), the non-JSON lines a stdio server printed, and a server that
// went away on its own. It changes nothing on the way through. Does NOT
// decide what is written: the recorder does.

import type { DiagnosticHook } from '../diagnostics.js';
import type { JsonRpcMessage } from '../jsonrpc/message.js';
import type { SendOptions, Transport, TransportEnd, TransportHandlers } from '../transport/transport.js';

export interface WireTapEvents {
  c2s(message: JsonRpcMessage): void;
  s2c(value: unknown): void;
  /**
   * A line of a stdio server's output that is not JSON (a banner). The
   * transport reports its text without the line break, so the tap hands on
   * the text followed by "\n".
   */
  s2cNoise(text: string): void;
  /** The transport ended without our close(): the server exited or dropped the connection. */
  serverGone(end: TransportEnd): void;
}

export class WireTap implements Transport {
  private closing = false;

  constructor(
    private readonly inner: Transport,
    private readonly events: WireTapEvents,
  ) {}

  get server(): string {
    return this.inner.server;
  }
  get kind() {
    return this.inner.kind;
  }
  get usesRequestSignals(): boolean | undefined {
    return this.inner.usesRequestSignals;
  }
  get pid(): number | undefined {
    return this.inner.pid;
  }

  stderrTail(): string {
    return this.inner.stderrTail?.() ?? '';
  }

  start(handlers: TransportHandlers): Promise<void> {
    const onDiagnostic: DiagnosticHook = (d) => {
      if (d.kind === 'noise') this.events.s2cNoise(d.text);
      handlers.onDiagnostic?.(d);
    };
    return this.inner.start({
      ...handlers,
      onMessage: (value) => {
        this.events.s2c(value);
        handlers.onMessage(value);
      },
      onClose: (end) => {
        if (!this.closing && end.reason !== 'closed') this.events.serverGone(end);
        handlers.onClose(end);
      },
      onDiagnostic,
    });
  }

  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    // Recorded before it is handed off: an answer can only come after, so the order in the record is the order on the wire.
    this.events.c2s(message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    this.closing = true;
    return this.inner.close();
  }

  kill(): Promise<void> {
    this.closing = true;
    return this.inner.kill ? this.inner.kill() : this.inner.close();
  }

  addSecrets(values: readonly string[]): void {
    this.inner.addSecrets?.(values);
  }

  /** The 2026-07-28 wire (#17): without it a modern session over Streamable HTTP would go out without its MCP-Protocol-Version header. */
  setModern(version: string | undefined): void {
    this.inner.setModern?.(version);
  }

  scrub(text: string): string {
    return this.inner.scrub?.(text) ?? text;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  handshakeComplete(): void {
    this.inner.handshakeComplete?.();
  }
}
