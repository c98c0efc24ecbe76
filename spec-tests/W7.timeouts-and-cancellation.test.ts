// W7 timeouts and cancellation: every request has a timeout (default 30 s
// [kaged]) and takes an AbortSignal; on timeout or abort the client sends
// `notifications/cancelled` with the request id and rejects the call with a
// typed timeout/abort error; a late answer is dropped quietly.

import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, test } from 'node:test';
import { McpClient } from '../src/client/client.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../src/client/connection.js';
import { TimeoutError } from '../src/errors.js';
import { sleep } from '../src/util/backoff.js';
import { NO_ANSWER, ScriptedTransport, handshake } from '../src/testing/scripted-transport.js';
import { receivedLines, startScriptedServer } from './helpers/scripted-server.js';

type Line = { id?: number | string; method?: string; params?: { requestId?: unknown; reason?: unknown; name?: string } };
const parse = (lines: string[]) => lines.map((l) => JSON.parse(l) as Line);

describe('W7 timeouts and cancellation', { timeout: 30_000 }, () => {
  test('W7: every request has a timeout, 30 s by default [kaged]', async (t) => {
    assert.equal(DEFAULT_REQUEST_TIMEOUT_MS, 30_000);
    const transport = new ScriptedTransport(handshake(() => NO_ANSWER));
    const client = new McpClient(transport);
    await client.connect();
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const call = client.callTool('slow');
    let settled = false;
    call.then(() => {}, () => {}).finally(() => (settled = true));
    t.mock.timers.tick(29_999);
    await sleepMicrotasks();
    assert.equal(settled, false);
    t.mock.timers.tick(1);
    await assert.rejects(call, (e: unknown) => e instanceof TimeoutError && e.timeoutMs === 30_000);
    t.mock.timers.reset();
    await client.close();
  });

  test('W7: the host can set the default timeout and a per-call timeout', async (t) => {
    const transport = new ScriptedTransport(handshake(() => NO_ANSWER));
    const client = new McpClient(transport, { timeoutMs: 500 });
    await client.connect();
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const byDefault = client.callTool('a');
    const perCall = client.callTool('b', {}, { timeoutMs: 100 });
    t.mock.timers.tick(100);
    await assert.rejects(perCall, (e: unknown) => e instanceof TimeoutError && e.timeoutMs === 100);
    t.mock.timers.tick(400);
    await assert.rejects(byDefault, (e: unknown) => e instanceof TimeoutError && e.timeoutMs === 500);
    t.mock.timers.reset();
    await client.close();
  });

  test('W7: on timeout the call rejects with TimeoutError and the server receives notifications/cancelled with the request id', async (t) => {
    const { client } = await startScriptedServer(t);
    await assert.rejects(
      client.callTool('never', {}, { timeoutMs: 100 }),
      (e: unknown) => e instanceof TimeoutError && e.code === 'timeout' && e.method === 'tools/call' && e.server === 'scripted',
    );
    const lines = parse(await receivedLines(client));
    const call = lines.find((m) => m.method === 'tools/call' && m.params?.name === 'never');
    const cancelled = lines.filter((m) => m.method === 'notifications/cancelled');
    assert.equal(cancelled.length, 1);
    assert.equal(cancelled[0]!.params?.requestId, call?.id);
    assert.equal(cancelled[0]!.id, undefined, 'a notification, not a request');
  });

  test('W7: on abort the call rejects with the signal’s reason, untouched, and cancelled is sent', async (t) => {
    const { client } = await startScriptedServer(t);
    const controller = new AbortController();
    const call = client.callTool('never', {}, { signal: controller.signal, timeoutMs: 10_000 });
    await sleep(20);
    const reason = new Error('the user pressed stop');
    controller.abort(reason);
    await assert.rejects(call, (e: unknown) => e === reason);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'no listener left behind');
    const lines = parse(await receivedLines(client));
    const sentCall = lines.find((m) => m.method === 'tools/call' && m.params?.name === 'never');
    assert.deepEqual(
      lines.filter((m) => m.method === 'notifications/cancelled').map((m) => m.params?.requestId),
      [sentCall?.id],
    );
  });

  test('W7: an abort is never reported as a timeout', async () => {
    const transport = new ScriptedTransport(handshake(() => NO_ANSWER));
    const client = new McpClient(transport);
    await client.connect();
    const controller = new AbortController();
    const call = client.callTool('x', {}, { signal: controller.signal, timeoutMs: 1 });
    controller.abort();
    const error = await call.then(() => undefined, (e: unknown) => e);
    assert.equal(error instanceof TimeoutError, false);
    assert.equal((error as Error).name, 'AbortError');
    await client.close();
  });

  test('W7: a late answer is dropped quietly (a diagnostic, no error) and the session goes on', async (t) => {
    const { client, diagnostics } = await startScriptedServer(t);
    await assert.rejects(client.callTool('delay', { ms: 300, text: 'too late' }, { timeoutMs: 100 }), TimeoutError);
    // Answered 100 ms after the late one: when it is in, the late answer has been read.
    const after = await client.callTool('delay', { ms: 300, text: 'on time' });
    assert.deepEqual(after.content, [{ type: 'text', text: 'on time' }]);
    assert.deepEqual(diagnostics.filter((d) => d.kind !== 'stderr').map((d) => d.kind), ['late-response']);
  });

  test('W7: initialize is not cancelled (MCP lifecycle: it MUST NOT be), but still times out', async (t) => {
    const transport = new ScriptedTransport(() => NO_ANSWER);
    const client = new McpClient(transport, { connectTimeoutMs: 1000 });
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const connecting = client.connect();
    await sleepMicrotasks();
    t.mock.timers.tick(1000);
    await assert.rejects(connecting, (e: unknown) => e instanceof TimeoutError && e.method === 'initialize');
    assert.deepEqual(transport.cancellations(), []);
    assert.deepEqual(transport.methods(), ['initialize']);
  });
});

/** Lets pending promise callbacks run while timers are mocked. */
async function sleepMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
