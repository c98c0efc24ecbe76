// The legacy HTTP+SSE transport (T2; MCP 2024-11-05 "HTTP with SSE"): GET
// the SSE URL, wait for the `endpoint` event, resolve it against the SSE URL
// and refuse one of another origin, POST every message there, read answers
// from `message` events. A dropped stream is reopened with backoff: the new
// stream is a new session, so the handshake is replayed on it before any
// other message goes out, and requests that were waiting fail as closed.

import { ClosedError, MessageTooLargeError, ProtocolError, TimeoutError } from '../errors.js';
import type { JsonRpcId, JsonRpcMessage } from '../jsonrpc/message.js';
import { nextDelay, sleep } from '../util/backoff.js';
import { HttpTransportBase, type HttpTransportOptions } from './http-base.js';
import { readSse, type SseEnd } from './sse-stream.js';
import type { Transport, TransportHandlers } from './transport.js';

export interface SseTransportOptions extends HttpTransportOptions {
  /** How long to wait for the `endpoint` event after the GET. Default 30 000 ms. */
  endpointTimeoutMs?: number;
}

export const DEFAULT_ENDPOINT_TIMEOUT_MS = 30_000;

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

export class SseTransport extends HttpTransportBase implements Transport {
  private endpoint: URL | undefined;
  private stream: AbortController | undefined;
  /** Posted requests whose answer has not come down the stream yet. */
  private readonly awaiting = new Map<JsonRpcId, Waiter>();
  /** Settles when a connection with a known endpoint (and a replayed handshake) is up. */
  private ready: Promise<void> = Promise.resolve();
  private closePromise: Promise<void> | undefined;
  /** True while reconnect() runs: a drop of the stream it opened is its to handle, not a reason for a second loop. */
  private reconnecting = false;
  /** Resolves when the stream opened last has ended (dropped, ended by the server, or aborted). */
  private streamGone: Promise<void> = Promise.resolve();
  private streamLive = false;

  constructor(private readonly sseOptions: SseTransportOptions) {
    super(sseOptions);
  }

  async start(handlers: TransportHandlers): Promise<void> {
    this.begin(handlers);
    this.ready = this.open();
    await this.ready;
  }

  async send(message: JsonRpcMessage): Promise<void> {
    const method = 'method' in message ? message.method : undefined;
    await this.ready;
    if (this.ended || this.closing) throw new ClosedError(this.site(method), { reason: 'closed' });
    this.remember(message);
    const requestId = 'method' in message && 'id' in message ? message.id : undefined;
    if ('method' in message && message.method === 'notifications/cancelled') this.stopAwaiting(message.params?.requestId);
    // Registered before the POST: the answer may come down the stream before the POST returns.
    const answered = requestId === undefined ? undefined : this.await(requestId);
    // The stream can drop (failAwaiting) while the POST is still in flight, before `await answered`
    // below: without a handler now, that rejection would be unhandled and take the process down.
    answered?.catch(() => {});
    try {
      const post = this.postToEndpoint(message, method);
      await (requestId === undefined ? this.trackOutgoing(post) : post);
    } catch (error) {
      this.awaiting.delete(requestId!);
      throw error;
    }
    await answered;
  }

  close(): Promise<void> {
    this.closePromise ??= (async () => {
      this.closing = true;
      await this.drainOutgoing();
      this.stream?.abort();
      this.failAwaiting(new ClosedError(this.site(), { reason: 'closed' }));
      this.finish({ reason: 'closed' });
    })();
    return this.closePromise;
  }

  // --- the stream ------------------------------------------------------------------

  private await(id: JsonRpcId): Promise<void> {
    return new Promise<void>((resolve, reject) => this.awaiting.set(id, { resolve, reject }));
  }

  /** The Connection gave up on this request (timeout, abort): its waiter goes, so a lost answer leaks nothing. */
  private stopAwaiting(requestId: unknown): void {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    this.awaiting.get(requestId)?.resolve();
    this.awaiting.delete(requestId);
  }

  private failAwaiting(error: unknown): void {
    const waiting = [...this.awaiting.values()];
    this.awaiting.clear();
    for (const waiter of waiting) waiter.reject(error);
  }

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
      let gone!: () => void;
      this.streamGone = new Promise<void>((resolve) => (gone = resolve));
      this.streamLive = true;
      const ended = () => {
        if (this.stream === controller) this.streamLive = false;
        gone();
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
              this.onMessageText(event.data);
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

  private onMessageText(data: string): void {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      this.deliverText(data); // reports it as noise
      return;
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      const id = typeof item === 'object' && item !== null && !('method' in item) ? (item as { id?: unknown }).id : undefined;
      if (typeof id === 'string' || typeof id === 'number') {
        this.awaiting.get(id)?.resolve();
        this.awaiting.delete(id);
      }
    }
    this.deliver(value);
  }

  /** The stream is gone: fail what waits on it, then reconnect with backoff (T2), or end the transport. */
  private dropped(cause: unknown): void {
    if (this.ended || this.closing) return;
    if (cause === 'too-large') {
      this.failAwaiting(new MessageTooLargeError(this.site(), this.maxMessageBytes));
      this.finish({ reason: 'too-large', limitBytes: this.maxMessageBytes });
      return;
    }
    this.failAwaiting(new ClosedError(this.site(), { reason: 'transport', cause: new Error('the SSE stream dropped before the answer arrived', { cause: this.scrubbed(cause) }) }));
    this.endpoint = undefined;
    // A stream that reconnect() opened and that drops during its handshake replay: that loop sees it
    // (streamGone / streamLive) and tries again. A second loop would fight it over this.stream.
    if (this.reconnecting) return;
    this.ready = this.reconnect();
    this.ready.catch(() => {}); // failures end the transport below; send() sees them through `ready`
  }

  private async reconnect(): Promise<void> {
    this.reconnecting = true;
    try {
      return await this.reconnectLoop();
    } finally {
      this.reconnecting = false;
    }
  }

  private async reconnectLoop(): Promise<void> {
    let lastError: unknown;
    for (let attempt = 0; attempt < this.reconnectPolicy.maxAttempts; attempt++) {
      try {
        await sleep(nextDelay(attempt, this.reconnectPolicy), this.lifetime.signal);
        await this.open();
        await this.replayHandshake();
        // Checked in the same turn as `reconnecting` goes false: a drop before this is retried here, one after it starts a new loop.
        if (!this.streamLive) throw new ClosedError(this.site(), { reason: 'transport', cause: new Error('the reopened SSE stream dropped during the handshake') });
        return;
      } catch (error) {
        if (this.ended || this.closing) throw new ClosedError(this.site(), { reason: 'closed' });
        lastError = error;
        this.stream?.abort();
      }
    }
    const failure = new ClosedError(this.site(), { reason: 'transport', cause: new Error(`the SSE stream could not be reopened after ${this.reconnectPolicy.maxAttempts} attempts`, { cause: this.scrubbed(lastError) }) });
    this.finish({ reason: 'transport', cause: failure.cause });
    throw failure;
  }

  /** A reopened stream is a new session: initialize it as the Connection did the first one. */
  private async replayHandshake(): Promise<void> {
    if (!this.handshake.initialize) return;
    const { request, answer } = this.internalInitialize();
    const waitMs = this.sseOptions.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    // Ends the wait below once it is decided, so its timer does not keep the process alive for waitMs.
    const waitDone = new AbortController();
    try {
      await this.postToEndpoint(request, 'initialize');
      // The answer, or nothing: after waitMs, on close(), or at once if this stream drops meanwhile.
      const gaveUp = sleep(waitMs, AbortSignal.any([this.lifetime.signal, waitDone.signal])).then(
        () => undefined,
        () => undefined,
      );
      const result = await Promise.race([answer, gaveUp, this.streamGone.then(() => undefined)]);
      if (!result || !('result' in result)) throw new ClosedError(this.site('initialize'), { reason: 'transport', cause: new Error('the reopened session did not answer initialize') });
    } finally {
      waitDone.abort();
      this.forgetInternal(request.id);
    }
    if (this.handshake.initialized) await this.postToEndpoint({ jsonrpc: '2.0', method: 'notifications/initialized' }, 'notifications/initialized');
  }

  private async postToEndpoint(message: JsonRpcMessage, method: string | undefined): Promise<void> {
    const endpoint = this.endpoint;
    if (!endpoint) throw new ClosedError(this.site(method), { reason: 'transport', cause: new Error('no endpoint: the SSE stream is not connected') });
    const response = await this.request(endpoint, { method: 'POST', headers: this.headersFor({ 'content-type': 'application/json' }), body: JSON.stringify(message) }, method);
    if (!response.ok) throw await this.statusError(response, method);
    await response.body?.cancel().catch(() => {});
  }
}
