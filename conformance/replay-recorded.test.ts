// X1 and X2 on the project's own corpus (conformance/recorded/, made by
// scripts/record-corpus.mjs through `mcpwire record`): every case replays
// against McpClient over stdio, Streamable HTTP and legacy HTTP+SSE (a case
// with raw stdio bytes is skipped over HTTP, as TRANSCRIPTS.md says; a case
// whose client speaks the 2026-07-28 era over legacy SSE, which has no modern
// form; a silent era probe over HTTP); a modern case FAILS when the replay's
// client is set up to speak another era than the recorded one (#17); and a
// re-record of two of them gives the very same bytes, twice.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { collectTranscriptFiles } from '../src/conformance/discover.js';
import { runFile, type CaseResult } from '../src/conformance/runner.js';
import { SERVER_SIDES } from '../src/conformance/server-sides.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const RECORDED_DIR = fileURLToPath(new URL('./recorded/', import.meta.url));
/** Cases whose re-record is compared: seeded randomness (simulated logging), a stdout banner with a server request, an input_required round and the -32022 retry (#17). */
const RERECORDED = ['everything-progress-and-logging', 'sdk-example-sampling-refused', 'v2-input-required-elicitation', 'v2-legacy-first-32022-retry'];
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

/** Over legacy HTTP+SSE: a case whose client probes or speaks 2026-07-28 (that transport has no modern form). */
function speaksModern(file: string): boolean {
  return /"method":"server\/discover"/.test(readFileSync(file, 'utf8'));
}

/** The status a case must end with over an HTTP transport. */
function expectedOverHttp(file: string, transport: 'streamable-http' | 'sse'): 'pass' | 'skip' {
  if (hasRawBytes(file)) return 'skip';
  if (transport === 'sse') return speaksModern(file) ? 'skip' : 'pass';
  // Taking an unanswered probe for a 2025 server is stdio's rule only.
  return basename(file, '.jsonl') === 'auto-probe-silent-fallback' ? 'skip' : 'pass';
}

/** The modern-era cases (#17 items 7, 8): recorded with `mcpwire record --era`. */
const MODERN_CASES = [
  'v2-modern-discover',
  'v2-auto-probe-modern',
  'v2-input-required-elicitation',
  'v2-legacy-first-32022-retry',
  'everything-auto-probe-method-not-found',
  'auto-probe-silent-fallback',
  'v2-legacy-task-call',
  'modern-task-call-input-required',
  'v2-modern-streamable-http',
];

test('the recorded corpus is there and covers every transport', () => {
  const names = files.map((file) => basename(file, '.jsonl'));
  for (const name of MODERN_CASES) assert.ok(names.includes(name), `${name}.jsonl is missing from ${RECORDED_DIR}`);
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
        assert.equal(result.status, expectedOverHttp(file, transport), explain(result));
      });
    }
  });
}

describe('a replay fails when the client speaks another era than the recorded one (#17)', { concurrency: STDIO_CONCURRENCY }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpwire-era-deviates-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The recorded case with its header's client set up differently, as a new case file; the rest unchanged. */
  function variant(name: string, suffix: string, client: (old: Record<string, unknown>) => Record<string, unknown>): string {
    const [first, ...rest] = readFileSync(join(RECORDED_DIR, `${name}.jsonl`), 'utf8').split('\n');
    const header = JSON.parse(first!) as Record<string, unknown>;
    const changed = { ...header, name: `${name}-${suffix}`, client: client((header.client ?? {}) as Record<string, unknown>) };
    const file = join(dir, `${name}-${suffix}.jsonl`);
    writeFileSync(file, [JSON.stringify(changed), ...rest].join('\n'));
    return file;
  }

  const cases: Array<{ name: string; suffix: string; client: (old: Record<string, unknown>) => Record<string, unknown>; detail: RegExp; transport?: 'streamable-http' }> = [
    { name: 'v2-modern-discover', suffix: 'pinned-legacy', client: (c) => ({ ...c, protocolEra: 'legacy' }), detail: /line 3: c2s server\/discover: method: expected "server\/discover", got "initialize"/ },
    { name: 'v2-modern-discover', suffix: 'pinned-2025', client: (c) => ({ ...c, protocolEra: '2025-11-25' }), detail: /expected "server\/discover", got "initialize"/ },
    {
      name: 'v2-modern-streamable-http',
      suffix: 'pinned-legacy-http',
      client: (c) => ({ ...c, protocolEra: 'legacy' }),
      detail: /expected "server\/discover", got "initialize"/,
      transport: 'streamable-http',
    },
    { name: 'everything-auto-probe-method-not-found', suffix: 'pinned-legacy', client: (c) => ({ ...c, protocolEra: 'legacy' }), detail: /expected "server\/discover", got "initialize"/ },
    // Pinned modern, the client takes the probe's -32601 as a failed connect and never falls back.
    { name: 'everything-auto-probe-method-not-found', suffix: 'pinned-modern', client: (c) => ({ ...c, protocolEra: 'modern' }), detail: /c2s initialize: the client never sent it|op connect/ },
    { name: 'v2-auto-probe-modern', suffix: 'pinned-legacy', client: (c) => ({ ...c, protocolEra: 'legacy' }), detail: /expected "server\/discover", got "initialize"/ },
    // An era someone pinned is kept to: -32022 is then a failed connect, not a reason to go modern.
    { name: 'v2-legacy-first-32022-retry', suffix: 'pinned-legacy', client: (c) => ({ ...c, protocolEra: 'legacy' }), detail: /c2s server\/discover: the client never sent it|op connect/ },
    // Without the handler the capabilities in each request's _meta differ (and the input request could not be answered).
    { name: 'v2-input-required-elicitation', suffix: 'no-handler', client: ({ elicitation: _e, ...c }) => c, detail: /_meta\["io\.modelcontextprotocol\/clientCapabilities"\]\.elicitation: missing/ },
    { name: 'modern-task-call-input-required', suffix: 'pinned-legacy', client: (c) => ({ ...c, protocolEra: 'legacy' }), detail: /expected "server\/discover", got "initialize"/ },
    { name: 'v2-legacy-task-call', suffix: 'auto', client: (c) => ({ ...c, protocolEra: 'auto' }), detail: /expected "initialize", got "server\/discover"/ },
  ];
  for (const c of cases) {
    test(`${c.name} with client ${c.suffix}${c.transport ? ` over ${c.transport}` : ''}`, async () => {
      const result = await runFile(variant(c.name, c.suffix, c.client), c.transport ? { serverSides: SERVER_SIDES[c.transport] } : {});
      assert.equal(result.status, 'fail', explain(result));
      assert.match(result.detail!, c.detail, explain(result));
    });
  }
});

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
