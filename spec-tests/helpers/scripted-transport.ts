// Test helpers for the W/L spec tests: an in-memory scripted Transport (for
// exact control of the wire and fake timers) and a launcher for the scripted
// fixture server as a real child process (killed after the test).

import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { McpClient, type McpClientOptions } from '../../src/client/client.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import { ClosedError } from '../../src/errors.js';
import type { JsonRpcMessage } from '../../src/jsonrpc/message.js';
import { StdioTransport } from '../../src/transport/stdio.js';
import type { Transport, TransportEnd, TransportHandlers } from '../../src/transport/transport.js';
import { isAlive } from '../../src/util/process-alive.js';

/** A message as it crossed the wire (JSON round trip), loosely typed for assertions. */
export interface WireMessage {
  jsonrpc: '2.0';
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

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

export const SCRIPTED_SERVER = fileURLToPath(new URL('../fixtures/scripted-server.mjs', import.meta.url));

/**
 * Starts spec-tests/fixtures/scripted-server.mjs as a real child process and
 * connects an McpClient to it. The client is closed, and the process killed
 * if it is still there, when the test ends.
 */
export async function startScriptedServer(
  t: TestContext,
  flags: string[] = [],
  options: McpClientOptions & { env?: Record<string, string>; connect?: boolean } = {},
) {
  const diagnostics: Diagnostic[] = [];
  const transport = new StdioTransport({
    command: [process.execPath, SCRIPTED_SERVER, ...flags],
    server: 'scripted',
    env: options.env,
    shutdownStepMs: 500,
  });
  const client = new McpClient(transport, {
    ...options,
    onDiagnostic: (d) => {
      diagnostics.push(d);
      options.onDiagnostic?.(d);
    },
  });
  t.after(async () => {
    await client.close().catch(() => {});
    const pid = transport.pid;
    if (pid !== undefined && isAlive(pid)) process.kill(pid, 'SIGKILL');
  });
  if (options.connect !== false) await client.connect();
  return { client, transport, diagnostics };
}


/** Raw lines the scripted server received, via its `received` tool. */
export async function receivedLines(client: McpClient): Promise<string[]> {
  const result = await client.callTool('received');
  return (result.structuredContent as { lines: string[] }).lines;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
