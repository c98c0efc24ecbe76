// X2: `mcpwire record`, run as a user runs it (the real binary in a child
// process) against the real server-everything, in both modes: --ops drives
// mcpwire's client; --proxy stands between a client (the official SDK's, or
// mcpwire's over Streamable HTTP) and the server. Each recording must replay
// with the conformance runner. The stdio proxy must pass bytes through
// untouched both ways, and no canary secret (config env, auth header) may
// reach the written file.

import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runFile } from '../src/conformance/runner.js';
import { SERVER_SIDES } from '../src/conformance/server-sides.js';
import { connect } from '../src/index.js';
import { within } from '../src/testing/http-fixture.js';
import { expandBundles } from './helpers/built-modules.js';
import { everythingServerPath, startEverythingHttp } from './helpers/interop.js';
import { tempDir } from './helpers/temp.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'bin', 'mcpwire.js');
const ODD_SERVER = fileURLToPath(new URL('./fixtures/odd-bytes-server.mjs', import.meta.url));
const RECORD_LOADS = fileURLToPath(new URL('./fixtures/record-module-loads.mjs', import.meta.url));
const CANARY = 'sk-canary-7f3a9c2e5b1d';

async function assertReplays(file: string, transport: 'stdio' | 'streamable-http' = 'stdio'): Promise<void> {
  const result = await runFile(file, { serverSides: SERVER_SIDES[transport] });
  assert.equal(result.status, 'pass', `${result.name}: ${result.detail}\n  ${result.trace.join('\n  ')}`);
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

test('X2 --ops: a config entry with a canary env value; the recording replays, and the canary (echoed by get-env) is redacted', async (t) => {
  const dir = tempDir(t, 'record');
  const config = path.join(dir, 'servers.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingServerPath(), 'stdio'], env: { RECORDER_CANARY: CANARY } } } }));
  const ops = path.join(dir, 'ops.json');
  writeFileSync(ops, JSON.stringify([{ op: 'connect' }, { op: 'callTool', name: 'echo', arguments: { message: `say ${CANARY}` } }, { op: 'callTool', name: 'get-env' }, { op: 'ping' }]));
  const out = path.join(dir, 'ops-case.jsonl');
  const run = spawnSync(process.execPath, [bin, 'record', '--ops', ops, '--out', out, '--config', config, '--server', 'everything'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  const text = readFileSync(out, 'utf8');
  assert.ok(!text.includes(CANARY) && !text.includes(Buffer.from(CANARY).toString('base64')), 'the canary is not in the file');
  assert.match(text, /\[redacted\]/);
  const lines = text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.deepEqual(
    lines.filter((line) => 'op' in line).map((line) => line.op),
    ['connect', 'callTool', 'callTool', 'ping', 'close'],
    'the ops as given, and the close the recorder adds',
  );
  assert.deepEqual(lines[4]!.expect ?? lines.find((line) => line.name === 'echo')!.expect, { result: { content: [{ type: 'text', text: 'Echo: say [redacted]' }] } });
  await assertReplays(out);
});

test('X2 --ops: an op whose given expect does not hold fails the recording and writes nothing', (t) => {
  const dir = tempDir(t, 'record');
  const ops = path.join(dir, 'ops.json');
  writeFileSync(ops, JSON.stringify([{ op: 'connect' }, { op: 'callTool', name: 'echo', arguments: { message: 'x' }, expect: { error: -32602 } }]));
  const out = path.join(dir, 'never.jsonl');
  const run = spawnSync(process.execPath, [bin, 'record', '--ops', ops, '--out', out, '--', process.execPath, everythingServerPath(), 'stdio'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stderr, /the ops file expects \{"error":-32602\}/);
  assert.throws(() => readFileSync(out));
});

const V2_SERVER = fileURLToPath(new URL('./fixtures/v2-server.mjs', import.meta.url));

/** A transcript file's lines, parsed. */
function linesOf(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

test('X2 --ops --era auto --elicit against the real SDK v2 server: the header says how the client was set up, the probe and the modern _meta are recorded, and it replays over stdio and Streamable HTTP (#17)', async (t) => {
  const dir = tempDir(t, 'record');
  const ops = path.join(dir, 'ops.json');
  writeFileSync(ops, JSON.stringify([{ op: 'connect' }, { op: 'callTool', name: 'ask', arguments: { question: 'Yes?' } }]));
  const out = path.join(dir, 'era-auto.jsonl');
  const elicit = { action: 'accept', content: { answer: 'yes' } };
  const run = spawnSync(process.execPath, [bin, 'record', '--ops', ops, '--out', out, '--era', 'auto', '--elicit', JSON.stringify(elicit), '--', process.execPath, V2_SERVER, '--era', 'dual'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  const lines = linesOf(out);
  assert.deepEqual(lines[0]!.client, { protocolEra: 'auto', elicitation: elicit });
  assert.equal(lines[0]!.protocolVersion, '2026-07-28');
  const sent = lines.filter((line) => line.dir === 'c2s').map((line) => line.msg as { method?: string; params?: { _meta?: Record<string, unknown> } });
  assert.equal(sent[0]!.method, 'server/discover', 'auto opens with the probe');
  assert.ok(!sent.some((m) => m.method === 'initialize'), 'the probe was answered: no initialize');
  // A tools/call also declares the tasks extension (SEP-2663): the client can follow a task it creates.
  for (const m of sent) {
    const expected = m.method === 'tools/call' ? { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } } : { elicitation: {} };
    assert.deepEqual(m.params?._meta?.['io.modelcontextprotocol/clientCapabilities'], expected, `${m.method}: the modern envelope`);
  }
  assert.equal(sent.filter((m) => m.method === 'tools/call').length, 2, 'the call, and its retry after the input_required round');
  await assertReplays(out);
  await assertReplays(out, 'streamable-http');
});

test('X2 --ops: without --era the config entry\'s own protocolEra is the recorded client\'s; --era wins over it (#17)', async (t) => {
  const dir = tempDir(t, 'record');
  const config = path.join(dir, 'servers.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { v2: { command: process.execPath, args: [V2_SERVER, '--era', 'dual'], protocolEra: 'modern' } } }));
  const ops = path.join(dir, 'ops.json');
  writeFileSync(ops, JSON.stringify([{ op: 'connect' }, { op: 'callTool', name: 'echo', arguments: { text: 'x' } }]));
  const record = (name: string, ...extra: string[]) => {
    const out = path.join(dir, `${name}.jsonl`);
    const run = spawnSync(process.execPath, [bin, 'record', '--ops', ops, '--out', out, '--config', config, ...extra], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    return out;
  };
  const configured = record('from-config');
  assert.deepEqual(linesOf(configured)[0]!.client, { protocolEra: 'modern' });
  assert.equal((linesOf(configured)[2]!.msg as { method: string }).method, 'server/discover');
  const pinned = record('from-flag', '--era', '2025-11-25');
  assert.deepEqual(linesOf(pinned)[0]!.client, { protocolEra: '2025-11-25' });
  assert.deepEqual((linesOf(pinned)[2]!.msg as { method: string; params: { protocolVersion: string } }).params.protocolVersion, '2025-11-25');
  await assertReplays(configured);
  await assertReplays(pinned);
});

test('X2: --era and --elicit are checked, and go with --ops only', () => {
  const usage = (...args: string[]) => spawnSync(process.execPath, [bin, 'record', '--out', 'x.jsonl', ...args, '--', 'true'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
  const proxy = usage('--proxy', '--era', 'modern');
  assert.equal(proxy.status, 2, proxy.stderr);
  assert.match(proxy.stderr, /--era and --elicit .* go with --ops/);
  const bogus = usage('--ops', 'ops.json', '--era', 'newest');
  assert.equal(bogus.status, 2, bogus.stderr);
  assert.match(bogus.stderr, /--era: /);
  const notJson = usage('--ops', 'ops.json', '--elicit', '{action: accept}');
  assert.equal(notJson.status, 2, notJson.stderr);
  assert.match(notJson.stderr, /--elicit takes the elicitation result as JSON/);
  const noAction = usage('--ops', 'ops.json', '--elicit', '{"content":{}}');
  assert.equal(noAction.status, 2, noAction.stderr);
  assert.match(noAction.stderr, /with an "action"/);
});

test('X2 --proxy over stdio: the official SDK client spawns mcpwire record in place of server-everything; the recording replays', async (t) => {
  const dir = tempDir(t, 'record');
  const out = path.join(dir, 'sdk-through-proxy.jsonl');
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'record', '--proxy', '--out', out, '--', process.execPath, everythingServerPath(), 'stdio'], cwd: root, stderr: 'pipe' });
  const client = new Client({ name: 'sdk-test-client', version: '1.0.0' });
  t.after(() => client.close());
  await client.connect(transport);
  await client.listTools();
  const echo = await client.callTool({ name: 'echo', arguments: { message: 'through the recorder' } });
  assert.deepEqual(echo.content, [{ type: 'text', text: 'Echo: through the recorder' }]);
  await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Oslo' } });
  await assert.rejects(client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 3, steps: 1 } }, undefined, { timeout: 250 }));
  await client.ping();
  await client.close();
  const lines = readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.deepEqual(
    lines.filter((line) => 'op' in line).map((line) => line.op),
    ['connect', 'listTools', 'callTool', 'getPrompt', 'callTool', 'ping', 'close'],
  );
  assert.deepEqual(lines.find((line) => line.timeoutMs !== undefined)?.expect, { error: 'timeout' }, 'the call the client gave up on became a timeout op');
  await assertReplays(out);
});

test('X2 --proxy --listen: mcpwire over Streamable HTTP through the recorder to server-everything; the bearer canary is kept out; the recording replays over HTTP too', async (t) => {
  const dir = tempDir(t, 'record');
  const out = path.join(dir, 'http-through-proxy.jsonl');
  const { port } = await startEverythingHttp(t, 'streamableHttp');
  const recorder = spawn(process.execPath, [bin, 'record', '--proxy', '--listen', '127.0.0.1:0', '--out', out, '--url', `http://127.0.0.1:${port}/mcp`], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  t.after(() => recorder.kill('SIGKILL'));
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    recorder.stderr!.setEncoding('utf8');
    recorder.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on (\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    recorder.once('exit', (code) => reject(new Error(`mcpwire record exited ${code}: ${stderr}`)));
  });
  const client = await connect({ transport: 'streamable-http', url, headers: { Authorization: `Bearer ${CANARY}` } });
  await client.listTools();
  const echo = await client.callTool('echo', { message: `token ${CANARY}` });
  assert.deepEqual(echo.content, [{ type: 'text', text: `Echo: token ${CANARY}` }], 'the client sees what the server sent');
  await client.callTool('trigger-long-running-operation', { duration: 0.2, steps: 2 }, { onProgress: () => {} });
  await client.close(); // DELETE ends the session, and the recording
  assert.equal(await exited(recorder), 0, stderr);
  const text = readFileSync(out, 'utf8');
  assert.ok(!text.includes(CANARY), 'the bearer token is not in the file');
  assert.match(text, /"Echo: token \[redacted\]"/);
  assert.match(text, /"method":"notifications\/progress"/);
  await assertReplays(out);
  await assertReplays(out, 'streamable-http');
});

test('X2 --proxy over stdio forwards bytes unchanged both ways: banner, CRLF, raw and escaped non-ASCII, spaces, chunks split inside a character', async (t) => {
  const dir = tempDir(t, 'record');
  // The client's bytes: odd spacing, CRLF, an escaped and a raw é, a line cut inside a 4-byte emoji.
  const input = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n  {"jsonrpc" : "2.0", "id":"s-2", "method":"tools/list", "params":{"x":"\\u00e9 é 😀"}}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n', 'utf8');
  const cut = input.indexOf(Buffer.from('😀')) + 2;
  const chunks = [input.subarray(0, 17), input.subarray(17, cut), input.subarray(cut)];

  async function drive(argv: string[], log: string): Promise<Buffer> {
    const child = spawn(process.execPath, argv, { cwd: root, env: { ...process.env, ODD_BYTES_LOG: log }, stdio: ['pipe', 'pipe', 'inherit'] });
    t.after(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    const out: Buffer[] = [];
    // Both answers are in before the input ends: a client that ends its input is done, and the recorder stops there.
    const answered = new Promise<void>((resolve) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        out.push(chunk);
        if (Buffer.concat(out).toString('utf8').split('"result"').length === 3) resolve();
      });
    });
    for (const chunk of chunks) {
      child.stdin!.write(chunk);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await within(answered, `both answers from ${argv.join(' ')}`, 15_000);
    child.stdin!.end();
    assert.equal(await within(exited(child), `${argv.join(' ')} to exit at the end of its input`, 15_000), 0);
    return Buffer.concat(out);
  }

  const direct = await drive([ODD_SERVER], path.join(dir, 'direct.log'));
  const out = path.join(dir, 'odd.jsonl');
  const proxied = await drive([bin, 'record', '--proxy', '--out', out, '--', process.execPath, ODD_SERVER], path.join(dir, 'proxied.log'));
  assert.ok(direct.includes(Buffer.from('\r\n')) && direct.includes(Buffer.from('ünïcödé')), 'the fixture did write its odd bytes');
  assert.ok(proxied.equals(direct), `the client got exactly the server's bytes:\n${proxied.toString('latin1')}\nvs\n${direct.toString('latin1')}`);
  assert.ok(readFileSync(path.join(dir, 'proxied.log')).equals(input), 'the server got exactly the client\'s bytes');
  const lines = readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.deepEqual(lines.find((line) => 'raw' in line), { dir: 's2c', raw: 'odd server: ready ✓ (a banner, not JSON)\r\n' }, 'the banner is recorded as its exact bytes');
  assert.deepEqual(lines.find((line) => line.op === 'listTools'), { op: 'listTools', expect: { result: JSON.parse(direct.toString('utf8').split('\n').filter((l) => l.includes('"s-2"'))[0]!).result } });
});

test('X2/U1: the CLI loads the recorder for record only', (t) => {
  const dir = tempDir(t, 'record');
  const log = path.join(dir, 'modules.log');
  const loads = (...args: string[]) => {
    writeFileSync(log, '');
    const run = spawnSync(process.execPath, ['--import', RECORD_LOADS, bin, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, MCPWIRE_MODULE_LOG: log } });
    return { run, modules: expandBundles(readFileSync(log, 'utf8').split('\n').filter(Boolean)) };
  };
  const recorder = /\/(src|dist)\/recorder\//;
  for (const args of [['--version'], ['help']]) {
    const { run, modules } = loads(...args);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(modules.filter((url) => recorder.test(url)), [], `mcpwire ${args.join(' ')} loaded recorder modules`);
  }
  const { run, modules } = loads('record', '--out', path.join(dir, 'x.jsonl'), '--proxy');
  assert.equal(run.status, 2, 'a usage error: no server given');
  assert.match(run.stderr, /no server to talk to/);
  assert.deepEqual(modules.filter((url) => recorder.test(url)), [], 'options are checked before the recorder loads');
  const ok = loads('record', '--out', path.join(dir, 'x.jsonl'), '--ops', path.join(dir, 'missing.json'), '--', 'node');
  assert.ok(ok.modules.some((url) => /\/(src|dist)\/recorder\/command\.(ts|js)$/.test(url)), 'record loads it');
  assert.notEqual(ok.run.status, 0);
});
