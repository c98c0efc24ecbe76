// The legacy HTTP+SSE transport (T2; MCP 2024-11-05 "HTTP with SSE"): GET
// the SSE URL, wait for the `endpoint` event, resolve it against the SSE URL
// and refuse one of another origin, POST every message there, read answers
// from `message` events. A dropped stream is reopened with backoff; the
// answers it would have carried are reported lost, and since the new stream
// is a new session, the transport reports the session expired: the client
// runs the handshake again before anything else goes out.

import { AuthError, ClosedError, ProtocolError, TimeoutError } from '../errors.js';
import type { JsonRpcMessage } from '../jsonrpc/message.js';
import { nextDelay, sleep } from '../util/backoff.js';
import { HttpTransportBase, type HttpTransportOptions } from './http-base.js';
import { readSse, type SseEnd } from './sse-stream.js';
import { traceHeaders } from './trace-headers.js';
import type { Transport, TransportHandlers } from './transport.js';

export interface SseTransportOptions extends HttpTransportOptions {
  /** How long to wait for the `endpoint` event after the GET. Default 30 000 ms. */
  endpointTimeoutMs?: number;
}

export const DEFAULT_ENDPOINT_TIMEOUT_MS = 30_000;

export class SseTransport extends HttpTransportBase implements Transport {
  readonly kind = 'sse' as const;
  private endpoint: URL | undefined;
  private stream: AbortController | undefined;
  /** Settles when a stream with a known endpoint is up. */
  private ready: Promise<void> = Promise.resolve();
  private closePromise: Promise<void> | undefined;
  /** True while reconnect() runs: a drop of the stream it opened is its to handle, not a reason for a second loop. */
  private reconnecting = false;
  private streamLive = false;

  constructor(private readonly sseOptions: SseTransportOptions) {
    super(sseOptions);
  }

  async start(handlers: TransportHandlers): Promise<void> {
    this.begin(handlers);
    this.ready = this.open();
    await this.ready;
  }

  /** POSTs one message to the endpoint, once a stream is up. Resolves when the server has accepted it; answers come down the stream. */
  async send(message: JsonRpcMessage): Promise<void> {
    const method = 'method' in message ? message.method : undefined;
    await this.ready;
    if (this.ended || this.closing) throw new ClosedError(this.site(method), { reason: 'closed' });
    const post = this.postToEndpoint(message, method);
    await ('id' in message && method !== undefined ? post : this.trackOutgoing(post));
  }

  close(): Promise<void> {
    this.closePromise ??= (async () => {
      this.closing = true;
      await this.drainOutgoing();
      this.stream?.abort();
      this.finish({ reason: 'closed' });
    })();
    return this.closePromise;
  }

  // --- the stream ------------------------------------------------------------------

  /**
   * MCP 2024-11-05, HTTP with SSE: 1. open the SSE connection; 2. the server
   * MUST send an `endpoint` event with the URI for client messages; 3. that
   * URI is resolved against the SSE URL and must share its origin (a server
   * must not send our messages, and their headers, elsewhere). Resolves at
   * step 3; the stream is read on in the background.
   */
  private open(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const controller = new AbortController();
      this.stream = controller;
      this.streamLive = true;
      const ended = () => {
        if (this.stream === controller) this.streamLive = false;
      };
      let haveEndpoint = false;
      let refusal: ProtocolError | undefined;
      const waitMs = this.sseOptions.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
      const timer = setTimeout(() => {
        reject(new TimeoutError(this.site(), waitMs, ' (waiting for the SSE endpoint event)'));
        controller.abort();
      }, waitMs);

      const read = async (): Promise<SseEnd> => {
        const response = await this.request(this.url, { method: 'GET', headers: this.headersFor({ accept: 'text/event-stream' }) }, undefined, controller.signal);
        if (!response.ok) throw await this.statusError(response, undefined);
        if (!(response.headers.get('content-type') ?? '').includes('text/event-stream') || !response.body) {
          await response.body?.cancel().catch(() => {});
          throw new ProtocolError(this.site(), `the SSE URL answered with Content-Type "${response.headers.get('content-type') ?? ''}", not text/event-stream`);
        }
        return readSse(response.body, this.maxMessageBytes, {
          onEvent: (event) => {
            if (event.event === 'endpoint') {
              if (haveEndpoint) return; // a second endpoint mid-session is ignored: the session is bound to the first
              const endpoint = new URL(event.data.trim(), this.url);
              if (endpoint.origin !== this.url.origin) {
                refusal = new ProtocolError(this.site(), `the server announced an endpoint of another origin (${endpoint.origin}, expected ${this.url.origin}); refused`);
                controller.abort();
                return;
              }
              this.endpoint = endpoint;
              haveEndpoint = true;
              clearTimeout(timer);
              resolve();
            } else if ((event.event === undefined || event.event === 'message') && event.data !== '') {
              this.deliverText(event.data);
            }
          },
        });
      };

      read().then(
        (end) => {
          clearTimeout(timer);
          ended();
          if (!haveEndpoint) return reject(new ClosedError(this.site(), { reason: 'transport', cause: new Error('the SSE stream ended before the endpoint event') }));
          this.dropped(end === 'too-large' ? 'too-large' : undefined);
        },
        (error: unknown) => {
          clearTimeout(timer);
          ended();
          if (!haveEndpoint) return reject(refusal ?? error);
          this.dropped(error);
        },
      );
    });
  }

  /**
   * The stream is gone: the answers it would have carried are lost; reopen
   * it with backoff (T2) and report the new session, or end the transport.
   */
  private dropped(cause: unknown): void {
    if (this.ended || this.closing) return;
    if (cause === 'too-large') {
      this.finish({ reason: 'too-large', limitBytes: this.maxMessageBytes });
      return;
    }
    // First, so that the client holds new requests back before the lost ones fail (#16 item 6).
    const since = Date.now();
    const reason = cause === undefined ? 'the server ended the SSE stream' : `the SSE stream dropped (${this.describe(cause)})`;
    this.reportState({ state: 'reconnecting', since, nextAttemptAt: since + nextDelay(0, this.reconnectPolicy), reason });
    this.handlers?.onAnswersLost('all', new ClosedError(this.site(), { reason: 'transport', cause: new Error('the SSE stream dropped before the answer arrived', { cause: this.scrubbed(cause) }) }));
    this.endpoint = undefined;
    // A stream that reconnect() opened and that dropped before the loop finished: that loop sees it
    // (streamLive) and tries again. A second loop would fight it over this.stream.
    if (this.reconnecting) return;
    this.ready = this.reconnect(since);
    this.ready.catch(() => {}); // failures end the transport below; send() sees them through `ready`
    // Sends wait for `ready`: the client's new handshake goes out on the new stream first.
    this.handlers?.onSessionExpired();
  }

  private async reconnect(since: number): Promise<void> {
    this.reconnecting = true;
    try {
      return await this.reconnectLoop(since);
    } finally {
      this.reconnecting = false;
    }
  }

  private async reconnectLoop(since: number): Promise<void> {
    let lastError: unknown;
    for (let attempt = 0; attempt < this.reconnectPolicy.maxAttempts; attempt++) {
      try {
        await sleep(nextDelay(attempt, this.reconnectPolicy), this.lifetime.signal);
        await this.open();
        // Checked in the same turn as `reconnecting` goes false: a drop before this is retried here, one after it starts a new loop.
        if (!this.streamLive) throw new ClosedError(this.site(), { reason: 'transport', cause: new Error('the reopened SSE stream dropped at once') });
        this.reportState({ state: 'connected' });
        return;
      } catch (error) {
        if (this.ended || this.closing) throw new ClosedError(this.site(), { reason: 'closed' });
        lastError = error;
        this.stream?.abort();
        if (error instanceof AuthError) {
          // A refused credential does not fix itself: no more attempts (#16 item 8).
          this.finish({ reason: 'http', status: error.status });
          throw error;
        }
        if (attempt + 1 < this.reconnectPolicy.maxAttempts) {
          const reason = `the SSE stream could not be reopened (attempt ${attempt + 1} of ${this.reconnectPolicy.maxAttempts}: ${this.describe(error)})`;
          this.reportState({ state: 'reconnecting', since, nextAttemptAt: Date.now() + nextDelay(attempt + 1, this.reconnectPolicy), reason });
        }
      }
    }
    const failure = new ClosedError(this.site(), { reason: 'transport', cause: new Error(`the SSE stream could not be reopened after ${this.reconnectPolicy.maxAttempts} attempts`, { cause: this.scrubbed(lastError) }) });
    this.finish({ reason: 'transport', cause: failure.cause });
    throw failure;
  }

  private async postToEndpoint(message: JsonRpcMessage, method: string | undefined): Promise<void> {
    const endpoint = this.endpoint;
    if (!endpoint) throw new ClosedError(this.site(method), { reason: 'transport', cause: new Error('no endpoint: the SSE stream is not connected') });
    const response = await this.request(endpoint, { method: 'POST', headers: this.headersFor({ 'content-type': 'application/json', ...traceHeaders(message) }), body: JSON.stringify(message) }, method);
    if (!response.ok) throw await this.statusError(response, method);
    await response.body?.cancel().catch(() => {});
  }
}
