// U1, #17 item 5: `mcpwire call` on a tool the server runs as a task (the SDK
// v1 task server, spec-tests/fixtures/sdk-tasks-server.mjs, a real child
// over stdio: `slow` is task-required, says "halfway" at ms/2 and reports
// progress 1/2 then 2/2). On a terminal (a real pseudo-terminal from
// util-linux `script`) the status line follows the task's status and status
// message; with --progress each change is a JSON line on stderr; piped
// without it, stderr stays quiet. Runs the built CLI (bin/mcpwire.js → dist/).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const TASKS = path.join(root, 'spec-tests', 'fixtures', 'sdk-tasks-server.mjs');
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const server = ['--', process.execPath, TASKS];
const cli = (...args: string[]) => spawnSync(process.execPath, ['bin/mcpwire.js', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });

test('--progress: one JSON line per task status change and per progress report, on stderr; the result on stdout', () => {
  const run = cli('call', 'slow', 'ms=600', 'text=done', '--progress', ...server);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, 'done\n');
  const events = run.stderr.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  const tasks = events.filter((e) => e.event === 'task');
  assert.ok(tasks.length >= 2, run.stderr);
  assert.equal(tasks[0]!.status, 'working');
  assert.equal(typeof tasks[0]!.taskId, 'string');
  assert.ok(tasks.every((e) => e.taskId === tasks[0]!.taskId));
  assert.ok(tasks.some((e) => e.status === 'working' && e.statusMessage === 'halfway'), run.stderr);
  assert.equal(tasks.at(-1)!.status, 'completed');
  assert.ok(events.some((e) => e.event === 'progress' && e.progress === 1 && e.total === 2), `the call asked for progress: ${run.stderr}`);
});

test('piped without --progress: nothing on stderr (no status line, no JSON)', () => {
  const run = cli('call', 'slow', 'ms=300', 'text=quiet', ...server);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, 'quiet\n');
  assert.equal(run.stderr, '');
});

test('on a terminal the status line shows the task status and its message, and is erased before the result', { skip: hasScript ? false : 'needs util-linux script for a pseudo-terminal' }, () => {
  const command = [process.execPath, 'bin/mcpwire.js', 'call', 'slow', 'ms=4000', 'text=shown', ...server].map((word) => JSON.stringify(word)).join(' ');
  const run = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stdout);
  assert.match(run.stdout, /\r\x1b\[2Kcalling mcp\.sdk-tasks-server\.slow, task working \(\d\.\d s\)/);
  assert.match(run.stdout, /\r\x1b\[2Kcalling mcp\.sdk-tasks-server\.slow, task working: halfway \(\d\.\d s\)/);
  assert.match(run.stdout, /\r\x1b\[2Kshown\r?\n/, 'the line is erased before the result is written');
  assert.doesNotMatch(run.stdout, /"event"/);
});

test('--progress belongs to call alone', () => {
  const run = cli('tools', '--progress', ...server);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /--progress is an option of mcpwire call/);
});
