// The benchmark entry (SPEC X4, U1 `mcpwire bench`): runs the workloads,
// prints the machine line and a table per workload, the issue-4 targets,
// and optionally the JSON records and bench/RESULTS.md + bench/results.svg.
//
// Usage: node --import tsx bench/run.ts [--quick] [--json] [--only NAME]... [--write]
//   --quick   every workload, fewer rounds and smaller counts (< 60 s on 2 cores)
//   --json    print the records as one JSON array on stdout (everything else goes to stderr)
//   --only    a workload id or id prefix (ndjson-small, sse, e2e-...); repeatable
//   --write   write bench/RESULTS.md and bench/results.svg from this run

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderChart } from './chart.js';
import { runRounds, toRecords, WORKLOADS, type BenchRecord, type Plan, type Workload } from './harness.js';
import { machineAtEnd, machineAtStart, machineLine } from './machine.js';
import { consoleTable, renderResultsMd, targetLines, type WorkloadOutcome } from './report.js';
import { evaluateTargets } from './targets.js';
import { cliColdWorkloads } from './workloads/cli-cold.js';
import { e2eWorkloads } from './workloads/e2e.js';
import { encodeWorkloads } from './workloads/encode.js';
import { importColdWorkloads } from './workloads/import-cold.js';
import { memoryWorkloads } from './workloads/memory.js';
import { ndjsonWorkloads } from './workloads/ndjson.js';
import { serveWorkloads } from './workloads/serve.js';
import { sseWorkloads } from './workloads/sse.js';
import { toolSourceWorkloads } from './workloads/toolsource.js';

const ALL: Workload[] = [...ndjsonWorkloads, ...sseWorkloads, ...encodeWorkloads, ...e2eWorkloads, ...memoryWorkloads, ...importColdWorkloads, ...toolSourceWorkloads, ...cliColdWorkloads, ...serveWorkloads];

/** Full: one warm-up round and five measured ones keep the whole run near 6 minutes on 2 busy cores (budget: 10). */
const FULL: Plan = { rounds: 5, warmups: 1, slowSampleMs: 1_500, slowRounds: 3, collectGarbage: true };
/**
 * --quick: smaller counts, three rounds, and anything slower than half a
 * second per sample is sampled once, so the whole run stays under a minute
 * on 2 busy cores. The warm-up round stays (without it the JIT-sensitive
 * per-event paths read several times slower); workloads dominated by native
 * work or process start-up drop it themselves.
 */
const QUICK: Plan = { rounds: 3, warmups: 1, slowSampleMs: 500, slowRounds: 1, collectGarbage: true };

const USAGE = 'usage: bench/run.ts [--quick] [--json] [--only NAME]... [--write]\n';

function options() {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      options: {
        quick: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        only: { type: 'string', multiple: true, default: [] },
        write: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

function select(only: readonly string[]): Workload[] {
  if (only.length === 0) return ALL;
  for (const name of only) {
    if (!ALL.some((w) => w.id.startsWith(name))) {
      process.stderr.write(`bench: no workload is named or starts with "${name}"; workloads: ${WORKLOADS.join(', ')}\n`);
      process.exit(2);
    }
  }
  return ALL.filter((w) => only.some((name) => w.id.startsWith(name)));
}

async function main(): Promise<number> {
  const opts = options();
  if (opts.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const workloads = select(opts.only);
  // With --json, stdout carries only the JSON array; people read stderr.
  const out = opts.json ? process.stderr : process.stdout;
  const log = (line: string) => out.write(`${line}\n`);
  const basePlan = opts.quick ? QUICK : FULL;
  const startedAt = new Date();
  const began = performance.now();
  const machine = machineAtStart();
  log(machineLine(machine));
  log(`${opts.quick ? 'quick run' : 'full run'}: ${workloads.length} workload(s)\n`);

  const outcomes: WorkloadOutcome[] = [];
  for (const workload of workloads) {
    const t0 = performance.now();
    log(`${workload.id}: ${workload.title}`);
    const prepared = await workload.prepare({ quick: opts.quick });
    let records: BenchRecord[];
    try {
      const samples = await runRounds(prepared.contenders, { ...basePlan, ...prepared.plan }, log);
      records = toRecords(workload.id, workload.baseline, samples);
    } finally {
      await prepared.dispose?.();
    }
    const outcome = { id: workload.id, title: workload.title, notes: prepared.notes ?? [], records };
    outcomes.push(outcome);
    log(`${consoleTable(outcome)}  (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
  }

  const records = outcomes.flatMap((o) => o.records);
  const targets = evaluateTargets(records);
  const seconds = (performance.now() - began) / 1000;
  const end = machineAtEnd(machine);
  log(`targets (issues 4, 17, 20):\n${targetLines(targets)}`);
  log(`${machineLine(end)}; ${seconds.toFixed(0)} s`);

  if (opts.json) process.stdout.write(`[\n${records.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`);
  if (opts.write) {
    const summary = { outcomes, machine: end, startedAt, seconds, quick: opts.quick, only: opts.only, targets };
    writeFileSync(fileURLToPath(new URL('./RESULTS.md', import.meta.url)), renderResultsMd(summary));
    const subtitle = `${opts.quick ? 'quick run' : 'full run'} ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC; ${machineLine(end)}`;
    writeFileSync(fileURLToPath(new URL('./results.svg', import.meta.url)), renderChart(records, subtitle));
    log('wrote bench/RESULTS.md and bench/results.svg');
  }
  return 0;
}

main().then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
