// The Peers table of RESULTS.md (#20 item 1): one row per setup the run
// measured, each client's median in its own column, mcpwire in bold, the
// floors named beside it; setups the run did not measure are left out.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BenchRecord } from './harness.js';
import { peersTable, type WorkloadOutcome } from './report.js';

const record = (workload: string, contender: string, unit: string, median: number): BenchRecord =>
  ({ workload, contender, unit, median, min: median, max: median, baseline: 'sdk', ratio: 1, rounds: 5 }) as BenchRecord;

test('X4: the peers table has a row per measured setup, the medians under their clients, and the floors named', () => {
  const outcomes = [
    { id: 'e2e-http-concurrent16', records: [record('e2e-http-concurrent16', 'mcpwire', 'us CPU/call', 232.4), record('e2e-http-concurrent16', 'sdk', 'us CPU/call', 812), record('e2e-http-concurrent16', 'floor-http', 'us CPU/call', 170.2), record('e2e-http-concurrent16', 'floor-fetch', 'us CPU/call', 470)] },
    { id: 'e2e-concurrent16-echo', records: [record('e2e-concurrent16-echo', 'mcpwire', 'us CPU/call', 6.759), record('e2e-concurrent16-echo', 'ai-sdk', 'us CPU/call', 19.62)] },
  ] as unknown as WorkloadOutcome[];
  const lines = peersTable(outcomes);
  assert.equal(lines[0], '## Peers');
  const rows = lines.filter((l) => l.startsWith('| ') && l.includes('`e2e-'));
  assert.equal(rows.length, 2, 'only the setups this run measured');
  assert.match(rows.find((r) => r.includes('e2e-http-concurrent16'))!, /\| \*\*232\*\* \| 812 \| – \| – \| floor-http 170, floor-fetch 470 \|$/);
  assert.match(rows.find((r) => r.includes('e2e-concurrent16-echo'))!, /\| \*\*6\.76\*\* \| – \| – \| 19\.6 \| – \|$/);
  assert.deepEqual(peersTable([]), [], 'no e2e workload run: no section');
});
