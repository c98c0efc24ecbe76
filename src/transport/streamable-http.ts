// The Streamable HTTP transport (T3; MCP 2025-11-25 "Transports"): every
// message is a POST to the MCP endpoint; a request is answered by a JSON
// body or an SSE stream that may carry server requests and notifications
// before the response; a dropped stream is resumed by GET with
// Last-Event-ID after the server's `retry`; the optional GET stream carries
// server-initiated messages. Keeps Mcp-Session-Id, sends
// MCP-Protocol-Version after initialize, re-initializes once on 404/410,
// DELETEs the session on close.

import { ClosedError, MessageTooLargeError } from '../errors.js';
import type { JsonRpcId, JsonRpcMessage } from '../jsonrpc/message.js';
import { nextDelay, sleep } from '../util/backoff.js';
import { HttpTransportBase, type HttpTransportOptions } from './http-base.js';
import { readSse, type SseEvent } from './sse-stream.js';
import type { Transport, TransportHandlers } from './transport.js';

export interface StreamableHttpTransportOptions extends HttpTransportOptions {
  /** Open the GET stream for server-initiated messages after initialization. Default true. */
  listen?: boolean;
}

/** A session id "MUST only contain visible ASCII characters (0x21 to 0x7E)". */
const SESSION_ID = /^[\x21-\x7e]+$/;
/** How long close() waits for the DELETE of the session before giving up on it. */
const DELETE_TIMEOUT_MS = 2_000;

/** Where one SSE stream's resumption stands: the last event id seen and the server's retry. */
interface StreamCursor {
  lastEventId?: string;
  retryMs?: number;
}

export class StreamableHttpTransport extends HttpTransportBase implements Transport {
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private reinitializing: Promise<void> | undefined;
  /** Aborts the POST (and its stream) of a request the Connection has cancelled. */
  private readonly inflight = new Map<JsonRpcId, AbortController>();
  private listener: AbortController | undefined;
  private closePromise: Promise<void> | undefined;

  constructor(private readonly streamOptions: StreamableHttpTransportOptions) {
    super(streamOptions);
  }

  async start(handlers: TransportHandlers): Promise<void> {
    this.begin(handlers);
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /**
   * Sends one message. For a request, settles when its answer has arrived
   * (resolves) or cannot arrive any more (rejects): the Connection fails the
   * request with that error instead of letting it hang.
   */
  async send(message: JsonRpcMessage): Promise<void> {
    if (this.ended || this.closing) throw new ClosedError(this.site('method' in message ? message.method : undefined), { reason: 'closed' });
    this.remember(message);
    if ('method' in message && message.method === 'notifications/cancelled') this.abortCancelled(message.params?.requestId);
    const post = this.post(message, true);
    await ('id' in message && 'method' in message ? post : this.trackOutgoing(post));
    if ('method' in message && message.method === 'notifications/initialized' && this.streamOptions.listen !== false) this.listen();
  }

  close(): Promise<void> {
    this.closePromise ??= (async () => {
      this.closing = true; // no new work from here on
      this.listener?.abort();
      await this.drainOutgoing();
      const sessionId = this.sessionId;
      this.lifetime.abort();
      if (sessionId !== undefined) {
        // "Clients that no longer need a particular session SHOULD send an HTTP DELETE"; 405 means the server does not allow it.
        await this.fetchImpl(this.url, {
          method: 'DELETE',
          headers: this.headersFor(this.sessionHeaders()),
          signal: AbortSignal.timeout(DELETE_TIMEOUT_MS),
        })
          .then((response) => response.body?.cancel())
          .catch(() => {});
      }
      this.finish({ reason: 'closed' });
    })();
    return this.closePromise;
  }

  // --- POST ----------------------------------------------------------------------

  private sessionHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    return headers;
  }

  private async post(message: JsonRpcMessage, mayReinitialize: boolean): Promise<void> {
    const method = 'method' in message ? message.method : undefined;
    const requestId = 'method' in message && 'id' in message ? message.id : undefined;
    const isInitialize = method === 'initialize';
    const sentSession = this.sessionId;
    const own = requestId === undefined ? undefined : new AbortController();
    if (own) this.inflight.set(requestId!, own);
    try {
      const response = await this.request(
        this.url,
        {
          method: 'POST',
          headers: this.headersFor({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(isInitialize ? {} : this.sessionHeaders()) }),
          body: JSON.stringify(message),
        },
        method,
        own?.signal,
      );
      if (isInitialize) this.takeSessionId(response);

      // "When a client receives HTTP 404 in response to a request containing an MCP-Session-Id,
      // it MUST start a new session"; 410 Gone is treated alike. Once per message.
      if ((response.status === 404 || response.status === 410) && sentSession !== undefined && !isInitialize && mayReinitialize) {
        await response.body?.cancel().catch(() => {});
        await this.newSession(sentSession);
        return await this.post(message, false);
      }
      if (!response.ok) throw await this.statusError(response, method);
      if (requestId === undefined || response.status === 202) {
        // Notifications and responses: 202 with no body. Loose servers answer 200 with a body; it is not ours to read.
        await response.body?.cancel().catch(() => {});
        return;
      }
      const type = response.headers.get('content-type') ?? '';
      if (type.includes('text/event-stream')) return await this.followStream(response, requestId, method, own!.signal);
      if (type.includes('application/json')) return await this.takeJsonAnswer(response, requestId, method);
      await response.body?.cancel().catch(() => {});
      throw this.protocolError(method, `the server answered a request with Content-Type "${type}"; expected application/json or text/event-stream`);
    } catch (error) {
      if (own?.signal.aborted && !this.ended) return; // the Connection cancelled this request and has already settled it
      throw error;
    } finally {
      if (own) this.inflight.delete(requestId!);
    }
  }

  /** A JSON body must hold the answer; without it the request would wait for nothing until its timeout. */
  private async takeJsonAnswer(response: Response, requestId: JsonRpcId, method: string | undefined): Promise<void> {
    const text = await this.readText(response, this.maxMessageBytes, method);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw this.protocolError(method, `the server's application/json answer is not JSON (${text.length} characters)`);
    }
    this.deliver(value);
    if (!isAnswerTo(value, requestId)) throw this.protocolError(method, "the server's application/json answer does not hold the response to this request");
  }

  private takeSessionId(response: Response): void {
    const id = response.headers.get('mcp-session-id');
    if (id !== null && SESSION_ID.test(id)) this.sessionId = id;
  }

  private abortCancelled(requestId: unknown): void {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    // Abort after the cancellation itself has gone out, so the server hears why the stream closes.
    const controller = this.inflight.get(requestId);
    if (controller) setImmediate(() => controller.abort());
  }

  /** One re-initialization shared by every request that met the same expired session. */
  private newSession(expired: string): Promise<void> {
    // A request that met the expired session while another renews it waits for that renewal: its
    // retry must carry the new session id, and it would go out with none if sent before the answer.
    if (this.reinitializing) return this.reinitializing;
    if (this.sessionId !== expired) return Promise.resolve(); // another request already renewed it
    this.reinitializing = (async () => {
      this.sessionId = undefined;
      this.listener?.abort();
      const { request, answer } = this.internalInitialize();
      try {
        await this.post(request, false);
        // post() returns once the answer has been delivered (JSON body or SSE stream), so `answer`
        // is settled by now; the race only keeps a server that answered nothing from hanging us.
        const result = await Promise.race([answer, sleep(0).then(() => undefined)]);
        if (!result || !('result' in result)) {
          throw new ClosedError(this.site(), { reason: 'transport', cause: new Error('the session expired and the new initialize was not answered with a result') });
        }
      } finally {
        this.forgetInternal(request.id);
      }
      if (this.handshake.initialized) await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, false);
      if (this.streamOptions.listen !== false) this.listen();
    })().finally(() => {
      this.reinitializing = undefined;
    });
    return this.reinitializing;
  }

  // --- SSE streams -----------------------------------------------------------------

  /**
   * Reads the SSE answer to a request. If the stream ends before the answer,
   * resume it: GET with Last-Event-ID after the server's retry delay (MCP
   * "Resumability and Redelivery"). Without an event id there is nothing to
   * resume from, and the request fails as closed.
   */
  private async followStream(response: Response, requestId: JsonRpcId, method: string | undefined, signal: AbortSignal): Promise<void> {
    const cursor: StreamCursor = {};
    let answered = false;
    const onMessage = (value: unknown) => {
      if (isAnswerTo(value, requestId)) answered = true;
    };
    let failures = 0;
    let current: Response = response;
    for (;;) {
      const progressBefore = cursor.lastEventId;
      // Once the answer is in, stop reading: "After the JSON-RPC response has been sent, the server
      // SHOULD terminate the SSE stream"; one that does not must not hold this request open.
      const end = await this.consume(current, cursor, method, onMessage, () => answered);
      if (end === 'too-large') throw new MessageTooLargeError(this.site(method), this.maxMessageBytes);
      if (answered) return;
      if (cursor.lastEventId === undefined) {
        throw new ClosedError(this.site(method), { reason: 'transport', cause: new Error('the response stream ended before the answer, and carried no event id to resume from') });
      }
      failures = cursor.lastEventId === progressBefore ? failures + 1 : 0;
      // Retry the GET until a stream is open; each refusal counts once. (Looping back to consume()
      // after a refusal would re-read the spent response and count that attempt twice.)
      for (;;) {
        if (failures >= this.reconnectPolicy.maxAttempts) {
          throw new ClosedError(this.site(method), { reason: 'transport', cause: new Error(`the response stream could not be resumed after ${failures} attempts`) });
        }
        // "The client MUST respect the retry field, waiting the given number of milliseconds before attempting to reconnect."
        await sleep(cursor.retryMs ?? nextDelay(failures, this.reconnectPolicy), signal).catch(() => {});
        if (signal.aborted) return;
        const resumed = await this.resume(cursor.lastEventId, method, signal);
        if (resumed !== undefined) {
          current = resumed;
          break;
        }
        failures++;
      }
    }
  }

  /** GET with Last-Event-ID. Undefined when the server would not resume this time (retry later). */
  private async resume(lastEventId: string, method: string | undefined, signal: AbortSignal): Promise<Response | undefined> {
    let response: Response;
    try {
      response = await this.request(this.url, { method: 'GET', headers: this.headersFor({ accept: 'text/event-stream', 'last-event-id': lastEventId, ...this.sessionHeaders() }) }, method, signal);
    } catch (error) {
      if (this.ended || signal.aborted) throw error;
      return undefined; // network trouble: count it and try again after the delay
    }
    if (response.status === 401 || response.status === 403 || response.status === 404 || response.status === 405) throw await this.statusError(response, method);
    if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      await response.body?.cancel().catch(() => {});
      return undefined;
    }
    return response;
  }

  /** Reads one SSE response, delivering `message` events and tracking the cursor. */
  private async consume(response: Response, cursor: StreamCursor, method: string | undefined, onMessage: (value: unknown) => void, done?: () => boolean) {
    if (!response.body) return 'ended' as const;
    try {
      return await readSse(response.body, this.maxMessageBytes, {
        done,
        onId: (id) => {
          cursor.lastEventId = id;
        },
        onRetry: (ms) => {
          cursor.retryMs = ms;
        },
        onEvent: (event: SseEvent) => {
          // Only `message` events (or untyped ones) carry JSON-RPC; a priming event has an id and empty data.
          if ((event.event !== undefined && event.event !== 'message') || event.data === '') return;
          let value: unknown;
          try {
            value = JSON.parse(event.data);
          } catch {
            this.deliverText(event.data); // reports it as noise
            return;
          }
          onMessage(value);
          this.deliver(value);
        },
      });
    } catch (error) {
      if (this.ended || this.closing) throw new ClosedError(this.site(method), { reason: 'closed' });
      return 'ended' as const; // a dropped connection is a stream end: resume if we can
    }
  }

  /** The optional GET stream for server-initiated messages; 405 (or any refusal) means the server offers none. */
  private listen(): void {
    this.listener?.abort();
    const controller = new AbortController();
    this.listener = controller;
    void (async () => {
      const cursor: StreamCursor = {};
      for (let attempt = 0; !controller.signal.aborted && !this.ended; ) {
        let response: Response;
        try {
          const headers = this.headersFor({ accept: 'text/event-stream', ...this.sessionHeaders(), ...(cursor.lastEventId ? { 'last-event-id': cursor.lastEventId } : {}) });
          response = await this.request(this.url, { method: 'GET', headers }, undefined, controller.signal);
        } catch {
          if (controller.signal.aborted || this.ended || ++attempt >= this.reconnectPolicy.maxAttempts) return;
          await sleep(nextDelay(attempt, this.reconnectPolicy), controller.signal).catch(() => {});
          continue;
        }
        if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
          // 405: no stream offered. Loose servers answer 400 or 404; tolerated the same way.
          await response.body?.cancel().catch(() => {});
          return;
        }
        const seenBefore = cursor.lastEventId;
        const end = await this.consume(response, cursor, undefined, () => {}).catch(() => 'ended' as const);
        if (end === 'too-large') {
          this.handlers?.onDiagnostic?.({ kind: 'invalid-message', server: this.server, detail: `an event on the GET stream exceeded ${this.maxMessageBytes} bytes; the stream was dropped`, excerpt: '' });
        }
        attempt = cursor.lastEventId !== seenBefore ? 0 : attempt + 1;
        if (attempt >= this.reconnectPolicy.maxAttempts) return;
        await sleep(cursor.retryMs ?? nextDelay(attempt, this.reconnectPolicy), controller.signal).catch(() => {});
      }
    })();
  }
}

function isAnswerTo(value: unknown, id: JsonRpcId): boolean {
  if (Array.isArray(value)) return value.some((item) => isAnswerTo(item, id));
  return typeof value === 'object' && value !== null && !('method' in value) && (value as { id?: unknown }).id === id;
}
