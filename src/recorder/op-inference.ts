// The recorder's proxy mode sees only the wire. This module turns what the
// client sent into the op lines a replay drives (initialize → connect,
// tools/list → listTools, tools/call → callTool, …) and fills each op's
// `expect` from the server's answer. A request the format has no op for
// (logging/setLevel, completion/complete, resources/subscribe, …) cannot be
// replayed, so it and its answer are kept as `#` comment lines.

import type { JsonObject } from '../client/results.js';
import { isId, isObject, type JsonRpcId } from '../jsonrpc/message.js';
import type { OpName } from '../conformance/transcript.js';
import type { TranscriptWriter } from './transcript-writer.js';
import { LIST_KEYS } from '../conformance/ops.js';

/** Request methods and the op that sends them, with the params the op line carries. */
const OP_FOR_METHOD: Readonly<Record<string, OpName>> = {
  initialize: 'connect',
  'tools/list': 'listTools',
  'tools/call': 'callTool',
  'resources/list': 'listResources',
  'resources/read': 'readResource',
  'resources/templates/list': 'listResourceTemplates',
  'prompts/list': 'listPrompts',
  'prompts/get': 'getPrompt',
  ping: 'ping',
};

/** List ops: the key whose items a paginated expect concatenates (TRANSCRIPTS.md `expect`). */
/** Client notifications an op sends: initialized (connect) and cancelled (a timed-out op). */
const REPLAYED_NOTIFICATIONS = new Set(['notifications/initialized', 'notifications/cancelled']);

/** A timed-out op's timeoutMs is the time until the client cancelled, rounded up to this step: recordings then agree. */
const TIMEOUT_STEP_MS = 100;

interface PendingOp {
  line: JsonObject;
  op: OpName;
  startedMs: number;
  cancelled: boolean;
}

export class OpInference {
  private readonly pending = new Map<JsonRpcId, PendingOp>();
  /** Ids of requests kept as comments: their answers are comments too. */
  private readonly commented = new Set<JsonRpcId>();
  /** The list op that a request with a cursor continues, by method. */
  private readonly lastList = new Map<string, PendingOp>();
  private ended = false;
  /** What the server said it is, in its initialize answer. */
  serverInfo: { name?: unknown; version?: unknown } | undefined;

  constructor(
    private readonly writer: TranscriptWriter,
    private readonly now: () => number = Date.now,
  ) {}

  /** A message (or a batch) the client sent. */
  clientMessage(value: unknown): void {
    if (this.ended) return;
    if (Array.isArray(value)) {
      for (const item of value) this.clientMessage(item);
      return;
    }
    if (!isObject(value) || typeof value.method !== 'string') {
      // A response to a server request (or something that is not JSON-RPC): replayed as the client's answer.
      this.writer.c2s(value);
      return;
    }
    const method = value.method;
    const params = isObject(value.params) ? value.params : {};
    if (!('id' in value)) {
      if (!REPLAYED_NOTIFICATIONS.has(method)) {
        this.writer.comment(`c2s not replayable (no op sends ${method}): ${JSON.stringify(value)}`);
        return;
      }
      if (method === 'notifications/cancelled' && isId(params.requestId)) this.cancelled(params.requestId);
      this.writer.c2s(value);
      return;
    }
    const id = value.id;
    const op = OP_FOR_METHOD[method];
    if (op === undefined || !isId(id)) {
      if (isId(id)) this.commented.add(id);
      this.writer.comment(`c2s not replayable (no op sends ${method}): ${JSON.stringify(value)}`);
      return;
    }
    if (op === 'connect' && typeof params.protocolVersion === 'string') this.writer.setProtocolVersion(params.protocolVersion);
    const continued = LIST_KEYS[op] !== undefined && typeof params.cursor === 'string' ? this.lastList.get(method) : undefined;
    if (continued) {
      // A later page of the same list op: the replayed client asks for it on its own.
      this.pending.set(id, continued);
    } else {
      const entry: PendingOp = { line: this.writer.op(opLine(op, params)), op, startedMs: this.now(), cancelled: false };
      this.pending.set(id, entry);
      if (LIST_KEYS[op] !== undefined) this.lastList.set(method, entry);
    }
    this.writer.c2s(value);
  }

  /** A message (or a batch) the server sent. */
  serverMessage(value: unknown): void {
    if (this.ended) return;
    if (isObject(value) && !('method' in value) && isId(value.id)) {
      if (this.commented.delete(value.id)) {
        this.writer.comment(`s2c answer to a request kept as a comment: ${JSON.stringify(value)}`);
        return;
      }
      const entry = this.pending.get(value.id);
      this.pending.delete(value.id);
      if (entry && !entry.cancelled) this.answered(entry, value);
    }
    this.writer.s2c(value);
  }

  /** Bytes of a stdio server's output that are not JSON. */
  serverBytes(bytes: Buffer): void {
    if (!this.ended) this.writer.s2cBytes(bytes);
  }

  /** The server went away while the client was still there. */
  serverGone(): void {
    if (this.ended) return;
    this.writer.s2cClose();
  }

  /** The client is done (closed its end, or ended the session): the `close` op, and nothing more is recorded. */
  clientClosed(): void {
    if (this.ended) return;
    this.ended = true;
    this.writer.op({ op: 'close' });
  }

  private cancelled(id: JsonRpcId): void {
    const entry = this.pending.get(id);
    if (!entry || entry.cancelled) return;
    entry.cancelled = true;
    // The client gave up: a replayed client with this timeout gives up too, and sends the same notifications/cancelled.
    const elapsed = Math.max(TIMEOUT_STEP_MS, Math.ceil((this.now() - entry.startedMs) / TIMEOUT_STEP_MS) * TIMEOUT_STEP_MS);
    entry.line.timeoutMs = elapsed;
    entry.line.expect = { error: 'timeout' };
  }

  private answered(entry: PendingOp, response: JsonObject): void {
    if (isObject(response.error)) {
      if (typeof response.error.code === 'number') entry.line.expect = { error: response.error.code };
      return;
    }
    if (entry.op === 'connect') {
      if (isObject(response.result) && isObject(response.result.serverInfo)) this.serverInfo ??= response.result.serverInfo;
      return;
    }
    if (!('result' in response)) return;
    const key = LIST_KEYS[entry.op];
    const result = response.result;
    if (key === undefined || !isObject(result)) {
      entry.line.expect = { result };
      return;
    }
    const { nextCursor: _cursor, ...page } = result;
    const previous = isObject(entry.line.expect) && isObject(entry.line.expect.result) ? entry.line.expect.result : undefined;
    if (!Array.isArray(page[key]) || (previous && !Array.isArray(previous[key]))) {
      // Not a list result: kept as the server sent it (a replayed client reports what is wrong with it).
      entry.line.expect = { result: previous ?? page };
      return;
    }
    const items = page[key];
    // The first page gives the other keys; later pages add their items (TRANSCRIPTS.md: "all pages concatenated").
    entry.line.expect = previous
      ? { result: { ...previous, [key]: [...(previous[key] as unknown[]), ...items] } }
      : { result: { ...page, [key]: items } };
  }
}

function opLine(op: OpName, params: JsonObject): JsonObject {
  const line: JsonObject = { op };
  if (op === 'callTool' || op === 'getPrompt') {
    line.name = params.name;
    if (isObject(params.arguments)) line.arguments = params.arguments;
  }
  if (op === 'readResource') line.uri = params.uri;
  return line;
}
