// G1 (#21 item 1, serve's CPU per relayed call): `serveStdio` coalesces
// the lines sent during one tick into one write, and creates a request's
// AbortController only when its handler asks for the signal. These tests
// pin what must not change with that: every answer of a read arrives whole
// and in order however the writes split it; a write that fails (EPIPE: the
// client went away) ends the session instead of crashing the process; and
// a client's notifications/cancelled still reaches the upstream server.
// The serve side runs in this process (so its output can be watched and
// broken); the upstream servers are real child processes.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { PassThrough, Writable } from 'node:stream';
import { describe, test, type TestContext } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { loadToolSourceConfig, openToolSource } from '../src/index.js';
import { CallTracker, serveToolSource } from '../src/serve/serve.js';
import { until, within } from '../src/testing/http-fixture.js';
import { fixtureUpstream, logLines, slowUpstream, writeProject, type Upstream } from './helpers/serve.js';
import { tempLog } from './helpers/temp.js';

/** The bench's minimal echo server: it answers everything one read brought in one write. */
const ECHO_SERVER = fileURLToPath(new URL('../bench/fixtures/echo-server.mjs', import.meta.url));
const echoUpstream = (key: string): Upstream => ({ key, lines: ['transport: stdio', `command: ${JSON.stringify([process.execPath, ECHO_SERVER])}`] });

interface Served {
  input: PassThrough;
  problems: string[];
  closed: Promise<void>;
}

/** serveToolSource over `input` → `output` in front of `upstreams` (short names); source and session closed after the test. */
async function serve(t: TestContext, upstreams: Upstream[], output: Writable): Promise<Served> {
  const config = await loadToolSourceConfig({ config: writeProject(t, upstreams) });
  const calls = new CallTracker();
  const source = await openToolSource({ config, serverHandlers: (key) => calls.handlers(key), onServerNotification: (key, n) => calls.notification(key, n) });
  const input = new PassThrough();
  const problems: string[] = [];
  const handle = await serveToolSource(source, { kind: 'stdio', input, output }, { names: 'short', calls, onProblem: (text) => problems.push(text) });
  t.after(async () => {
    await handle.close();
    await source.close();
  });
  return { input, problems, closed: handle.closed };
}

/** A Writable that keeps each write apart, so a test can count them and read the lines they carry. */
function recorder(): { output: Writable; writes: string[]; lines: () => Record<string, unknown>[] } {
  const writes: string[] = [];
  const output = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      writes.push(String(chunk));
      done();
    },
  });
  // Each line must be a whole JSON message once the writes are joined, wherever a write ended.
  const lines = () => writes.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  return { output, writes, lines };
}

const request = (id: number, method: string, params: Record<string, unknown> = {}) => `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
const INITIALIZE = request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'g1-batching', version: '1' } }) + '{"jsonrpc":"2.0","method":"notifications/initialized"}\n';

describe('G1 serve --stdio: the answers of one read leave together', () => {
  test('G1: 16 calls arriving in one read are each answered once, whole and in order, in fewer writes than answers', async (t) => {
    const { output, writes, lines } = recorder();
    const { input } = await serve(t, [echoUpstream('echo')], output);
    input.write(INITIALIZE);
    await until(() => lines().some((m) => m.id === 0), 'the initialize answer');
    // A first call starts nothing new later: the upstream is up and its tool registered before the batch.
    input.write(request(1, 'tools/call', { name: 'echo', arguments: { message: 'first' } }));
    await until(() => lines().some((m) => m.id === 1), 'the first call', 15_000);
    const before = writes.length;
    const ids = Array.from({ length: 16 }, (_, k) => 100 + k);
    input.write(ids.map((id) => request(id, 'tools/call', { name: 'echo', arguments: { message: `m${id}` } })).join(''));
    await until(() => lines().filter((m) => ids.includes(m.id as number)).length === ids.length, 'the 16 answers', 15_000);
    const answers = lines().filter((m) => ids.includes(m.id as number));
    assert.deepEqual(
      answers.map((m) => m.id),
      ids,
      'one answer per request, in the order the upstream gave them (its order of the read)',
    );
    for (const m of answers) assert.deepEqual(m.result, { content: [{ type: 'text', text: `Echo: m${m.id}` }] });
    const batchWrites = writes.length - before;
    // One per answer before batching; the upstream answers one read in one write, so these come in one or a few.
    assert.ok(batchWrites <= ids.length / 2, `16 answers in ${batchWrites} writes`);
  });

  test('G1: a write that fails with EPIPE (the reader has gone) ends the session; the process does not crash', async (t) => {
    // The output is a real pipe to a child that closes its end after the first chunk (and lives on): later writes fail with EPIPE.
    const reader = spawn(process.execPath, ['-e', "const fs = require('node:fs'); fs.readSync(0, Buffer.alloc(65536)); fs.closeSync(0); process.stdout.write('closed'); setTimeout(() => {}, 60_000);"], { stdio: ['pipe', 'pipe', 'ignore'] });
    t.after(() => {
      if (reader.exitCode === null && reader.signalCode === null) reader.kill('SIGKILL');
    });
    const readerClosed = new Promise((resolve) => reader.stdout.once('data', resolve));
    const { input, problems, closed } = await serve(t, [echoUpstream('echo')], reader.stdin);
    input.write(INITIALIZE);
    await within(readerClosed, 'the reader to close its end after the first answer', 15_000);
    // Answers now go to a pipe nobody reads: the first failed write must end the session.
    for (let id = 1; id <= 5; id++) input.write(request(id, 'ping'));
    await within(closed, 'the session to end after the failed write', 15_000);
    assert.ok(
      problems.some((p) => /output failed \((EPIPE|ERR_STREAM_DESTROYED|EOF)/.test(p)),
      `the failure is reported: ${problems.join(' | ')}`,
    );
  });
});

describe('G1 serve --stdio: cancellation with the AbortController made on demand', () => {
  test('G1: notifications/cancelled from the client reaches the upstream, and the cancelled call is not answered', async (t) => {
    const log = tempLog(t, 'g1-batching-cancel');
    const { output, lines } = recorder();
    const { input } = await serve(t, [slowUpstream('slow', log)], output);
    input.write(INITIALIZE);
    await until(() => lines().some((m) => m.id === 0), 'the initialize answer', 15_000);
    input.write(request(7, 'tools/call', { name: 'wait', arguments: {} }));
    await until(() => logLines(log).some((l) => l.startsWith('call ')), 'the call to reach the upstream', 15_000);
    const upstreamId = logLines(log).find((l) => l.startsWith('call '))!.slice(5);
    input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'the test gave up' } })}\n`);
    await until(() => logLines(log).includes(`cancelled ${upstreamId}`), 'notifications/cancelled to reach the upstream', 15_000);
    // A ping answered after the cancellation: anything serve would send for id 7 has been written by then.
    input.write(request(8, 'ping'));
    await until(() => lines().some((m) => m.id === 8), 'the ping answer');
    assert.equal(
      lines().filter((m) => m.id === 7).length,
      0,
      'MCP cancellation: the receiver does not answer a cancelled request',
    );
  });
});

describe('G1 serve --names short: the names kept between calls follow the registry', () => {
  test('G1: once a second server also has `echo`, the short name `echo` is neither listed nor called', async (t) => {
    const { output, lines } = recorder();
    const { input } = await serve(t, [fixtureUpstream('alpha', { TS_TOOLS: 'echo' }), fixtureUpstream('beta', { TS_TOOLS: 'add-tool' })], output);
    input.write(INITIALIZE);
    const answer = async (id: number, what: string) => {
      await until(() => lines().some((m) => m.id === id), what, 15_000);
      return lines().find((m) => m.id === id)!;
    };
    await answer(0, 'the initialize answer');
    const names = async (id: number) => ((await answer(id, 'tools/list')).result as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    input.write(request(1, 'tools/list'));
    assert.ok((await names(1)).includes('echo'), 'a tool only one server has keeps its own name');
    input.write(request(2, 'tools/call', { name: 'echo', arguments: { text: 'before' } }));
    assert.deepEqual((await answer(2, 'the first echo')).result, { content: [{ type: 'text', text: 'before' }] });
    // beta adds its own `echo` and says so (tools/list_changed): the name is now shared.
    input.write(request(3, 'tools/call', { name: 'add-tool', arguments: { name: 'echo' } }));
    await answer(3, 'add-tool');
    // The source rediscovers beta's tools after its list_changed: list until beta's echo shows.
    let id = 10;
    const listNow = async () => {
      input.write(request(++id, 'tools/list'));
      return names(id);
    };
    let listed = await listNow();
    const deadline = performance.now() + 15_000;
    while (!listed.some((name) => name.includes('beta'))) {
      assert.ok(performance.now() < deadline, `beta's echo was never listed: ${listed.join(', ')}`);
      await delay(50);
      listed = await listNow();
    }
    assert.equal(listed.filter((name) => name.includes('echo')).length, 2, `both servers' echo: ${listed.join(', ')}`);
    assert.ok(!listed.includes('echo'), `a name two servers share is not served short: ${listed.join(', ')}`);
    input.write(request(++id, 'tools/call', { name: 'echo', arguments: { text: 'after' } }));
    const after = await answer(id, 'the echo call after the change');
    assert.equal((after.error as { code: number } | undefined)?.code, -32602, `the short name is unknown now: ${JSON.stringify(after)}`);
  });
});
