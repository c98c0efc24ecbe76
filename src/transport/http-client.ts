// The narrow piece of an HTTP client the two HTTP transports use, so that
// one request path can be swapped for another (#20): a request (method,
// URL, headers, a string body, a signal; redirects never followed, the
// transports do that themselves, see redirects.ts) answered by a status,
// headers and a body read chunk by chunk. Two paths implement it: Node's
// `node:http`/`node:https` with a keep-alive Agent per transport (node-http.ts,
// the default on Node: `fetch` is two thirds of the client's CPU per call
// there), and `fetch` (a host's own, or the runtime's where there is no
// node:http, and on Bun and Deno, whose fetch is their native client).

import { ConfigError } from '../errors.js';
import { MAX_TIMER_MS } from '../util/backoff.js';

/** One chunk of a body, or its end; the shape of a web stream reader's read(). */
export type BodyRead = { done: false; value: Uint8Array } | { done: true; value?: undefined };

/**
 * A response body, read once. Also an AsyncIterable, which is all the SSE
 * reader needs (sse-stream.ts); a web ReadableStream is one too.
 */
export interface HttpBody extends AsyncIterable<Uint8Array> {
  read(): Promise<BodyRead>;
  /** Stops reading; what was not read is dropped (on the node path a small rest is drained, so the connection is kept). */
  cancel(): Promise<void>;
  /**
   * From the body's first byte on, a gap of more than `ms` between bytes
   * fails the read with `error()` and drops the connection (the body idle
   * timeout, #20). Not for SSE streams, whose quiet is theirs to keep.
   */
  stallAfter(ms: number, error: () => unknown): void;
}

export interface HttpAnswer {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  /** null when the status has none (204, 304). */
  readonly body: HttpBody | null;
}

export interface HttpRequestInit {
  method: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: string;
  /** The transport's own (close()). */
  signal: AbortSignal;
  /**
   * A request's own signal, which aborts it too. Two signals, not one
   * linked by AbortSignal.any(): that costs some 20 µs a request on Node 20
   * (#20), where the node path adds one listener to each. It may be a
   * look-alike (the Connection's RequestSignal: an EventTarget with
   * aborted, reason and 'abort' events), not a real AbortSignal.
   */
  requestSignal?: AbortSignal;
}

export interface HttpClient {
  readonly kind: 'node' | 'fetch';
  /** Never follows a redirect (a 3xx is answered as it is). Rejects with the network's own error (its cause chain intact), or the signal's reason. */
  request(url: URL, init: HttpRequestInit): Promise<HttpAnswer>;
  /** Drops every connection it holds; requests after this fail. */
  close(): void;
}

/**
 * A client certificate for mutual TLS (#19 item 4, SPEC A3), and the CA
 * bundle that the server's certificate must chain to. Each of cert, key
 * and ca is PEM text or the path of a PEM file; key and passphrase are
 * secrets (never shown in an error, a diagnostic or a log).
 */
export interface HttpTlsOptions {
  cert?: string;
  key?: string;
  /** Trusted instead of the system's CAs for this server. */
  ca?: string;
  /** For an encrypted key. */
  passphrase?: string;
  /** The name checked against the server's certificate (SNI), when it is not the URL's host. */
  servername?: string;
}

export type HttpClientKind = 'node' | 'fetch';

/**
 * Which path a transport takes: the one asked for; `fetch` when the host
 * passes its own; else node:http on Node. Bun and Deno also offer
 * node:http, but as a layer over their own native client, so their fetch
 * is the direct path there. `MCPWIRE_HTTP_CLIENT=fetch|node` overrides the
 * default (an escape hatch, and how the test suites run on both paths).
 */
export function chooseHttpClient(options: { httpClient?: HttpClientKind; fetch?: typeof fetch }): HttpClientKind {
  if (options.httpClient !== undefined) return options.httpClient;
  if (options.fetch !== undefined) return 'fetch';
  const forced = typeof process === 'undefined' ? undefined : process.env?.MCPWIRE_HTTP_CLIENT;
  if (forced === 'fetch' || forced === 'node') return forced;
  return nodeHttpIsNative() ? 'node' : 'fetch';
}

function nodeHttpIsNative(): boolean {
  if (typeof process === 'undefined' || typeof process.versions?.node !== 'string') return false;
  return process.versions.bun === undefined && !('Deno' in globalThis);
}

export function checkHttpClientOptions(server: string, kind: HttpClientKind, options: { httpClient?: HttpClientKind; fetch?: typeof fetch; tls?: HttpTlsOptions }): void {
  if (options.httpClient !== undefined && options.httpClient !== 'node' && options.httpClient !== 'fetch') {
    throw new ConfigError(undefined, ['httpClient'], `must be "node" or "fetch", not ${JSON.stringify(String(options.httpClient))}`, { server });
  }
  if (options.tls !== undefined && kind === 'fetch') {
    // fetch takes no client certificate and no CA (undici's Agent would, and is not a dependency).
    const why = options.fetch !== undefined ? 'a fetch was passed' : options.httpClient === 'fetch' ? 'httpClient is "fetch"' : 'this runtime has no native node:https';
    throw new ConfigError(undefined, ['tls'], `client certificates and CA bundles need the node:https request path, but ${why}; remove the fetch/httpClient option or the tls settings`, { server });
  }
}

export function checkTimeouts(server: string, options: { headersTimeoutMs?: number; bodyIdleTimeoutMs?: number }): void {
  for (const key of ['headersTimeoutMs', 'bodyIdleTimeoutMs'] as const) {
    const value = options[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TIMER_MS) {
      throw new ConfigError(undefined, [key], `must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}, not ${JSON.stringify(value)}`, { server });
    }
  }
}

// --- the fetch path ----------------------------------------------------------------

export function fetchClient(fetchImpl: typeof fetch, options: { headersTimeoutMs?: number } = {}): HttpClient {
  const headersMs = options.headersTimeoutMs;
  return {
    kind: 'fetch',
    async request(url, init) {
      let signal = init.requestSignal ? AbortSignal.any([init.signal, genuine(init.requestSignal)]) : init.signal;
      // fetch's own limit on the headers is undici's (300 s); a transport that sets one gets it here, as on the node path.
      let timer: NodeJS.Timeout | undefined;
      if (headersMs !== undefined) {
        const late = new AbortController();
        timer = setTimeout(() => late.abort(Object.assign(new Error(`no response headers from ${url.host} within ${headersMs} ms`), { code: 'UND_ERR_HEADERS_TIMEOUT' })), headersMs);
        signal = AbortSignal.any([signal, late.signal]);
      }
      let response: Response;
      try {
        response = await fetchImpl(url, { method: init.method, headers: init.headers, body: init.body, redirect: 'manual', signal });
      } finally {
        clearTimeout(timer);
      }
      return { status: response.status, ok: response.ok, headers: response.headers, body: response.body ? webBody(response.body) : null };
    },
    close() {},
  };
}

/**
 * A real AbortSignal that aborts with `signal`: the signal itself, or for a
 * look-alike (the Connection's RequestSignal, an EventTarget that reads as
 * one) a controller's signal linked to it, since AbortSignal.any() follows
 * only real ones.
 */
function genuine(signal: Pick<AbortSignal, 'aborted' | 'reason' | 'addEventListener'>): AbortSignal {
  if (signal instanceof AbortSignal) return signal;
  if (signal.aborted) return AbortSignal.abort(signal.reason);
  const controller = new AbortController();
  signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller.signal;
}

/** A web ReadableStream as an HttpBody: its reader, taken at the first read. */
function webBody(stream: ReadableStream<Uint8Array>): HttpBody {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let stall: { ms: number; error: () => unknown; timer: NodeJS.Timeout | undefined; failure?: { error: unknown } } | undefined;
  const cancel = () => (reader ? reader.cancel() : stream.cancel());
  /** A read once stallAfter() is set: the first byte starts the clock, each later one restarts it; a stall cancels the stream, and the read that ends with it fails. */
  const watched = async (): Promise<BodyRead> => {
    const s = stall!;
    let read: BodyRead;
    try {
      read = (await (reader ??= stream.getReader()).read()) as BodyRead;
    } catch (error) {
      throw s.failure ? s.failure.error : error; // the stall's cancel() may reject the read it ends
    }
    if (s.failure) throw s.failure.error;
    if (read.done) clearTimeout(s.timer);
    else if (s.timer) s.timer.refresh();
    else
      s.timer = setTimeout(() => {
        s.failure = { error: s.error() };
        cancel().catch(() => {});
      }, s.ms);
    return read;
  };
  const body: HttpBody = {
    read: () => (stall ? watched() : ((reader ??= stream.getReader()).read() as Promise<BodyRead>)),
    cancel: () => {
      if (stall) clearTimeout(stall.timer);
      return cancel();
    },
    stallAfter(ms, error) {
      stall ??= { ms, error, timer: undefined };
    },
    [Symbol.asyncIterator]: () => ({
      next: () => body.read() as Promise<IteratorResult<Uint8Array>>,
      return: async () => {
        await body.cancel().catch(() => {});
        return { done: true, value: undefined };
      },
    }),
  };
  return body;
}
