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

//
// Here: the options, the constants and the small checks every tools/call
// makes; following a task to its result is tasks-follow.ts, loaded on the
// first call that becomes one (#20 item 2, X4).

import type { DiagnosticHook } from '../diagnostics.js';
import { isObject, type JsonRpcNotification } from '../jsonrpc/message.js';
import type { RequestOptions } from './connection.js';
import type { JsonObject, ResultCheck } from './results.js';

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
