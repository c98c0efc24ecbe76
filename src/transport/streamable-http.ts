// The Streamable HTTP transport (T3; MCP 2025-11-25 "Transports"): every
// message is a POST to the MCP endpoint; a request is answered by a JSON
// body or an SSE stream that may carry server requests and notifications
// before the response; a dropped stream is resumed by GET with
// Last-Event-ID after the server's `retry`; the optional GET stream carries
// server-initiated messages. Keeps the Mcp-Session-Id the server assigns,
// sends MCP-Protocol-Version once the client sets it, reports a 404/410 on a
// message carrying the session as a SessionExpiredError (the client runs the
// handshake again and the Connection sends the message once more), DELETEs
// the session on close.

import { ClosedError, MessageTooLargeError, SessionExpiredError, type McpClientError } from '../errors.js';
import { isObject, type JsonRpcId, type JsonRpcMessage } from '../jsonrpc/message.js';
import { nextDelay, retryDelay, sleep } from '../util/backoff.js';
import { HttpTransportBase, type HttpTransportOptions } from './http-base.js';
import type { HttpAnswer } from './http-client.js';
import { readSse, type SseEvent } from './sse-stream.js';
import { traceHeaders } from './trace-headers.js';
import { encodeHeaderValue } from './header-value.js';
export { encodeHeaderValue }; // its home is header-value.ts (#20: the client needs it without the HTTP stack)
import { ACCEPTS_REQUEST_SIGNAL, type SendOptions, type Transport, type TransportHandlers } from './transport.js';

export interface StreamableHttpTransportOptions extends HttpTransportOptions {
  /** Open the GET stream for server-initiated messages after initialization. Default true. */
  listen?: boolean;
}

/** A session id "MUST only contain visible ASCII characters (0x21 to 0x7E)". */
const SESSION_ID = /^[\x21-\x7e]+$/;
/** What every POST says it sends and takes. */
const POST_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
/** How long close() waits for the DELETE of the session before giving up on it. */
const DELETE_TIMEOUT_MS = 2_000;

/** Where one SSE stream's resumption stands: the last event id seen and the server's retry. */
interface StreamCursor {
  lastEventId?: string;
  retryMs?: number;
  /** Why the last read broke, when it did: the network's own words (ECONNRESET …) for an error that ends the request (T6). */
  dropCause?: unknown;
}

/** One request's SSE answer being followed: what its reads and resumptions share. */
interface StreamFollow {
  readonly method: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly cursor: StreamCursor;
  /** The answer to the request has come (the stream's work is done). */
  answered: boolean;
  readonly onMessage: (value: unknown) => void;
  readonly isAnswered: () => boolean;
}

export class StreamableHttpTransport extends HttpTransportBase implements Transport {
  readonly kind = 'streamable-http' as const;
  /** A cancelled request's signal aborts its POST and the stream that would carry its answer. */
  readonly usesRequestSignals = true;
  /** Both request paths take the Connection's look-alike signal (node-http.ts as it is; http-client.ts's fetch path links it). */
  readonly [ACCEPTS_REQUEST_SIGNAL] = true;
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  /** The 2026-07-28 wire (#17 item 2): stateless, request metadata mirrored into headers on every POST. */
  private modern = false;
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
   * The 2026-07-28 wire on (a version) or off (undefined, back to exactly
   * the 2025 POSTs): no session, no GET stream; every POST carries
   * MCP-Protocol-Version equal to its body's, Mcp-Method, and Mcp-Name for
   * tools/call, resources/read and prompts/get; a 4xx whose body is the
   * JSON-RPC error for the request is its answer, not a transport failure.
   */
  setModern(version: string | undefined): void {
    this.modern = version !== undefined;
    this.protocolVersion = version;
    this.sessionId = undefined;
  }

  /** The session is initialized: open the GET stream for server-initiated messages (again, after a renewal). Not in the modern era: it has none. */
  handshakeComplete(): void {
    if (this.streamOptions.listen !== false && !this.modern && !this.ended && !this.closing) this.listen();
  }

  /**
   * POSTs one message. Resolves once the server has accepted it; a
   * request's answer is then read in the background (a JSON body or an SSE
   * stream) and delivered through onMessage, or reported lost.
   */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    // Not an async function: post() returns its promise chain as it is; a wrapper would add a promise and a hop per message (#20).
    const method = 'method' in message ? message.method : undefined;
    if (this.ended || this.closing) return Promise.reject(new ClosedError(this.site(method), { reason: 'closed' }));
    const requestId = 'method' in message && 'id' in message ? message.id : undefined;
    // 2026-07-28 "Cancellation": closing a request's response stream is its cancellation (the Connection's abandon
    // signal has aborted it); notifications/cancelled is for stdio only.
    if (this.modern && method === 'notifications/cancelled') return Promise.resolve();
    const post = this.post(message, method, requestId, options?.signal, options?.headers);
    return requestId === undefined ? this.trackOutgoing(post) : post;
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
        // A redirect is not followed (no request path does): the DELETE is a courtesy, and our headers stay with our origin.
        await this.closeRequest(this.url, {
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

  /** One POST's headers, built in one object (#20: this runs per request): the static ones, the era's, the trace context's. */
  private postHeaders(message: JsonRpcMessage, extra: Record<string, string> | undefined): Record<string, string> {
    const headers = this.headersFor(POST_HEADERS);
    if (this.modern) Object.assign(headers, extra, modernHeaders(message, this.protocolVersion));
    else {
      if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
      if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    }
    // The request's trace context travels as headers too (#17 item 6).
    const trace = traceHeaders(message);
    if (trace) Object.assign(headers, trace);
    return headers;
  }

  /**
   * POSTs one message; settles once the server has taken it (a request's
   * answer is then read in the background). Promise chains, not an async
   * function: the common case (an answer on its way) passes through without
   * an async frame or an await, each a promise and a microtask per request (#20).
   */
  private post(message: JsonRpcMessage, method: string | undefined, requestId: JsonRpcId | undefined, signal: AbortSignal | undefined, extra?: Record<string, string>): Promise<void> {
    const sentSession = this.sessionId;
    let sent: Promise<HttpAnswer>;
    try {
      sent = this.request(this.url, { method: 'POST', headers: this.postHeaders(message, extra), body: JSON.stringify(message) }, method, signal);
    } catch (error) {
      return Promise.reject(error); // a message JSON.stringify refuses: this request's failure, as a rejection like any other
    }
    return sent.then(
      (response) => this.answered(response, sentSession, method, requestId, signal),
      (error: unknown) => {
        if (signal?.aborted && !this.ended) return; // the Connection gave up on this request and has settled it
        throw error;
      },
    );
  }

  /** The server's HTTP answer to a POST: a request's answer on its way is handed off at once; anything else is looked at in answeredOtherwise(). */
  private answered(response: HttpAnswer, sentSession: string | undefined, method: string | undefined, requestId: JsonRpcId | undefined, signal: AbortSignal | undefined): Promise<void> | undefined {
    // The server assigns the session in its answer to the message that opened it (the handshake's first).
    if (sentSession === undefined && !this.modern) this.takeSessionId(response);
    if (requestId !== undefined && response.ok && response.status !== 202) {
      const type = response.headers.get('content-type') ?? '';
      const answer = type.includes('text/event-stream')
        ? this.followStream(response, requestId, method, signal)
        : type.includes('application/json')
          ? this.takeJsonAnswer(response, requestId, method)
          : undefined;
      if (answer) {
        // Handed off: the answer arrives through onMessage, or is reported lost.
        answer.catch((error: unknown) => {
          if (signal?.aborted && !this.ended) return;
          this.handlers?.onAnswersLost([requestId], error as McpClientError);
        });
        return undefined;
      }
    }
    return this.answeredOtherwise(response, sentSession, method, requestId);
  }

  /** Every answer to a POST but a request's answer on its way: an error status, a session the server lost, a notification's 202, a content type that is neither JSON nor SSE. */
  private async answeredOtherwise(response: HttpAnswer, sentSession: string | undefined, method: string | undefined, requestId: JsonRpcId | undefined): Promise<void> {
    // A 4xx that carries the JSON-RPC error for this request (a modern server's -32022, -32601, -32020, -32021)
    // is the server's answer: the client reads it as an RpcError (an era verdict, a retry), never a transport refusal.
    if (requestId !== undefined && response.status >= 400 && response.status < 500 && response.status !== 401 && response.status !== 403) {
      const body = await this.errorBody(response, method);
      const answer = rpcErrorAnswer(body, requestId, this.modern);
      if (answer !== undefined) {
        this.handlers?.onMessage(answer);
        return;
      }
      if ((response.status === 404 || response.status === 410 || (response.status === 400 && saysSessionUnknown(body))) && sentSession !== undefined) {
        this.sessionExpired(sentSession);
        throw new SessionExpiredError(this.site(method), response.status);
      }
      throw this.statusErrorWith(response.status, body, method);
    }

    // "When a client receives HTTP 404 in response to a request containing an MCP-Session-Id,
    // it MUST start a new session"; 410 Gone is treated alike. The server did not process the message.
    if ((response.status === 404 || response.status === 410) && sentSession !== undefined) {
      await response.body?.cancel().catch(() => {});
      this.sessionExpired(sentSession);
      throw new SessionExpiredError(this.site(method), response.status);
    }
    // Servers built on the SDK's examples (server-everything among them) answer 400 to a session
    // they do not know, e.g. after a restart; a session that never comes back is worse than one more handshake.
    if (response.status === 400 && sentSession !== undefined) {
      const body = await this.errorBody(response, method);
      if (!saysSessionUnknown(body)) throw this.statusErrorWith(400, body, method);
      this.sessionExpired(sentSession);
      throw new SessionExpiredError(this.site(method), 400);
    }
    if (!response.ok) throw await this.statusError(response, method);
    // Notifications and responses: 202 with no body. Loose servers answer 200 with a body; it is not ours to read.
    await response.body?.cancel().catch(() => {});
    if (requestId === undefined || response.status === 202) return;
    // A request answered 2xx, but neither as JSON nor as an event stream (answered() took those).
    throw this.protocolError(method, `the server answered a request with Content-Type "${response.headers.get('content-type') ?? ''}"; expected application/json or text/event-stream`);
  }

  /** Forgets a session the server no longer knows, once (concurrent requests may all meet it). */
  private sessionExpired(expired: string): void {
    if (this.sessionId !== expired) return;
    this.sessionId = undefined;
    this.protocolVersion = undefined;
    this.listener?.abort();
  }

  /** A JSON body must hold the answer; without it the request would wait for nothing until its timeout. */
  private async takeJsonAnswer(response: HttpAnswer, requestId: JsonRpcId, method: string | undefined): Promise<void> {
    const text = await this.readText(response, this.maxMessageBytes, method);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw this.protocolError(method, `the server's application/json answer is not JSON (${text.length} characters)`);
    }
    this.handlers?.onMessage(value);
    if (!isAnswerTo(value, requestId)) throw this.protocolError(method, "the server's application/json answer does not hold the response to this request");
  }

  private takeSessionId(response: HttpAnswer): void {
    const id = response.headers.get('mcp-session-id');
    if (id !== null && SESSION_ID.test(id)) this.sessionId = id;
  }

  // --- SSE streams -----------------------------------------------------------------

  /**
   * Reads the SSE answer to a request. If the stream ends before the answer,
   * resume it: GET with Last-Event-ID after the server's retry delay (MCP
   * "Resumability and Redelivery"). Without an event id there is nothing to
   * resume from, and the request fails as closed.
   */
  private followStream(response: HttpAnswer, requestId: JsonRpcId, method: string | undefined, signal: AbortSignal | undefined): Promise<void> {
    const follow: StreamFollow = {
      method,
      signal,
      cursor: {},
      answered: false,
      onMessage: (value: unknown) => {
        if (isAnswerTo(value, requestId)) follow.answered = true;
      },
      // Once the answer is in, stop reading: "After the JSON-RPC response has been sent, the server
      // SHOULD terminate the SSE stream"; one that does not must not hold this request open.
      isAnswered: () => follow.answered,
    };
    // The first read is the whole of nearly every request's stream: no async frame unless it must be resumed (#20).
    return this.consume(response, follow.cursor, method, follow.onMessage, follow.isAnswered).then((end) => (this.streamOver(end, follow) ? undefined : this.resumeStream(follow, undefined)));
  }

  /** Whether the request's stream has done its work (its answer came); throws when an event was too large. */
  private streamOver(end: 'ended' | 'dropped' | 'too-large', follow: StreamFollow): boolean {
    if (end === 'too-large') throw new MessageTooLargeError(this.site(follow.method), this.maxMessageBytes);
    return follow.answered;
  }

  /** A request's stream ended before its answer: resumed, and read again, until the answer comes or the attempts run out. */
  private async resumeStream(follow: StreamFollow, progressBefore: string | undefined): Promise<void> {
    const { cursor, method, signal } = follow;
    let failures = 0;
    for (;;) {
      if (cursor.lastEventId === undefined) {
        const dropped = cursor.dropCause === undefined ? {} : { cause: this.scrubbed(cursor.dropCause) };
        throw new ClosedError(this.site(method), { reason: 'transport', cause: new Error('the response stream ended before the answer, and carried no event id to resume from', dropped) });
      }
      failures = cursor.lastEventId === progressBefore ? failures + 1 : 0;
      // Retry the GET until a stream is open; each refusal counts once. (Looping back to consume()
      // after a refusal would re-read the spent response and count that attempt twice.)
      let current: HttpAnswer;
      for (;;) {
        if (failures >= this.reconnectPolicy.maxAttempts) {
          throw new ClosedError(this.site(method), { reason: 'transport', cause: new Error(`the response stream could not be resumed after ${failures} attempts`) });
        }
        // "The client MUST respect the retry field, waiting the given number of milliseconds before attempting to reconnect."
        await sleep(cursor.retryMs ?? nextDelay(failures, this.reconnectPolicy), signal ?? this.lifetime.signal).catch(() => {});
        if (signal?.aborted || this.ended) return;
        const resumed = await this.resume(cursor.lastEventId, method, signal);
        if (resumed !== undefined) {
          current = resumed;
          break;
        }
        failures++;
      }
      progressBefore = cursor.lastEventId;
      if (this.streamOver(await this.consume(current, cursor, method, follow.onMessage, follow.isAnswered), follow)) return;
    }
  }

  /** GET with Last-Event-ID. Undefined when the server would not resume this time (retry later). */
  private async resume(lastEventId: string, method: string | undefined, signal: AbortSignal | undefined): Promise<HttpAnswer | undefined> {
    let response: HttpAnswer;
    try {
      response = await this.request(this.url, { method: 'GET', headers: this.headersFor({ accept: 'text/event-stream', 'last-event-id': lastEventId, ...this.sessionHeaders() }) }, method, signal);
    } catch (error) {
      if (this.ended || signal?.aborted) throw error;
      return undefined; // network trouble: count it and try again after the delay
    }
    if (response.status === 401 || response.status === 403 || response.status === 404 || response.status === 405) throw await this.statusError(response, method);
    if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      await response.body?.cancel().catch(() => {});
      return undefined;
    }
    return response;
  }

  /** Reads one SSE response, delivering `message` events and tracking the cursor. A promise chain, not an async function: it runs for every request (#20). */
  private consume(response: HttpAnswer, cursor: StreamCursor, method: string | undefined, onMessage: (value: unknown) => void, done?: () => boolean): Promise<'ended' | 'dropped' | 'too-large'> {
    if (!response.body) return Promise.resolve('ended');
    const read = readSse(response.body, this.maxMessageBytes, {
      done,
      onId: (id) => {
        cursor.lastEventId = id;
      },
      onRetry: (ms) => {
        // Clamped to [0, reconnect.maxMs] (#20): a retry past 2^31-1 would fire at once, a huge valid one stall for days.
        cursor.retryMs = retryDelay(ms, this.reconnectPolicy);
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
        this.handlers?.onMessage(value);
      },
    });
    return read.then(undefined, (error: unknown) => {
      if (this.ended || this.closing) throw new ClosedError(this.site(method), { reason: 'closed' });
      cursor.dropCause = error;
      return 'dropped' as const; // the connection broke: for a response stream, a stream end like any other (resume if we can)
    });
  }

  /**
   * The optional GET stream for server-initiated messages; 405 (or any
   * refusal) means the server offers none. Once it has been open, it is how
   * the client learns that the server went away (#16 item 6): a stream that
   * breaks (not one the server ends) is reported `reconnecting` at once and
   * reopened, at once unless the server asked for a `retry`; each attempt
   * the server does not answer is reported with the next one's time, and
   * after the reconnect policy's attempts the transport ends. Any HTTP
   * answer means the server is back (`connected`); one that refuses the
   * session it had (404, 410, or 400 saying so) reports it expired, and the
   * client runs the handshake again, which opens a new stream.
   */
  private listen(): void {
    this.listener?.abort();
    const controller = new AbortController();
    this.listener = controller;
    const session = this.sessionId;
    const stopped = () => controller.signal.aborted || this.ended || this.closing;
    void (async () => {
      const cursor: StreamCursor = {};
      /** A stream of this session has been open: a refusal from now on is about the session. */
      let opened = false;
      /** When the server stopped answering, while it does not. */
      let outageSince: number | undefined;
      let unreachable = 0;
      for (let attempt = 0; !stopped(); ) {
        let response: HttpAnswer;
        try {
          const headers = this.headersFor({ accept: 'text/event-stream', ...this.sessionHeaders(), ...(cursor.lastEventId ? { 'last-event-id': cursor.lastEventId } : {}) });
          response = await this.request(this.url, { method: 'GET', headers }, undefined, controller.signal);
        } catch (error) {
          if (stopped()) return;
          // No HTTP answer at all (the stream may not even have been open yet): the server went away.
          unreachable++;
          outageSince ??= Date.now();
          if (unreachable >= this.reconnectPolicy.maxAttempts) {
            this.finish({ reason: 'transport', cause: new Error(`the server could not be reached to reopen its event stream (${unreachable} attempts over ${Date.now() - outageSince} ms; the last: ${this.describe(error)})`) });
            return;
          }
          const wait = nextDelay(unreachable - 1, this.reconnectPolicy);
          this.reportState({ state: 'reconnecting', since: outageSince, nextAttemptAt: Date.now() + wait, reason: `the server does not answer (${this.describe(error)})` });
          await sleep(wait, controller.signal).catch(() => {});
          continue;
        }
        // An HTTP answer of any kind: the server is there.
        if (outageSince !== undefined || unreachable > 0) this.reportState({ state: 'connected' });
        outageSince = undefined;
        unreachable = 0;
        if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
          // 405: no stream offered. Loose servers answer 400 or 404; tolerated the same way, unless a stream of this session was open before.
          const status = response.status;
          const body = status === 400 && opened ? await this.errorBody(response, undefined) : (await response.body?.cancel().catch(() => {}), '');
          if (opened && session !== undefined && (status === 404 || status === 410 || (status === 400 && saysSessionUnknown(body)))) {
            this.sessionExpired(session);
            this.handlers?.onSessionExpired();
          }
          return;
        }
        opened = true;
        const seenBefore = cursor.lastEventId;
        const end = await this.consume(response, cursor, undefined, () => {}).catch(() => 'ended' as const);
        if (stopped()) return;
        if (end === 'too-large') {
          this.handlers?.onDiagnostic?.({ kind: 'invalid-message', server: this.server, detail: `an event on the GET stream exceeded ${this.maxMessageBytes} bytes; the stream was dropped`, excerpt: '' });
        }
        attempt = cursor.lastEventId !== seenBefore ? 0 : attempt + 1;
        if (attempt >= this.reconnectPolicy.maxAttempts) return;
        if (end === 'dropped') {
          // The connection broke under the stream: the server may be gone. Held requests wait (bounded) until we know.
          outageSince = Date.now();
          const wait = cursor.retryMs ?? 0;
          this.reportState({ state: 'reconnecting', since: outageSince, nextAttemptAt: outageSince + wait, reason: 'the event stream dropped' });
          if (wait > 0) await sleep(wait, controller.signal).catch(() => {});
          continue;
        }
        await sleep(cursor.retryMs ?? nextDelay(attempt, this.reconnectPolicy), controller.signal).catch(() => {});
      }
    })();
  }
}

/**
 * The methods whose `name` (or `uri`) is mirrored as Mcp-Name (2026-07-28
 * "Standard Request Headers"), and the tasks extension's (SEP-2663 "Routing
 * Headers": its `taskId`, so that a load balancer routes each poll to the
 * instance holding the task).
 */
export const NAMED_METHODS: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};
const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

/** MCP-Protocol-Version (the body's own, so the two cannot disagree), Mcp-Method and Mcp-Name for one POST. */
export function modernHeaders(message: JsonRpcMessage, fallbackVersion: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!('method' in message)) return headers;
  const params = isObject(message.params) ? message.params : undefined;
  const meta = params && isObject(params._meta) ? params._meta : undefined;
  const version = typeof meta?.[PROTOCOL_VERSION_META_KEY] === 'string' ? (meta[PROTOCOL_VERSION_META_KEY] as string) : fallbackVersion;
  if (version !== undefined) headers['mcp-protocol-version'] = version;
  headers['mcp-method'] = message.method;
  const field = NAMED_METHODS[message.method];
  const name = field && params ? params[field] : undefined;
  if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
  return headers;
}

/** Error codes only a 2026-07-28 server sends: HeaderMismatch, MissingRequiredClientCapability, UnsupportedProtocolVersion. */
const MODERN_ERROR_CODES = new Set([-32020, -32021, -32022]);

/**
 * The JSON-RPC error response in a 4xx body that answers request `id`, or
 * undefined. In the modern era any error with the request's id is its
 * answer; in the 2025 era only a modern code is (a legacy server's 4xx
 * bodies are about the session, with a null id), so a modern server met by
 * a 2025 request is recognised as such, not taken for a legacy HTTP+SSE one.
 */
function rpcErrorAnswer(body: string, id: JsonRpcId, modern: boolean): unknown {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isObject(value) || !isObject(value.error) || typeof value.error.code !== 'number') return undefined;
  const code = value.error.code;
  if (value.id === id && (modern || MODERN_ERROR_CODES.has(code))) return value;
  if ((value.id === null || value.id === undefined) && MODERN_ERROR_CODES.has(code)) return { ...value, id };
  return undefined;
}

/**
 * Whether the body of a 400 says the server does not know the session: the
 * SDK's examples and server-everything say "Bad Request: No valid session
 * ID provided", a restarted single-session SDK server "Bad Request: Server
 * not initialized", others "Session not found" or "invalid session".
 */
export function saysSessionUnknown(body: string): boolean {
  return UNKNOWN_SESSION.test(body);
}

const UNKNOWN_SESSION = /no valid session|session(?: id)? (?:not found|unknown|invalid|expired|is invalid|is unknown|has expired|does not exist)|(?:unknown|invalid|expired) session|server not initialized/i;

/** Whether a decoded message (or batch) holds the answer to request `id`, valid or not: the stream's work is then done. */
function isAnswerTo(value: unknown, id: JsonRpcId): boolean {
  if (Array.isArray(value)) return value.some((item) => isAnswerTo(item, id));
  // Any object without a method that carries the id: a valid answer or a malformed one, the Connection sorts it out.
  return isObject(value) && !('method' in value) && value.id === id;
}
