// What every HTTP server side shares: a node:http server on 127.0.0.1
// (port 0) in the runner's own process, under a path unique to the case;
// socket tracking, so an s2c close ("the server went away") and dispose()
// leave nothing open; request bodies read and parsed here (not by the
// client's code: the code under test must not judge its own output); SSE
// event writing; and the skip rule for raw bytes. Knows no MCP method; the
// transport-specific routing lives in streamable-http-server-side.ts and
// sse-server-side.ts (and, for the spec tests, in the scriptable fixture
// built on this class in src/testing/).

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Transport } from '../transport/transport.js';
import { excerpt } from '../diagnostics.js';
import { isObject } from '../jsonrpc/message.js';
import { PROTOCOL_VERSION_META_KEY } from '../client/request-meta.js';
import { show } from './json-diff.js';
import type { ServerSide, ServerSideEvents } from './server-side.js';
import { silentProbeLine, type Transcript } from './transcript.js';

/**
 * How long a notifications/cancelled is held back when the request it
 * cancels has not arrived yet (see deliver()). Event-loop lag under heavy
 * load reaches hundreds of ms; a request that is still missing after this
 * long is not coming, and the cancellation goes to the runner on its own.
 */
const HELD_CANCEL_MS = 2_000;
/** Entries of the HTTP log kept for describe() (shown with --verbose); older ones fall off. */
const HTTP_LOG_ENTRIES_KEPT = 60;
/** A client request body larger than this is refused: no c2s message of a transcript comes near it. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * TRANSCRIPTS.md: "Over the HTTP transports, a replayer skips cases that use
 * `raw` or `rawBase64` (they describe stdio bytes)." Names the first such line.
 */
export function rawBytesSkipReason(transcript: Transcript): string | undefined {
  for (const event of transcript.events) {
    if (event.kind !== 's2c') continue;
    const kind = 'raw' in event.action ? 'raw' : 'rawBase64' in event.action ? 'rawBase64' : undefined;
    if (kind) return `line ${event.line} is an s2c ${kind} line: raw bytes describe stdio output, and over the HTTP transports such cases are skipped (TRANSCRIPTS.md)`;
  }
  return undefined;
}

/**
 * A case whose client speaks the 2026-07-28 era at some point (a
 * server/discover request, or a request whose _meta names the protocol
 * version): the legacy HTTP+SSE transport has no modern form, and the
 * client never probes over it, so such a case cannot replay there.
 */
export function modernEraSkipReason(transcript: Transcript): string | undefined {
  for (const event of transcript.events) {
    if (event.kind !== 'c2s' || !isObject(event.msg) || typeof event.msg.method !== 'string') continue;
    const meta = isObject(event.msg.params) && isObject(event.msg.params._meta) ? event.msg.params._meta : undefined;
    if (event.msg.method === 'server/discover' || (meta && PROTOCOL_VERSION_META_KEY in meta)) {
      return `line ${event.line}: the client speaks the 2026-07-28 era (${event.msg.method}); the legacy HTTP+SSE transport has no modern form, so such cases are skipped over it`;
    }
  }
  return undefined;
}

/**
 * A case where the client's server/discover probe goes unanswered and the
 * client falls back to the 2025 handshake: that is stdio's evidence only
 * (over HTTP the probe is an ordinary request and no answer is an error).
 */
export function silentProbeSkipReason(transcript: Transcript): string | undefined {
  const line = silentProbeLine(transcript);
  if (line === undefined) return undefined;
  return `line ${line}: the server/discover probe is never answered, and taking silence for a 2025 server is stdio's rule only (over HTTP the probe times out as an error), so such cases are skipped over HTTP`;
}

/** One SSE event as a server writes it. `data` that is not a string is sent as JSON. */
export interface SseEventSpec {
  id?: string;
  event?: string;
  /** Omitted: no data line. '' writes an empty `data:` field (the spec's priming event). */
  data?: unknown;
  retry?: number;
}

/**
 * Formats one SSE event block, ending with the blank line that dispatches it.
 * HTML Living Standard, server-sent events: a multi-line value is one `data:`
 * field per line, which the reader joins with LF.
 */
export function formatEvent(spec: SseEventSpec): string {
  let out = '';
  if (spec.id !== undefined) out += `id: ${spec.id}\n`;
  if (spec.event !== undefined) out += `event: ${spec.event}\n`;
  if (spec.retry !== undefined) out += `retry: ${spec.retry}\n`;
  if (spec.data !== undefined) {
    const text = typeof spec.data === 'string' ? spec.data : JSON.stringify(spec.data);
    for (const line of text.split('\n')) out += `data: ${line}\n`;
  }
  return `${out}\n`;
}

/** One SSE event holding one JSON-RPC message (or batch). JSON.stringify never emits a raw CR or LF, so one `data:` line carries it. */
export function sseEvent(msg: unknown, event?: string): string {
  return formatEvent({ event, data: JSON.stringify(msg) });
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } as const;

/** Whether an Accept header lists `type` (or a wildcard that covers it). */
export function accepts(header: string | undefined, type: string): boolean {
  if (!header) return false;
  const [major] = type.split('/');
  return header
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase())
    .some((range) => range === type || range === `${major}/*` || range === '*/*');
}

/** "tools/call", "response to 3", "notifications/message, response to 1" (a batch): how an s2c message is named in the HTTP log. */
export function describeMessage(msg: unknown): string {
  const items = Array.isArray(msg) ? msg : [msg];
  return items
    .map((item) => {
      if (!isObject(item)) return show(item);
      if (typeof item.method === 'string') return item.method;
      return `response to ${show(item.id)}`;
    })
    .join(', ');
}

function cancelledRequestId(value: unknown): unknown {
  if (!isObject(value) || value.method !== 'notifications/cancelled' || !isObject(value.params)) return undefined;
  return value.params.requestId;
}

/** A request body as UTF-8 text, or why it could not be read as such. */
export type BodyText = { ok: true; text: string } | { ok: false; detail: string };

/** A POST body: the parsed JSON value, or why it is not one. */
export type Body = { ok: true; value: unknown } | { ok: false; detail: string };

/** Reads a request body as UTF-8 text, refusing one over MAX_BODY_BYTES or not valid UTF-8. Never rejects. */
export function readBodyText(req: IncomingMessage): Promise<BodyText> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('error', (error) => resolve({ ok: false, detail: `the request body could not be read (${error.message})` }));
    req.on('end', () => {
      if (tooLarge) return resolve({ ok: false, detail: `the client POSTed a body over ${MAX_BODY_BYTES} bytes` });
      const bytes = Buffer.concat(chunks);
      try {
        resolve({ ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) });
      } catch {
        resolve({ ok: false, detail: `the client POSTed a body that is not valid UTF-8: ${show(excerpt(bytes.toString('utf8')))}` });
      }
    });
  });
}

export abstract class HttpServerSide implements ServerSide {
  protected events: ServerSideEvents | undefined;
  /** `http://127.0.0.1:PORT`, once listening. */
  origin = '';
  /**
   * Every path this server side serves starts with this random prefix. The
   * port of a server that went away can be handed to another case's server
   * running at the same time; the prefix keeps a late request of this case
   * from ever reaching that one as a message.
   */
  protected readonly base: string = `/replay-${randomBytes(6).toString('hex')}`;
  /** Set by an s2c close: the server has gone away for good. */
  protected closedByServer = false;
  protected disposed = false;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  /** Ids of the requests the client has POSTed so far. */
  private readonly requestIds = new Set<unknown>();
  /** Cancellations waiting for the request they cancel (see deliver()). */
  private held: { requestId: unknown; value: unknown; timer: NodeJS.Timeout }[] = [];
  private stopped: Promise<void> | undefined;
  private readonly log: string[] = [];
  private gone = false;

  /** `base`: the path prefix; a random one unless the caller needs fixed paths (the spec tests' fixture). */
  constructor(
    protected readonly caseName: string,
    base?: string,
  ) {
    if (base !== undefined) this.base = base;
  }

  async start(events: ServerSideEvents): Promise<void> {
    this.events = events;
    const server = createServer((req, res) => this.onRequest(req, res));
    this.server = server;
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // 127.0.0.1 only: a replayed case is nobody else's business.
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** What the client is given: the MCP endpoint (Streamable HTTP) or the SSE URL (legacy). Known once start() resolved. */
  abstract get url(): string;
  abstract createTransport(): Transport;
  abstract sendMessage(msg: unknown): void;

  sendBytes(): void {
    // rawBytesSkipReason() keeps such cases away from here.
    throw new Error('raw bytes cannot be replayed over HTTP (TRANSCRIPTS.md: such cases are skipped)');
  }

  /**
   * TRANSCRIPTS.md `close: true`: "the server exits … the HTTP session ends".
   * Over HTTP that is what a dead process looks like from the client: every
   * connection (open streams, kept-alive sockets) is cut and nothing listens
   * any more, so a pending request ends and later ones are refused.
   */
  closeServer(): void {
    if (this.closedByServer || this.disposed) return;
    this.closedByServer = true;
    this.note('s2c close: every connection cut, no longer listening');
    void this.stopServer();
    this.markGone('the server side exited (s2c close)');
  }

  describe(): string {
    return this.log.length ? `http (${this.origin}${this.base}): ${this.log.join('; ')}` : '';
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const entry of this.held.splice(0)) clearTimeout(entry.timer);
    await this.stopServer();
  }

  // --- for the subclasses ------------------------------------------------------

  /** Handles one HTTP request whose path is under `base` (already stripped of it). */
  protected abstract handle(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): void;

  /**
   * Hands one c2s message to the runner. Over stdio the client's messages
   * share one pipe, so they arrive in the order sent; over HTTP each is its
   * own request, and a cancellation POSTed right after its request (a call
   * that timed out at once under load) can overtake it. The client cannot
   * cancel what it has not sent, so a notifications/cancelled for a request
   * not yet received is held until that request arrives (or HELD_CANCEL_MS
   * passes, or the client goes away): the runner then sees the order the
   * client sent them in.
   */
  protected deliver(value: unknown): void {
    const cancels = cancelledRequestId(value);
    if (cancels !== undefined && !this.requestIds.has(cancels)) {
      this.note(`notifications/cancelled for ${show(cancels)} held until that request arrives`);
      const entry = { requestId: cancels, value, timer: setTimeout(() => this.release((e) => e === entry, 'its request never arrived'), HELD_CANCEL_MS) };
      this.held.push(entry);
      return;
    }
    this.events?.onMessage(value);
    if (isObject(value) && typeof value.method === 'string' && 'id' in value) {
      this.requestIds.add(value.id);
      this.release((entry) => entry.requestId === value.id, 'after its request');
    }
  }

  /** The client broke the transport's rules: fails the case (and the request gets `status`). */
  protected refuse(res: ServerResponse, status: number, detail: string, headers: Record<string, string> = {}): void {
    this.note(`${status}: ${detail}`);
    if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(`${detail}\n`);
    this.events?.onBadOutput(detail);
  }

  /** Answers without blaming the client (e.g. 405 for a method the server does not offer). */
  protected answer(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
    res.writeHead(status, headers);
    res.end();
  }

  /** Reads and parses a POST body. Never rejects. */
  protected async readBody(req: IncomingMessage): Promise<Body> {
    const body = await readBodyText(req);
    if (!body.ok) return body;
    try {
      return { ok: true, value: JSON.parse(body.text) };
    } catch {
      return { ok: false, detail: `the client POSTed a body that is not JSON: ${show(excerpt(body.text))}` };
    }
  }

  /** Opens an SSE response. Headers go out at once: fetch() resolves on them, and the client reads on from there. */
  protected openSse(res: ServerResponse, headers: Record<string, string> = {}): void {
    res.writeHead(200, { ...SSE_HEADERS, ...headers });
    res.flushHeaders();
  }

  protected note(entry: string): void {
    this.log.push(entry);
    if (this.log.length > HTTP_LOG_ENTRIES_KEPT) this.log.shift();
  }

  /** No more can arrive from the client. Reported once, after whatever was held back. */
  protected markGone(detail: string): void {
    if (this.gone) return;
    this.gone = true;
    this.release(() => true, 'the client went away');
    this.events?.onGone(detail);
  }

  private release(which: (entry: HttpServerSide['held'][number]) => boolean, why: string): void {
    const released = this.held.filter(which);
    if (released.length === 0) return;
    this.held = this.held.filter((entry) => !which(entry));
    for (const entry of released) {
      clearTimeout(entry.timer);
      this.note(`held notifications/cancelled for ${show(entry.requestId)} delivered: ${why}`);
      this.events?.onMessage(entry.value);
    }
  }

  // --- the server ----------------------------------------------------------------

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    if (this.closedByServer || this.disposed) {
      // Raced the shutdown on a connection that was already open: the server is gone, so is the connection.
      req.socket.destroy();
      return;
    }
    const url = new URL(req.url ?? '/', this.origin);
    if (!url.pathname.startsWith(`${this.base}/`)) {
      // Not this case's URL (see `base`): a stray request, not a message from the client under test.
      this.note(`${req.method} ${url.pathname}: 404, not this case's path`);
      this.answer(res, 404);
      return;
    }
    this.handle(req, res, url.pathname.slice(this.base.length), url.searchParams);
  }

  private stopServer(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    this.stopped ??= new Promise<void>((resolve) => server.close(() => resolve()));
    // Destroy, not end: a process that dies does not finish its chunked responses either.
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    return this.stopped;
  }
}
