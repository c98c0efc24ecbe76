// A scriptable MCP-over-HTTP server for the T2/T3/T4 spec tests: an
// HttpServerSide (the conformance runner's HTTP server, on 127.0.0.1, port
// 0) with fixed paths and routes a test can take over. It speaks both
// Streamable HTTP (one MCP endpoint for POST/GET/DELETE) and the legacy
// HTTP+SSE transport (a GET stream that announces a POST endpoint), answers
// the handshake and simple requests by default, records every request it
// receives, and lets each test take over any request to answer it the way the
// test needs: a JSON body, an SSE stream with chosen ids/events/retry, a
// stream closed early or dropped, a status code, one byte at a time, an event
// that never ends. It is NOT an MCP server implementation: it checks nothing
// the client sends, so the tests can assert on exactly what arrived.

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { TestContext } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { formatEvent, HttpServerSide, readBodyText, SSE_HEADERS, type SseEventSpec } from '../conformance/http-server-side.js';
import type { ServerSideEvents } from '../conformance/server-side.js';
import { isObject } from '../jsonrpc/message.js';
import { SseTransport } from '../transport/sse.js';
import { StreamableHttpTransport } from '../transport/streamable-http.js';
import type { Transport } from '../transport/transport.js';
import type { WireMessage } from './wire-message.js';

export type { WireMessage } from './wire-message.js';
export type { SseEventSpec } from '../conformance/http-server-side.js';

/** The protocol version the fixture answers initialize with (the newest revision). */
export const FIXTURE_PROTOCOL_VERSION = '2025-11-25';

export const FIXTURE_INIT_RESULT = {
  protocolVersion: FIXTURE_PROTOCOL_VERSION,
  capabilities: { tools: {} },
  serverInfo: { name: 'http-fixture', version: '1.0.0' },
};

/** One HTTP request the fixture received. */
export interface RecordedRequest {
  /** Order of arrival, from 0. */
  seq: number;
  /** The HTTP method: GET, POST, DELETE. */
  method: string;
  /** pathname + search, as the client sent it. */
  path: string;
  /** Node lower-cases header names. */
  headers: IncomingHttpHeaders;
  /** The raw body (empty for GET/DELETE). */
  body: string;
  /** The body parsed as JSON when it is a JSON object (a single JSON-RPC message). */
  message: WireMessage | undefined;
  /** performance.now() when the request's headers arrived. */
  receivedAt: number;
  /** The status the fixture answered with, once it has sent its headers. */
  status: number | undefined;
}

/** Takes over one request. The exchange stays open until the route ends it (or the fixture closes). */
export type Route = (ex: Exchange) => void | Promise<void>;

export interface HttpFixtureOptions {
  /** 'streamable' (default): one MCP endpoint. 'sse': the legacy HTTP+SSE transport. */
  kind?: 'streamable' | 'sse';
  /** Streamable: the MCP endpoint's path. Legacy: the SSE URL's path. Default '/mcp' or '/sse'. */
  path?: string;
  /**
   * Streamable: the Mcp-Session-Id header sent with each initialize answer
   * (a function is called once per initialize). Default: no session.
   */
  sessionId?: string | (() => string);
  /** The initialize result. Default FIXTURE_INIT_RESULT. */
  initializeResult?: unknown;
  /** The result of any other request, by default. Default: see defaultResult(). */
  result?: (message: WireMessage) => unknown;
  /**
   * Legacy: the `data` of the endpoint event for a new stream (session ids are
   * 's1', 's2', …). Default `/messages?session=<id>`.
   */
  endpoint?: (session: string, fixture: HttpFixture) => string;
  /** Overrides for requests by HTTP method. Each may call `ex.default()` to fall back. */
  post?: Route;
  get?: Route;
  delete?: Route;
}

/** What the fixture answers by default to a request other than initialize. */
export function defaultResult(message: WireMessage): unknown {
  switch (message.method) {
    case 'tools/list':
      return { tools: [{ name: 'echo', description: 'Echoes its input', inputSchema: { type: 'object' } }] };
    case 'tools/call':
      return { content: [{ type: 'text', text: `called ${String(message.params?.name)}` }] };
    default:
      return {};
  }
}

/** The JSON-RPC response carrying `result` for `message`. */
export function responseTo(message: WireMessage, result: unknown): WireMessage {
  return { jsonrpc: '2.0', id: message.id ?? null, result };
}

/**
 * One request and its response, with helpers to answer it. The helpers
 * write through `res` and never throw when the client has gone away (a
 * test that drops a stream must not crash the fixture).
 */
export class Exchange {
  /** Resolves when the connection carrying this response is closed or the response has finished. */
  readonly closed: Promise<void>;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly request: RecordedRequest,
    /** The fixture that received it (so a route can reach other exchanges, e.g. a legacy session's stream). */
    readonly fixture: HttpFixture,
  ) {
    this.closed = new Promise((resolve) => res.once('close', () => resolve()));
  }

  /** The value of `name` in the request's query string (legacy endpoints carry the session there). */
  query(name: string): string | null {
    return new URL(this.request.path, 'http://fixture.invalid').searchParams.get(name);
  }

  /** The JSON-RPC message in the body, if any. */
  get message(): WireMessage | undefined {
    return this.request.message;
  }

  /** True once the client has gone away or the response has ended. */
  get done(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  /** Answers as the fixture would without an override. */
  default(): Promise<void> {
    return this.fixture.answerByDefault(this);
  }

  /** Sends the status line and headers (and records the status). */
  head(status: number, headers: Record<string, string> = {}): void {
    if (this.res.headersSent || this.done) return;
    this.request.status = status;
    this.res.writeHead(status, headers);
  }

  /** A complete response: status, headers, body. */
  status(status: number, body = '', headers: Record<string, string> = {}): void {
    this.head(status, body ? { 'content-type': 'text/plain', ...headers } : headers);
    if (!this.done) this.res.end(body);
  }

  /** An application/json answer. */
  json(value: unknown, options: { status?: number; headers?: Record<string, string> } = {}): void {
    this.head(options.status ?? 200, { 'content-type': 'application/json', ...options.headers });
    if (!this.done) this.res.end(JSON.stringify(value));
  }

  /** 202 Accepted with no body (the Streamable HTTP answer to a notification or response). */
  accepted(): void {
    this.status(202);
  }

  /** Starts a text/event-stream answer; the headers are flushed at once. */
  openSse(headers: Record<string, string> = {}): void {
    this.head(200, { ...SSE_HEADERS, ...headers });
    if (!this.done) this.res.flushHeaders();
  }

  /** Writes one SSE event (opening the stream first if needed). */
  event(spec: SseEventSpec): Promise<void> {
    if (!this.res.headersSent) this.openSse();
    return this.write(formatEvent(spec));
  }

  /** Writes raw text; resolves when the socket has taken it (backpressure respected). */
  write(text: string | Uint8Array): Promise<void> {
    if (this.done) return Promise.resolve();
    return new Promise((resolve) => {
      const flushed = this.res.write(text);
      if (flushed) return resolve();
      const finish = () => {
        this.res.off('drain', finish);
        this.res.off('close', finish);
        resolve();
      };
      this.res.on('drain', finish);
      this.res.on('close', finish);
    });
  }

  /** Ends the response cleanly (for an SSE stream: the server closes the connection). */
  end(): void {
    if (!this.done) this.res.end();
  }

  /** Drops the connection abruptly: no terminating chunk, the socket is destroyed. */
  drop(): void {
    this.res.socket?.destroy();
    this.res.destroy();
  }

  /** Writes `text` one byte per write, `delayMs` apart (a multi-byte character is split across writes). */
  async drip(text: string, delayMs = 1): Promise<void> {
    this.res.socket?.setNoDelay(true);
    for (const byte of Buffer.from(text, 'utf8')) {
      if (this.done) return;
      await this.write(Uint8Array.of(byte));
      await delay(delayMs);
    }
  }

  /**
   * An SSE event that never ends: `prefix` (default `data: `) and then `fill`
   * repeated in chunks of `chunkBytes`, never a blank line, until `totalBytes`
   * were written or the client went away. Backpressure is respected, so what
   * the fixture holds is bounded by the socket buffers. Resolves with the
   * number of bytes written.
   */
  async endless(options: { totalBytes: number; chunkBytes?: number; prefix?: string; fill?: string }): Promise<number> {
    const chunkBytes = options.chunkBytes ?? 64 * 1024;
    const fill = options.fill ?? 'x';
    // Whole copies of `fill`, so a multi-line fill keeps its shape across chunks.
    const chunk = Buffer.from(fill.repeat(Math.max(1, Math.floor(chunkBytes / fill.length))), 'utf8');
    if (!this.res.headersSent) this.openSse();
    let written = 0;
    const prefix = options.prefix ?? 'data: ';
    await this.write(prefix);
    written += Buffer.byteLength(prefix);
    while (written < options.totalBytes && !this.done) {
      await this.write(chunk);
      written += chunk.byteLength;
    }
    return written;
  }
}

/** A legacy HTTP+SSE session: the GET stream that announced `/…?session=<id>`. */
export interface LegacySession {
  id: string;
  stream: Exchange;
}

/**
 * The ServerSide the spec tests script. Unlike the replay server sides it
 * judges nothing the client sends: every request is recorded and answered
 * by a route (the test's, or the defaults below). As a ServerSide it still
 * reports each JSON message POSTed to `events.onMessage`.
 */
export class HttpFixture extends HttpServerSide {
  /** Every request received, in order. */
  readonly requests: RecordedRequest[] = [];
  /** Legacy mode: every SSE stream opened by the default GET route, in order. */
  readonly sessions: LegacySession[] = [];
  readonly kind: 'streamable' | 'sse';
  readonly path: string;
  private sessionCounter = 0;
  private readonly listeners = new Set<() => void>();
  private readonly exchanges = new Set<Exchange>();

  constructor(readonly options: HttpFixtureOptions = {}) {
    // No path prefix: the tests name exact paths (and absolute endpoint URLs) in their assertions.
    super('http-fixture', '');
    this.kind = options.kind ?? 'streamable';
    this.path = options.path ?? (this.kind === 'sse' ? '/sse' : '/mcp');
  }

  /** The URL the client is configured with: the MCP endpoint, or the legacy SSE URL. */
  get url(): string {
    return `${this.origin}${this.path}`;
  }

  override start(events: ServerSideEvents = IGNORED): Promise<void> {
    return super.start(events);
  }

  /** A client transport of the fixture's kind, pointed at its URL. */
  createTransport(): Transport {
    return this.kind === 'sse' ? new SseTransport({ url: this.url, server: 'http-fixture' }) : new StreamableHttpTransport({ url: this.url, server: 'http-fixture' });
  }

  /** Sends a message as the server: see push(). */
  sendMessage(msg: unknown): void {
    void this.push(msg);
  }

  /** Stops listening and drops every connection (open SSE streams included). Idempotent. */
  close(): Promise<void> {
    for (const ex of this.exchanges) ex.drop();
    return this.dispose();
  }

  /** The requests received with this HTTP method. */
  received(method: 'GET' | 'POST' | 'DELETE'): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method);
  }

  /** The JSON-RPC messages POSTed, in order. */
  posted(): WireMessage[] {
    return this.requests.flatMap((r) => (r.method === 'POST' && r.message ? [r.message] : []));
  }

  /** The first request (already received or still to come) matching `match`; rejects after `timeoutMs`. */
  waitFor(match: (request: RecordedRequest) => boolean, timeoutMs = 5_000): Promise<RecordedRequest> {
    const found = this.requests.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = this.requests.find(match);
        if (!hit) return;
        cleanup();
        resolve(hit);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`http-fixture: no matching request within ${timeoutMs} ms (received: ${this.describe()})`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
    });
  }

  /** A one-line summary of what was received, for failure messages. */
  override describe(): string {
    return this.requests.map((r) => `${r.method} ${r.path}${r.message?.method ? ` ${r.message.method}` : r.message ? ` (response ${String(r.message.id)})` : ''} → ${r.status ?? '…'}`).join('; ');
  }

  /** Legacy mode: sends a JSON-RPC message on a session's stream (default: the newest). */
  push(message: unknown, session?: string): Promise<void> {
    const target = session === undefined ? this.sessions.at(-1) : this.sessions.find((s) => s.id === session);
    if (!target) throw new Error(`http-fixture: no legacy SSE session ${session ?? ''}`);
    return target.stream.event({ event: 'message', data: message });
  }

  // --- routing -----------------------------------------------------------------------

  protected handle(req: IncomingMessage, res: ServerResponse): void {
    void this.receive(req, res);
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAt = performance.now();
    const read = await readBodyText(req);
    const body = read.ok ? read.text : '';
    let message: WireMessage | undefined;
    try {
      const parsed: unknown = body ? JSON.parse(body) : undefined;
      if (isObject(parsed)) message = parsed as WireMessage;
    } catch {
      // not JSON: recorded as a body only
    }
    const request: RecordedRequest = { seq: this.requests.length, method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, message, receivedAt, status: undefined };
    this.requests.push(request);
    for (const listener of [...this.listeners]) listener();
    if (message) this.events?.onMessage(message);

    const ex = new Exchange(req, res, request, this);
    this.exchanges.add(ex);
    void ex.closed.then(() => this.exchanges.delete(ex));
    const route = req.method === 'POST' ? this.options.post : req.method === 'GET' ? this.options.get : req.method === 'DELETE' ? this.options.delete : undefined;
    try {
      await (route ? route(ex) : this.answerByDefault(ex));
    } catch (error) {
      // A route that throws is a bug in the test: answer 599 so the client sees something odd, and say why.
      console.error('http-fixture: route failed', error);
      ex.status(599, 'fixture route failed');
    }
  }

  /** @internal The answer the fixture gives without an override; used by Exchange.default(). */
  async answerByDefault(ex: Exchange): Promise<void> {
    return this.kind === 'sse' ? this.legacyDefault(ex) : this.streamableDefault(ex);
  }

  /** The answer to a request message, as JSON-RPC. */
  answerFor(message: WireMessage): WireMessage {
    if (message.method === 'initialize') return responseTo(message, this.options.initializeResult ?? FIXTURE_INIT_RESULT);
    return responseTo(message, (this.options.result ?? defaultResult)(message));
  }

  /**
   * Streamable HTTP: POST of a request → a JSON answer (with Mcp-Session-Id on
   * initialize when configured); POST of a notification or response → 202;
   * GET → 405 (no server stream offered); DELETE → 200.
   */
  private async streamableDefault(ex: Exchange): Promise<void> {
    const { method } = ex.request;
    if (method === 'GET') return ex.status(405);
    if (method === 'DELETE') return ex.status(200);
    if (method !== 'POST') return ex.status(405);
    const message = ex.message;
    if (!message) return ex.status(400, 'not a JSON object');
    if (message.method === undefined || message.id === undefined) return ex.accepted();
    const headers: Record<string, string> = {};
    if (message.method === 'initialize' && this.options.sessionId !== undefined) {
      headers['mcp-session-id'] = typeof this.options.sessionId === 'function' ? this.options.sessionId() : this.options.sessionId;
    }
    ex.json(this.answerFor(message), { headers });
  }

  /**
   * Legacy HTTP+SSE: GET of the SSE URL → a stream that announces the endpoint
   * for a new session; POST to `…?session=<id>` → 202, and the answer to a
   * request goes down that session's stream as a `message` event.
   */
  private async legacyDefault(ex: Exchange): Promise<void> {
    const { method, path } = ex.request;
    if (method === 'GET') {
      const id = `s${++this.sessionCounter}`;
      this.sessions.push({ id, stream: ex });
      const endpoint = this.options.endpoint ? this.options.endpoint(id, this) : `/messages?session=${id}`;
      await ex.event({ event: 'endpoint', data: endpoint });
      return; // the stream stays open
    }
    if (method !== 'POST') return ex.status(405);
    const id = new URL(path, this.origin).searchParams.get('session');
    const session = this.sessions.find((s) => s.id === id && !s.stream.done);
    if (!session) return ex.status(404, 'no such session');
    const message = ex.message;
    if (!message) return ex.status(400, 'not a JSON object');
    ex.status(202, 'Accepted');
    if (message.method !== undefined && message.id !== undefined) await session.stream.event({ event: 'message', data: this.answerFor(message) });
  }
}

const IGNORED: ServerSideEvents = { onMessage: () => {}, onBadOutput: () => {}, onGone: () => {} };

/** Starts a fixture on 127.0.0.1 (port 0) and stops it after the test. */
export async function startHttpFixture(t: TestContext, options: HttpFixtureOptions = {}): Promise<HttpFixture> {
  const fixture = new HttpFixture(options);
  t.after(() => fixture.close());
  await fixture.start();
  return fixture;
}

/** Resolves when `predicate` holds (polled every 5 ms); rejects after `timeoutMs` with `what`. */
export async function until(predicate: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(5);
  }
}

/** `promise`, or a rejection naming `what` after `timeoutMs` (the timer is cleared either way, so it holds no process open). */
export async function within<T>(promise: Promise<T>, what: string, timeoutMs = 5_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
