// Faults with real child processes (W7, W8, S3): a server that dies in the
// middle of a call, one that never answers, one that closes its output. Each
// case runs the fixture spec-tests/fixtures/fault-server.mjs as a real process.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { ClosedError, TimeoutError, type Diagnostic } from '../src/index.js';
import { logLines, startedPids, waitGone, start } from './helpers/fault-harness.js';
import { tempLog } from './helpers/temp.js';

/** The log's lines once one satisfies `predicate`, or all of them after `ms`. */
async function waitForLog(file: string, predicate: (line: string) => boolean, ms = 2_000): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const lines = logLines(file);
    if (lines.some(predicate) || Date.now() > deadline) return lines;
    await delay(20);
  }
}

test('W8/S3: a server that exits mid-call fails the call with ClosedError (exited, code 3, stderr tail) within a second', async (t) => {
  const log = tempLog(t, 'faults');
  const diagnostics: Diagnostic[] = [];
  const { client, pid } = await start(t, { env: { FAULT_LOG: log } }, { onDiagnostic: (d) => diagnostics.push(d) });
  assert.equal((await client.callTool('echo', { text: 'alive' })).content[0]?.text, 'alive');

  const stderr = 'fatal: lost the database connection (fault-server)\n';
  const startedAt = Date.now();
  const call = client.callTool('exit', { code: 3, stderr });
  const error = await call.then(
    () => assert.fail('the call must not succeed'),
    (e: unknown) => e,
  );
  const rejectedAt = Date.now();
  assert.ok(error instanceof ClosedError, `expected ClosedError, got ${String(error)}`);
  assert.equal(error.code, 'closed');
  assert.equal(error.reason, 'exited');
  assert.equal(error.exitCode, 3);
  assert.equal(error.signal, null);
  assert.equal(error.method, 'tools/call');
  assert.equal(error.server, 'fault-ok');
  assert.match(error.stderrTail ?? '', /fatal: lost the database connection/);
  assert.match(error.message, /exited with code 3/);
  assert.match(error.message, /fatal: lost the database connection \(fault-server\)/);

  // Hang check, not a benchmark: the exit is seen within ~1 s (the drain grace is 150 ms).
  const exitLine = logLines(log).find((line) => line.startsWith('EVENT exit 3 '));
  assert.ok(exitLine, 'the fixture logged its exit');
  const exitedAt = Number(exitLine.split(' ')[3]);
  const afterExitMs = rejectedAt - exitedAt;
  t.diagnostic(`rejected ${afterExitMs} ms after the process exited (${rejectedAt - startedAt} ms after the call)`);
  assert.ok(afterExitMs < 2_000, `rejected ${afterExitMs} ms after exit`);

  // The stderr also went to the diagnostics hook (T1), and the client is now closed for good (no retry).
  assert.ok(diagnostics.some((d) => d.kind === 'stderr' && d.text.includes('fatal: lost the database connection')));
  assert.equal(client.state, 'closed');
  await assert.rejects(client.callTool('echo', { text: 'again' }), (e: unknown) => e instanceof ClosedError && e.reason === 'exited' && e.exitCode === 3);
  assert.ok(await waitGone(pid), 'the process is gone');
  const calls = logLines(log).filter((line) => line.includes('"tools/call"'));
  assert.equal(calls.length, 2, 'the failed call was not silently retried');
});

test('W8/T1: the stderr tail is kept without any diagnostic hook installed, and rides on the crash error', async (t) => {
  const { client, transport } = await start(t, {});
  const error = await client.callTool('exit', { code: 5, stderr: 'panic: no hook was listening\n' }).then(
    () => assert.fail('the call must not succeed'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ClosedError, `expected ClosedError, got ${String(error)}`);
  assert.equal(error.reason, 'exited');
  assert.equal(error.exitCode, 5);
  assert.match(error.stderrTail ?? '', /panic: no hook was listening\n$/);
  assert.match(error.message, /panic: no hook was listening/);
  assert.match(transport.stderrTail(), /panic: no hook was listening/);
});

test('W8/S3: calls in flight when the server is killed by a signal all fail with ClosedError naming the signal', async (t) => {
  const { client, pid } = await start(t, {});
  const calls = [client.callTool('hang'), client.callTool('hang'), client.ping({ timeoutMs: 10_000 }).then(() => client.callTool('hang'))];
  await delay(100); // let the requests reach the server
  process.kill(pid, 'SIGKILL');
  const results = await Promise.allSettled(calls);
  for (const result of results) {
    assert.equal(result.status, 'rejected');
    const error = result.reason as unknown;
    assert.ok(error instanceof ClosedError, `expected ClosedError, got ${String(error)}`);
    assert.equal(error.reason, 'exited');
    assert.equal(error.signal, 'SIGKILL');
    assert.match(error.message, /killed by SIGKILL/);
  }
  assert.ok(await waitGone(pid));
});

test('W7: a call the server never answers times out with TimeoutError and the server receives notifications/cancelled for it', async (t) => {
  const log = tempLog(t, 'faults');
  const diagnostics: Diagnostic[] = [];
  const { client } = await start(t, { env: { FAULT_LOG: log } }, { onDiagnostic: (d) => diagnostics.push(d) });

  await assert.rejects(client.callTool('hang', {}, { timeoutMs: 300 }), (error: unknown) => {
    assert.ok(error instanceof TimeoutError, `expected TimeoutError, got ${String(error)}`);
    assert.equal(error.code, 'timeout');
    assert.equal(error.timeoutMs, 300);
    assert.equal(error.method, 'tools/call');
    return true;
  });

  const lines = await waitForLog(log, (line) => line.includes('notifications/cancelled'));
  const received = lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { id?: unknown; method?: string; params?: Record<string, unknown> });
  const hang = received.find((m) => m.method === 'tools/call' && m.params?.name === 'hang');
  assert.ok(hang, 'the server received the call');
  const cancelled = received.filter((m) => m.method === 'notifications/cancelled');
  assert.equal(cancelled.length, 1, `one notifications/cancelled (got ${cancelled.length})`);
  assert.equal(cancelled[0]!.params?.requestId, hang.id);
  assert.equal(cancelled[0]!.id, undefined, 'a notification, not a request');
  assert.equal(typeof cancelled[0]!.params?.reason, 'string');

  // The connection survives a timeout.
  assert.equal((await client.callTool('echo', { text: 'still here' })).content[0]?.text, 'still here');
  assert.equal(client.state, 'ready');
});

test('W8: a server that closes its stdout but keeps running fails pending calls with ClosedError (output-closed) and is stopped', async (t) => {
  const { client, pid } = await start(t, { shutdownStepMs: 300 });
  const pending = client.callTool('hang');
  await assert.rejects(client.callTool('close-stdout'), (error: unknown) => error instanceof ClosedError && error.reason === 'output-closed');
  await assert.rejects(pending, (error: unknown) => error instanceof ClosedError && error.reason === 'output-closed');
  assert.ok(await waitGone(pid), 'the transport stopped the process that could no longer answer');
});

test('no child process is left behind by this file', async () => {
  assert.ok(startedPids.size >= 4);
  for (const pid of startedPids) assert.ok(await waitGone(pid), `process ${pid} is gone`);
});
