// X2 and #18 items 16 and 23: `mcpwire record` names and starts a server as
// every other command does. Through the real binary: a missing program is
// the stdio transport's typed start error (exit 4, "was not found"), the
// CLI's --header/-e/--transport http spellings work, and SIGTERM to a stdio
// proxy leaves neither the launcher (spec-tests/fixtures/wrapper.sh, which
// ignores SIGTERM and forwards nothing) nor the server it started.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { FIXTURE, waitGone } from './helpers/fault-harness.js';
import { killAfter, parseWrapperPids, WRAPPER } from './helpers/wrapped.js';
import { everythingServerPath } from './helpers/interop.js';
import { tempDir } from './helpers/temp.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'bin', 'mcpwire.js');
const posix = process.platform !== 'win32';

test('#18 item 16: a missing program is the typed start error, exit 4, in both modes', (t) => {
  const dir = tempDir(t, 'record-missing');
  const ops = path.join(dir, 'ops.json');
  writeFileSync(ops, JSON.stringify([{ op: 'connect' }]));
  for (const mode of [['--proxy'], ['--ops', ops]]) {
    const run = spawnSync(process.execPath, [bin, 'record', ...mode, '--out', path.join(dir, 'x.jsonl'), '--', 'mcpwire-no-such-program-4f2e', 'stdio'], { cwd: root, encoding: 'utf8', timeout: 30_000, input: '' });
    assert.equal(run.status, 4, `${mode[0]}: ${run.stderr}`);
    assert.match(run.stderr, /mcpwire-no-such-program-4f2e was not found/, mode[0]);
  }
});

test('#18 item 16: record takes the CLI\'s server options: -e for a stdio server (its value kept out of the file), --transport http as well as the old streamable-http', (t) => {
  const dir = tempDir(t, 'record-options');
  const ops = path.join(dir, 'ops.json');
  writeFileSync(ops, JSON.stringify([{ op: 'connect' }, { op: 'callTool', name: 'get-env' }]));
  const canary = 'sk-canary-env-option-2b7d9e';
  const out = path.join(dir, 'env.jsonl');
  const run = spawnSync(process.execPath, [bin, 'record', '--ops', ops, '--out', out, '-e', `RECORD_CANARY=${canary}`, '--', process.execPath, everythingServerPath(), 'stdio'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  const text = readFileSync(out, 'utf8');
  assert.match(text, /RECORD_CANARY/, 'the variable reached the server');
  assert.ok(!text.includes(canary), 'its value is not in the file');
  for (const transport of ['http', 'streamable-http', 'bogus']) {
    const usage = spawnSync(process.execPath, [bin, 'record', '--proxy', '--out', path.join(dir, 'y.jsonl'), '--transport', transport, '--', 'node'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    assert.equal(usage.status, 2, usage.stderr);
    assert.match(usage.stderr, transport === 'bogus' ? /--transport takes http or sse/ : /apply to --url/);
  }
});

test('#18 item 23: SIGTERM to the stdio recorder saves the record and stops the launcher and the server it started; exit 143', { skip: !posix }, async (t) => {
  const dir = tempDir(t, 'record-sigterm');
  const pidsFile = path.join(dir, 'pids');
  const out = path.join(dir, 'sigterm.jsonl');
  const recorder = spawn(process.execPath, [bin, 'record', '--proxy', '--out', out, '-e', `WRAPPER_PIDS=${pidsFile}`, '--', 'sh', WRAPPER, process.execPath, FIXTURE, 'ignore-term'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  recorder.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  recorder.stdout.resume();
  const exited = new Promise<number | null>((resolve) => recorder.once('exit', (code) => resolve(code)));
  t.after(() => {
    if (recorder.exitCode === null && recorder.signalCode === null) recorder.kill('SIGKILL');
  });
  const deadline = Date.now() + 30_000;
  while (!existsSync(pidsFile) || parseWrapperPids(readFileSync(pidsFile, 'utf8')) === undefined) {
    assert.ok(Date.now() < deadline, `the launcher never reported its pids; stderr: ${stderr}`);
    await delay(25);
  }
  const pids = parseWrapperPids(readFileSync(pidsFile, 'utf8'))!;
  killAfter(t, pids.server);
  killAfter(t, pids.wrapper);
  recorder.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
  await delay(300);
  recorder.kill('SIGTERM');
  assert.equal(await exited, 143, stderr);
  assert.ok(await waitGone(pids.server, 3_000), `the server ${pids.server} is gone`);
  assert.ok(await waitGone(pids.wrapper, 3_000), `the launcher ${pids.wrapper} is gone`);
  assert.ok(existsSync(out), 'the record was saved');
  assert.match(readFileSync(out, 'utf8'), /"method":"ping"/);
});

test('#18 item 16: a banner line longer than a diagnostic excerpt is recorded whole in --ops mode', (t) => {
  const dir = tempDir(t, 'record-banner');
  const ops = path.join(dir, 'ops.json');
  writeFileSync(ops, JSON.stringify([{ op: 'connect' }, { op: 'ping' }]));
  const banner = `banner ${'x'.repeat(600)} end`;
  const out = path.join(dir, 'banner.jsonl');
  const script = `process.stdout.write(${JSON.stringify(`${banner}\n`)}); await import(${JSON.stringify(everythingServerPath())});`;
  const run = spawnSync(process.execPath, [bin, 'record', '--ops', ops, '--out', out, '--', process.execPath, '--input-type=module', '-e', script, 'stdio'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  const text = readFileSync(out, 'utf8');
  assert.ok(text.includes(banner), `the whole banner is in the file:\n${text.slice(0, 2000)}`);
});

test('#18 item 23: SIGTERM to record --ops during a call stops the launcher and the server too; exit 143', { skip: !posix }, async (t) => {
  const dir = tempDir(t, 'record-sigterm-ops');
  const pidsFile = path.join(dir, 'pids');
  const log = path.join(dir, 'fault.log');
  const ops = path.join(dir, 'ops.json');
  writeFileSync(ops, JSON.stringify([{ op: 'connect' }, { op: 'callTool', name: 'hang' }]));
  const recorder = spawn(process.execPath, [bin, 'record', '--ops', ops, '--out', path.join(dir, 'x.jsonl'), '-e', `WRAPPER_PIDS=${pidsFile}`, '-e', `FAULT_LOG=${log}`, '--', 'sh', WRAPPER, process.execPath, FIXTURE, 'ignore-term'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  recorder.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => recorder.once('exit', (code) => resolve(code)));
  t.after(() => {
    if (recorder.exitCode === null && recorder.signalCode === null) recorder.kill('SIGKILL');
  });
  const deadline = Date.now() + 30_000;
  while (!existsSync(log) || !readFileSync(log, 'utf8').includes('"tools/call"')) {
    assert.ok(Date.now() < deadline, `the call never reached the server; stderr: ${stderr}`);
    await delay(25);
  }
  const pids = parseWrapperPids(readFileSync(pidsFile, 'utf8'))!;
  killAfter(t, pids.server);
  killAfter(t, pids.wrapper);
  recorder.kill('SIGTERM');
  assert.equal(await exited, 143, stderr);
  assert.ok(await waitGone(pids.server, 3_000), `the server ${pids.server} is gone`);
  assert.ok(await waitGone(pids.wrapper, 3_000), `the launcher ${pids.wrapper} is gone`);
});
