// A JSON-RPC 2.0 peer over any Transport (W4–W8): allocates request ids,
// correlates answers (the only place that does), runs each request's timeout
// and AbortSignal, answers the server's requests, and fails everything
// pending, at once and with one typed error, when the transport ends. Knows
// no MCP method but `ping`, `notifications/cancelled` and
// `notifications/progress`, which are wire-level. When the transport reports
// an expired session it holds new messages back while its owner runs the
// handshake again (`renewSession`), then sends them, and sends once more the
// messages the server refused for that reason.

import { AuthError, ClosedError, MessageTooLargeError, ProtocolError, RpcError, rpcErrorFor, SessionExpiredError, TimeoutError, type ErrorSite, type McpClientError } from '../errors.js';
import { excerpt, scrubDiagnostic, type Diagnostic, type DiagnosticHook } from '../diagnostics.js';
import { ErrorCodes } from '../jsonrpc/codes.js';
import {
  classify,
  isId,
  isObject,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '../jsonrpc/message.js';
import { ACCEPTS_REQUEST_SIGNAL, type SendOptions, type TransportState, type Transport, type TransportEnd } from '../transport/transport.js';
import { ChurnMap } from '../util/churn-map.js';
import { DeadlineQueue, type Deadline } from '../util/deadlines.js';
import type { TraceContext } from './trace-context.js';
import { withMeta } from './request-meta.js';

/** W7 [kaged]: every request has a timeout; 30 s unless the caller says otherwise. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** With resetTimeoutOnProgress, a request still ends after this long in total unless told otherwise. */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 10 * 60_000;
/**
 * How long a request waits while the transport reconnects a dropped stream
 * before it fails with ClosedError 'unavailable' (#16 item 6): long enough
 * for the first reconnect attempt (0.5 s) and a new handshake after a blip,
 * far shorter than the reconnect schedule (15.5 s) a call used to wait out.
 */
export const DEFAULT_RECONNECT_WAIT_MS = 1_000;
/** How many abandoned (timed-out or aborted) ids are remembered so their late answers drop quietly. */
export const ABANDONED_IDS_KEPT = 1024;
/** A request without options shares this one (read only), rather than allocating its own. */
const NO_OPTIONS: RequestOptions = Object.freeze({});

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export interface RequestOptions {
  /** Per-request timeout in ms. Default: the connection's default (30 s). */
  timeoutMs?: number;
  /** Aborting rejects the request with `signal.reason`, untouched, and sends notifications/cancelled. */
  signal?: AbortSignal;
  /** Called for each notifications/progress the server sends for this request. Sets a progressToken. */
  onProgress?: (update: ProgressUpdate) => void;
  /**
   * Restart the timeout each time the server reports progress for this
   * request, so a long tool that keeps reporting is not cut off. Works with
   * or without onProgress. Bounded by maxTotalTimeoutMs.
   */
  resetTimeoutOnProgress?: boolean;
  /** Overall cap when resetTimeoutOnProgress is on. Default 10 minutes. */
  maxTotalTimeoutMs?: number;
  /**
   * The trace context for this request (#17 item 6), in place of what the
   * client's `traceContext` hook would say. Sent in `_meta` (and as HTTP
   * headers); a value not of its W3C form is dropped with a diagnostic.
   */
  traceContext?: TraceContext;
  /**
   * Entries added to this request's params._meta (trace context, task
   * augmentation, …), beside those the connection adds itself (#17).
   */
  meta?: Record<string, unknown>;
  /** HTTP headers for this request only (the 2026-07-28 Mcp-Param-* of a tools/call); ignored by stdio. */
  headers?: Record<string, string>;
}

export interface RequestContext {
  id: JsonRpcId;
  /** Aborted when the server cancels its request or the connection ends. */
  signal: AbortSignal;
}

/** Handles one server-initiated request; the returned value is the result. Throw an RpcError to answer with its code. */
export type RequestHandler = (params: Record<string, unknown> | undefined, context: RequestContext) => unknown;

export interface ConnectionOptions {
  defaultTimeoutMs?: number;
  onNotification?: (notification: JsonRpcNotification) => void;
  onDiagnostic?: DiagnosticHook;
  /**
   * Called once when the connection ends, after every pending request has
   * been rejected, however it ends: the transport could not start, the
   * server went away, or close().
   */
  onClose?: (end: TransportEnd) => void;
  /**
   * Runs the handshake again after the transport reported an expired session,
   * through `handshakeChannel()`. While it runs, other messages wait; if it
   * fails, the connection ends with its error. Without it, an expired session
   * fails the message that met it.
   */
  renewSession?: () => Promise<void>;
  /** The transport's stream dropped or is back (see McpClientOptions.onConnectionState). */
  onConnectionState?: (state: TransportState) => void;
  /** See McpClientOptions.reconnectWaitMs. Default DEFAULT_RECONNECT_WAIT_MS. */
  reconnectWaitMs?: number;
  /**
   * The trace context's `params._meta` entries for a request, asked once per
   * request, the handshake's included. They win over the caller's entries of the same name.
   */
  traceMeta?: (method: string, options: RequestOptions) => Record<string, unknown> | undefined;
  /** Entries for every request's params._meta, by method (see McpClientOptions.requestMeta). */
  requestMeta?: (method: string, params: Record<string, unknown> | undefined) => Record<string, unknown> | undefined;
}

/** While the transport reconnects: what it said, and a promise that settles when it is back or gone. */
interface Outage {
  state: Extract<TransportState, { state: 'reconnecting' }>;
  over: Promise<void>;
  end(): void;
}

/** Request and notify that pass while a session renewal holds other messages back: the handshake's own. */
export interface HandshakeChannel {
  readonly server: string;
  readonly transport: Transport;
  request(method: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<unknown>;
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /**
   * A request with a string id (`mcpwire-probe-N`), which cannot collide with
   * the numeric ids of other requests and takes none of them: the era probe
   * (#17), so a fallback `initialize` still goes out as id 0.
   */
  probe(method: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<unknown>;
  /** Sets (or with undefined, clears) the `_meta` entries every request carries from now on: the modern envelope. */
  setEnvelope(meta: Record<string, unknown> | undefined): void;
}

interface Pending {
  id: JsonRpcId;
  method: string;
  resolve(result: unknown): void;
  reject(error: unknown): void;
  deadline: Deadline | undefined;
  timeoutMs: number;
  startedAt: number;
  options: RequestOptions;
  removeAbortListener: (() => void) | undefined;
  /** Tells the transport the request was given up (only for transports that use request signals). */
  abandonSignal: Abandon | undefined;
  /** Handed to the transport (not waiting for a renewal): its answer can be lost. */
  sent: boolean;
  /** Already sent again once after an expired session. */
  resent: boolean;
  /** One of the handshake's own requests: never held back. */
  handshake: boolean;
  /** Fails the request if the transport is still reconnecting when it runs out (reconnectWaitMs). */
  outageTimer: NodeJS.Timeout | undefined;
}

/** idle → open → closing (our close(), waiting for the transport) → closed; or open → closed when the transport ends. */
export type ConnectionState = 'idle' | 'open' | 'closing' | 'closed';

export class Connection {
  private currentState: ConnectionState = 'idle';
  private nextId = 0;
  private probes = 0;
  /** The modern era's per-request `_meta` (#17 item 2), set by the handshake; undefined in the legacy era. */
  private envelope: Record<string, unknown> | undefined;
  /** What the handshake set as the envelope, before the owner's entries (envelopeEntries) joined it. */
  private handshakeEnvelope: Record<string, unknown> | undefined;
  /** The owner's entries for the modern envelope (the requested log level); never sent in the legacy era. */
  private envelopeExtra: Record<string, unknown> | undefined;
  /** A ChurnMap, not a Map: one set and one delete per request would otherwise keep every request reachable between full GCs (churn-map.ts). */
  private pending = new ChurnMap<JsonRpcId, Pending>();
  /** The pending requests' timeouts: one timer per distinct duration, not one per request. */
  private readonly deadlines = new DeadlineQueue();
  private abandoned = new Set<JsonRpcId>();
  private readonly handlers = new Map<string, RequestHandler>();
  private readonly serverRequests = new Map<JsonRpcId, AbortController>();
  private end: TransportEnd | undefined;
  private readonly defaultTimeoutMs: number;
  /** Settles when the handshake run for an expired session is over; new messages wait for it. */
  private renewal: Promise<void> | undefined;
  /** Another expiry was reported while the renewal ran (a legacy SSE stream that dropped again). */
  private expiredDuringRenewal = false;
  /** Counts renewals begun: a message refused for a session older than the current one is just sent again. */
  private sessionEpoch = 0;
  private readonly ended: Promise<TransportEnd>;
  private resolveEnded!: (end: TransportEnd) => void;
  /** Set while the transport reconnects a dropped stream: requests wait for it, for reconnectWaitMs at most. */
  private outage: Outage | undefined;

  constructor(
    readonly transport: Transport,
    private readonly options: ConnectionOptions = {},
  ) {
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    // MCP basic utilities: "The receiver MUST respond promptly with an empty response."
    this.handlers.set('ping', () => ({}));
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
  }

  get server(): string {
    return this.transport.server;
  }

  get state(): ConnectionState {
    return this.currentState;
  }

  /** The transport's report while it reconnects a dropped stream, else undefined. */
  get reconnecting(): Extract<TransportState, { state: 'reconnecting' }> | undefined {
    return this.outage?.state;
  }

  /** Settles once, with how the connection ended, whatever ended it. Never rejects. */
  get closed(): Promise<TransportEnd> {
    return this.ended;
  }

  private scrub(text: string): string {
    return this.transport.scrub ? this.transport.scrub(text) : text;
  }

  /** Every diagnostic, the transport's too, leaves through here: scrubbed of the transport's secrets (T4). */
  private diagnose(diagnostic: Diagnostic): void {
    const hook = this.options.onDiagnostic;
    if (hook) hook(this.transport.scrub ? scrubDiagnostic(diagnostic, (text) => this.scrub(text)) : diagnostic);
  }

  /** Installs (or with undefined, removes) the handler for a server-initiated request method. */
  setRequestHandler(method: string, handler: RequestHandler | undefined): void {
    if (handler) this.handlers.set(method, handler);
    else this.handlers.delete(method);
  }

  /** The handler installed for a server request method (#17 item 3: input_required rounds answer through the same handlers). */
  requestHandler(method: string): RequestHandler | undefined {
    return this.handlers.get(method);
  }

  async open(): Promise<void> {
    if (this.currentState !== 'idle') throw new Error(`Connection.open(): the connection is ${this.currentState}, not idle`);
    this.currentState = 'open';
    try {
      await this.transport.start({
        onMessage: (value) => this.receive(value),
        onAnswersLost: (ids, error) => this.answersLost(ids, error),
        onSessionExpired: () => this.renewSession(),
        onConnectionState: (state) => this.connectionState(state),
        onClose: (end) => this.ending(end, 'closed'),
        onDiagnostic: this.options.onDiagnostic && ((d) => this.diagnose(d)),
      });
    } catch (error) {
      // The transport says why, in its own terms; requests made later get the same story.
      this.ending(endOf(error), 'closed');
      throw error;
    }
  }

  /** For the handshake: requests and notifications that are not held back while a renewal runs. */
  handshakeChannel(): HandshakeChannel {
    return {
      server: this.server,
      transport: this.transport,
      request: (method, params, options) => this.startRequest(method, params, options ?? NO_OPTIONS, true),
      notify: (method, params) => this.sendNotification(method, params, true),
      probe: (method, params, options) => this.startRequest(method, params, options ?? NO_OPTIONS, true, `mcpwire-probe-${++this.probes}`),
      setEnvelope: (meta) => {
        this.handshakeEnvelope = meta;
        this.joinEnvelope();
      },
    };
  }

  /**
   * Entries every request carries in `_meta` while the modern envelope is
   * set (the 2026-07-28 `io.modelcontextprotocol/logLevel`), merged once
   * here rather than per request; undefined removes them. The legacy era
   * (no envelope) sends none of them.
   */
  setEnvelopeEntries(entries: Record<string, unknown> | undefined): void {
    this.envelopeExtra = entries;
    this.joinEnvelope();
  }

  private joinEnvelope(): void {
    const base = this.handshakeEnvelope;
    this.envelope = base && this.envelopeExtra ? { ...base, ...this.envelopeExtra } : base;
  }

  request(method: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<unknown> {
    return this.startRequest(method, params, options ?? NO_OPTIONS, false);
  }

  private startRequest(method: string, params: Record<string, unknown> | undefined, options: RequestOptions, handshake: boolean, probeId?: string): Promise<unknown> {
    if (this.currentState !== 'open') return Promise.reject(this.closedError(method));
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);

    const id = probeId ?? this.nextId++;
    const hooked = this.options.requestMeta?.(method, params);
    if (this.envelope || hooked || options.meta) params = withMeta(params, this.envelope, hooked, options.meta);
    const wantsProgress = options.onProgress !== undefined || options.resetTimeoutOnProgress === true;
    if (wantsProgress) {
      // MCP progress: the token travels in params._meta; the request id is unique, so it serves as the token.
      const meta = isObject(params?._meta) ? params._meta : {};
      params = { ...params, _meta: { ...meta, progressToken: id } };
    }
    const extraMeta = this.options.traceMeta?.(method, options);
    if (extraMeta) params = { ...params, _meta: { ...(isObject(params?._meta) ? params._meta : {}), ...extraMeta } };
    const message: JsonRpcRequest = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };

    return new Promise<unknown>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
      const now = Date.now();
      const entry: Pending = {
        id,
        method,
        resolve,
        reject,
        deadline: undefined,
        timeoutMs,
        startedAt: now,
        options,
        removeAbortListener: undefined,
        abandonSignal: this.transport.usesRequestSignals ? abandonFor(this.transport) : undefined,
        sent: false,
        resent: false,
        handshake,
        outageTimer: undefined,
      };
      entry.deadline = this.deadlines.schedule(timeoutMs, this.timedOut, entry, now);
      if (signal) {
        const onAbort = () => this.abandon(id, signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        entry.removeAbortListener = () => signal.removeEventListener('abort', onAbort);
      }
      this.pending.set(id, entry);
      this.transmitRequest(id, entry, message, handshake);
    });
  }

  /** Hands a request to the transport, after any renewal in progress; a refusal for an expired session sends it once more. */
  private transmitRequest(id: JsonRpcId, entry: Pending, message: JsonRpcRequest, handshake: boolean): void {
    if (this.outage && !handshake) {
      this.waitOutOutage(id, entry);
      void this.outage.over.then(() => {
        if (this.pending.get(id) === entry) this.transmitRequest(id, entry, message, false);
      });
      return;
    }
    if (this.renewal && !handshake) {
      void this.renewal.then(() => {
        if (this.pending.get(id) === entry) this.transmitRequest(id, entry, message, false);
      });
      return;
    }
    const epoch = this.sessionEpoch;
    const headers = entry.options.headers;
    const signal = entry.abandonSignal?.signal;
    const options: SendOptions | undefined = signal ? (headers ? { signal, headers } : { signal }) : undefined;
    entry.sent = true;
    this.transport.send(message, options).catch((error: unknown) => {
      if (this.pending.get(id) !== entry) return;
      if (error instanceof SessionExpiredError && !handshake && !entry.resent && this.options.renewSession) {
        entry.resent = true;
        entry.sent = false;
        if (epoch === this.sessionEpoch) this.renewSession();
        this.transmitRequest(id, entry, message, false);
        return;
      }
      this.settle(id, entry).reject(this.currentState === 'open' ? this.siteError(entry.method, error) : this.closedError(entry.method));
    });
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.sendNotification(method, params, false);
  }

  private sendNotification(method: string, params: Record<string, unknown> | undefined, handshake: boolean): Promise<void> {
    if (this.currentState !== 'open') return Promise.reject(this.closedError(method));
    const message: JsonRpcNotification = params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    return this.transmit(message, handshake, true);
  }

  /** Sends a notification or a response, after any renewal in progress; `resend` allows one more try after an expired session. */
  private async transmit(message: JsonRpcMessage, handshake: boolean, resend: boolean): Promise<void> {
    while (this.outage && !handshake) await this.outage.over;
    if (this.renewal && !handshake) await this.renewal;
    if (this.currentState !== 'open') throw this.closedError('method' in message ? message.method : undefined);
    const epoch = this.sessionEpoch;
    try {
      await this.transport.send(message);
    } catch (error) {
      if (!(error instanceof SessionExpiredError) || handshake || !resend || !this.options.renewSession) throw error;
      if (epoch === this.sessionEpoch) this.renewSession();
      return this.transmit(message, false, false);
    }
  }

  /**
   * The transport's stream dropped (or is back). While it is down, requests
   * (not the handshake's) are held; each fails with ClosedError
   * 'unavailable', naming the next attempt, once it has waited
   * reconnectWaitMs; those held when it comes back go out (after the renewed
   * handshake, for a legacy SSE stream, whose new stream is a new session).
   */
  private connectionState(state: TransportState): void {
    if (this.currentState !== 'open') return;
    if (state.state === 'reconnecting') {
      if (this.outage) {
        this.outage.state = state;
      } else {
        let end!: () => void;
        const over = new Promise<void>((resolve) => (end = resolve));
        this.outage = { state, over, end };
        // Those already waiting (at the renewal gate) get the same bound as those that come now.
        for (const [id, entry] of this.pending) if (!entry.sent && !entry.handshake) this.waitOutOutage(id, entry);
      }
    } else {
      this.endOutage();
    }
    try {
      this.options.onConnectionState?.(state);
    } catch (error) {
      this.diagnose({ kind: 'handler-error', server: this.server, method: 'onConnectionState', error });
    }
  }

  private endOutage(): void {
    const outage = this.outage;
    if (!outage) return;
    this.outage = undefined;
    for (const entry of this.pending.values()) {
      if (entry.outageTimer) clearTimeout(entry.outageTimer);
      entry.outageTimer = undefined;
    }
    outage.end();
  }

  /** Starts a held request's wait for the reconnect, once; at its end, a request still held fails as unavailable. */
  private waitOutOutage(id: JsonRpcId, entry: Pending): void {
    if (entry.outageTimer) return;
    const waitMs = this.options.reconnectWaitMs ?? DEFAULT_RECONNECT_WAIT_MS;
    const giveUp = () => {
      entry.outageTimer = undefined;
      if (this.pending.get(id) !== entry || entry.sent || !this.outage) return;
      this.settle(id, entry).reject(this.unavailableError(entry.method));
    };
    if (waitMs <= 0) return giveUp();
    entry.outageTimer = setTimeout(giveUp, waitMs);
    entry.outageTimer.unref?.();
  }

  /** What a request gets while the transport reconnects: reason 'unavailable', the drop's reason, the next attempt's time. */
  unavailableError(method?: string): ClosedError {
    const state = this.outage?.state;
    const next = state?.nextAttemptAt;
    const detail = state
      ? `${state.reason}; reconnecting since ${new Date(state.since).toISOString()}${next === undefined ? '' : `, next attempt at ${new Date(next).toISOString()}`}`
      : 'the connection is being reestablished';
    return new ClosedError({ server: this.server, method }, { reason: 'unavailable', nextAttemptAt: next, cause: new Error(detail) });
  }

  /**
   * The transport reported an expired session: hold new messages back and
   * have the owner run the handshake again. Reports that arrive while it
   * runs are the same expiry, unless the renewal then fails: then it is tried
   * again (a legacy SSE stream that dropped once more during the handshake).
   */
  private renewSession(): void {
    const renew = this.options.renewSession;
    if (this.currentState !== 'open' || !renew) return;
    if (this.renewal) {
      this.expiredDuringRenewal = true;
      return;
    }
    this.renewal = (async () => {
      for (;;) {
        this.expiredDuringRenewal = false;
        // A new epoch from the start: a refusal that arrives meanwhile for a message of the old session is
        // that same expiry (its message waits at the gate and goes again), not a reason to renew once more.
        this.sessionEpoch++;
        try {
          await renew();
          return;
        } catch (error) {
          if (this.currentState !== 'open') return;
          if (!this.expiredDuringRenewal) {
            // A refused credential stays one, so that requests fail with AuthError (#16 item 8); anything else is a transport failure.
            this.ending(error instanceof AuthError ? endOf(error) : { reason: 'transport', cause: error }, 'closed');
            void this.transport.close();
            return;
          }
        }
      }
    })().finally(() => {
      this.renewal = undefined;
    });
  }

  /**
   * Graceful and idempotent. Whatever is pending rejects with a ClosedError
   * at once (L2), not when the server finally exits: a server that ignores
   * shutdown can take three grace periods to die. Resolves when the
   * transport has shut down.
   */
  async close(options: { force?: boolean; hurry?: boolean } = {}): Promise<void> {
    if (this.currentState === 'idle') {
      this.ending({ reason: 'closed' }, 'closed');
      return;
    }
    if (this.currentState === 'open') this.ending({ reason: 'closed' }, 'closing');
    await (options.force && this.transport.kill ? this.transport.kill() : options.hurry && this.transport.hurry ? this.transport.hurry() : this.transport.close());
    this.currentState = 'closed';
  }

  // --- timeouts, aborts, settling -------------------------------------------------

  /** A request's timeout ran out: one function for every request's deadline, not a closure per request (#20 item 2). */
  private readonly timedOut = (entry: Pending): void => this.abandon(entry.id, new TimeoutError({ server: this.server, method: entry.method }, entry.timeoutMs));

  private settle(id: JsonRpcId, entry: Pending): Pending {
    this.pending.delete(id);
    if (entry.deadline) this.deadlines.cancel(entry.deadline);
    if (entry.outageTimer) clearTimeout(entry.outageTimer);
    entry.removeAbortListener?.();
    return entry;
  }

  /** The transport says these answers cannot arrive: fail those requests now ('all': those it was handed, not those waiting for a renewal). */
  private answersLost(ids: readonly JsonRpcId[] | 'all', error: McpClientError): void {
    for (const id of ids === 'all' ? this.pending.keys() : ids) {
      const entry = this.pending.get(id);
      if (entry && entry.sent) this.settle(id, entry).reject(this.siteError(entry.method, error));
    }
  }

  /** Timeout or abort: stop waiting, tell the server (W7), remember the id so a late answer drops quietly. */
  private abandon(id: JsonRpcId, reason: unknown): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.settle(id, entry);
    this.abandoned.add(id);
    if (this.abandoned.size > ABANDONED_IDS_KEPT) this.abandoned.delete(this.abandoned.values().next().value!);
    // MCP lifecycle: "The initialize request MUST NOT be cancelled by clients." A request still held at the
    // renewal gate never reached the server: there is nothing to cancel there.
    if (entry.method !== 'initialize' && entry.sent && this.currentState === 'open') {
      const why = reason instanceof TimeoutError ? `timed out after ${entry.timeoutMs} ms` : 'aborted by the client';
      const told = this.notify('notifications/cancelled', { requestId: id, reason: why });
      // The transport may stop the request's work once the server has heard why (an HTTP stream closing).
      const signal = entry.abandonSignal;
      told.then(
        () => signal?.abort(),
        () => signal?.abort(),
      );
    } else {
      entry.abandonSignal?.abort();
    }
    entry.reject(reason);
  }

  private onProgress(params: Record<string, unknown>): void {
    const token = params.progressToken;
    if (typeof token !== 'number' && typeof token !== 'string') return;
    const entry = this.pending.get(token);
    if (!entry || typeof params.progress !== 'number') return;
    const { onProgress, resetTimeoutOnProgress, maxTotalTimeoutMs = DEFAULT_MAX_TOTAL_TIMEOUT_MS } = entry.options;
    if (resetTimeoutOnProgress) {
      if (entry.deadline) this.deadlines.cancel(entry.deadline);
      const left = maxTotalTimeoutMs - (Date.now() - entry.startedAt);
      const site = { server: this.server, method: entry.method };
      const error = left <= entry.timeoutMs
        ? new TimeoutError(site, maxTotalTimeoutMs, ' in total (the overall cap, although the server kept reporting progress)')
        : new TimeoutError(site, entry.timeoutMs, ' since its last progress report');
      entry.deadline = this.deadlines.schedule(Math.min(left, entry.timeoutMs), () => this.abandon(token, error));
    }
    if (onProgress) {
      const update: ProgressUpdate = { progress: params.progress };
      if (typeof params.total === 'number') update.total = params.total;
      if (typeof params.message === 'string') update.message = params.message;
      try {
        onProgress(update);
      } catch (error) {
        this.diagnose({ kind: 'handler-error', server: this.server, method: 'notifications/progress', error });
      }
    }
  }

  // --- incoming ------------------------------------------------------------------

  private receive(value: unknown): void {
    if (Array.isArray(value)) {
      // JSON-RPC 2.0 §6 batches (MCP 2025-03-26 allows them; later revisions dropped them but accepting costs nothing).
      if (value.length === 0) this.report(value, 'an empty batch');
      for (const item of value) this.receiveOne(item);
      return;
    }
    this.receiveOne(value);
  }

  private receiveOne(value: unknown): void {
    const c = classify(value);
    switch (c.kind) {
      case 'response':
        return this.onResponse(c.message);
      case 'notification':
        return this.onNotification(c.message);
      case 'request':
        return this.onRequest(c.message);
      case 'invalid': {
        this.report(value, c.detail);
        // W5, JSON-RPC 2.0 §5.1: a malformed request whose id can be read still gets an answer (-32600).
        if (isObject(value) && 'method' in value && isId(value.id)) {
          this.respond({ jsonrpc: '2.0', id: value.id, error: { code: ErrorCodes.InvalidRequest, message: `Invalid Request: ${c.detail}` } });
          return;
        }
        // An answer to one of our requests that is malformed fails that request now instead of at its timeout.
        const entry = c.id !== undefined ? this.pending.get(c.id) : undefined;
        if (entry && c.id !== undefined) {
          this.settle(c.id, entry).reject(new ProtocolError({ server: this.server, method: entry.method }, `invalid JSON-RPC response: ${c.detail}`));
        }
      }
    }
  }

  private report(message: unknown, detail: string): void {
    // Scrubbed before it is cut: a cut through a secret would leave its first characters, which no scrubber matches.
    if (this.options.onDiagnostic) this.diagnose({ kind: 'invalid-message', server: this.server, detail, excerpt: excerpt(this.scrub(JSON.stringify(message) ?? String(message))) });
  }

  private onResponse(response: JsonRpcResponse): void {
    const id = response.id;
    const entry = id === null ? undefined : this.pending.get(id);
    if (!entry) {
      if (id !== null && this.abandoned.delete(id)) {
        this.diagnose({ kind: 'late-response', server: this.server, id });
      } else {
        this.diagnose({ kind: 'unknown-response', server: this.server, id });
      }
      return;
    }
    this.settle(id!, entry);
    if ('error' in response) {
      const { code, message, data } = response.error;
      // The server's message goes into our error text: scrub any credential it echoes (T4).
      const cleanData = data === undefined || !this.transport.scrub ? data : (JSON.parse(this.scrub(JSON.stringify(data))) as unknown);
      entry.reject(rpcErrorFor({ server: this.server, method: entry.method }, code, this.scrub(message), cleanData));
    } else {
      entry.resolve(response.result);
    }
  }

  private onNotification(notification: JsonRpcNotification): void {
    const params = notification.params;
    if (notification.method === 'notifications/progress' && params) this.onProgress(params);
    else if (notification.method === 'notifications/cancelled' && params) {
      const requestId = params.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.serverRequests.get(requestId)?.abort();
    }
    const hook = this.options.onNotification;
    if (!hook) return;
    try {
      hook(notification);
    } catch (error) {
      this.diagnose({ kind: 'handler-error', server: this.server, method: notification.method, error });
    }
  }

  /** W5: every server request gets an answer: the handler's result, its RpcError, or -32601. */
  private onRequest(request: JsonRpcRequest): void {
    const { id, method } = request;
    const handler = this.handlers.get(method);
    if (!handler) {
      this.respond({ jsonrpc: '2.0', id, error: { code: ErrorCodes.MethodNotFound, message: 'Method not found' } });
      return;
    }
    const controller = new AbortController();
    this.serverRequests.set(id, controller);
    new Promise<unknown>((resolve) => resolve(handler(request.params, { id, signal: controller.signal })))
      .then(
        (result) => ({ jsonrpc: '2.0', id, result: result ?? {} }) as const,
        (error: unknown) => {
          if (error instanceof RpcError) return { jsonrpc: '2.0', id, error: { code: error.rpcCode, message: error.rpcMessage, data: error.data } } as const;
          this.diagnose({ kind: 'handler-error', server: this.server, method, error });
          return { jsonrpc: '2.0', id, error: { code: ErrorCodes.InternalError, message: 'Internal error' } } as const;
        },
      )
      .then((response) => {
        this.serverRequests.delete(id);
        // MCP cancellation: the receiver of a cancelled request SHOULD NOT send a response.
        if (!controller.signal.aborted) this.respond(response);
      });
  }

  private respond(response: JsonRpcResponse): void {
    if (this.currentState !== 'open') return;
    // Not sent again after an expired session: the request it answers belonged to the old one.
    this.transmit(response, false, false).catch(() => {
      // The transport is gone (its onClose reports that), or the session the request came from is.
    });
  }

  // --- end -----------------------------------------------------------------------

  /** The connection ends: record why, fail everything pending, tell the owner. Once. */
  private ending(end: TransportEnd, state: 'closing' | 'closed'): void {
    if (this.end) {
      if (this.currentState !== 'closing') this.currentState = 'closed';
      return;
    }
    this.currentState = state;
    this.end = end;
    // Swap the map out first: a rejection callback that re-enters cannot see a half-cleared map.
    const pending = this.pending;
    this.pending = new ChurnMap();
    for (const [id, entry] of pending) this.settle(id, entry).reject(this.closedError(entry.method));
    this.endOutage();
    for (const controller of this.serverRequests.values()) controller.abort();
    this.serverRequests.clear();
    this.resolveEnded(end);
    this.options.onClose?.(end);
  }

  /** W8: a transport's error knows the server but not the request; name it. */
  private siteError(method: string, error: unknown): unknown {
    if (!(error instanceof ClosedError) || error.method !== undefined) return error;
    if (error instanceof SessionExpiredError) return new SessionExpiredError({ server: this.server, method }, error.status ?? 404);
    if (error instanceof AuthError) return new AuthError({ server: this.server, method }, error.status ?? 401);
    const { reason, exitCode, signal, stderrTail, status, cause } = error;
    return new ClosedError({ server: this.server, method }, { reason, exitCode, signal, stderrTail, status, cause });
  }

  /** The error a request gets when the connection is (or goes) away, naming the method. */
  closedError(method?: string): McpClientError {
    const site = { server: this.server, method };
    return this.end ? errorForEnd(site, this.end) : new ClosedError(site, { reason: 'not-connected' });
  }
}

/** How the Connection tells a transport it gave up on a request: the signal handed to send(), and what aborts it. */
interface Abandon {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

/**
 * A request's abandon signal: the cheap look-alike for the transports that
 * say they take one (mcpwire's own, ACCEPTS_REQUEST_SIGNAL), a real
 * AbortController for any other: a host's transport may hand the signal to
 * AbortSignal.any(), which follows only the real kind.
 */
function abandonFor(transport: Transport): Abandon {
  return (transport as { [ACCEPTS_REQUEST_SIGNAL]?: boolean })[ACCEPTS_REQUEST_SIGNAL] === true ? new RequestSignal() : new AbortController();
}

/**
 * The signal a request's transport gets, to learn that the Connection gave
 * up on the request (SendOptions.signal): an AbortSignal to whoever reads
 * it (aborted, reason, onabort, 'abort' events whose target it is), built
 * on a plain EventTarget. A real AbortSignal costs microseconds to create on
 * Node 20, and its first listener more (a fresh AbortController's signal
 * with one listener added and removed: ~10 us under load, against ~0.5 us
 * for this), which every request over HTTP paid (#20 item 2). Not one for
 * AbortSignal.any(), which takes only the real kind: a consumer that needs
 * one links it (http-client.ts, the fetch path). Handed only to transports
 * that set ACCEPTS_REQUEST_SIGNAL (see abandonFor).
 */
export class RequestSignal extends EventTarget implements AbortSignal {
  aborted = false;
  reason: unknown = undefined;
  onabort: ((this: AbortSignal, event: Event) => unknown) | null = null;

  /** Itself: it is its own controller (Abandon), so a request holds one object, not two. */
  get signal(): AbortSignal {
    return this;
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /** Once, as AbortController.abort(): the reason defaults to an AbortError. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const event = new Event('abort');
    this.onabort?.call(this, event);
    this.dispatchEvent(event);
  }
}

/** The typed error for a connection that ended this way: what its pending requests get. */
export function errorForEnd(site: ErrorSite, end: TransportEnd): McpClientError {
  if (end.reason === 'too-large') return new MessageTooLargeError(site, end.limitBytes);
  // A connection that ended on a refused credential fails its requests the way the refusal did (#16 item 8).
  if (end.reason === 'http' && (end.status === 401 || end.status === 403)) return new AuthError(site, end.status);
  return new ClosedError(site, end);
}

/** How a connection whose transport could not start ended: the transport's own account of it. */
function endOf(error: unknown): TransportEnd {
  if (error instanceof ClosedError) {
    const { reason, exitCode, signal, stderrTail, status, cause } = error;
    return { reason, exitCode, signal, stderrTail, status, cause };
  }
  if (error instanceof MessageTooLargeError) return { reason: 'too-large', limitBytes: error.limitBytes };
  return { reason: 'transport', cause: error };
}
