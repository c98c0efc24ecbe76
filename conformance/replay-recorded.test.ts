// X1 and X2 on the project's own corpus (conformance/recorded/, made by
// scripts/record-corpus.mjs through `mcpwire record`): every case replays
// against McpClient over stdio, Streamable HTTP and legacy HTTP+SSE (a case
// with raw stdio bytes is skipped over HTTP, as TRANSCRIPTS.md says); and a
// re-record of two of them gives the very same bytes, twice.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { collectTranscriptFiles } from '../src/conformance/discover.js';
import { runFile, type CaseResult } from '../src/conformance/runner.js';
import { SERVER_SIDES } from '../src/conformance/server-sides.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const RECORDED_DIR = fileURLToPath(new URL('./recorded/', import.meta.url));
/** Cases whose re-record is compared: seeded randomness (simulated logging) and a stdout banner with a server request. */
const RERECORDED = ['everything-progress-and-logging', 'sdk-example-sampling-refused'];
/** As in replay.test.ts (each stdio case starts a relay process) and replay-http.test.ts (HTTP cases stay in this process). */
const STDIO_CONCURRENCY = 4;
const HTTP_CONCURRENCY = 8;

const files = await collectTranscriptFiles([RECORDED_DIR]);

function explain(result: CaseResult): string {
  return `${result.status} ${result.name}: ${result.detail ?? ''}\n  trace:\n    ${result.trace.join('\n    ')}`;
}

function hasRawBytes(file: string): boolean {
  return /^\{"dir":"s2c","raw(Base64)?":/m.test(readFileSync(file, 'utf8'));
}

test('the recorded corpus is there and covers every transport', () => {
  assert.ok(files.length >= 10, `only ${files.length} transcripts in ${RECORDED_DIR}`);
  const transports = new Set(files.map((file) => (JSON.parse(readFileSync(file, 'utf8').split('\n', 1)[0]!) as { transport: string }).transport));
  assert.deepEqual([...transports].sort(), ['sse', 'stdio', 'streamable-http']);
});

describe('recorded corpus over stdio', { concurrency: STDIO_CONCURRENCY }, () => {
  for (const file of files) {
    test(basename(file, '.jsonl'), async () => {
      const result = await runFile(file);
      assert.equal(result.status, 'pass', explain(result));
    });
  }
});

for (const transport of ['streamable-http', 'sse'] as const) {
  describe(`recorded corpus over ${transport}`, { concurrency: HTTP_CONCURRENCY }, () => {
    for (const file of files) {
      test(basename(file, '.jsonl'), async () => {
        const result = await runFile(file, { serverSides: SERVER_SIDES[transport] });
        assert.equal(result.status, hasRawBytes(file) ? 'skip' : 'pass', explain(result));
      });
    }
  });
}

test('a re-record gives the same files: twice, and as committed', () => {
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'mcpwire-rerecord-')));
  after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  for (const dir of dirs) {
    const run = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'record-corpus.mjs'), '--out', dir, '--only', RERECORDED.join(',')], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
  }
  for (const name of RERECORDED) {
    const committed = readFileSync(join(RECORDED_DIR, `${name}.jsonl`), 'utf8');
    const [first, second] = dirs.map((dir) => readFileSync(join(dir, `${name}.jsonl`), 'utf8'));
    assert.equal(first, second, `${name}: two re-records differ`);
    assert.equal(first, committed, `${name}: a re-record differs from conformance/recorded/${name}.jsonl (run npm run record:corpus if a server was upgraded)`);
  }
});
