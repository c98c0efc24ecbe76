// #16 item 9: a stdio server that never completed its handshake is killed at
// once when connect() fails (timeout, abort) or when the client is closed
// while connecting: no end of input, no SIGTERM, no grace period; the
// graceful ladder (L2) stays for a server that completed its handshake. The
// fixture ignores the end of its input and SIGTERM and logs each step it
// sees, so the test can tell a kill from a ladder without timing it.

import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { McpClient, StdioTransport, TimeoutError } from '../src/index.js';
import { isAlive, killIfAlive, logLines } from './helpers/fault-harness.js';
import { tempLog } from './helpers/temp.js';
import { until } from '../src/testing/http-fixture.js';

const STUBBORN = fileURLToPath(new URL('./fixtures/stubborn-silent-server.mjs', import.meta.url));

async function stubborn(t: TestContext): Promise<{ client: McpClient; transport: StdioTransport; log: string }> {
  const log = tempLog(t, 'stubborn');
  const transport = new StdioTransport({ command: [process.execPath, STUBBORN], server: 'stubborn', env: { STUBBORN_LOG: log } });
  // Long enough for the child to log that it started on a loaded machine (the assertion needs that line), far short of any ladder.
  const client = new McpClient(transport, { connectTimeoutMs: 1_500 });
  t.after(() => {
    const pid = transport.pid;
    if (pid !== undefined) killIfAlive(pid);
  });
  return { client, transport, log };
}

test('L2/#16.9: connect() that times out kills the server at once: TimeoutError, the child is gone when it settles, and it saw neither the end of its input nor SIGTERM', async (t) => {
  const { client, transport, log } = await stubborn(t);
  const started = performance.now();
  await assert.rejects(client.connect(), (e: unknown) => e instanceof TimeoutError && e.timeoutMs === 1_500);
  const elapsed = performance.now() - started;
  const pid = transport.pid!;
  assert.equal(isAlive(pid), false, `the child ${pid} is dead when connect() has rejected`);
  assert.deepEqual(logLines(log), ['EVENT started'], 'killed, not asked: no stdin-end, no SIGTERM');
  assert.equal(client.state, 'closed');
  t.diagnostic(`connect() rejected after ${elapsed.toFixed(0)} ms with connectTimeoutMs 1500 (the ladder would add 4 s for this server)`);
});

test('L2/#16.9: connect() abandoned through its signal kills the server at once too', async (t) => {
  const { client, transport, log } = await stubborn(t);
  const controller = new AbortController();
  const connecting = client.connect({ signal: controller.signal, timeoutMs: 30_000 });
  await until(() => logLines(log).includes('EVENT started'), 'the server to start');
  controller.abort(new Error('the host gave up'));
  await assert.rejects(connecting, /the host gave up/);
  assert.equal(isAlive(transport.pid!), false);
  assert.deepEqual(logLines(log), ['EVENT started']);
});

test('L2/#16.9: close() while the handshake runs kills the server at once; the pending connect() rejects', async (t) => {
  const { client, transport, log } = await stubborn(t);
  const connecting = client.connect({ timeoutMs: 30_000 });
  await until(() => logLines(log).includes('EVENT started'), 'the server to start');
  await client.close();
  assert.equal(isAlive(transport.pid!), false, 'gone once close() resolves');
  assert.deepEqual(logLines(log), ['EVENT started']);
  await assert.rejects(connecting);
});
