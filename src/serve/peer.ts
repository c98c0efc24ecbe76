// The server side of one JSON-RPC 2.0 connection: requests from the
// downstream client go to a handler and are answered exactly once; its
// notifications/cancelled aborts the handler's signal; requests this side
// sends (a forwarded sampling request) get ids of their own and wait for
// their answer. It knows no MCP method: protocol.ts gives it the handler.
// It does not frame bytes or own a socket: the caller's `send` does.

import { ErrorCodes } from '../jsonrpc/codes.js';
import { classify, isId, isObject, type JsonRpcId, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest } from '../jsonrpc/message.js';

/** An error answer a handler chose (JSON-RPC 2.0 §5.1): sent as it is. */
export class RpcFault extends Error {
  override readonly name = 'RpcFault' as const;
  constructor(
    readonly rpcCode: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** What a request handler is given besides the params. */
export interface HandlerContext {
  id: JsonRpcId;
  /** Aborted when the client cancels the request or the connection ends. */
  signal: AbortSignal;
  /** Sends a notification that belongs to this request (progress, a log line): over HTTP it goes on the request's stream. */
  notify(method: string, params?: Record<string, unknown>): void;
  /** Sends a request to the client on behalf of this one (over HTTP on the request's stream) and waits for its result. */
  request(method: string, params: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<unknown>;
}

export type PeerHandler = (request: JsonRpcRequest, context: HandlerContext) => Promise<unknown>;

export interface ServerPeerOptions {
  /** Writes one message; `relatedTo` is the client's request it belongs to, when it does. */
  send(message: JsonRpcMessage, relatedTo?: JsonRpcId): void;
  handle: PeerHandler;
  onNotification?(notification: JsonRpcNotification): void;
  /** A message that is not JSON-RPC, or an answer to nothing this side asked. */
  onProblem?(text: string): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * One client request being handled: its context, and its entry in the
 * in-flight map. Methods, not closures, and the AbortController only when
 * the handler asks for the signal (#21 item 1: a controller and two
 * closures per relayed call showed in serve's profile). A request cancelled
 * or cut off before anyone asked for its signal gets one already aborted.
 */
class Call implements HandlerContext {
  private controller: AbortController | undefined;
  /** Why the call was cut off before its signal existed (then the signal is born aborted with it). */
  private abortedWith: Error | undefined;

  constructor(
    private readonly peer: ServerPeer,
    readonly id: JsonRpcId,
  ) {}

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortedWith !== undefined) this.controller.abort(this.abortedWith);
    }
    return this.controller.signal;
  }

  /** Cancelled by the client, or the connection ended. */
  abort(reason: Error): void {
    if (this.controller) this.controller.abort(reason);
    else this.abortedWith ??= reason;
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.peer.notifyFor(this, method, params);
  }

  request(method: string, params: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<unknown> {
    return this.peer.request(method, params, { signal: signal ? AbortSignal.any([signal, this.signal]) : this.signal, relatedTo: this.id });
  }
}

export class ServerPeer {
  private readonly inFlight = new Map<JsonRpcId, Call>();
  private readonly pending = new Map<JsonRpcId, Pending>();
  private nextId = 0;
  private closed = false;

  constructor(private readonly options: ServerPeerOptions) {}

  /** How many client requests are being handled now. */
  get busy(): number {
    return this.inFlight.size;
  }

  /** One decoded JSON value from the client; a batch (JSON-RPC 2.0 §6) is taken apart. */
  receive(value: unknown): void {
    if (Array.isArray(value)) {
      for (const one of value) this.receive(one);
      return;
    }
    const sorted = classify(value);
    switch (sorted.kind) {
      case 'request':
        this.onRequest(sorted.message);
        return;
      case 'notification':
        this.onNotification(sorted.message);
        return;
      case 'response': {
        const { id } = sorted.message;
        const waiter = id === null ? undefined : this.pending.get(id);
        if (!waiter) {
          this.options.onProblem?.(`an answer to no request of this server (id ${JSON.stringify(id)}) was dropped`);
          return;
        }
        this.pending.delete(id!);
        if ('error' in sorted.message) waiter.reject(new RpcFault(sorted.message.error.code, sorted.message.error.message, sorted.message.error.data));
        else waiter.resolve(sorted.message.result);
        return;
      }
      case 'invalid':
        // JSON-RPC 2.0 §5: an invalid request is answered with -32600 (id null when none could be read).
        this.options.onProblem?.(`not JSON-RPC 2.0: ${sorted.detail}`);
        if (isObject(value) && 'method' in value) this.options.send({ jsonrpc: '2.0', id: isId(value.id) ? value.id : null, error: { code: ErrorCodes.InvalidRequest, message: `invalid request: ${sorted.detail}` } });
        return;
    }
  }

  /** Sends a notification that belongs to no request (list_changed). */
  notify(method: string, params?: Record<string, unknown>): void {
    if (!this.closed) this.options.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** A notification that belongs to `call` (progress, a log line): sent only while that call is still being handled. */
  notifyFor(call: Call, method: string, params?: Record<string, unknown>): void {
    if (this.inFlight.get(call.id) === call) this.options.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }, call.id);
  }

  /** Sends a request to the client; rejects with RpcFault on an error answer, or when the connection ends or `signal` aborts. */
  request(method: string, params: Record<string, unknown> | undefined, options: { signal?: AbortSignal; relatedTo?: JsonRpcId } = {}): Promise<unknown> {
    if (this.closed) return Promise.reject(new RpcFault(ErrorCodes.InternalError, 'the downstream client has gone'));
    const id = `mcpwire-${++this.nextId}`;
    return new Promise((resolve, reject) => {
      const { signal } = options;
      const onAbort = () => {
        if (!this.pending.delete(id)) return;
        // MCP basic/utilities/cancellation: the side that sent a request may cancel it.
        this.options.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'the upstream request was cancelled' } }, options.relatedTo);
        reject(signal!.reason);
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = <T>(fn: (v: T) => void) => (v: T) => {
        signal?.removeEventListener('abort', onAbort);
        fn(v);
      };
      this.pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
      this.options.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) } as JsonRpcRequest, options.relatedTo);
    });
  }

  /** The connection ended: every handler's signal aborts, and every request this side sent fails. Idempotent. */
  close(why = 'the downstream client has gone'): void {
    if (this.closed) return;
    this.closed = true;
    const inFlight = [...this.inFlight.values()];
    this.inFlight.clear();
    for (const call of inFlight) call.abort(new Error(why));
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const waiter of pending) waiter.reject(new RpcFault(ErrorCodes.InternalError, why));
  }

  private onNotification(notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/cancelled') {
      // MCP basic/utilities/cancellation: "The receiver ... SHOULD stop processing the cancelled request ... and not send a response."
      const requestId = notification.params?.requestId;
      const call = isId(requestId) ? this.inFlight.get(requestId) : undefined;
      if (call) {
        this.inFlight.delete(requestId as JsonRpcId);
        call.abort(new Error(typeof notification.params?.reason === 'string' ? notification.params.reason : 'cancelled by the client'));
      }
      return;
    }
    this.options.onNotification?.(notification);
  }

  private onRequest(request: JsonRpcRequest): void {
    if (this.closed) return;
    const { id } = request;
    if (this.inFlight.has(id)) {
      this.options.send({ jsonrpc: '2.0', id, error: { code: ErrorCodes.InvalidRequest, message: `request id ${JSON.stringify(id)} is already in use by a request not yet answered` } }, id);
      return;
    }
    const call = new Call(this, id);
    this.inFlight.set(id, call);
    void this.run(request, call);
  }

  /** Runs the handler and answers once; one promise per request, no closures. A cancelled request is not answered (its id left the map when the cancellation came). */
  private async run(request: JsonRpcRequest, call: Call): Promise<void> {
    let message: JsonRpcMessage;
    try {
      message = { jsonrpc: '2.0', id: call.id, result: (await this.options.handle(request, call)) ?? {} };
    } catch (error) {
      message = { jsonrpc: '2.0', id: call.id, error: errorObject(error) };
    }
    if (this.inFlight.get(call.id) !== call) return;
    this.inFlight.delete(call.id);
    if (!this.closed) this.options.send(message, call.id);
  }
}

function errorObject(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof RpcFault) return { code: error.rpcCode, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
  // Anything else is this server's own failure: its message (already scrubbed by the tool source) and no stack.
  return { code: ErrorCodes.InternalError, message: error instanceof Error ? error.message : String(error) };
}
