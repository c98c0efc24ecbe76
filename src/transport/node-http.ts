// The node:http / node:https request path of the HTTP transports (#20; for
// mTLS, #19 item 4): one keep-alive Agent per transport, so that a call
// reuses a warm connection instead of paying fetch's web-stream machinery
// (two thirds of the client's CPU per call on Node). Bodies are read from
// the IncomingMessage's own 'data' events into a small queue: no web
// ReadableStream, no reader object, one promise per chunk at most; an SSE
// body is handed to its parser straight from those events (pushChunks), no
// promise and no queue per chunk.
//
// What it promises the transports (http-client.ts): a redirect is answered
// as it is, never followed; a network failure rejects with Node's own error
// (`connect ECONNREFUSED 127.0.0.1:3000`, the TLS verdict, `socket hang up`),
// so the cause chain the CLI prints is the same words fetch's cause holds;
// the signal aborts the request and its body; close() destroys every socket.

import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { DeadlineQueue, type Deadline } from '../util/deadlines.js';
import type { BodyRead, HttpAnswer, HttpBody, HttpClient, HttpRequestInit } from './http-client.js';
import type { ChunkPusher } from './sse-stream.js';

export interface NodeHttpOptions {
  /** Client certificate, key and CA, already read (node-http-tls.ts). */
  tls?: { cert?: string; key?: string; ca?: string; passphrase?: string; servername?: string };
  /** TCP connect plus TLS handshake. Default 10 s, as fetch's. */
  connectTimeoutMs?: number;
  /** From the request to the response's headers. Default 300 s, as fetch's (a tool call answered by a JSON body may take that long). */
  headersTimeoutMs?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_HEADERS_TIMEOUT_MS = 300_000;
/**
 * A free connection is dropped after this long idle. Node servers keep one
 * for 5 s and say so (Keep-Alive: timeout=5, which the Agent heeds only when
 * this is set); servers that do not say (uvicorn: 5 s) would otherwise close
 * it just as we reuse it.
 */
const FREE_SOCKET_MS = 4_000;
/** A body rest this small is read to its end on cancel(), keeping the connection; a larger one closes it. */
const DRAIN_LIMIT_BYTES = 64 * 1024;
/** How long cancel() waits for a rest to arrive before it closes the connection instead. */
const DRAIN_MS = 1_000;
/** Bytes queued unread before the socket is paused. */
const HIGH_WATER_BYTES = 1024 * 1024;
/** What cancel() and a stopped pushChunks() return: settled already, shared (a promise per call is garbage per call). */
const DONE: Promise<void> = Promise.resolve();

export function nodeHttpClient(options: NodeHttpOptions = {}): HttpClient {
  const agentOptions = { keepAlive: true, timeout: FREE_SOCKET_MS };
  let httpAgent: http.Agent | undefined;
  let httpsAgent: https.Agent | undefined;
  let closed = false;
  const headersMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;

  const agentFor = (url: URL): http.Agent => {
    if (url.protocol === 'https:') return (httpsAgent ??= new https.Agent({ ...agentOptions, ...options.tls }));
    return (httpAgent ??= new http.Agent(agentOptions));
  };

  const context: ClientContext = {
    connectMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // The headers timeout of every request in one FIFO with one timer (util/deadlines.ts), not a Node timer each:
    // arming and clearing a Timeout per request cost more than anything else this path adds to a bare request (#20).
    headerDeadlines: new DeadlineQueue(),
    headersTimedOut: (request: http.ClientRequest) => request.destroy(timeoutError(`no response headers from ${String(request.getHeader('host'))} within ${headersMs} ms`, 'UND_ERR_HEADERS_TIMEOUT')),
    headersMs,
    send: (url, init, retried) =>
      new Promise<HttpAnswer>((resolve, reject) => {
        const { signal, requestSignal } = init;
        if (signal.aborted) return reject(abortReason(signal));
        if (requestSignal?.aborted) return reject(abortReason(requestSignal));
        if (closed) return reject(new Error('the HTTP client is closed'));
        if (url.protocol !== 'http:' && url.protocol !== 'https:') return reject(new TypeError(`unsupported URL scheme ${url.protocol}`));
        // No Content-Length of ours: end(body) on a request whose headers are not out yet sets it from the string itself.
        const request = (url.protocol === 'https:' ? https : http).request({
          method: init.method,
          protocol: url.protocol,
          // "[::1]" is how a URL writes an IPv6 address; the socket wants it bare.
          hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
          port: url.port === '' ? undefined : url.port,
          path: url.pathname + url.search,
          headers: init.headers,
          agent: agentFor(url),
        });
        const exchange = new Exchange(context, request, url, init, retried, resolve, reject);
        request.on('socket', (socket: Socket) => exchange.socketCame(socket));
        request.on('error', (error: NodeJS.ErrnoException) => exchange.failed(error));
        request.on('response', (response: http.IncomingMessage) => exchange.answeredWith(response));
        request.end(init.body);
      }),
  };

  return {
    kind: 'node',
    request: (url, init) => context.send(url, init, false),
    close() {
      closed = true;
      httpAgent?.destroy();
      httpsAgent?.destroy();
    },
  };
}

/** What the exchanges of one client share. */
interface ClientContext {
  readonly connectMs: number;
  readonly headersMs: number;
  readonly headerDeadlines: DeadlineQueue;
  readonly headersTimedOut: (request: http.ClientRequest) => void;
  /** Sends a request (again, for the retry of a request a reused socket dropped). */
  send(url: URL, init: HttpRequestInit, retried: boolean): Promise<HttpAnswer>;
}

/**
 * One request, from its send to its body's end: its state in one object,
 * which is itself the listener of its signals (handleEvent), and one-line
 * listeners on the request that call it, added with on(), not once(). The
 * closures and once() wrappers this replaces (some twenty allocations and
 * lazy compilations per request) cost the client ~15% of its CPU per call
 * at 16 in flight (#20; against a bare node:http server, 8 rounds of
 * interleaved processes: 1.37× the bare client before, 1.18× after).
 * Listeners stay on the request and its response after their event: each
 * event comes once, or finds the exchange settled, and an 'error' after
 * the first never goes unhandled. The request object is not tagged with the
 * exchange (one shared listener function per event would need that): a
 * property added to Node's own objects changes their hidden class under
 * Node's optimized code, and it measured within the noise of this
 * (1.15× against 1.18× in the same rounds, worse in another run).
 */
class Exchange {
  private answered = false;
  private settled = false;
  /** Set once the headers are in: an abort from then on ends the body (the caller holds it). */
  private body: NodeBody | undefined;
  private readonly deadline: Deadline;
  /** Its place among the requests waiting on the shared signal. */
  private readonly waiter: Waiter;

  constructor(
    private readonly context: ClientContext,
    private readonly request: http.ClientRequest,
    private readonly url: URL,
    private readonly init: HttpRequestInit,
    private readonly retried: boolean,
    private readonly resolve: (answer: HttpAnswer) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    // One listener per signal for the whole exchange, request and body: a fresh signal's first listener costs
    // microseconds on Node 20, AbortSignal.any() over the two some 20 µs (#20), so neither is set up twice.
    this.waiter = whenAborted(init.signal, this);
    init.requestSignal?.addEventListener('abort', this);
    // Connect first (a fresh socket), then the headers; each bounded.
    this.deadline = context.headerDeadlines.schedule(context.headersMs, context.headersTimedOut, request);
  }

  /** One of the exchange's signals aborted. The reason is the signal's that fired: the shared one's if it has, else the request's own. */
  handleEvent(): void {
    const { signal, requestSignal } = this.init;
    const reason = abortReason(signal.aborted ? signal : requestSignal!);
    if (this.body) return this.body.abort(reason);
    this.request.destroy();
    this.fail(reason);
  }

  /** Takes the exchange off its signals (idempotent): once it failed, or once its body is over. */
  unlisten(): void {
    leave(this.waiter);
    this.init.requestSignal?.removeEventListener('abort', this);
  }

  socketCame(socket: Socket): void {
    if (!socket.connecting) return;
    const { request, url } = this;
    const connectTimer = setTimeout(() => request.destroy(timeoutError(`connect ETIMEDOUT ${url.host} (no connection within ${this.context.connectMs} ms)`, 'ETIMEDOUT')), this.context.connectMs);
    socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    socket.once('close', () => clearTimeout(connectTimer));
  }

  failed(error: NodeJS.ErrnoException): void {
    if (this.settled) return;
    const { init } = this;
    // A kept-alive connection the server closed just as we reused it: the request never reached it (Node's documented retry).
    if (!this.answered && !this.retried && this.request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE') && !init.signal.aborted && !init.requestSignal?.aborted) {
      this.settle();
      this.context.send(this.url, init, true).then(this.resolve, this.reject);
      return;
    }
    this.fail(error);
  }

  answeredWith(response: http.IncomingMessage): void {
    this.answered = true;
    this.settle();
    const status = response.statusCode ?? 0;
    const hasBody = status !== 204 && status !== 304 && this.init.method !== 'HEAD';
    if (hasBody) this.body = new NodeBody(response, this);
    else {
      this.unlisten();
      response.resume();
    }
    this.resolve({ status, ok: status >= 200 && status < 300, headers: new NodeHeaders(response.headers), body: this.body ?? null });
  }

  private fail(error: unknown): void {
    if (this.settled) return;
    this.settle();
    this.reject(error);
  }

  /** The request's promise is settled (or handed to a retry): its headers deadline goes; the listeners stay while a body is read. */
  private settle(): void {
    this.settled = true;
    this.context.headerDeadlines.cancel(this.deadline);
    if (!this.answered) this.unlisten();
  }
}

/**
 * The requests waiting on each signal a request was given (the transport's
 * lifetime signal, shared by every request in flight), so that one 'abort'
 * listener per signal runs them all. A listener per request cost each
 * request in proportion to those in flight: Node's EventTarget walks its
 * whole listener list on every add and remove (#20: 3% of the client's CPU
 * at 16 in flight over HTTP).
 *
 * The waiters are a linked list, not a Set: a long-lived Set that gains and
 * loses an entry per request chains its outgrown hash tables, and with them
 * every request since the last full GC (see util/churn-map.ts; #20: 1.7 MB
 * carried through every scavenge at 16 in flight).
 */
const waitingOn = new WeakMap<AbortSignal, Waiter>();

/** What waits on a signal: told by handleEvent(), as an EventTarget listener object is. */
interface AbortListener {
  handleEvent(): void;
}

/** A request's place in its signal's list; the list's head is a Waiter with no listener, linked to itself when empty. */
interface Waiter {
  listener: AbortListener | undefined;
  prev: Waiter | undefined;
  next: Waiter | undefined;
}

/** Tells `listener` when `signal` aborts, until leave(). */
function whenAborted(signal: AbortSignal, listener: AbortListener): Waiter {
  const head = waitingOn.get(signal) ?? watch(signal);
  const waiter: Waiter = { listener, prev: head, next: head.next };
  head.next!.prev = waiter;
  head.next = waiter;
  return waiter;
}

/** Takes a waiter off its signal's list (idempotent). */
function leave(waiter: Waiter): void {
  if (waiter.prev === undefined) return;
  waiter.prev.next = waiter.next;
  waiter.next!.prev = waiter.prev;
  // A taken-off waiter holds nothing: it may sit in the old generation after its request is gone.
  waiter.prev = waiter.next = waiter.listener = undefined;
}

/** The first request on `signal`: its list of waiting requests, and the one listener that runs them. */
function watch(signal: AbortSignal): Waiter {
  const head: Waiter = { listener: undefined, prev: undefined, next: undefined };
  head.prev = head.next = head;
  waitingOn.set(signal, head);
  const runAll = () => {
    waitingOn.delete(signal);
    // Each one told takes its waiter off the list: collect them first.
    const listeners: AbortListener[] = [];
    for (let waiter = head.next!; waiter !== head; waiter = waiter.next!) listeners.push(waiter.listener!);
    for (const listener of listeners) listener.handleEvent();
  };
  signal.addEventListener('abort', runAll, { once: true });
  return head;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function timeoutError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

class NodeHeaders {
  constructor(private readonly raw: http.IncomingHttpHeaders) {}
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
}

/**
 * An IncomingMessage as an HttpBody: its chunks queued as they come, handed
 * to read() in order; or, once pushChunks() is called, handed to its
 * callback as they come.
 */
class NodeBody implements HttpBody, ChunkPusher {
  private readonly queue: Buffer[] = [];
  private queued = 0;
  private waiting: { resolve: (read: BodyRead) => void; reject: (error: unknown) => void } | undefined;
  /** pushChunks() is under way: each chunk goes to onChunk, none is queued. */
  private pushing: { onChunk: (chunk: Uint8Array) => boolean; resolve: () => void; reject: (error: unknown) => void } | undefined;
  private ended = false;
  private failure: { error: unknown } | undefined;
  /** cancel() was called: further chunks are dropped. */
  private dropped = false;
  /** A byte has come: the stall clock (stallAfter) runs from the first one. */
  private started = false;
  private stall: { ms: number; error: () => unknown; timer: NodeJS.Timeout | undefined } | undefined;

  constructor(
    private readonly response: http.IncomingMessage,
    /** Its exchange, whose abort listeners go once the body is over, however it ends. */
    private readonly exchange: { unlisten(): void },
  ) {
    // Kept to the end, not once(): no once() wrapper per event per body (#20); each event comes once, or finds the body settled.
    response.on('data', (chunk: Buffer) => this.dataCame(chunk));
    response.on('end', () => this.endCame());
    response.on('error', (error: unknown) => this.errorCame(error));
    response.on('close', () => this.closeCame());
  }

  /** One of the exchange's signals aborted. */
  abort(reason: unknown): void {
    this.response.destroy();
    this.settle({ error: reason });
  }

  stallAfter(ms: number, error: () => unknown): void {
    if (this.stall || this.ended || this.failure || this.dropped) return;
    this.stall = { ms, error, timer: undefined };
    if (this.started) this.armStall();
  }

  private armStall(): void {
    const stall = this.stall!;
    stall.timer = setTimeout(() => {
      stall.timer = undefined;
      this.response.destroy();
      this.settle({ error: stall.error() });
    }, stall.ms);
  }

  private dataCame(chunk: Buffer): void {
    if (this.dropped) return;
    if (this.stall) {
      if (this.stall.timer) this.stall.timer.refresh();
      else if (!this.started) this.armStall();
    }
    this.started = true;
    const pushing = this.pushing;
    if (pushing) {
      // The consumer runs here, in the stream's own event: nothing is queued, so nothing needs pausing.
      if (!pushing.onChunk(chunk)) this.stop();
      return;
    }
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting.resolve({ done: false, value: chunk });
      return;
    }
    this.queue.push(chunk);
    this.queued += chunk.byteLength;
    if (this.queued >= HIGH_WATER_BYTES) this.response.pause();
  }

  private endCame(): void {
    this.ended = true;
    this.detach();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve({ done: true });
    this.stopPushing()?.resolve();
  }

  private errorCame(error: unknown): void {
    this.settle({ error });
  }

  private closeCame(): void {
    if (!this.response.complete) this.settle({ error: Object.assign(new Error('the connection closed before the response body ended'), { code: 'ECONNRESET' }) });
  }

  private settle(failure: { error: unknown }): void {
    if (this.ended || this.failure) return;
    this.failure = failure;
    this.detach();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(failure.error);
    this.stopPushing()?.reject(failure.error);
  }

  /** Ends pushChunks(), if under way: returns its promise's settlers. */
  private stopPushing(): { resolve: () => void; reject: (error: unknown) => void } | undefined {
    const pushing = this.pushing;
    this.pushing = undefined;
    return pushing;
  }

  private detach(): void {
    this.exchange.unlisten();
    if (this.stall?.timer) clearTimeout(this.stall.timer);
  }

  read(): Promise<BodyRead> {
    const chunk = this.queue.shift();
    if (chunk !== undefined) {
      // A body paused for a slow reader gets no bytes: its reads are its progress then.
      this.stall?.timer?.refresh();
      this.queued -= chunk.byteLength;
      if (this.queued < HIGH_WATER_BYTES && this.response.isPaused()) this.response.resume();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.ended || this.dropped) return Promise.resolve({ done: true });
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  pushChunks(onChunk: (chunk: Uint8Array) => boolean): Promise<void> {
    // Chunks that came before the call go first, in order.
    let chunk: Buffer | undefined;
    while ((chunk = this.queue.shift()) !== undefined) {
      this.queued -= chunk.byteLength;
      if (!onChunk(chunk)) {
        this.stop();
        return DONE;
      }
    }
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.ended || this.dropped) return Promise.resolve();
    // A body paused while its queue was full flows again: from now on each chunk is consumed as it comes.
    if (this.response.isPaused()) this.response.resume();
    return new Promise((resolve, reject) => {
      this.pushing = { onChunk, resolve, reject };
    });
  }

  cancel(): Promise<void> {
    this.stop();
    return DONE;
  }

  /** cancel(), without a promise: what the body does itself when a pushed chunk's consumer says stop. */
  private stop(): void {
    if (this.dropped) return;
    this.dropped = true;
    this.queue.length = 0;
    this.queued = 0;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve({ done: true });
    this.stopPushing()?.resolve();
    if (this.ended || this.failure) return;
    this.detach();
    // The whole response is parsed already (an SSE answer's last chunk came with the answer): its 'end' is all that
    // is left, and it needs no bound; no timer and no listeners per call (#20).
    if (this.response.complete) return void this.response.resume();
    const declared = this.response.headers['content-length'];
    if (declared !== undefined && !(Number(declared) <= DRAIN_LIMIT_BYTES)) return void this.response.destroy();
    this.drain();
  }

  /**
   * Reads what is left of a cancelled body, so the connection goes back to
   * the pool: a 202's empty body, an error page, and the common case, a
   * POST's SSE answer read up to its JSON-RPC response while the server's
   * last chunk (its end of stream) is still on its way. Closing the socket
   * there would cost every call a new connection (and, over https, a new
   * TLS handshake). A rest that runs past DRAIN_LIMIT_BYTES or DRAIN_MS (a
   * stream the server keeps open) closes the connection after all.
   */
  private drain(): void {
    const response = this.response;
    let left = DRAIN_LIMIT_BYTES;
    const close = () => {
      done();
      response.destroy();
    };
    const counted = (chunk: Buffer) => {
      left -= chunk.byteLength;
      if (left < 0) close();
    };
    const timer = setTimeout(close, DRAIN_MS);
    // Nothing here keeps a process alive: an exiting host does not wait for a server's last chunk.
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      response.off('data', counted);
      response.off('end', done);
      response.off('close', done);
    };
    response.on('data', counted);
    response.once('end', done);
    response.once('close', done);
    response.resume();
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return {
      next: () => this.read() as Promise<IteratorResult<Uint8Array>>,
      return: async () => {
        await this.cancel();
        return { done: true, value: undefined };
      },
    };
  }
}
