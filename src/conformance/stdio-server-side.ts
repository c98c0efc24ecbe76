// The stdio ServerSide: a local control socket plus the relay child
// (relay-child.ts) that McpClient spawns through its real StdioTransport.
// The relay forwards the client's stdin here and writes what we send to
// its stdout; this module splits the client's output into lines and parses
// each one itself (not with the client's own framer: the code under test
// must not judge its own output).

import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { excerpt } from '../diagnostics.js';
import { StdioTransport } from '../transport/stdio.js';
import type { Transport } from '../transport/transport.js';
import { show } from './json-diff.js';
import { encodeMessageLine } from './rewrite.js';
import { encodeFrame, FRAME_CLOSE, FRAME_WRITE, RELAY_SOCKET_ENV } from './relay-protocol.mjs';
import type { ServerSide, ServerSideEvents, ServerSideFactory } from './server-side.js';
import { isAlive } from '../util/process-alive.js';

/**
 * Shutdown steps for the relay when the client closes. The relay exits as
 * soon as its stdin ends, so a short step only matters when something is
 * wrong, and then it keeps a broken case from stalling the run for 6 s.
 */
const RELAY_SHUTDOWN_STEP_MS = 500;

export const stdioServerSides: ServerSideFactory = {
  transport: 'stdio',
  // stdio replays everything: raw bytes are what it is made of.
  skipReason: () => undefined,
  create: (caseName) => new StdioServerSide(caseName),
};

/** The argv that starts the relay: bare node on a plain JavaScript file, so it is up in tens of milliseconds. */
export function relayCommand(): string[] {
  return [process.execPath, fileURLToPath(new URL('./relay-child.mjs', import.meta.url))];
}

function controlSocketPath(): string {
  const unique = `mcpwire-relay-${process.pid}-${randomBytes(6).toString('hex')}`;
  // Windows has no Unix domain sockets in the file system; a named pipe plays the same role.
  return process.platform === 'win32' ? `\\\\.\\pipe\\${unique}` : join(tmpdir(), `${unique}.sock`);
}

class StdioServerSide implements ServerSide {
  private readonly socketPath = controlSocketPath();
  private server: Server | undefined;
  private events: ServerSideEvents | undefined;
  private relay: Socket | undefined;
  private transport: StdioTransport | undefined;
  /** Frames sent before the relay connected; flushed, in order, when it does. */
  private queued: Buffer[] = [];
  private partialLine: Buffer[] = [];
  private closedByServer = false;
  private gone = false;
  private disposed = false;
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });

  constructor(private readonly caseName: string) {}

  async start(events: ServerSideEvents): Promise<void> {
    this.events = events;
    const server = createServer((socket) => this.onRelay(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  createTransport(): Transport {
    const inner = new StdioTransport({
      command: relayCommand(),
      env: { [RELAY_SOCKET_ENV]: this.socketPath },
      server: `replay:${this.caseName}`,
      shutdownStepMs: RELAY_SHUTDOWN_STEP_MS,
    });
    this.transport = inner;
    // Observe the end of the client's transport: if the relay died before it
    // ever connected (a broken loader, say), nothing else would tell us.
    return {
      server: inner.server,
      kind: inner.kind,
      get pid() {
        return inner.pid;
      },
      stderrTail: () => inner.stderrTail(),
      start: (handlers) =>
        inner.start({
          ...handlers,
          onClose: (end) => {
            handlers.onClose(end);
            if (!this.relay) this.markGone(`the relay process ended before it connected (${end.reason})${this.stderrNote()}`);
          },
        }),
      send: (message) => inner.send(message),
      close: () => inner.close(),
    };
  }

  sendMessage(msg: unknown): void {
    this.sendFrame(encodeFrame(FRAME_WRITE, encodeMessageLine(msg)));
  }

  sendBytes(bytes: Buffer): void {
    this.sendFrame(encodeFrame(FRAME_WRITE, bytes));
  }

  closeServer(): void {
    this.closedByServer = true;
    this.sendFrame(encodeFrame(FRAME_CLOSE));
  }

  describe(): string {
    const tail = this.transport?.stderrTail().trim();
    return tail ? `relay stderr: ${tail}` : '';
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.relay?.destroy();
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    if (process.platform !== 'win32') await rm(this.socketPath, { force: true });
    // The client's close() already waited for the relay to exit; this is the
    // backstop for a case that never got that far, so no child outlives it.
    const pid = this.transport?.pid;
    if (pid !== undefined && isAlive(pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // It exited in between.
      }
    }
  }

  // --- relay connection ----------------------------------------------------------

  private onRelay(socket: Socket): void {
    if (this.relay || this.disposed) {
      // One relay per case; anything else connecting to our socket is not ours to serve.
      socket.destroy();
      return;
    }
    this.relay = socket;
    socket.on('data', (chunk: Buffer) => this.onClientBytes(chunk));
    socket.on('error', () => {
      // 'close' follows and reports the end.
    });
    socket.on('close', () => {
      if (this.partialLine.length) {
        const text = Buffer.concat(this.partialLine).toString('utf8');
        this.partialLine = [];
        this.events?.onBadOutput(`the client's output ended with an unterminated line: ${show(excerpt(text))}`);
      }
      this.markGone(this.closedByServer ? 'the server side exited (s2c close)' : 'the client closed the server\'s stdin');
    });
    for (const frame of this.queued.splice(0)) socket.write(frame);
  }

  private sendFrame(frame: Buffer): void {
    if (this.disposed) return;
    if (this.relay) this.relay.write(frame);
    else this.queued.push(frame);
  }

  private onClientBytes(chunk: Buffer): void {
    let start = 0;
    let newline = chunk.indexOf(0x0a);
    while (newline !== -1) {
      this.partialLine.push(chunk.subarray(start, newline));
      const line = this.partialLine.length === 1 ? this.partialLine[0]! : Buffer.concat(this.partialLine);
      this.partialLine = [];
      this.onClientLine(line);
      start = newline + 1;
      newline = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) this.partialLine.push(chunk.subarray(start));
  }

  /** W1: one UTF-8 JSON message per line. Anything else the client writes is reported, not guessed at. */
  private onClientLine(bytes: Buffer): void {
    let text: string;
    try {
      text = this.utf8.decode(bytes);
    } catch {
      this.events?.onBadOutput(`the client wrote a line that is not valid UTF-8: ${show(excerpt(bytes.toString('utf8')))}`);
      return;
    }
    if (text.trim() === '') {
      this.events?.onBadOutput('the client wrote an empty line');
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.events?.onBadOutput(`the client wrote a line that is not JSON: ${show(excerpt(text))}`);
      return;
    }
    this.events?.onMessage(value);
  }

  private markGone(detail: string): void {
    if (this.gone) return;
    this.gone = true;
    this.events?.onGone(detail);
  }

  private stderrNote(): string {
    const note = this.describe();
    return note ? `; ${note}` : '';
  }
}
