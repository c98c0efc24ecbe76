// What the two HTTP transports share: the URL and resolved headers, one
// AbortController that close() fires to stop every fetch, status → typed
// error mapping with secrets scrubbed, bounded body reading, and the memory
// of the handshake so a new session (Streamable HTTP 404, legacy SSE
// reconnect) can be initialized again without the Connection's help.

import { AuthError, ClosedError, MessageTooLargeError, ProtocolError, type ErrorSite } from '../errors.js';
import { excerpt } from '../diagnostics.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../jsonrpc/line-framer.js';
import { isObject, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../jsonrpc/message.js';
import type { BackoffPolicy } from '../util/backoff.js';
import { redact, resolveHeaders, type HttpHeaderOptions, type ResolvedHeaders } from './http-headers.js';
import type { TransportEnd, TransportHandlers } from './transport.js';

export interface HttpTransportOptions extends HttpHeaderOptions {
  /** The MCP endpoint (Streamable HTTP) or the SSE URL (legacy). */
  url: string | URL;
  /** Label used in errors and diagnostics. Default: the URL's host. */
  server?: string;
  /** Largest JSON body or SSE event accepted, in bytes. Default 32 MiB (W2). */
  maxMessageBytes?: number;
  /** Reconnect policy for dropped streams. Default: 0.5 s doubling to 30 s, 5 attempts (15.5 s of waits). */
  reconnect?: Partial<BackoffPolicy> & { maxAttempts?: number };
  /** The fetch to use. Default: Node's built-in fetch. */
  fetch?: typeof fetch;
}

/**
 * Requests sent while a dropped stream is reopened wait for it: the whole
 * schedule (0.5 + 1 + 2 + 4 + 8 s) must end well inside the default request
 * timeout (30 s), so that a request to a server that is gone fails as
 * `closed`, with the reconnect failure as its cause, not as a bare timeout.
 */
export const DEFAULT_RECONNECT = { initialMs: 500, maxMs: 30_000, maxAttempts: 5 } as const;
/** How long close() lets notifications already on their way finish. */
const DRAIN_ON_CLOSE_MS = 1_000;

export abstract class HttpTransportBase {
  readonly server: string;
  protected readonly url: URL;
  protected handlers: TransportHandlers | undefined;
  protected resolved: ResolvedHeaders = { headers: {}, secrets: [] };
  protected readonly maxMessageBytes: number;
  protected readonly reconnectPolicy: BackoffPolicy & { maxAttempts: number };
  protected readonly fetchImpl: typeof fetch;
  /** Fired by close(): every fetch and every wait listens to it. */
  protected readonly lifetime = new AbortController();
  protected ended = false;
  /** Set by close() while it winds down: no new requests go out. */
  protected closing = false;
  /** The initialize request and whether initialized was sent, replayed for a new session. */
  protected handshake: { initialize?: JsonRpcRequest; initialized: boolean } = { initialized: false };
  /** Answers to requests the transport itself sent (re-initialize); not passed to the Connection. */
  private readonly internalWaiters = new Map<JsonRpcId, (message: Record<string, unknown>) => void>();
  private internalCounter = 0;
  /** POSTs of notifications and responses still on their way (see drainOutgoing). */
  private readonly outgoing = new Set<Promise<unknown>>();

  constructor(protected readonly options: HttpTransportOptions) {
    this.url = new URL(options.url);
    this.server = options.server ?? this.url.host;
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.reconnectPolicy = { ...DEFAULT_RECONNECT, ...options.reconnect };
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** Resolves headers (throws ConfigError on a bad one) and keeps the handlers. */
  protected begin(handlers: TransportHandlers): void {
    this.resolved = resolveHeaders(this.server, this.options);
    this.handlers = handlers;
  }

  protected site(method?: string): ErrorSite {
    return { server: this.server, method };
  }

  /** Keeps track of a notification's or response's POST until it settles. */
  protected trackOutgoing(post: Promise<void>): Promise<void> {
    this.outgoing.add(post);
    post.then(
      () => this.outgoing.delete(post),
      () => this.outgoing.delete(post),
    );
    return post;
  }

  /**
   * Lets the notifications and responses already on their way finish, for at
   * most `ms`, before close() aborts everything: a notifications/cancelled
   * sent just before close() would otherwise be cut off mid-POST (over stdio
   * it is in the pipe and always arrives).
   */
  protected async drainOutgoing(ms = DRAIN_ON_CLOSE_MS): Promise<void> {
    if (this.outgoing.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    });
    await Promise.race([Promise.allSettled([...this.outgoing]), gaveUp]);
    clearTimeout(timer);
  }

  /** Notes the handshake as it passes, so it can be replayed for a new session. */
  protected remember(message: JsonRpcMessage): void {
    if (!('method' in message)) return;
    if (message.method === 'initialize' && 'id' in message) this.handshake = { initialize: message, initialized: false };
    else if (message.method === 'notifications/initialized') this.handshake.initialized = true;
  }

  /** A copy of the recorded initialize with an id of our own, whose answer `deliver` keeps back. */
  protected internalInitialize(): { request: JsonRpcRequest; answer: Promise<Record<string, unknown>> } {
    const recorded = this.handshake.initialize;
    if (!recorded) throw new ClosedError(this.site(), { reason: 'transport', cause: new Error('a new session is needed but no initialize was sent on this transport') });
    const id = `mcpwire-reinitialize-${++this.internalCounter}`;
    const answer = new Promise<Record<string, unknown>>((resolve) => this.internalWaiters.set(id, resolve));
    return { request: { ...recorded, id }, answer };
  }

  protected forgetInternal(id: JsonRpcId): void {
    this.internalWaiters.delete(id);
  }

  /** Hands one decoded JSON value to the Connection, keeping back answers to our own internal requests. */
  protected deliver(value: unknown): void {
    if (isObject(value) && (typeof value.id === 'string' || typeof value.id === 'number') && !('method' in value)) {
      const waiter = this.internalWaiters.get(value.id);
      if (waiter) {
        this.internalWaiters.delete(value.id);
        waiter(value);
        return;
      }
    }
    this.handlers?.onMessage(value);
  }

  /** Parses an SSE `data` or a JSON body; a malformed one is reported, not thrown (W3). */
  protected deliverText(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.handlers?.onDiagnostic?.({ kind: 'noise', server: this.server, text: excerpt(redact(text, this.resolved.secrets)) });
      return;
    }
    this.deliver(value);
  }

  protected headersFor(extra: Record<string, string>): Record<string, string> {
    return { ...this.resolved.headers, ...extra };
  }

  /** fetch, with network failures and close() turned into ClosedError. */
  protected async request(url: URL, init: RequestInit, method: string | undefined, signal?: AbortSignal): Promise<Response> {
    if (this.ended || this.closing) throw new ClosedError(this.site(method), { reason: 'closed' });
    try {
      return await this.fetchImpl(url, { ...init, signal: signal ? AbortSignal.any([this.lifetime.signal, signal]) : this.lifetime.signal });
    } catch (error) {
      if (this.lifetime.signal.aborted) throw new ClosedError(this.site(method), { reason: 'closed' });
      throw new ClosedError(this.site(method), { reason: 'transport', cause: this.scrubbed(error) });
    }
  }

  /** The typed error for a failed HTTP status: AuthError for 401/403, else ClosedError 'http' with a short, scrubbed body excerpt. */
  protected async statusError(response: Response, method: string | undefined): Promise<ClosedError> {
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel().catch(() => {});
      return new AuthError(this.site(method), response.status);
    }
    let body = '';
    try {
      body = (await this.readText(response, 4096, method, true)).trim();
    } catch {
      // the excerpt is a courtesy; the status says enough
    }
    const cause = body ? new Error(excerpt(redact(body, this.resolved.secrets))) : undefined;
    return new ClosedError(this.site(method), { reason: 'http', status: response.status, cause });
  }

  /** Reads a body as text, failing with MessageTooLargeError past `limit` bytes (or truncating, for error excerpts). */
  protected async readText(response: Response, limit: number, method: string | undefined, truncate = false): Promise<string> {
    if (!response.body) return '';
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          await reader.cancel().catch(() => {});
          if (truncate) break;
          throw new MessageTooLargeError(this.site(method), limit);
        }
        chunks.push(value);
      }
    } finally {
      reader.releaseLock();
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  scrub(text: string): string {
    return redact(text, this.resolved.secrets);
  }

  protected scrubbed(error: unknown): unknown {
    if (!(error instanceof Error) || this.resolved.secrets.length === 0) return error;
    const clean = redact(error.message, this.resolved.secrets);
    return clean === error.message ? error : new Error(clean);
  }

  protected protocolError(method: string | undefined, detail: string): ProtocolError {
    return new ProtocolError(this.site(method), detail);
  }

  /** Calls onClose once. */
  protected finish(end: TransportEnd): void {
    if (this.ended) return;
    this.ended = true;
    this.lifetime.abort();
    this.handlers?.onClose(end);
  }
}
