// Smoke test of the benchmark harness, never of the numbers: runs a fast
// subset of `bench/run.ts --quick --json` and checks the records' shape and
// that each ratio is the median over the baseline's median of the same run.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { CONTENDERS, FRAMING_CONTENDERS, WORKLOADS, type BenchRecord } from './harness.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const KEYS = ['workload', 'contender', 'unit', 'median', 'min', 'max', 'baseline', 'ratio', 'rounds'];

async function quickRecords(...workloads: string[]): Promise<BenchRecord[]> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--json', ...workloads.flatMap((w) => ['--only', w])], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
  const records = JSON.parse(stdout) as BenchRecord[];
  assert.ok(Array.isArray(records));
  assert.deepEqual([...new Set(records.map((r) => r.workload))].sort(), [...workloads].sort());
  return records;
}

/** Every record well-formed, its ratio its median over the baseline's median in the same run. */
function assertWellFormed(records: readonly BenchRecord[]): void {
  for (const r of records) {
    assert.deepEqual(Object.keys(r).sort(), [...KEYS].sort(), JSON.stringify(r));
    assert.ok((WORKLOADS as readonly string[]).includes(r.workload));
    assert.ok((CONTENDERS as readonly string[]).includes(r.contender));
    assert.ok((CONTENDERS as readonly string[]).includes(r.baseline));
    assert.equal(typeof r.unit, 'string');
    assert.ok(Number.isInteger(r.rounds) && r.rounds >= 1);
    assert.ok(r.min <= r.median && r.median <= r.max, `${r.workload}/${r.contender}: min ≤ median ≤ max`);
    const base = records.find((b) => b.workload === r.workload && b.unit === r.unit && b.contender === r.baseline);
    assert.ok(base, `${r.workload}: the baseline ${r.baseline} has a record`);
    assert.ok(Math.abs(r.ratio - r.median / base.median) <= 1e-9 * Math.abs(r.ratio), `${r.workload}/${r.contender}: ratio = median / baseline median`);
  }
}

test('bench --quick --json prints one array of well-formed records whose ratio is median / baseline median', async () => {
  const records = await quickRecords('encode-small', 'ndjson-utf8-64k');
  assertWellFormed(records);
  // Every contender the issue names for stdio framing takes part in ndjson-utf8-64k.
  assert.deepEqual(records.filter((r) => r.workload === 'ndjson-utf8-64k').map((r) => r.contender).sort(), [...FRAMING_CONTENDERS].sort());
});

test('e2e-modern-concurrent16 --quick: mcpwire, the SDK v2 client, ai-sdk and the bare wire against the SDK v2 server, over stdio and HTTP', async () => {
  // The workload itself checks that each client is in the 2026-07-28 era and that its echo answers; it fails the run otherwise.
  const records = await quickRecords('e2e-modern-concurrent16');
  assertWellFormed(records);
  for (const transport of ['stdio', 'http']) {
    for (const unit of [`calls/s ${transport}`, `us CPU/call ${transport}`]) {
      const rows = records.filter((r) => r.unit === unit);
      assert.deepEqual(rows.map((r) => r.contender).sort(), ['ai-sdk', 'floor-wire', 'mcpwire', 'sdk-v2'], unit);
      for (const r of rows) {
        assert.equal(r.baseline, 'sdk-v2');
        assert.ok(r.median > 0 && Number.isFinite(r.median), `${unit}/${r.contender}: ${r.median}`);
      }
    }
  }
});

test('serve-call --quick: the same mcpwire client direct and through mcpwire serve --stdio, client + serve CPU per call (#21 item 1)', async () => {
  // The workload checks every echo answer and fails when it cannot find the serve process's upstream child.
  const records = await quickRecords('serve-call');
  assertWellFormed(records);
  for (const unit of ['us CPU/call client+serve', 'us client CPU/call', 'calls/s']) {
    const rows = records.filter((r) => r.unit === unit);
    assert.deepEqual(rows.map((r) => r.contender).sort(), ['floor-relay', 'mcpwire', 'serve'], unit);
    for (const r of rows) assert.ok(r.baseline === 'mcpwire' && r.median > 0 && Number.isFinite(r.median), `${unit}/${r.contender}: ${r.median}`);
  }
  // Through serve the judged figure adds the serve process's CPU to the client's, so it is never below the client's own.
  const total = records.find((r) => r.contender === 'serve' && r.unit === 'us CPU/call client+serve')!;
  const client = records.find((r) => r.contender === 'serve' && r.unit === 'us client CPU/call')!;
  assert.ok(total.min >= client.min, 'client+serve ≥ client alone');
});
