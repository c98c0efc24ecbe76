// Following a task to its result (#17 item 5, M5; the protocol is described
// in tasks.ts): the polling, input rounds and cancellation. Apart from
// tasks.ts, whose small predicates run on every tools/call, because only a
// call that became a task needs this: client.ts imports it on the first one
// (#20 item 2, X4: import-cold).

import { ProtocolError, RpcError, TaskError, TimeoutError, type ErrorSite } from '../errors.js';
import { isObject } from '../jsonrpc/message.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, type ProgressUpdate, type RequestOptions } from './connection.js';
import type { CallToolResult, JsonObject } from './results.js';
import { DEFAULT_TASK_POLL_INTERVAL_MS, DEFAULT_TASK_TIMEOUT_MS, MIN_TASK_POLL_INTERVAL_MS, taskStateOf, type CallToolOptions, type TaskChannel, type TaskOptions, type TaskState } from './tasks.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
let progressTokens = 0;

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
