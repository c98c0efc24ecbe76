// What the two HTTP transports share: the URL and headers (static ones
// resolved at start, and those of a header provider asked before every
// request, with one retry after a challenge), one AbortController that
// close() fires to stop every fetch, status → typed error mapping with
// secrets scrubbed, and bounded body reading. Neither transport knows an MCP
// method: the handshake is the client's.

import { setMaxListeners } from 'node:events';
import { AuthError, causeChain, ClosedError, ConfigError, MessageTooLargeError, OAuthError, ProtocolError, type ErrorSite } from '../errors.js';
import { excerpt } from '../diagnostics.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../jsonrpc/line-framer.js';
import type { BackoffPolicy } from '../util/backoff.js';
import { isRedirect, nextHop } from './redirects.js';
import { loadTls, tlsHint } from './node-http-tls.js';
import { cutTail, redact, redactUrlCredentials, urlCredentials } from './redact.js';
import { checkHeader, resolveHeaders, type HeaderProvider, type HttpHeaderOptions } from './http-headers.js';
import { checkHttpClientOptions, checkTimeouts, chooseHttpClient, fetchClient, type HttpAnswer, type HttpClient, type HttpClientKind, type HttpRequestInit, type HttpTlsOptions } from './http-client.js';
import type { NodeHttpOptions } from './node-http.js';
import type { TransportState, TransportEnd, TransportHandlers } from './transport.js';

export interface HttpTransportOptions extends HttpHeaderOptions {
  /** The MCP endpoint (Streamable HTTP) or the SSE URL (legacy). */
  url: string | URL;
  /** Label used in errors and diagnostics. Default: the URL's host. */
  server?: string;
  /** Largest JSON body or SSE event accepted, in bytes. Default 32 MiB (W2). */
  maxMessageBytes?: number;
  /** Reconnect policy for dropped streams. Default: 0.5 s doubling to 30 s, 5 attempts (15.5 s of waits). */
  reconnect?: Partial<BackoffPolicy> & { maxAttempts?: number };
  /** The fetch to use (then requests go through it, not node:http). Default: see httpClient. */
  fetch?: typeof fetch;
  /**
   * The request path (#20): 'node' (node:http/node:https with a keep-alive
   * connection pool per transport, the default on Node) or 'fetch' (the
   * `fetch` option's, else the global one; the default when `fetch` is
   * passed, and on runtimes whose node:http is not their native client).
   * The environment variable MCPWIRE_HTTP_CLIENT=node|fetch sets the default.
   */
  httpClient?: HttpClientKind;
  /**
   * Mutual TLS (#19 item 4): a client certificate and key (PEM text or file
   * paths), and the CA bundle the server's certificate must chain to
   * instead of the system's. Needs the node path. The key and the
   * passphrase are treated as secrets.
   */
  tls?: HttpTlsOptions;
  /**
   * Headers that may change during the connection (a token that is
   * refreshed), asked for before every HTTP request; their values are
   * treated as secrets. See HeaderProvider.
   */
  headerProvider?: HeaderProvider;
  /**
   * How long a request waits for the response's headers before it fails
   * (#20). Default 300 s on the node path; on the fetch path, fetch's own
   * (undici's 300 s) unless this is set.
   */
  headersTimeoutMs?: number;
  /**
   * The body idle timeout (#20): once a JSON (or error) body has begun, a
   * gap of more than this between its bytes fails the request as a
   * transport failure naming this option, instead of waiting for the
   * request's own timeout. Default 60 s. SSE streams are exempt: they may
   * be quiet for as long as the server has nothing to say.
   */
  bodyIdleTimeoutMs?: number;
}

/**
 * Requests sent while a dropped stream is reopened wait for it: the whole
 * schedule (0.5 + 1 + 2 + 4 + 8 s) must end well inside the default request
 * timeout (30 s), so that a request to a server that is gone fails as
 * `closed`, with the reconnect failure as its cause, not as a bare timeout.
 */
export const DEFAULT_RECONNECT = { initialMs: 500, maxMs: 30_000, maxAttempts: 5 } as const;
/** Requests sent again after a 401/403 the header provider answered: a renewed token, then a DPoP nonce (RFC 9449 §9). */
const MAX_CHALLENGE_RETRIES = 2;
/** How much of an error status's body is read for the excerpt in its error. */
const ERROR_BODY_BYTES = 4096;
/** How long close() lets notifications already on their way finish. */
const DRAIN_ON_CLOSE_MS = 1_000;
/**
 * The body idle timeout's default. A JSON body is written by one
 * serialization: once its first byte is out, a minute without the next is
 * a stalled server or a dead link (TCP's retransmissions on a lossy link
 * leave gaps of seconds, not minutes), never a slow tool, whose time is
 * spent before the first byte (the request timeout's, not this one's).
 */
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 60_000;

export abstract class HttpTransportBase {
  readonly server: string;
  protected readonly url: URL;
  protected handlers: TransportHandlers | undefined;
  /** Static headers, resolved at start. */
  private staticHeaders: Record<string, string> = {};
  /** Every value that must never appear in an error or a diagnostic: grows as a header provider hands out new ones. */
  private readonly secrets = new Set<string>();
  protected readonly maxMessageBytes: number;
  private readonly bodyIdleMs: number;
  protected readonly reconnectPolicy: BackoffPolicy & { maxAttempts: number };
  /** The request path: node:http with its connection pool, or fetch; closed by finish(). */
  protected http!: HttpClient;
  protected readonly httpClientKind: HttpClientKind;
  /** Fired by close(): every fetch and every wait listens to it. */
  protected readonly lifetime = new AbortController();
  protected ended = false;
  /** Set by close() while it winds down: no new requests go out. */
  protected closing = false;
  /** POSTs of notifications and responses still on their way (see drainOutgoing). */
  private readonly outgoing = new Set<Promise<unknown>>();

  constructor(protected readonly options: HttpTransportOptions) {
    this.url = new URL(options.url);
    this.server = options.server ?? this.url.host;
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.bodyIdleMs = options.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS;
    this.reconnectPolicy = { ...DEFAULT_RECONNECT, ...options.reconnect };
    this.httpClientKind = chooseHttpClient(options);
    // Every request in flight listens to it (the node path adds one listener each, #20): 16 in flight is no leak.
    setMaxListeners(0, this.lifetime.signal);
    // Refused at start (begin()); until then, and in anything that quotes them, they are secrets (#16 item 3).
    for (const value of urlCredentials(this.url)) this.secrets.add(value);
  }

  /** Values to scrub beside the transport's own (McpClientOptions.secrets). */
  addSecrets(values: readonly string[]): void {
    for (const value of values) if (typeof value === 'string' && value !== '') this.secrets.add(value);
  }

  /** Resolves headers (throws ConfigError on a bad one) and keeps the handlers. */
  protected begin(handlers: TransportHandlers): void {
    if (this.url.username !== '' || this.url.password !== '') {
      // fetch refuses such a URL with a TypeError that quotes it whole; say what to do instead, without the values.
      throw new ConfigError(undefined, ['url'], 'the URL has credentials in it (user:password@), which are never sent and would show in errors; remove them and send them in a header (e.g. Authorization) instead', { server: this.server });
    }
    const resolved = resolveHeaders(this.server, this.options);
    this.staticHeaders = resolved.headers;
    for (const secret of resolved.secrets) this.secrets.add(secret);
    checkHttpClientOptions(this.server, this.httpClientKind, this.options);
    checkTimeouts(this.server, this.options);
    this.http = this.httpClientKind === 'fetch' ? fetchClient(this.options.fetch ?? fetch, { headersTimeoutMs: this.options.headersTimeoutMs }) : lazyNodeClient(this.nodeOptions());
    this.handlers = handlers;
  }

  /** The node path's settings: the TLS files read and checked now (a ConfigError at start), the key and passphrase made secrets. */
  private nodeOptions(): NodeHttpOptions {
    const headersTimeoutMs = this.options.headersTimeoutMs;
    if (this.options.tls === undefined) return { headersTimeoutMs };
    const loaded = loadTls(this.server, this.options.tls);
    for (const secret of loaded.secrets) this.secrets.add(secret);
    return { tls: loaded.tls, headersTimeoutMs };
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

  /** Parses an SSE `data` or a JSON body; a malformed one is reported, not thrown (W3). */
  protected deliverText(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.reportNoise(text);
      return;
    }
    this.handlers?.onMessage(value);
  }

  protected reportNoise(text: string): void {
    this.handlers?.onDiagnostic?.({ kind: 'noise', server: this.server, text: excerpt(this.scrub(text)) });
  }

  /** The static headers with the request's own; the provider's are added per request by request(). A fresh object, the caller's to add to. */
  protected headersFor(extra: Record<string, string>): Record<string, string> {
    return { ...this.staticHeaders, ...extra };
  }

  /** The Authorization header the provider gave each response's request: a challenge handler is told which credential was refused. */
  private readonly sentAuthorization = new WeakMap<HttpAnswer, string>();

  /**
   * fetch, with the header provider's headers added, network failures and
   * close() turned into ClosedError, and one retry with fresh headers when
   * the server answers 401/403 and the provider's challenge handler asks for it.
   */
  protected request(url: URL, init: RequestParts, method: string | undefined, signal?: AbortSignal): Promise<HttpAnswer> {
    const first = this.fetchOnce(url, init, method, signal);
    // Without a challenge handler the first answer is the answer, returned as it is: no async frame per request (#20).
    return this.options.headerProvider?.onChallenge ? this.answerChallenges(first, url, init, method, signal) : first;
  }

  private async answerChallenges(first: Promise<HttpAnswer>, url: URL, init: RequestParts, method: string | undefined, signal: AbortSignal | undefined): Promise<HttpAnswer> {
    let response = await first;
    const provider = this.options.headerProvider!;
    // At most two retries: a renewed token, then (DPoP, RFC 9449 §9) the nonce the server wants with it.
    for (let retries = 0; retries < MAX_CHALLENGE_RETRIES; retries++) {
      if ((response.status !== 401 && response.status !== 403) || !provider.onChallenge) return response;
      let retry: boolean;
      try {
        const sent = this.sentAuthorization.get(response);
        retry = await provider.onChallenge({ status: response.status, wwwAuthenticate: response.headers.get('www-authenticate') ?? undefined, url: new URL(url), headers: response.headers, ...(sent === undefined ? {} : { authorization: sent }) });
      } catch (error) {
        await response.body?.cancel().catch(() => {});
        // The OAuth flow's own errors are typed and hold no secret (src/auth): they reach the caller as they are.
        if (error instanceof OAuthError) throw error;
        throw new ClosedError(this.site(method), { reason: 'transport', cause: this.scrubbed(error) });
      }
      if (!retry) return response;
      await response.body?.cancel().catch(() => {});
      response = await this.fetchOnce(url, init, method, signal);
      // The provider learns whether what it renewed was accepted (an OAuth flow bounds fruitless renewals by it).
      try {
        provider.onRetried?.({ status: response.status, url: new URL(url) });
      } catch {
        // a hook's failure is not the request's
      }
    }
    return response;
  }

  /**
   * One request, its redirects followed here (see hop()). Promise chains, not
   * an async function: this runs for every request, and each async frame
   * and await is a promise and a microtask more (#20).
   */
  private fetchOnce(url: URL, init: RequestParts, method: string | undefined, signal?: AbortSignal, target: URL = url, hops = 0): Promise<HttpAnswer> {
    if (this.ended || this.closing) return Promise.reject(new ClosedError(this.site(method), { reason: 'closed' }));
    // Asked per hop: the provider is told the URL each value goes to.
    if (!this.options.headerProvider) return this.hop(url, init, init.headers, method, signal, target, hops);
    return this.providedHeaders(target, init.method ?? 'GET', method).then((provided) => this.hop(url, init, { ...init.headers, ...provided }, method, signal, target, hops));
  }

  /** Sends one hop's request; a redirect is followed here, not by fetch, so that no header and no body of ours leaves the configured origin (see redirects.ts). */
  private hop(url: URL, init: RequestParts, headers: Record<string, string>, method: string | undefined, signal: AbortSignal | undefined, target: URL, hops: number): Promise<HttpAnswer> {
    return this.http.request(target, { method: init.method, headers, body: init.body, signal: this.lifetime.signal, requestSignal: signal }).then(
      (response) => {
        if (isRedirect(response.status)) return this.redirected(response, url, init, method, signal, target, hops);
        if (headers.authorization !== undefined && this.options.headerProvider) this.sentAuthorization.set(response, headers.authorization);
        try {
          this.options.headerProvider?.onResponse?.({ url: new URL(target), status: response.status, headers: response.headers });
        } catch {
          // a hook's failure is not the request's
        }
        return response;
      },
      (error: unknown) => {
        if (this.lifetime.signal.aborted) throw new ClosedError(this.site(method), { reason: 'closed' });
        throw new ClosedError(this.site(method), { reason: 'transport', cause: this.scrubbed(error) });
      },
    );
  }

  private async redirected(response: HttpAnswer, url: URL, init: RequestParts, method: string | undefined, signal: AbortSignal | undefined, target: URL, hops: number): Promise<HttpAnswer> {
    const next = nextHop(response, target, this.url.origin, init.method ?? 'GET', hops);
    await response.body?.cancel().catch(() => {});
    if ('refuse' in next) {
      throw new ClosedError(this.site(method), { reason: 'http', status: response.status, cause: new Error(this.scrub(`${next.refuse}: not followed`)) });
    }
    return this.fetchOnce(url, init, method, signal, next.follow, hops + 1);
  }

  /** The provider's headers for one request, checked like configured ones; every value becomes a secret. */
  private async providedHeaders(url: URL, httpMethod: string, method: string | undefined): Promise<Record<string, string>> {
    let provided: Readonly<Record<string, string>>;
    try {
      provided = await this.options.headerProvider!.headers({ url: new URL(url), method: httpMethod });
    } catch (error) {
      throw new ClosedError(this.site(method), { reason: 'transport', cause: this.scrubbed(error) });
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(provided)) {
      if (typeof value !== 'string' || value === '') continue;
      checkHeader(this.server, name, value, ['headerProvider', name]);
      this.secrets.add(value);
      headers[name.toLowerCase()] = value;
    }
    return headers;
  }

  /** The typed error for a failed HTTP status: AuthError for 401/403, else ClosedError 'http' with a short, scrubbed body excerpt. */
  protected async statusError(response: HttpAnswer, method: string | undefined): Promise<ClosedError> {
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel().catch(() => {});
      return new AuthError(this.site(method), response.status);
    }
    return this.statusErrorWith(response.status, await this.errorBody(response, method), method);
  }

  /** The start of an error status's body, scrubbed before it is cut; '' when it cannot be read (the status says enough). */
  protected async errorBody(response: HttpAnswer, method: string | undefined): Promise<string> {
    try {
      // Scrubbed before it is cut (excerpt()), and its tail dropped if it could be the start of a secret (the read stops at a limit).
      return cutTail(this.scrub(await this.readText(response, ERROR_BODY_BYTES, method, true)), this.secrets).trim();
    } catch {
      return '';
    }
  }

  /** The ClosedError 'http' for a status whose body was read already (errorBody()). */
  protected statusErrorWith(status: number, body: string, method: string | undefined): ClosedError {
    if (status === 401 || status === 403) return new AuthError(this.site(method), status);
    const cause = body ? new Error(excerpt(body)) : undefined;
    return new ClosedError(this.site(method), { reason: 'http', status, cause });
  }

  /** Reads a body as text, failing with MessageTooLargeError past `limit` bytes (or truncating, for error excerpts). */
  protected async readText(response: HttpAnswer, limit: number, method: string | undefined, truncate = false): Promise<string> {
    const reader = response.body;
    if (!reader) return '';
    reader.stallAfter(this.bodyIdleMs, () => this.bodyStalled(method));
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          await reader.cancel().catch(() => {});
          if (!truncate) throw new MessageTooLargeError(this.site(method), limit);
          // Up to the limit, not up to the read before it: a read boundary is wherever the network put it.
          chunks.push(value.subarray(0, value.byteLength - (size - limit)));
          break;
        }
        chunks.push(value);
      }
    } catch (error) {
      await reader.cancel().catch(() => {});
      throw error;
    }
    return chunks.length === 1 ? Buffer.from(chunks[0]!.buffer, chunks[0]!.byteOffset, chunks[0]!.byteLength).toString('utf8') : Buffer.concat(chunks).toString('utf8');
  }

  /** The body idle timeout's error: names the server (the site) and the option that raises the limit. */
  private bodyStalled(method: string | undefined): ClosedError {
    const cause = Object.assign(new Error(`the response body stalled: no byte for ${this.bodyIdleMs} ms (raise the transport option bodyIdleTimeoutMs if the server is this slow)`), { code: 'UND_ERR_BODY_TIMEOUT' });
    return new ClosedError(this.site(method), { reason: 'transport', cause });
  }

  /** The transport's secrets and the credentials of any URL, removed from `text`. */
  scrub(text: string): string {
    return redactUrlCredentials(this.secrets.size === 0 ? text : redact(text, this.secrets));
  }

  protected scrubbed(error: unknown): unknown {
    if (!(error instanceof Error)) return error;
    if (error instanceof ConfigError) return error; // names headers, never values
    const clean = this.scrub(error.message);
    const scrubbed = clean === error.message ? error : new Error(clean);
    // A TLS failure says which setting to check (SPEC A3); the network's words stay underneath, in the cause chain.
    const hint = this.url.protocol === 'https:' ? tlsHint(error, this.options.tls?.cert !== undefined) : undefined;
    return hint === undefined ? scrubbed : new Error(`TLS: ${hint}`, { cause: scrubbed });
  }

  /** Once close() has let the last requests go: the DELETE of a session, and nothing after it. */
  protected closeRequest(url: URL, init: RequestParts & { signal: AbortSignal }): Promise<HttpAnswer> {
    return this.http.request(url, init);
  }

  protected protocolError(method: string | undefined, detail: string): ProtocolError {
    return new ProtocolError(this.site(method), detail);
  }

  /** The last state reported through onConnectionState: only changes (and new attempt times) are reported. */
  private connectionState: TransportState['state'] = 'connected';

  /** Reports the session's stream as reconnecting (each time: the next attempt's time changes) or, once, as back. */
  protected reportState(state: TransportState): void {
    if (this.ended || this.closing || (state.state === 'connected' && this.connectionState === 'connected')) return;
    this.connectionState = state.state;
    try {
      this.handlers?.onConnectionState?.(state.state === 'reconnecting' ? { ...state, reason: this.scrub(state.reason) } : state);
    } catch (error) {
      this.handlers?.onDiagnostic?.({ kind: 'handler-error', server: this.server, method: 'onConnectionState', error });
    }
  }

  /** The message of an error (or what was thrown), scrubbed, for a reason or a cause. */
  protected describe(error: unknown): string {
    // A transport failure's own words, not the "server …: the transport failed (…)" wrapped around them.
    const inner = error instanceof ClosedError && error.reason === 'transport' && error.cause instanceof Error ? error.cause : error;
    return this.scrub(causeChain(inner));
  }

  /** Calls onClose once. */
  protected finish(end: TransportEnd): void {
    if (this.ended) return;
    this.ended = true;
    this.lifetime.abort();
    this.http?.close();
    this.handlers?.onClose(end);
  }
}

type RequestParts = Omit<HttpRequestInit, 'signal' | 'requestSignal'>;

/** The node path, its module loaded with the first request: a host that only runs stdio servers never loads node:https. */
function lazyNodeClient(options: NodeHttpOptions): HttpClient {
  let client: HttpClient | undefined;
  let loading: Promise<HttpClient> | undefined;
  let closed = false;
  return {
    kind: 'node',
    // Not an async function: once loaded, the request's own promise is returned as it is (an async function around it
    // would add a promise and two microtask hops to every request, #20).
    request(url, init) {
      if (client) return client.request(url, init);
      loading ??= import('./node-http.js').then((module) => {
        client = module.nodeHttpClient(options);
        if (closed) client.close();
        return client;
      });
      return loading.then((loaded) => loaded.request(url, init));
    },
    close() {
      closed = true;
      client?.close();
    },
  };
}
