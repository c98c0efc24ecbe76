// The runner must FAIL broken transcripts, with the first difference, and
// leave no relay process behind, pass or fail. Each case here is a small
// variation of a passing handshake, written to a temp dir (never into
// conformance/, which holds cases that must pass).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runFile, type CaseResult } from './runner.js';
import { ECHO_CALL, ECHO_RESULT, HANDSHAKE, INITIALIZE, INITIALIZE_RESULT, writeTranscript } from '../testing/transcripts.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpwire-runner-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const echo = (expect: unknown) => [
  { op: 'callTool', name: 'echo', arguments: { message: 'hi' }, timeoutMs: 1000, expect },
  { dir: 'c2s', msg: ECHO_CALL },
  { dir: 's2c', msg: { jsonrpc: '2.0', id: 1, result: ECHO_RESULT } },
];
const close = { op: 'close', timeoutMs: 1000 };

function run(name: string, events: unknown[], header: Record<string, unknown> = {}): Promise<CaseResult> {
  return runFile(writeTranscript(dir, name, events, header));
}

function assertFails(result: CaseResult, pattern: RegExp): void {
  assert.equal(result.status, 'fail', `expected the case to fail; trace:\n${result.trace.join('\n')}`);
  assert.match(result.detail ?? '', pattern);
}

/** Relay processes that are still children of this test process. */
function liveRelays(): string[] {
  if (process.platform === 'win32') return [];
  const out = execFileSync('ps', ['-eo', 'ppid=,pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.trim().startsWith(`${process.pid} `) && line.includes('relay-child'));
}

describe('the runner fails broken transcripts', () => {
  test('control: the unbroken case passes', async () => {
    const result = await run('control', [...HANDSHAKE, ...echo({ result: ECHO_RESULT }), close]);
    assert.equal(result.status, 'pass', result.detail);
  });

  test('an expect result that differs', async () => {
    const result = await run('wrong-result', [...HANDSHAKE, ...echo({ result: { content: [{ type: 'text', text: 'Echo: ho' }] } }), close]);
    assertFails(result, /^line 6: op callTool echo: result differs: result\.content\[0\]\.text: expected "Echo: ho", got "Echo: hi"$/);
  });

  test('an expected error that does not happen', async () => {
    const result = await run('wrong-expect-error', [...HANDSHAKE, ...echo({ error: 'timeout' }), close]);
    assertFails(result, /expected a "timeout" error, but it succeeded/);
  });

  test('a c2s line the client never sends (client gone)', async () => {
    const result = await run('never-sent-after-close', [...HANDSHAKE, close, { dir: 'c2s', msg: { jsonrpc: '2.0', method: 'notifications/roots/list_changed' } }]);
    assertFails(result, /^line 7: c2s notifications\/roots\/list_changed: the client never sent it/);
  });

  test('a c2s line the client never sends (the case budget runs out)', async () => {
    const started = Date.now();
    // One op with timeoutMs 1500: the budget is 3000 ms.
    const result = await run('never-sent-idle', [{ op: 'connect', timeoutMs: 1500 }, ...HANDSHAKE.slice(1), { dir: 'c2s', msg: { jsonrpc: '2.0', method: 'notifications/roots/list_changed' } }]);
    assertFails(result, /did not finish within 3000 ms .* while waiting for the client to send line 6: c2s notifications\/roots\/list_changed$/);
    assert.ok(Date.now() - started < 6_000);
  });

  test('a message the client sends that no c2s line expects', async () => {
    const result = await run('unexpected-message', [{ op: 'connect', timeoutMs: 3000 }, { dir: 'c2s', msg: INITIALIZE }, { dir: 's2c', msg: INITIALIZE_RESULT }, close]);
    assertFails(result, /the client sent a message no c2s line expects: \{"jsonrpc":"2.0","method":"notifications\/initialized"\}/);
  });

  test('a message the client sends while the replay waits between two s2c lines', async () => {
    // The client answers the server's ping at once; no c2s line expects that answer. It arrives
    // during line 9's delay, between server messages, and must fail the case right there.
    const result = await run('unexpected-during-s2c-delay', [
      ...HANDSHAKE,
      { op: 'callTool', name: 'echo', arguments: { message: 'hi' }, timeoutMs: 2000, expect: { result: ECHO_RESULT } },
      { dir: 'c2s', msg: ECHO_CALL },
      { dir: 's2c', msg: { jsonrpc: '2.0', id: 'srv-1', method: 'ping' } },
      { dir: 's2c', delayMs: 300, msg: { jsonrpc: '2.0', id: 1, result: ECHO_RESULT } },
      close,
    ]);
    assertFails(result, /^after line 9: the client sent a message no c2s line expects: \{"jsonrpc":"2.0","id":"srv-1","result":\{\}\}$/);
  });

  test('a c2s line with the wrong method', async () => {
    const result = await run('wrong-method', [...HANDSHAKE.slice(0, 3), { dir: 'c2s', msg: { jsonrpc: '2.0', method: 'notifications/ready' } }, close]);
    assertFails(result, /^line 5: c2s notifications\/ready: method: expected "notifications\/ready", got "notifications\/initialized"$/);
  });

  test('an s2c answer sent to the wrong id leaves the call to time out', async () => {
    const result = await run('answer-wrong-id', [
      ...HANDSHAKE,
      { op: 'callTool', name: 'echo', arguments: { message: 'hi' }, timeoutMs: 300, expect: { result: ECHO_RESULT } },
      { dir: 'c2s', msg: ECHO_CALL },
      { dir: 's2c', msg: { jsonrpc: '2.0', id: 77, result: ECHO_RESULT } },
      close,
    ]);
    // The client times out and sends notifications/cancelled, which no line expects: that is seen first.
    assertFails(result, /notifications\/cancelled|expected success, got TimeoutError/);
  });

  test('an unknown header key', async () => {
    assertFails(await run('bad-header', [...HANDSHAKE, close], { recordedBy: 'me' }), /unknown header key "recordedBy"/);
  });

  test('an unknown key in the header\'s client', async () => {
    assertFails(await run('bad-client', [...HANDSHAKE, close], { client: { timeoutMs: 1000, retries: 2 } }), /unknown key "client\.retries"/);
  });

  test('no relay process outlives its case', () => {
    assert.deepEqual(liveRelays(), []);
  });
});
