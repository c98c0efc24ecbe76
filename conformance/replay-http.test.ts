// X1 over the HTTP transports: every transcript (the shared worked examples
// and this repo's cases) replayed against McpClient over Streamable HTTP
// and over legacy HTTP+SSE, the runner hosting each case on 127.0.0.1. One
// test per case per transport: eligible cases must pass, cases with s2c
// raw/rawBase64 lines must be skipped (TRANSCRIPTS.md). Then broken
// transcripts that must FAIL over HTTP too, s2c close, and the CLI.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runFile, type CaseResult } from '../src/conformance/runner.js';
import { SERVER_SIDES } from '../src/conformance/server-sides.js';
import { collectTranscriptFiles } from '../src/conformance/discover.js';
import { ECHO_CALL, ECHO_RESULT, HANDSHAKE, writeTranscript } from '../src/testing/transcripts.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const SHARED_DIR = fileURLToPath(new URL('../../shared/conformance/transcripts/', import.meta.url));
const OWN_DIR = fileURLToPath(new URL('./', import.meta.url));
/**
 * The shared corpus comes with the project's workspace, not with the
 * repository: a clone on its own skips what needs it, saying so (CI has it).
 */
const SHARED_MISSING = existsSync(SHARED_DIR) ? false : `the shared transcript corpus is not beside this clone (${SHARED_DIR}); CI has it and runs these`;
const SHARED_CASE_COUNT = 30;
const HTTP_TRANSPORTS = ['streamable-http', 'sse'] as const;
type HttpTransport = (typeof HTTP_TRANSPORTS)[number];
/**
 * Cases run concurrently: each has its own server on its own port and path
 * in this process and no child process; the few timing-sensitive ones wait
 * hundreds of ms, far longer than the scheduling noise of eight neighbours.
 */
const CASE_CONCURRENCY = 8;

/** Whether a transcript file has an s2c raw or rawBase64 line: read here independently of the runner's own check. */
function usesRawBytes(file: string): boolean {
  return readFileSync(file, 'utf8')
    .split('\n')
    .some((line) => {
      if (!line.trim().startsWith('{')) return false;
      const value = JSON.parse(line) as Record<string, unknown>;
      return value.dir === 's2c' && ('raw' in value || 'rawBase64' in value);
    });
}

function explain(result: CaseResult): string {
  return `${result.status} ${result.name}: ${result.detail ?? ''}\n  trace:\n    ${result.trace.join('\n    ')}`;
}

async function assertReplays(file: string, transport: HttpTransport): Promise<void> {
  const result = await runFile(file, { serverSides: SERVER_SIDES[transport] });
  if (usesRawBytes(file)) {
    assert.equal(result.status, 'skip', explain(result));
    assert.match(result.detail ?? '', /is an s2c raw(Base64)? line: raw bytes describe stdio output/);
  } else {
    assert.equal(result.status, 'pass', explain(result));
  }
}

// The CLI's own discovery (a directory stands for its *.jsonl files, sorted).
const sharedFiles = SHARED_MISSING ? [] : await collectTranscriptFiles([SHARED_DIR]);
const ownFiles = await collectTranscriptFiles([OWN_DIR]);

test(`all ${SHARED_CASE_COUNT} shared worked examples are there, and most can go over HTTP`, { skip: SHARED_MISSING }, () => {
  assert.equal(sharedFiles.length, SHARED_CASE_COUNT, `expected ${SHARED_CASE_COUNT} transcripts in ${SHARED_DIR}`);
  assert.ok(ownFiles.length > 0, `no transcripts in ${OWN_DIR}`);
  // A guard against a skip rule that quietly swallows everything.
  const eligible = [...sharedFiles, ...ownFiles].filter((file) => !usesRawBytes(file));
  assert.ok(eligible.length >= 30, `only ${eligible.length} cases are free of raw bytes`);
});

for (const transport of HTTP_TRANSPORTS) {
  describe(`over ${transport}: shared worked examples`, { concurrency: CASE_CONCURRENCY, skip: SHARED_MISSING }, () => {
    for (const file of sharedFiles) test(basename(file, '.jsonl'), () => assertReplays(file, transport));
  });
  describe(`over ${transport}: misbehaving-server cases (conformance/*.jsonl)`, { concurrency: CASE_CONCURRENCY }, () => {
    for (const file of ownFiles) test(basename(file, '.jsonl'), () => assertReplays(file, transport));
  });
}

// --- hand-made cases, written to a temp dir -------------------------------------------

const dir = mkdtempSync(join(tmpdir(), 'mcpwire-replay-http-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const echoCall = (expect: unknown) => [{ op: 'callTool', name: 'echo', arguments: { message: 'hi' }, timeoutMs: 3000, expect }, { dir: 'c2s', msg: ECHO_CALL }];
const close = { op: 'close', timeoutMs: 3000 };

const write = (name: string, events: unknown[]) => writeTranscript(dir, name, events);

const cases = {
  control: write('control', [...HANDSHAKE, ...echoCall({ result: ECHO_RESULT }), { dir: 's2c', msg: { jsonrpc: '2.0', id: 1, result: ECHO_RESULT } }, close]),
  wrongResult: write('wrong-result', [...HANDSHAKE, ...echoCall({ result: { content: [{ type: 'text', text: 'Echo: ho' }] } }), { dir: 's2c', msg: { jsonrpc: '2.0', id: 1, result: ECHO_RESULT } }, close]),
  wrongC2s: write('wrong-c2s', [
    ...HANDSHAKE,
    { op: 'callTool', name: 'echo', arguments: { message: 'hi' }, timeoutMs: 3000 },
    { dir: 'c2s', msg: { ...ECHO_CALL, params: { name: 'echo', arguments: { message: 'ho' } } } },
    close,
  ]),
  // A transcript that shows no notifications/cancelled after the timeout, while the client sends one. (A ping
  // follows so the runner is still listening: with close right after the timeout, close() would cut the
  // cancellation's POST short over HTTP, and whether any of it reached the server would be a matter of timing.)
  unexpectedCancel: write('unexpected-cancel', [
    ...HANDSHAKE,
    { op: 'callTool', name: 'echo', arguments: { message: 'hi' }, timeoutMs: 300, expect: { error: 'timeout' } },
    { dir: 'c2s', msg: ECHO_CALL },
    { op: 'ping', timeoutMs: 3000 },
    { dir: 'c2s', msg: { jsonrpc: '2.0', id: 2, method: 'ping' } },
    { dir: 's2c', msg: { jsonrpc: '2.0', id: 2, result: {} } },
    close,
  ]),
  closeMidCall: write('close-mid-call', [
    ...HANDSHAKE,
    ...echoCall({ error: 'closed' }),
    { dir: 's2c', msg: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: 'dying' } } },
    { dir: 's2c', close: true, delayMs: 50 },
    close,
  ]),
  closeButExpectResult: write('close-but-expect-result', [...HANDSHAKE, ...echoCall({ result: ECHO_RESULT }), { dir: 's2c', close: true }, close]),
  // s2c close right as the call starts: the server goes away while the client's POST of tools/call is in flight.
  closeDuringPost: write('close-during-post', [...HANDSHAKE, { op: 'callTool', name: 'echo', arguments: { message: 'hi' }, timeoutMs: 3000, expect: { error: 'closed' } }, { dir: 's2c', close: true }, close]),
  closeThenCall: write('close-then-call', [
    ...HANDSHAKE,
    ...echoCall({ error: 'closed' }),
    { dir: 's2c', close: true },
    { op: 'callTool', name: 'again', arguments: {}, timeoutMs: 3000, expect: { error: 'closed' } },
    close,
  ]),
};

function assertFails(result: CaseResult, pattern: RegExp): void {
  assert.equal(result.status, 'fail', explain(result));
  assert.match(result.detail ?? '', pattern);
}

for (const transport of HTTP_TRANSPORTS) {
  const run = (file: string) => runFile(file, { serverSides: SERVER_SIDES[transport] });

  describe(`over ${transport}: broken transcripts fail, s2c close ends the call as "closed"`, { concurrency: CASE_CONCURRENCY }, () => {
    test('control: the unbroken case passes', async () => {
      const result = await run(cases.control);
      assert.equal(result.status, 'pass', explain(result));
    });
    test('an expect result that differs', async () => {
      assertFails(await run(cases.wrongResult), /^line 6: op callTool echo: result differs: result\.content\[0\]\.text: expected "Echo: ho", got "Echo: hi"$/);
    });
    test('a c2s line the client does not send that way', async () => {
      assertFails(await run(cases.wrongC2s), /^line 7: c2s tools\/call: params\.arguments\.message: expected "ho", got "hi"$/);
    });
    test('a message no c2s line expects (the cancellation of a timed-out call)', async () => {
      // Seen as the unexpected message it is, or against the ping line, depending on when it lands: a FAIL either way.
      assertFails(await run(cases.unexpectedCancel), /no c2s line expects: .*"notifications\/cancelled"|^line 9: c2s ping: expected a request \(ping\), got a notification \(notifications\/cancelled\)/);
    });
    test('s2c close mid-call: the pending call fails "closed"', async () => {
      const result = await run(cases.closeMidCall);
      assert.equal(result.status, 'pass', explain(result));
    });
    test('s2c close while the call is being POSTed: it fails "closed" (and nothing is left unhandled)', async () => {
      const result = await run(cases.closeDuringPost);
      assert.equal(result.status, 'pass', explain(result));
    });
    test('s2c close mid-call while the transcript expects a result: FAIL', async () => {
      assertFails(await run(cases.closeButExpectResult), /^line 6: op callTool echo: expected success, got ClosedError \("closed"/);
    });
  });
}

// Over legacy SSE a request made after the server went away waits for the
// transport's reconnection attempts (T2), so only Streamable HTTP is asked here.
test('over streamable-http: after s2c close, the next call fails "closed" too (nothing listens)', async () => {
  const result = await runFile(cases.closeThenCall, { serverSides: SERVER_SIDES['streamable-http'] });
  assert.equal(result.status, 'pass', explain(result));
});

// --- the CLI ------------------------------------------------------------------------------

describe('the CLI: mcpwire conformance --transport sse', { skip: SHARED_MISSING }, () => {
  const cliDir = mkdtempSync(join(tmpdir(), 'mcpwire-cli-http-test-'));
  after(() => rmSync(cliDir, { recursive: true, force: true }));
  // Sorted: everything-echo-and-ping (passes), split-message-delay (raw: skipped), wrong-result (fails).
  if (!SHARED_MISSING) {
    copyFileSync(join(SHARED_DIR, 'everything-echo-and-ping.jsonl'), join(cliDir, 'everything-echo-and-ping.jsonl'));
    copyFileSync(join(SHARED_DIR, 'split-message-delay.jsonl'), join(cliDir, 'split-message-delay.jsonl'));
    copyFileSync(cases.wrongResult, join(cliDir, 'wrong-result.jsonl'));
  }

  function cli(args: string[]) {
    const run = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'mcpwire.js'), 'conformance', ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr, lines: run.stdout.trim().split('\n') };
  }

  test('a directory: pass, skip with the reason, FAIL, then "N passed, N failed, N skipped"; exit 1', () => {
    const run = cli(['--transport', 'sse', cliDir]);
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.lines[0], 'pass everything-echo-and-ping');
    assert.match(run.lines[1]!, /^skip split-message-delay: line 9 is an s2c raw line: raw bytes describe stdio output/);
    assert.match(run.lines[2]!, /^FAIL wrong-result: line 6: op callTool echo: result differs/);
    assert.equal(run.lines.at(-1), '1 passed, 1 failed, 1 skipped');
  });

  test('passes and skips only: exit 0', () => {
    const run = cli(['--transport', 'sse', join(cliDir, 'everything-echo-and-ping.jsonl'), join(cliDir, 'split-message-delay.jsonl')]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.lines.at(-1), '1 passed, 0 failed, 1 skipped');
  });

  test('an unknown transport is a usage error (exit 2)', () => {
    const run = cli(['--transport', 'websocket', cliDir]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /unknown transport "websocket"; use one of stdio, sse, streamable-http/);
  });
});

test('no HTTP server of a case outlives it', () => {
  // Every case above has returned; a server still listening would show as a TCP server handle.
  const servers = process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap');
  assert.deepEqual(servers, []);
});
