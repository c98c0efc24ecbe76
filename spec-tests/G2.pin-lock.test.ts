// G2, issue #21 item 2: concurrent writers of one pin store keep every
// update. The store read the file, changed one record and renamed its copy
// over the file, with no lock: two `mcpwire trust` runs at the same instant
// each wrote what they had read plus their own change, and the later rename
// dropped the earlier one's. Now every write holds `<file>.lock` (created
// O_EXCL) across read-modify-rename. Real child processes throughout: writers
// started together on one signal, a holder of the lock, a lock left by a
// process that is gone; and `mcpwire trust` itself, run several times at once.

import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { FilePinStore } from '../src/toolsource/pins/store.js';
import { procStatFields } from '../src/util/process-alive.js';
import { ROOT, runCli } from './helpers/cli.js';

const CHILD = path.join(ROOT, 'spec-tests', 'fixtures', 'G2-pin-lock-child.mjs');

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'g2-pin-lock-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface Child {
  process: ChildProcessWithoutNullStreams;
  /** Resolves with the first stdout line equal to or starting with `text`. */
  line(text: string): Promise<string>;
  exited: Promise<number | null>;
  stdout(): string;
}

/** Starts the fixture; killed at the test's end if still running. */
function child(t: TestContext, args: string[]): Child {
  const proc = spawn(process.execPath, [CHILD, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: { text: string; resolve: (line: string) => void }[] = [];
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const w of [...waiters]) {
      const found = out.split('\n').find((l) => l.startsWith(w.text));
      if (found !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(found);
      }
    }
  });
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => proc.on('close', (code) => resolve(code)));
  t.after(async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
  });
  return {
    process: proc,
    line: (text) =>
      new Promise((resolve, reject) => {
        const found = out.split('\n').find((l) => l.startsWith(text));
        if (found !== undefined) return resolve(found);
        waiters.push({ text, resolve });
        void exited.then(() => reject(new Error(`the child exited before printing "${text}"; stdout:\n${out}\nstderr:\n${err}`)));
      }),
    exited,
    stdout: () => out,
  };
}

const toolsOf = (file: string, server: string) => Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { servers: Record<string, { tools: object }> }).servers[server]?.tools ?? {});

describe('G2: the pin store under concurrent writers (#21 item 2)', { timeout: 120_000 }, () => {
  for (const stale of [false, true]) {
    test(`G2: 6 processes started on one signal, each trusting 25 tools of one server in one store${stale ? ', a dead process\'s lock there first (all race to take it over)' : ''}: all 150 are there; the file stays 0600; no lock is left`, async (t) => {
      const dir = tempDir(t);
      const file = path.join(dir, '.mcpwire', 'pins.json');
      if (stale) {
        const gone = spawn(process.execPath, ['-e', '0']);
        await new Promise((resolve) => gone.on('close', resolve));
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(`${file}.lock`, JSON.stringify({ pid: gone.pid, at: Date.now(), token: 'left-behind' }), { mode: 0o600 });
      }
      const writers = Array.from({ length: 6 }, (_, i) => child(t, ['trust', file, 'fx', `w${i}`, '25']));
      await Promise.all(writers.map((w) => w.line('ready')));
      for (const w of writers) w.process.stdin.write('go\n');
      const codes = await Promise.all(writers.map((w) => w.exited));
      assert.deepEqual(codes, [0, 0, 0, 0, 0, 0], writers.map((w) => w.stdout()).join('\n'));
      const tools = toolsOf(file, 'fx');
      const expected = writers.flatMap((_, i) => Array.from({ length: 25 }, (_, k) => `w${i}-${k}`));
      const missing = expected.filter((name) => !tools.includes(name));
      assert.deepEqual(missing, [], `${missing.length} of ${expected.length} updates lost`);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(existsSync(`${file}.lock`), false, 'the lock is released');
      assert.equal(existsSync(`${file}.lock.break`), false);
    });
  }

  test('G2: a lock left by a process that is gone is taken over', async (t) => {
    const dir = tempDir(t);
    const file = path.join(dir, 'pins.json');
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.on('close', resolve));
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: gone.pid, at: Date.now(), token: 'left-behind' }), { mode: 0o600 });
    const writer = child(t, ['trust', file, 'fx', 'after-crash', '1', '5000']);
    await writer.line('ready');
    writer.process.stdin.write('go\n');
    assert.equal(await writer.exited, 0, writer.stdout());
    assert.deepEqual(toolsOf(file, 'fx'), ['after-crash-0']);
    assert.equal(existsSync(`${file}.lock`), false);
  });

  test('G2: a lock whose pid now belongs to another process (its start time differs), or older than staleMs, is taken over', (t) => {
    const dir = tempDir(t);
    const file = path.join(dir, 'pins.json');
    const start = procStatFields(process.pid)?.[19];
    if (start !== undefined) {
      // This process is alive, but it is not the one that took the lock: a reused pid.
      writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, start: `${start}0`, at: Date.now(), token: 'reused' }));
      new FilePinStore(file, { waitMs: 2_000 }).set('reused', { tools: {} });
      assert.equal(existsSync(`${file}.lock`), false);
    } else t.diagnostic('no /proc: the start-time check is not exercised');
    // A live pid without a start time, but the lock is an hour old.
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, at: Date.now() - 3_600_000, token: 'old' }));
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(`${file}.lock`, old, old);
    new FilePinStore(file, { waitMs: 2_000, staleMs: 60_000 }).set('aged', { tools: {} });
    assert.equal(existsSync(`${file}.lock`), false);
    assert.deepEqual(Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { servers: object }).servers), start !== undefined ? ['aged', 'reused'] : ['aged']);
  });

  test('G2: a writer meets a lock a live process holds: it waits, and writes once the lock is released', async (t) => {
    const dir = tempDir(t);
    const file = path.join(dir, 'pins.json');
    const holder = child(t, ['hold', file]);
    await holder.line('held');
    const writer = child(t, ['trust', file, 'fx', 'waited', '1', '60000']);
    await writer.line('ready');
    writer.process.stdin.write('go\n');
    // Not a timing assertion: however long this pause is, the writer cannot have written while the lock is held.
    await delay(300);
    assert.equal(writer.process.exitCode, null, `the writer did not wait: ${writer.stdout()}`);
    assert.equal(existsSync(file), false, 'nothing written under a held lock');
    holder.process.stdin.write('release\n');
    assert.equal(await holder.exited, 0);
    assert.equal(await writer.exited, 0, writer.stdout());
    assert.deepEqual(toolsOf(file, 'fx'), ['waited-0']);
  });

  test('G2: a writer whose wait runs out fails saying who holds the lock and which file to remove; the store is unchanged', async (t) => {
    const dir = tempDir(t);
    const file = path.join(dir, 'pins.json');
    new FilePinStore(file).set('before', { tools: {} });
    const before = readFileSync(file, 'utf8');
    const holder = child(t, ['hold', file]);
    await holder.line('held');
    const writer = child(t, ['trust', file, 'fx', 'late', '1', '300']);
    await writer.line('ready');
    writer.process.stdin.write('go\n');
    assert.equal(await writer.exited, 1);
    const message = await writer.line('error: ');
    assert.match(message, new RegExp(`held by process ${holder.process.pid} .*not released within 300 ms; if no mcpwire process is writing there, remove ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.lock$`));
    assert.equal(readFileSync(file, 'utf8'), before);
    holder.process.stdin.write('release\n');
    assert.equal(await holder.exited, 0);
    assert.equal(existsSync(`${file}.lock`), false);
  });

  test('G2 CLI: 4 `mcpwire trust fx TOOL` runs at once, one tool each: all 4 approvals are in the pin file', async (t) => {
    const dir = tempDir(t);
    const toolsFile = path.join(dir, 'tools.json');
    const config = path.join(dir, 'mcpwire.json');
    const pinFile = path.join(dir, '.mcpwire', 'pins.json');
    const names = ['alpha', 'beta', 'gamma', 'delta'];
    writeFileSync(toolsFile, JSON.stringify(names.map((name) => ({ name, description: `${name}.`, inputSchema: { type: 'object' } }))));
    writeFileSync(config, JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [path.join(ROOT, 'spec-tests/fixtures/G2-pin-server.mjs'), toolsFile] } } }));
    const runs = await Promise.all(names.map((name) => runCli(['trust', 'fx', name, '--config', config])));
    for (const run of runs) assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(toolsOf(pinFile, 'fx').sort(), [...names].sort());
    assert.equal(statSync(pinFile).mode & 0o777, 0o600);
  });
});
