// U1: on a terminal, a wait past a second shows a status line with the
// elapsed time, erased before anything else is written; piped, nothing of
// the sort. The terminal is a real pseudo-terminal from util-linux `script`.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SILENT = path.join(root, 'spec-tests', 'fixtures', 'silent-server.mjs');
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const command = `${JSON.stringify(process.execPath)} bin/mcpwire.js call x --timeout 1800 -- ${JSON.stringify(process.execPath)} ${JSON.stringify(SILENT)}`;

test('U1: a slow server start shows "starting <server> (1.x s)" on a terminal and erases it before the error', { skip: hasScript ? false : 'needs util-linux script for a pseudo-terminal' }, () => {
  const run = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
  assert.equal(run.status, 5, run.stdout);
  assert.match(run.stdout, /\r\x1b\[2Kstarting silent-server \(1\.\d s\)/);
  assert.match(run.stdout, /\r\x1b\[2Kmcpwire: TimeoutError/, 'the line is erased before the error is written');
});

test('U1: piped, the same wait writes no status line', () => {
  const run = spawnSync('sh', ['-c', command], { cwd: root, encoding: 'utf8', timeout: 30_000 });
  assert.equal(run.status, 5, run.stderr);
  assert.doesNotMatch(run.stderr, /starting silent-server|\x1b\[2K/);
  assert.match(run.stderr, /^mcpwire: TimeoutError/);
});
