// L2 close over stdio with real child processes: "end stdin, wait, SIGTERM,
// wait, SIGKILL; no zombie or orphan process", and "closing rejects whatever
// is still pending". The fixture logs what it receives (stdin EOF, SIGTERM)
// to a file, so each step of the escalation can be seen from outside.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { ClosedError, type TransportEnd } from '../src/index.js';
import { startedPids, isAlive, logLines, waitGone, start } from './helpers/fault-harness.js';
import { tempLog } from './helpers/temp.js';

function events(file: string): string[] {
  return logLines(file).filter((line) => line.startsWith('EVENT '));
}

test('L2: a well-behaved server exits when its stdin ends; no signal is sent', async (t) => {
  const log = tempLog(t, 'l2');
  const ends: TransportEnd[] = [];
  // A long step: if close() fell through to SIGTERM, it would take 5 s and the log would show it.
  const { client, pid } = await start(t, { env: { FAULT_LOG: log }, shutdownStepMs: 5_000 }, { onClose: (end) => ends.push(end) });
  await client.ping();
  const startedAt = Date.now();
  await client.close();
  t.diagnostic(`close() took ${Date.now() - startedAt} ms`);
  assert.deepEqual(events(log), ['EVENT stdin-end']);
  assert.ok(!isAlive(pid), 'the process is gone (and reaped) when close() resolves');
  assert.equal(client.state, 'closed');
  assert.equal(ends.length, 1, 'onClose fires once');
  assert.equal(ends[0]!.reason, 'closed');
});

test('L2: a server that ignores stdin EOF and SIGTERM is escalated to SIGKILL; close() resolves and the process is gone', async (t) => {
  const log = tempLog(t, 'l2');
  const { client, pid } = await start(t, { mode: 'ignore-term', env: { FAULT_LOG: log }, shutdownStepMs: 200 });
  await client.ping();
  const startedAt = Date.now();
  await client.close();
  const tookMs = Date.now() - startedAt;
  t.diagnostic(`close() took ${tookMs} ms with shutdownStepMs 200`);
  assert.deepEqual(events(log), ['EVENT stdin-end', 'EVENT SIGTERM'], 'stdin was ended first, then SIGTERM (which it ignored)');
  assert.ok(!isAlive(pid), 'SIGKILL took it: gone and reaped when close() resolves');
  assert.ok(tookMs >= 350, `both grace periods were waited (${tookMs} ms)`);
  assert.ok(tookMs < 5_000, `hang check: ${tookMs} ms`);
});

test('L2: close() rejects every pending request with ClosedError (well-behaved server)', async (t) => {
  const { client, pid } = await start(t, {});
  await client.listTools();
  const pending = [client.callTool('hang'), client.callTool('hang', {}, { timeoutMs: 60_000 }), client.callTool('hang', {}, { onProgress: () => {} })];
  await delay(100); // let them reach the server (they are pending on our side either way)
  const settled: string[] = [];
  const outcomes = pending.map((p, i) => p.then(
    () => { settled.push(`resolved ${i}`); return undefined; },
    (e: unknown) => { settled.push(`rejected ${i}`); return e; },
  ));
  await client.close();
  assert.equal(settled.length, 3, `all settled by the time close() resolved: ${settled.join(', ')}`);
  for (const error of await Promise.all(outcomes)) {
    assert.ok(error instanceof ClosedError, `expected ClosedError, got ${String(error)}`);
    assert.equal(error.reason, 'closed');
    assert.equal(error.method, 'tools/call');
  }
  assert.ok(!isAlive(pid));
});

test('L2: close() rejects every pending request with ClosedError, also when the server must be killed', async (t) => {
  const { client, pid } = await start(t, { mode: 'ignore-term', shutdownStepMs: 150 });
  const pending = [client.callTool('hang'), client.callTool('hang'), client.ping().then(() => client.callTool('hang'))];
  await delay(100);
  const rejectedAt: number[] = [];
  const outcomes = pending.map((p) => p.then(() => undefined, (e: unknown) => { rejectedAt.push(Date.now()); return e; }));
  const closeStartedAt = Date.now();
  await client.close();
  assert.equal(rejectedAt.length, 3, 'all rejected by the time close() resolved');
  for (const error of await Promise.all(outcomes)) assert.ok(error instanceof ClosedError && error.reason === 'closed', String(error));
  assert.ok(Math.max(...rejectedAt) - Math.min(...rejectedAt) < 100, 'rejected together, with one error');
  // L2: closing rejects what is pending at once, not when the stubborn server is finally killed.
  assert.ok(Math.max(...rejectedAt) - closeStartedAt < 100, `rejected when close() was called, not after the kill (${Math.max(...rejectedAt) - closeStartedAt} ms)`);
  assert.ok(!isAlive(pid));
});

test('L2: close() is idempotent, and the client refuses work afterwards with ClosedError', async (t) => {
  const { client, pid } = await start(t, {});
  await Promise.all([client.close(), client.close()]);
  await client.close();
  assert.ok(!isAlive(pid));
  await assert.rejects(client.callTool('echo', { text: 'x' }), (error: unknown) => error instanceof ClosedError && error.reason === 'closed');
  await assert.rejects(client.ping(), (error: unknown) => error instanceof ClosedError && error.reason === 'closed');
});

test('L2: a request made while close() is still stopping the server rejects with ClosedError reason closed, not "call connect() first"', async (t) => {
  const { client, pid } = await start(t, { mode: 'ignore-term', shutdownStepMs: 200 });
  const closing = client.close();
  assert.equal(client.state, 'closing');
  for (const attempt of [() => client.callTool('echo', { text: 'late' }), () => client.listTools(), () => client.ping()]) {
    await assert.rejects(attempt(), (error: unknown) => {
      assert.ok(error instanceof ClosedError, `expected ClosedError, got ${String(error)}`);
      assert.equal(error.reason, 'closed');
      assert.doesNotMatch(error.message, /call connect\(\) first/);
      return true;
    });
  }
  await closing;
  assert.ok(!isAlive(pid));
});

test('L2: closing a client whose server already died resolves at once and leaves nothing behind', async (t) => {
  const { client, pid } = await start(t, { shutdownStepMs: 5_000 });
  await assert.rejects(client.callTool('exit', { code: 0 }), (error: unknown) => error instanceof ClosedError && error.reason === 'exited' && error.exitCode === 0);
  const startedAt = Date.now();
  await client.close();
  assert.ok(Date.now() - startedAt < 1_000, 'no shutdown steps for a process that is already gone');
  assert.ok(!isAlive(pid));
});

test('no child process is left behind by this file', async () => {
  assert.ok(startedPids.size >= 7);
  for (const pid of startedPids) assert.ok(await waitGone(pid), `process ${pid} is gone`);
});

test('L2/#18 item 5: close({ hurry }) skips end of input: SIGTERM at once, SIGKILL 200 ms later, even with 5 s steps; pending calls reject', async (t) => {
  const log = tempLog(t, 'l2');
  const { client, pid } = await start(t, { mode: 'ignore-term', env: { FAULT_LOG: log }, shutdownStepMs: 5_000 });
  await client.ping();
  const hanging = assert.rejects(client.callTool('hang'), ClosedError);
  const startedAt = Date.now();
  await client.close({ hurry: true });
  const tookMs = Date.now() - startedAt;
  await hanging;
  assert.deepEqual(events(log), ['EVENT SIGTERM'], 'no end of input first: SIGTERM, then SIGKILL (which it cannot log)');
  assert.ok(!isAlive(pid), 'the process is gone when close() resolves');
  // The graceful ladder would take 10 s here (two 5 s steps); a hurried close is the 200 ms grace and a poll or two.
  assert.ok(tookMs < 2_000, `close({ hurry }) took ${tookMs} ms`);
});

test('L2/#18 item 5: a hurried close escalates a graceful one already under way', async (t) => {
  const log = tempLog(t, 'l2');
  const { client, pid } = await start(t, { mode: 'ignore-term', env: { FAULT_LOG: log }, shutdownStepMs: 5_000 });
  await client.ping();
  const graceful = client.close();
  await delay(100);
  const startedAt = Date.now();
  await client.close({ hurry: true });
  await graceful;
  assert.ok(Date.now() - startedAt < 2_000, 'the graceful close did not hold the hurried one for its 5 s steps');
  assert.deepEqual(events(log), ['EVENT stdin-end', 'EVENT SIGTERM']);
  assert.ok(!isAlive(pid));
});
