// Task-augmented tool calls (#17 item 5, M5). The 2025-11-25 flavour against
// a real task server: the official SDK v1's experimental tasks
// (spec-tests/fixtures/sdk-tasks-server.mjs) as a stdio child. The 2026-07-28
// extension against scripted servers that follow SEP-2663, spoken to in
// the modern era (server/discover): in memory, and over real Streamable HTTP
// on 127.0.0.1 for the routing headers (no installed server implements the
// extension: the SDK v2 server has no task runtime).

import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { describe, test } from 'node:test';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RpcError, TaskError, TimeoutError } from '../errors.js';
import { NO_ANSWER, ScriptedTransport, type WireMessage } from '../testing/scripted-transport.js';
import { StdioTransport } from '../transport/stdio.js';
import { StreamableHttpTransport } from '../transport/streamable-http.js';
import { isAlive } from '../util/process-alive.js';
import { McpClient, type McpClientOptions } from './client.js';
import type { ProgressUpdate } from './connection.js';
import { startHttpFixture, until, type RecordedRequest } from '../testing/http-fixture.js';
import { legacyTaskRequest, taskStateOf, TASKS_EXTENSION, type TaskState } from './tasks.js';

const TASKS_SERVER = fileURLToPath(new URL('../../spec-tests/fixtures/sdk-tasks-server.mjs', import.meta.url));

/** The SDK v1 task server as a real child, connected; closed (and killed if need be) after the test. */
async function startTaskServer(t: TestContext, options: McpClientOptions = {}, env: Record<string, string> = {}) {
  const sent: WireMessage[] = [];
  const transport = new StdioTransport({ command: [process.execPath, TASKS_SERVER], server: 'sdk-tasks', env, shutdownStepMs: 500 });
  const client = new McpClient(transport, { ...options, onWire: (entry) => entry.direction === 'send' && sent.push(entry.message as WireMessage) });
  t.after(async () => {
    await client.close().catch(() => {});
    const pid = transport.pid;
    if (pid !== undefined && isAlive(pid)) process.kill(pid, 'SIGKILL');
  });
  await client.connect();
  return { client, sent };
}

const methods = (sent: WireMessage[]) => sent.map((m) => m.method).filter((m) => m !== undefined);

describe('2025-11-25 tasks against the SDK v1 task server (stdio)', () => {
  test('a task-required tool: params.task with a ttl, tasks/get at the suggested interval, tasks/result; the final result, progress and status reported', async (t) => {
    const { client, sent } = await startTaskServer(t);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.find((tool) => tool.name === 'slow')?.execution, { taskSupport: 'required' });
    const statuses: TaskState[] = [];
    const progress: ProgressUpdate[] = [];
    const result = await client.callTool('slow', { ms: 200, text: 'done' }, { onProgress: (u) => progress.push(u), task: { onStatus: (s) => statuses.push(s) } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);

    const call = sent.find((m) => m.method === 'tools/call')!;
    assert.deepEqual((call.params as { task?: unknown }).task, { ttl: 600_000 });
    const taskId = statuses[0]!.taskId;
    assert.equal(statuses[0]!.status, 'working');
    assert.equal(statuses[0]!.pollIntervalMs, 20);
    assert.ok(statuses.some((s) => s.statusMessage === 'halfway'), JSON.stringify(statuses));
    assert.equal(statuses.at(-1)!.status, 'completed');
    assert.deepEqual(progress, [
      { progress: 1, total: 2 },
      { progress: 2, total: 2 },
    ]);
    const gets = sent.filter((m) => m.method === 'tasks/get');
    assert.ok(gets.length >= 2, `polled ${gets.length} times`);
    assert.ok(gets.every((m) => (m.params as { taskId?: string }).taskId === taskId));
    assert.equal(methods(sent).filter((m) => m === 'tasks/result').length, 1);
    assert.equal(methods(sent).at(-1), 'tasks/result');
  });

  test("the call's trace context goes on each of the task's requests (M6)", async (t) => {
    const { client, sent } = await startTaskServer(t);
    await client.listTools();
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';
    await client.callTool('slow', { ms: 60, text: 'x' }, { traceContext: { traceparent } });
    const taskRequests = sent.filter((m) => m.method === 'tools/call' || m.method?.startsWith('tasks/'));
    assert.ok(taskRequests.length >= 3);
    for (const m of taskRequests) assert.equal((m.params as { _meta?: { traceparent?: string } })._meta?.traceparent, traceparent, m.method);
  });

  test('input_required: tasks/result carries the elicitation to the handler; its answer reaches the task', async (t) => {
    const asked: unknown[] = [];
    const { client, sent } = await startTaskServer(t, {
      handlers: {
        elicitation: (params) => {
          asked.push(params);
          return { action: 'accept', content: { ok: true } };
        },
      },
    });
    await client.listTools();
    const statuses: string[] = [];
    const result = await client.callTool('confirm', { question: 'go on?' }, { task: { onStatus: (s) => statuses.push(s.status) } });
    assert.deepEqual(result.content, [{ type: 'text', text: JSON.stringify({ action: 'accept', content: { ok: true } }) }]);
    assert.equal(asked.length, 1);
    assert.equal((asked[0] as { message?: string }).message, 'go on?');
    assert.ok(statuses.includes('input_required'), JSON.stringify(statuses));
    assert.equal(methods(sent).filter((m) => m === 'tasks/result').length, 1);
  });

  test('without the task machinery the same call fails (what a client that ignores taskSupport gets)', async (t) => {
    const { client } = await startTaskServer(t);
    await client.listTools();
    const result = await client.callTool('slow', { ms: 1, text: 'x' }, { task: false });
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.content), /requires task augmentation/);
  });

  test("an optional tool is a plain call unless asked; task: true makes it a task; an ordinary tool is never one", async (t) => {
    const { client, sent } = await startTaskServer(t);
    await client.listTools();
    assert.deepEqual((await client.callTool('maybe', { text: 'a' })).content, [{ type: 'text', text: 'a' }].map(() => ({ type: 'text', text: 'task: a' })));
    assert.equal((sent.at(-1)!.params as { task?: unknown }).task, undefined);
    assert.deepEqual((await client.callTool('maybe', { text: 'b' }, { task: true })).content, [{ type: 'text', text: 'task: b' }]);
    assert.ok(sent.some((m) => m.method === 'tasks/result'));
    const before = sent.length;
    assert.deepEqual((await client.callTool('plain', { text: 'c' }, { task: true })).content, [{ type: 'text', text: 'plain: c' }]);
    assert.deepEqual(methods(sent.slice(before)), ['tools/call']);
    assert.equal((sent.at(-1)!.params as { task?: unknown }).task, undefined);
  });

  test('a failed task hands back what the call would have: the isError result', async (t) => {
    const { client } = await startTaskServer(t);
    await client.listTools();
    const statuses: string[] = [];
    const result = await client.callTool('broken', {}, { task: { onStatus: (s) => statuses.push(s.status) } });
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [{ type: 'text', text: 'it broke' }]);
    assert.equal(statuses.at(-1), 'failed');
  });

  test('abort: tasks/cancel is sent, the call rejects with the signal reason, the server shows the task cancelled', async (t) => {
    const { client, sent } = await startTaskServer(t);
    await client.listTools();
    const controller = new AbortController();
    let taskId = '';
    const call = client.callTool('forever', {}, {
      signal: controller.signal,
      task: {
        onStatus: (s) => {
          taskId = s.taskId;
          setTimeout(() => controller.abort(new Error('user gave up')), 50);
        },
      },
    });
    await assert.rejects(call, /user gave up/);
    const got = await waitForStatus(client, taskId, 'cancelled');
    assert.equal(got, 'cancelled');
    assert.ok(sent.some((m) => m.method === 'tasks/cancel' && (m.params as { taskId?: string }).taskId === taskId));
    // The task itself is cancelled with tasks/cancel, never notifications/cancelled of the tools/call that made it
    // (a tasks/get poll in flight at the abort may be cancelled as the plain request it is).
    const created = sent.find((m) => m.method === 'tools/call');
    assert.ok(created && 'id' in created);
    const cancelledIds = sent.filter((m) => m.method === 'notifications/cancelled').map((m) => (m.params as { requestId?: unknown }).requestId);
    assert.ok(!cancelledIds.includes((created as { id: unknown }).id), 'a task is cancelled with tasks/cancel');
  });

  test("the task's timeout: tasks/cancel, then a TimeoutError that says so", async (t) => {
    const { client, sent } = await startTaskServer(t);
    await client.listTools();
    let taskId = '';
    const error = await client.callTool('forever', {}, { task: { timeoutMs: 150, ttlMs: 60_000, onStatus: (s) => (taskId = s.taskId) } }).catch((e: unknown) => e);
    assert.ok(error instanceof TimeoutError, String(error));
    assert.match(error.message, /tasks\/cancel sent/);
    assert.equal(await waitForStatus(client, taskId, 'cancelled'), 'cancelled');
    assert.ok(sent.some((m) => m.method === 'tasks/cancel'));
  });
});

describe('2025-11-25 tasks over Streamable HTTP (the SDK v1 task server on 127.0.0.1)', () => {
  test('the task is followed to its result; the traceparent header is on the call and on every poll', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-tasks-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const traceLog = path.join(dir, 'trace.ndjson');
    const child = spawn(process.execPath, [TASKS_SERVER, '--http'], { env: { ...process.env, TRACE_LOG: traceLog }, stdio: ['pipe', 'pipe', 'inherit'] });
    t.after(() => {
      child.stdin.end();
      child.kill('SIGKILL');
    });
    const port = await new Promise<number>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const match = /listening (\d+)/.exec(text);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`the task server exited with ${code}`)));
    });
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';
    const client = new McpClient(new StreamableHttpTransport({ url: `http://127.0.0.1:${port}/mcp`, server: 'sdk-tasks-http' }), { traceContext: () => ({ traceparent }) });
    t.after(() => client.close());
    await client.connect();
    await client.listTools();
    const statuses: string[] = [];
    const result = await client.callTool('slow', { ms: 100, text: 'over http' }, { task: { onStatus: (s) => statuses.push(s.status) } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'over http' }]);
    assert.equal(statuses.at(-1), 'completed');
    const seen = readFileSync(traceLog, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { method: string; traceparent: string | null });
    const taskPosts = seen.filter((r) => r.method === 'tools/call' || r.method.startsWith('tasks/'));
    assert.ok(taskPosts.some((r) => r.method === 'tasks/get') && taskPosts.some((r) => r.method === 'tasks/result'), JSON.stringify(taskPosts));
    for (const r of taskPosts) assert.equal(r.traceparent, traceparent, r.method);
  });
});

/** Polls tasks/get until the status is `want` (or 2 s pass), returning the last status seen. */
async function waitForStatus(client: McpClient, taskId: string, want: string): Promise<string> {
  const until = Date.now() + 2_000;
  for (;;) {
    const state = taskStateOf(await client.request('tasks/get', { taskId }));
    if (state?.status === want || Date.now() > until) return state?.status ?? 'none';
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the 2025 rule for asking', () => {
  const caps = { tasks: { requests: { tools: { call: {} } } } };
  test('never without the server capability, never for a listed tool that forbids it', () => {
    assert.equal(legacyTaskRequest({}, 'required', undefined), undefined);
    assert.equal(legacyTaskRequest({}, 'optional', true), undefined);
    assert.deepEqual(legacyTaskRequest(caps, 'required', undefined), {});
    assert.equal(legacyTaskRequest(caps, 'required', { ask: false }), undefined);
    assert.equal(legacyTaskRequest(caps, 'optional', undefined), undefined);
    assert.deepEqual(legacyTaskRequest(caps, 'optional', { ask: true, ttlMs: 5 }), { ask: true, ttlMs: 5 });
    // Options without `ask` (a status callback) change nothing about whether to ask.
    assert.equal(legacyTaskRequest(caps, 'optional', { onStatus: () => {} }), undefined);
    assert.equal(legacyTaskRequest(caps, 'forbidden', true), undefined);
    assert.deepEqual(legacyTaskRequest(caps, undefined, true), { ask: true });
    assert.equal(legacyTaskRequest(caps, 'required', false), undefined);
  });
});

// --- 2026-07-28: the io.modelcontextprotocol/tasks extension ----------------------------------

const DISCOVER = {
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'scripted-modern', version: '1' } },
  ttlMs: 0,
  cacheScope: 'public',
};
const CREATED = { resultType: 'task', taskId: 't-1', status: 'working', createdAt: '2026-07-28T00:00:00Z', lastUpdatedAt: '2026-07-28T00:00:00Z', ttlMs: 60_000, pollIntervalMs: 15 };

/** A scripted modern server (server/discover) that answers tools/call with a task handle and plays `script` for tasks/*. */
async function modernServer(t: TestContext, script: (message: WireMessage, polls: number) => unknown, options: McpClientOptions = {}) {
  let polls = 0;
  const transport = new ScriptedTransport((message) => {
    if (message.method === 'server/discover') return DISCOVER;
    if (message.method === 'tools/call') return CREATED;
    if (message.method === 'tasks/get') polls++;
    return script(message, polls);
  });
  const client = new McpClient(transport, { protocolEra: 'modern', ...options });
  t.after(() => client.close());
  await client.connect();
  assert.equal(client.era, 'modern');
  return { client, sent: transport.sent };
}

const task = (status: string, extra: Record<string, unknown> = {}) => ({ resultType: 'complete', taskId: 't-1', status, createdAt: '2026-07-28T00:00:00Z', lastUpdatedAt: '2026-07-28T00:00:01Z', ttlMs: 60_000, pollIntervalMs: 15, ...extra });

describe('2026-07-28 tasks extension (scripted per SEP-2663)', () => {
  test('resultType "task": polled with tasks/get, the inline result returned; no tasks/result', async (t) => {
    const statuses: string[] = [];
    const { client, sent } = await modernServer(t, (m, polls) => (m.method === 'tasks/get' ? (polls < 3 ? task('working') : task('completed', { result: { content: [{ type: 'text', text: 'ok' }] } })) : {}));
    const result = await client.callTool('anything', {}, { task: { onStatus: (s) => statuses.push(s.status) } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'ok' }]);
    assert.deepEqual(statuses, ['working', 'completed']);
    assert.equal((sent.find((m) => m.method === 'tools/call')!.params as { task?: unknown }).task, undefined, 'the server decides: no params.task');
    assert.deepEqual(methods(sent), ['server/discover', 'tools/call', 'tasks/get', 'tasks/get', 'tasks/get']);
  });

  test('failed: the JSON-RPC error of the task as an RpcError', async (t) => {
    const { client } = await modernServer(t, (m) => (m.method === 'tasks/get' ? task('failed', { error: { code: -32603, message: 'boom', data: { why: 'x' } } }) : {}));
    const error = await client.callTool('anything').catch((e: unknown) => e);
    assert.ok(error instanceof RpcError && error.rpcCode === -32603 && error.rpcMessage === 'boom', String(error));
  });

  test('cancelled by the server: a TaskError', async (t) => {
    const { client } = await modernServer(t, (m) => (m.method === 'tasks/get' ? task('cancelled', { statusMessage: 'operator stopped it' }) : {}));
    await assert.rejects(client.callTool('anything'), (e: unknown) => e instanceof TaskError && /operator stopped it/.test(e.message));
  });

  test('input_required: each input request answered once through the handler, sent with tasks/update', async (t) => {
    const asked: unknown[] = [];
    const { client, sent } = await modernServer(
      t,
      (m, polls) => {
        if (m.method === 'tasks/update') return { resultType: 'complete' };
        if (m.method !== 'tasks/get') return {};
        if (polls <= 2) return task('input_required', { inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'sure?', requestedSchema: { type: 'object', properties: {} } } } } });
        return task('completed', { result: { content: [{ type: 'text', text: 'confirmed' }] } });
      },
      { handlers: { elicitation: (params) => (asked.push(params), { action: 'accept', content: {} }) } },
    );
    const result = await client.callTool('anything');
    assert.deepEqual(result.content, [{ type: 'text', text: 'confirmed' }]);
    assert.equal(asked.length, 1, 'the same key seen on two polls is answered once');
    const updates = sent.filter((m) => m.method === 'tasks/update');
    assert.deepEqual(
      updates.map((m) => {
        const { _meta, ...params } = m.params as Record<string, unknown>;
        return params;
      }),
      [{ taskId: 't-1', inputResponses: { confirm: { action: 'accept', content: {} } } }],
    );
    assert.ok(capsOf(updates[0]!)?.extensions?.[TASKS_EXTENSION], 'tasks/update declares the extension');
  });

  test('input_required with no handler: tasks/cancel and a TaskError that says what to install', async (t) => {
    const { client, sent } = await modernServer(t, (m) => (m.method === 'tasks/get' ? task('input_required', { inputRequests: { q: { method: 'sampling/createMessage', params: {} } } }) : m.method === 'tasks/cancel' ? {} : NO_ANSWER));
    await assert.rejects(client.callTool('anything'), (e: unknown) => e instanceof TaskError && /sampling\/createMessage/.test(e.message));
    assert.ok(sent.some((m) => m.method === 'tasks/cancel'));
  });

  test('abort while polling: tasks/cancel, the signal reason', async (t) => {
    const controller = new AbortController();
    const { client, sent } = await modernServer(t, (m, polls) => {
      if (m.method === 'tasks/get' && polls === 2) controller.abort(new Error('stop'));
      return m.method === 'tasks/get' ? task('working') : {};
    });
    await assert.rejects(client.callTool('anything', {}, { signal: controller.signal }), /stop/);
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(sent.some((m) => m.method === 'tasks/cancel' && (m.params as { taskId?: string }).taskId === 't-1'));
  });
});

const capsOf = (m: WireMessage) => ((m.params as { _meta?: Record<string, unknown> } | undefined)?._meta?.['io.modelcontextprotocol/clientCapabilities'] ?? undefined) as { extensions?: Record<string, unknown>; elicitation?: unknown } | undefined;

describe('2026-07-28 tasks extension: the capability (SEP-2663 "Capability Negotiation")', () => {
  test('declared on callTool and on the task\'s own tasks/* requests, beside the handlers\' capabilities; not on the handshake, lists or request()', async (t) => {
    const { client, sent } = await modernServer(t, (m, polls) => (m.method === 'tasks/get' ? (polls < 2 ? task('working') : task('completed', { result: { content: [] } })) : m.method === 'tools/list' ? { tools: [] } : {}), {
      handlers: { elicitation: () => ({ action: 'decline' }) },
    });
    await client.listTools();
    await client.callTool('anything');
    await client.request('tools/call', { name: 'raw', arguments: {} }).catch(() => {});
    for (const m of sent.filter((m) => m.id !== undefined)) {
      const declared = capsOf(m)?.extensions?.[TASKS_EXTENSION] !== undefined;
      const raw = m.method === 'tools/call' && (m.params as { name?: string }).name === 'raw';
      const follows = (m.method === 'tools/call' && !raw) || m.method === 'tasks/get';
      assert.equal(declared, follows, `${m.method}${raw ? ' (request())' : ''}`);
      assert.deepEqual(capsOf(m)?.elicitation, {}, `${m.method} keeps the handler capabilities`);
    }
    assert.ok(sent.filter((m) => m.method === 'tasks/get').length >= 2);
  });

  test('callTool with task: false goes without it (a server must not answer it with a task)', async (t) => {
    const { client, sent } = await modernServer(t, () => ({}));
    const transportAnswer = await client.callTool('anything', {}, { task: false }).catch((e: unknown) => e);
    assert.ok(transportAnswer); // the scripted server answers with a task regardless; what matters is what was declared
    const call = sent.find((m) => m.method === 'tools/call')!;
    assert.equal(capsOf(call)?.extensions?.[TASKS_EXTENSION], undefined);
  });

  test('a legacy (2025) connection never carries it: its tasks are the 2025-11-25 ones, capabilities said once in initialize', async (t) => {
    const { client, sent } = await startTaskServer(t);
    await client.listTools();
    await client.callTool('slow', { ms: 50, text: 'x' }, { task: true });
    for (const m of sent) assert.equal(capsOf(m), undefined, String(m.method));
  });
});

describe('2026-07-28 tasks extension over Streamable HTTP (a scripted modern server on 127.0.0.1)', () => {
  test('tasks/get, tasks/update and tasks/cancel carry Mcp-Name: the taskId, and Mcp-Method (SEP-2663 "Routing Headers")', async (t) => {
    let polls = 0;
    const fixture = await startHttpFixture(t, {
      result: (m) => {
        switch (m.method) {
          case 'server/discover':
            return DISCOVER;
          case 'tools/call':
            return { ...CREATED, taskId: (m.params as { name: string }).name === 'stop' ? 'task/ü 2' : 't-1' };
          case 'tasks/get':
            polls++;
            if ((m.params as { taskId: string }).taskId !== 't-1') return task('working', { taskId: 'task/ü 2' });
            return polls === 1
              ? task('input_required', { inputRequests: { q: { method: 'elicitation/create', params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } } } } })
              : task('completed', { result: { content: [{ type: 'text', text: 'done' }] } });
          default:
            return { resultType: 'complete' };
        }
      },
    });
    const client = new McpClient(fixture.createTransport(), { protocolEra: 'modern', handlers: { elicitation: () => ({ action: 'accept', content: {} }) } });
    t.after(() => client.close());
    await client.connect();
    assert.equal(client.era, 'modern');
    const result = await client.callTool('work');
    assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
    const controller = new AbortController();
    const stopped = client.callTool('stop', {}, { signal: controller.signal, task: { onStatus: () => setTimeout(() => controller.abort(new Error('enough')), 30) } });
    await assert.rejects(stopped, /enough/);
    await until(() => fixture.requests.some((r) => r.message?.method === 'tasks/cancel'), 'tasks/cancel');

    const posts = (method: string) => fixture.requests.filter((r: RecordedRequest) => r.message?.method === method);
    assert.equal(posts('tools/call')[0]!.headers['mcp-name'], 'work');
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      assert.ok(posts(method).length > 0, method);
      for (const r of posts(method)) {
        const taskId = (r.message!.params as { taskId: string }).taskId;
        assert.equal(r.headers['mcp-method'], method);
        assert.equal(r.headers['mcp-name'], taskId === 't-1' ? 't-1' : `=?base64?${Buffer.from(taskId).toString('base64')}?=`, `${method} ${taskId}`);
      }
    }
  });
});
