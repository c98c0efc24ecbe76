// X1: every transcript, the shared worked examples and this repo's own
// misbehaving-server cases, replayed against McpClient over stdio. One
// test per case, so each shows by name in the output. Then the CLI, run as
// a child process the way a user runs it.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runFile } from '../src/conformance/runner.js';
import { collectTranscriptFiles } from '../src/conformance/discover.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The shared worked examples sit beside the repository: <repo>/../shared/conformance/transcripts. */
const SHARED_DIR = fileURLToPath(new URL('../../shared/conformance/transcripts/', import.meta.url));
const OWN_DIR = fileURLToPath(new URL('./', import.meta.url));
/**
 * The shared corpus comes with the project's workspace, not with the
 * repository: a clone on its own skips what needs it, saying so (CI has it).
 */
const SHARED_MISSING = existsSync(SHARED_DIR) ? false : `the shared transcript corpus is not beside this clone (${SHARED_DIR}); CI has it and runs these`;
const SHARED_CASE_COUNT = 30;
/**
 * Cases run a few at a time: each spends most of its ~0.5 s starting its
 * relay process, not in timing-sensitive waits, and every case has its own
 * relay and control socket, so they cannot see each other.
 */
const CASE_CONCURRENCY = 4;

async function assertPasses(file: string): Promise<void> {
  const result = await runFile(file);
  assert.equal(result.status, 'pass', `FAIL ${result.name}: ${result.detail}\n  trace:\n    ${result.trace.join('\n    ')}`);
}

// The CLI's own discovery (a directory stands for its *.jsonl files, sorted).
const sharedFiles = SHARED_MISSING ? [] : await collectTranscriptFiles([SHARED_DIR]);
const ownFiles = await collectTranscriptFiles([OWN_DIR]);

describe('shared worked examples (../shared/conformance/transcripts)', { concurrency: CASE_CONCURRENCY, skip: SHARED_MISSING }, () => {
  test(`all ${SHARED_CASE_COUNT} are there`, () => {
    assert.equal(sharedFiles.length, SHARED_CASE_COUNT, `expected ${SHARED_CASE_COUNT} transcripts in ${SHARED_DIR}`);
  });
  for (const file of sharedFiles) test(basename(file, '.jsonl'), () => assertPasses(file));
});

describe('misbehaving-server cases (conformance/*.jsonl)', { concurrency: CASE_CONCURRENCY }, () => {
  test('there are some', () => assert.ok(ownFiles.length > 0, `no transcripts in ${OWN_DIR}`));
  for (const file of ownFiles) test(basename(file, '.jsonl'), () => assertPasses(file));
});

// Its cases are two shared worked examples beside a broken one.
describe('the CLI: mcpwire conformance', { skip: SHARED_MISSING }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpwire-cli-test-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The real entry when the lead's bin exists; else the TypeScript CLI; else the command module alone. */
  function cli(args: string[]) {
    const bin = join(REPO_ROOT, 'bin', 'mcpwire.js');
    const cliTs = join(REPO_ROOT, 'src', 'cli.ts');
    const argv = existsSync(bin)
      ? [bin, 'conformance', ...args]
      : existsSync(cliTs)
        ? ['--import', 'tsx', cliTs, 'conformance', ...args]
        : ['--import', 'tsx', '--input-type=module', '-e', `const { runConformanceCommand } = await import(${JSON.stringify(join(REPO_ROOT, 'src/conformance/command.ts'))}); process.exitCode = await runConformanceCommand(process.argv.slice(1));`, ...args];
    const run = spawnSync(process.execPath, argv, { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr, lines: run.stdout.trim().split('\n') };
  }

  // Two real cases that pass and one whose expect is wrong.
  const passing = ['everything-echo-and-ping', 'split-message-delay'];
  if (!SHARED_MISSING) for (const name of passing) copyFileSync(join(SHARED_DIR, `${name}.jsonl`), join(dir, `${name}.jsonl`));
  writeFileSync(
    join(dir, 'wrong-expect.jsonl'),
    [
      { mcpTranscript: 1, name: 'wrong-expect', transport: 'stdio', protocolVersion: '2025-11-25', source: 'hand-written test' },
      { op: 'connect', expect: { error: 'protocol' } },
      { dir: 'c2s', msg: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } } },
      { dir: 's2c', msg: { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } } },
      { dir: 'c2s', msg: { jsonrpc: '2.0', method: 'notifications/initialized' } },
      { op: 'close' },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n'),
  );

  test('a directory: one line per case in sorted order, the closing count, exit 1 when a case fails', () => {
    const run = cli([dir]);
    assert.equal(run.status, 1, run.stderr);
    assert.deepEqual(run.lines.slice(0, 2), ['pass everything-echo-and-ping', 'pass split-message-delay']);
    assert.match(run.lines[2]!, /^FAIL wrong-expect: line 2: op connect: expected a "protocol" error, but it succeeded/);
    assert.equal(run.lines.at(-1), '2 passed, 1 failed');
  });

  test('files that all pass: exit 0; --json prints one object', () => {
    const run = cli(['--json', ...passing.map((name) => join(dir, `${name}.jsonl`))]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), {
      cases: passing.map((name) => ({ name, status: 'pass', detail: null })),
      passed: 2,
      failed: 0,
      skipped: 0,
    });
  });

  test('usage errors exit 2 and say what to do', () => {
    const none = cli([]);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /give at least one transcript file or directory/);
    const missing = cli([join(dir, 'no-such-dir')]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /no such file or directory; pass transcript files/);
    const flag = cli(['--nope', dir]);
    assert.equal(flag.status, 2);
    assert.match(flag.stderr, /unknown option --nope/);
  });
});

test('no relay process outlives its case', { skip: process.platform === 'win32' ? 'no ps on Windows' : false }, () => {
  const children = execFileSync('ps', ['-eo', 'ppid=,pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.trim().startsWith(`${process.pid} `) && line.includes('relay-child'));
  assert.deepEqual(children, []);
});
