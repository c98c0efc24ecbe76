// SPEC A1/A2: the OAuth credential file keeps every writer's entry. Each
// process that logs in or refreshes a token (a rotated refresh token is
// stored before it is used) reads the file, changes its entry and renames its
// copy over the file; without the lock beside the file (util/file-lock.ts,
// the pin store's), two at the same instant dropped one another's entry, and
// the next command had to log in again. Real processes, started together.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers/cli.js';

const WRITER = path.join(ROOT, 'spec-tests', 'fixtures', 'A-credential-writer.mjs');

test('A1: six processes storing credentials at once into one file keep all 150 entries (0600)', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'a-cred-lock-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'credentials.json');
  const writers = Array.from({ length: 6 }, (_, n) => spawn(process.execPath, [WRITER, file, `w${n}`, '25'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] }));
  t.after(() => {
    for (const w of writers) if (w.exitCode === null) w.kill('SIGKILL');
  });
  const outputs = writers.map((w) => {
    let out = '';
    let err = '';
    w.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    w.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    return { ready: new Promise<void>((resolve) => w.stdout.on('data', () => out.includes('ready') && resolve())), exited: new Promise<string>((resolve) => w.on('close', (code) => resolve(`${code} ${out}${err}`))) };
  });
  await Promise.all(outputs.map((o) => o.ready));
  for (const w of writers) w.stdin.write('go\n');
  const ends = await Promise.all(outputs.map((o) => o.exited));
  for (const end of ends) assert.match(end, /^0 ready\ndone/, end);
  const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  assert.equal(Object.keys(stored).length, 150, 'no writer lost another\'s entry');
  assert.equal(statSync(file).mode & 0o777, 0o600);
});
