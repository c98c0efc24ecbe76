// Task-augmented tool calls (#17 item 5, M5), in both eras, behind one
// `callTool` that still returns the final CallToolResult.
//
// 2025-11-25 (basic/utilities/tasks): the client asks for a task
// (`params.task` with a `ttl`) when the server declares
// `tasks.requests.tools.call` and the tool's `execution.taskSupport` allows
// it; the answer is a CreateTaskResult; `tasks/get` is polled at the
// server's `pollInterval` until the task is terminal or needs input, then
// `tasks/result` (which blocks, and carries the server's requests for input
// to the client's handlers) gives the call's own answer, error included.
//
// 2026-07-28 (the `io.modelcontextprotocol/tasks` extension, SEP-2663): the
// server decides; a `tools/call` answered with `resultType: "task"` is
// polled with `tasks/get` at `pollIntervalMs`, whose terminal answer holds
// the `result` (or the JSON-RPC `error`) inline; `input_required` carries
// `inputRequests`, answered through the same handlers and sent back with
// `tasks/update`.
//
// Either way an abort or the task's own timeout sends `tasks/cancel` (never
// notifications/cancelled, which the extension forbids for tasks) and
// rejects as a plain request would: with the signal's reason, or a
// TimeoutError.

import type { DiagnosticHook } from '../diagnostics.js';
import { ProtocolError, RpcError, TaskError, TimeoutError, type ErrorSite } from '../errors.js';
import { isObject, type JsonRpcNotification } from '../jsonrpc/message.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, type ProgressUpdate, type RequestOptions } from './connection.js';
import type { CallToolResult, JsonObject, ResultCheck } from './results.js';

/** How long a task call waits for its task to finish, from the call, unless told otherwise. */
export const DEFAULT_TASK_TIMEOUT_MS = 10 * 60_000;
/** The poll interval when the server suggests none. */
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1_000;
/** A server that suggests 0 is still not polled in a busy loop. */
export const MIN_TASK_POLL_INTERVAL_MS = 10;
/** The 2026-07-28 extension: declared in each request's clientCapabilities.extensions (an empty object: no settings). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * The client's capabilities with the tasks extension declared: what a
 * modern request carries when its caller follows a task answer (callTool,
 * and the task's own tasks/get, tasks/update, tasks/cancel). A server "MUST
 * NOT return CreateTaskResult to a client that did not include the extension
 * capability on its request", so request() and a callTool with `task: false`
 * go without it.
 */
export function withTasksExtension(capabilities: JsonObject): JsonObject {
  const extensions = isObject(capabilities.extensions) ? capabilities.extensions : {};
  return { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } };
}

/** Whether a callTool's task option lets the server answer with a task (2026: only `false`, or `{ ask: false }`, says no). */
export function followsTasks(option: boolean | TaskOptions | undefined): boolean {
  return option !== false && !(typeof option === 'object' && option.ask === false);
}

export type TaskSupport = 'forbidden' | 'optional' | 'required';
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as the client last learned it, the same in both eras (2025's `ttl`/`pollInterval` read as `ttlMs`/`pollIntervalMs`). */
export interface TaskState {
  taskId: string;
  /** One of TaskStatus; a status this client does not know is passed on and treated as still working. */
  status: TaskStatus | (string & {});
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  /** How long the server keeps the task from its creation, ms; null: no limit. */
  ttlMs?: number | null;
  /** The server's suggested poll interval, ms. */
  pollIntervalMs?: number;
}

export interface TaskOptions {
  /**
   * Whether to ask for a task (2025 era): undefined, when the tool requires
   * one; true, whenever the server and the tool allow one; false, never. In
   * the 2026 era the server decides and this is not sent; false there leaves
   * the tasks extension out of the call's capabilities, so the server may
   * not answer with a task.
   */
  ask?: boolean;
  /** The lifetime asked for (2025: `params.task.ttl`), ms. Default: timeoutMs, so the result outlives the wait. */
  ttlMs?: number;
  /** The whole wait for the task, from the call, ms; then `tasks/cancel` and a TimeoutError. Default 10 minutes. */
  timeoutMs?: number;
  /** Poll interval when the server suggests none, ms. Default 1 000. */
  defaultPollIntervalMs?: number;
  /** The task as created, then each time its status or status message changes (a poll or a status notification). */
  onStatus?: (task: TaskState) => void;
}

/**
 * callTool's options: a request's, and `task`: true is `{ ask: true }`, false
 * `{ ask: false }` (see TaskOptions.ask). `timeoutMs` bounds each request
 * (the call, each poll); `task.timeoutMs` bounds the whole wait.
 */
export interface CallToolOptions extends RequestOptions {
  task?: boolean | TaskOptions;
}

/** What a task run needs from the client. */
export interface TaskChannel {
  readonly server: string;
  request(method: string, params: JsonObject, options: RequestOptions): Promise<unknown>;
  /** Every notification as it arrives; returns the unsubscribe. */
  watch(listener: (notification: JsonRpcNotification) => void): () => void;
  /** Checks the final result (checkCallTool). */
  check: ResultCheck;
  /** Answers one request of `inputRequests` the way the client's handlers answer server requests; undefined: no handler for it. */
  answer(method: string, params: JsonObject | undefined, signal: AbortSignal): Promise<unknown> | undefined;
  onDiagnostic?: DiagnosticHook;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
let progressTokens = 0;

/** Whether the server's capabilities (from initialize) allow task-augmented tools/call (2025-11-25). */
export function serverRunsToolTasks(capabilities: JsonObject | undefined): boolean {
  const tasks = capabilities?.tasks;
  return isObject(tasks) && isObject(tasks.requests) && isObject(tasks.requests.tools) && isObject(tasks.requests.tools.call);
}

/** Whether the server's capabilities allow tasks/cancel (2025-11-25). */
export function serverCancelsTasks(capabilities: JsonObject | undefined): boolean {
  return isObject(capabilities?.tasks) && isObject(capabilities.tasks.cancel);
}

/** A listed tool's task support; a tool without `execution.taskSupport` is 'forbidden' (the spec's default). */
export function taskSupportOf(tool: JsonObject): TaskSupport {
  const execution = tool.execution;
  const support = isObject(execution) ? execution.taskSupport : undefined;
  return support === 'required' || support === 'optional' ? support : 'forbidden';
}

/**
 * The 2025 rule: whether to ask for a task, and with what options. Never
 * without the server's `tasks.requests.tools.call`, nor for a listed tool
 * that forbids it ("clients MUST NOT"); `support` undefined: the tool was
 * not listed, and an explicit ask is trusted.
 */
export function legacyTaskRequest(capabilities: JsonObject | undefined, support: TaskSupport | undefined, option: boolean | TaskOptions | undefined): TaskOptions | undefined {
  const task: TaskOptions = typeof option === 'object' ? option : option === undefined ? {} : { ask: option };
  if (task.ask === false || !serverRunsToolTasks(capabilities)) return undefined;
  if (task.ask === undefined) return support === 'required' ? task : undefined;
  return support === 'forbidden' ? undefined : task;
}

/** A 2026-07-28 CreateTaskResult: the server answered the call with a task. */
export function isCreatedTask(value: unknown): value is JsonObject {
  return isObject(value) && value.resultType === 'task' && typeof value.taskId === 'string';
}

/** The task in a 2025 CreateTaskResult (`result.task`) or a 2026 one (the result itself), a tasks/get answer or a status notification. */
export function taskStateOf(raw: unknown): TaskState | undefined {
  if (!isObject(raw) || typeof raw.taskId !== 'string' || raw.taskId === '' || typeof raw.status !== 'string') return undefined;
  const state: TaskState = { taskId: raw.taskId, status: raw.status };
  if (typeof raw.statusMessage === 'string') state.statusMessage = raw.statusMessage;
  if (typeof raw.createdAt === 'string') state.createdAt = raw.createdAt;
  if (typeof raw.lastUpdatedAt === 'string') state.lastUpdatedAt = raw.lastUpdatedAt;
  const ttl = raw.ttlMs !== undefined ? raw.ttlMs : raw.ttl;
  if (ttl === null || typeof ttl === 'number') state.ttlMs = ttl;
  const poll = raw.pollIntervalMs ?? raw.pollInterval;
  if (typeof poll === 'number' && Number.isFinite(poll)) state.pollIntervalMs = poll;
  return state;
}

/** What each of a task's own requests gets from the call's options: its timeout, signal and trace context, never its progress. */
function perRequest(options: CallToolOptions): RequestOptions {
  const { timeoutMs, signal, traceContext } = options;
  return { timeoutMs, signal, traceContext };
}

/** The 2025 flow: a task-augmented tools/call, then the task followed to its result. */
export async function callToolAsTask(channel: TaskChannel, name: string, args: JsonObject, options: CallToolOptions, task: TaskOptions, canCancel: boolean): Promise<CallToolResult> {
  const site: ErrorSite = { server: channel.server, method: 'tools/call' };
  const params: JsonObject = { name, arguments: args, task: { ttl: task.ttlMs ?? task.timeoutMs ?? DEFAULT_TASK_TIMEOUT_MS } };
  let stopProgress = () => {};
  if (options.onProgress) {
    // "The progressToken provided in the initial request remains valid throughout the task lifetime": so the token
    // is ours, not the request id the Connection would use and forget once the CreateTaskResult is in.
    const token = `mcpwire-task-${++progressTokens}`;
    params._meta = { progressToken: token };
    stopProgress = watchProgress(channel, token, options.onProgress);
  }
  try {
    const created = await channel.request('tools/call', params, perRequest(options));
    if (!isObject(created) || !('task' in created)) {
      // "Receivers that do not declare the task capability … MUST process requests normally": an ordinary answer.
      return checked(channel, site, created);
    }
    const state = taskStateOf(created.task);
    if (!state) throw new ProtocolError(site, 'invalid CreateTaskResult: task must have a string taskId and status');
    return await followTask(channel, state, created.task as JsonObject, options, task, 'legacy', canCancel);
  } finally {
    stopProgress();
  }
}

/** The 2026 flow: the server answered the call with a task; follow it to its result. */
export function followCreatedTask(channel: TaskChannel, created: JsonObject, options: CallToolOptions = {}): Promise<CallToolResult> {
  const site: ErrorSite = { server: channel.server, method: 'tools/call' };
  const state = taskStateOf(created);
  if (!state) return Promise.reject(new ProtocolError(site, 'invalid CreateTaskResult: it must have a string taskId and status'));
  const task = typeof options.task === 'object' ? options.task : {};
  return followTask(channel, state, created, options, task, 'modern', true);
}

async function followTask(
  channel: TaskChannel,
  first: TaskState,
  firstRaw: JsonObject,
  options: CallToolOptions,
  task: TaskOptions,
  era: 'legacy' | 'modern',
  canCancel: boolean,
): Promise<CallToolResult> {
  const site: ErrorSite = { server: channel.server, method: 'tools/call' };
  const taskId = first.taskId;
  const timeoutMs = task.timeoutMs ?? DEFAULT_TASK_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const signal = options.signal;
  let current = first;
  let raw = firstRaw;
  let wake: (() => void) | undefined;
  /** A status notification arrived since the last poll: act on it before polling again. */
  let notified = false;
  const report = (next: TaskState, nextRaw: JsonObject) => {
    const changed = next.status !== current.status || next.statusMessage !== current.statusMessage;
    // A terminal status is final: a late notification cannot move the task back.
    if (TERMINAL.has(current.status) && next.status !== current.status) return;
    current = next;
    raw = nextRaw;
    if (changed) notifyStatus(channel, task, next);
  };
  notifyStatus(channel, task, first);
  // Status notifications (2025 notifications/tasks/status, 2026 notifications/tasks) are optional: a hint that wakes the poller.
  const unwatch = channel.watch((n) => {
    if (n.method !== 'notifications/tasks/status' && n.method !== 'notifications/tasks') return;
    const state = taskStateOf(n.params);
    if (!state || state.taskId !== taskId) return;
    report(state, n.params as JsonObject);
    notified = true;
    wake?.();
  });
  const answered = new Set<string>();
  const remaining = () => deadline - Date.now();
  const timedOut = () => new TimeoutError(site, timeoutMs, ` for task ${JSON.stringify(taskId)} to finish (tasks/cancel sent)`);
  try {
    for (;;) {
      if (era === 'legacy' && (TERMINAL.has(current.status) || current.status === 'input_required')) {
        // tasks/result blocks until the task is terminal and answers exactly what tools/call would have, error included;
        // for input_required it is the stream that carries the server's requests to the client's handlers.
        if (remaining() <= 0) throw timedOut();
        const result = await channel.request('tasks/result', { taskId }, { ...perRequest(options), timeoutMs: remaining() }).catch((error: unknown) => {
          throw error instanceof TimeoutError ? timedOut() : error;
        });
        return checked(channel, site, result);
      }
      if (era === 'modern') {
        if (current.status === 'completed') return checked(channel, site, raw.result);
        if (current.status === 'failed') throw failedError(site, taskId, raw.error);
        if (current.status === 'cancelled') throw new TaskError(site, taskId, 'cancelled', `was cancelled by the server${current.statusMessage ? `: ${current.statusMessage}` : ''}`);
        if (current.status === 'input_required') await answerInputRequests(channel, site, taskId, raw.inputRequests, answered, options);
      }
      const interval = Math.max(current.pollIntervalMs ?? task.defaultPollIntervalMs ?? DEFAULT_TASK_POLL_INTERVAL_MS, MIN_TASK_POLL_INTERVAL_MS);
      if (remaining() <= 0) throw timedOut();
      await waitForPoll(Math.min(interval, remaining()), signal, (resolve) => (wake = resolve));
      wake = undefined;
      if (notified) {
        notified = false;
        continue;
      }
      if (remaining() <= 0) throw timedOut();
      // A poll gets the caller's per-request timeout, cut to what is left of the task's: if that cut is what ran out, the task timed out.
      const left = remaining();
      const cutByTask = left <= (options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
      const answer = await channel.request('tasks/get', { taskId }, { ...perRequest(options), timeoutMs: cutByTask ? left : options.timeoutMs }).catch((error: unknown) => {
        throw error instanceof TimeoutError && cutByTask ? timedOut() : error;
      });
      const state = taskStateOf(answer);
      if (!state || state.taskId !== taskId) throw new ProtocolError({ server: channel.server, method: 'tasks/get' }, `invalid result: expected the task ${JSON.stringify(taskId)} with a status`);
      report(state, answer as JsonObject);
    }
  } catch (error) {
    // Our own abort or timeout: tell the server to stop (best effort; the answer is not waited for).
    if (canCancel && !TERMINAL.has(current.status) && (error instanceof TimeoutError || (signal?.aborted && error === signal.reason) || error instanceof TaskError)) {
      channel.request('tasks/cancel', { taskId }, { traceContext: options.traceContext }).catch(() => {});
    }
    throw error;
  } finally {
    unwatch();
  }
}

/** 2026 input_required: each request not answered yet goes to the client's handler; the answers go back with tasks/update. */
async function answerInputRequests(channel: TaskChannel, site: ErrorSite, taskId: string, inputRequests: unknown, answered: Set<string>, options: CallToolOptions): Promise<void> {
  if (!isObject(inputRequests)) throw new ProtocolError({ server: channel.server, method: 'tasks/get' }, 'invalid result: an input_required task must have inputRequests');
  const responses: JsonObject = {};
  const signal = options.signal ?? new AbortController().signal;
  for (const [key, request] of Object.entries(inputRequests)) {
    // "Clients SHOULD deduplicate inputRequests keys across consecutive polls."
    if (answered.has(key)) continue;
    if (!isObject(request) || typeof request.method !== 'string') throw new ProtocolError({ server: channel.server, method: 'tasks/get' }, `invalid result: inputRequests[${JSON.stringify(key)}] has no method`);
    const params = isObject(request.params) ? request.params : undefined;
    const reply = channel.answer(request.method, params, signal);
    if (!reply) throw new TaskError(site, taskId, 'input_required', `needs ${request.method}, which this client has no handler for; the task was cancelled (install the handler to answer it)`);
    responses[key] = (await reply) ?? {};
    answered.add(key);
  }
  if (Object.keys(responses).length > 0) await channel.request('tasks/update', { taskId, inputResponses: responses }, perRequest(options));
}

/** A 2026 failed task: its JSON-RPC error as the RpcError tools/call would have rejected with. */
function failedError(site: ErrorSite, taskId: string, error: unknown): Error {
  if (isObject(error) && typeof error.code === 'number' && typeof error.message === 'string') return new RpcError(site, error.code, error.message, error.data);
  return new TaskError(site, taskId, 'failed', 'failed without a JSON-RPC error');
}

function checked(channel: TaskChannel, site: ErrorSite, value: unknown): CallToolResult {
  const problem = channel.check(value);
  if (problem) throw new ProtocolError(site, `invalid result: ${problem}`);
  return value as CallToolResult;
}

function notifyStatus(channel: TaskChannel, task: TaskOptions, state: TaskState): void {
  if (!task.onStatus) return;
  try {
    task.onStatus({ ...state });
  } catch (error) {
    channel.onDiagnostic?.({ kind: 'handler-error', server: channel.server, method: 'onStatus', error });
  }
}

function watchProgress(channel: TaskChannel, token: string, onProgress: (update: ProgressUpdate) => void): () => void {
  return channel.watch((n) => {
    const p = n.params;
    if (n.method !== 'notifications/progress' || !p || p.progressToken !== token || typeof p.progress !== 'number') return;
    const update: ProgressUpdate = { progress: p.progress };
    if (typeof p.total === 'number') update.total = p.total;
    if (typeof p.message === 'string') update.message = p.message;
    try {
      onProgress(update);
    } catch (error) {
      channel.onDiagnostic?.({ kind: 'handler-error', server: channel.server, method: 'notifications/progress', error });
    }
  });
}

/** Waits `ms`, or less if woken (a status notification); rejects with the signal's reason on abort. */
function waitForPoll(ms: number, signal: AbortSignal | undefined, setWake: (wake: () => void) => void): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    setWake(done);
  });
}
