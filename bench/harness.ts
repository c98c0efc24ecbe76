// The measuring core: runs every contender of a workload interleaved, round
// by round, and turns the samples into records whose ratio is against a
// baseline measured in the same run. Knows nothing of what is measured: a
// contender is anything that can produce one sample of named metrics.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The contenders of the stdio framing workloads, every one of which takes part in ndjson-*. */
export const FRAMING_CONTENDERS = ['mcpwire', 'sdk', 'sdk-novalidate', 'ndjson', 'floor-bytes', 'floor-string'] as const;
/**
 * import-cold and the e2e workloads add the SDK v2 client (import-cold: its
 * package; e2e: its Client, the baseline of e2e-modern-concurrent16);
 * import-cold a bare `node -e 0` process;
 * the tool-source workloads compare the tool source with a bare McpClient
 * (dispatch) and with one server (start-up); the CLI's start-up is measured
 * against a bare script that talks to the same server (bare-script);
 * e2e-modern-concurrent16 has the bare wire as its floor (floor-wire).
 */
/**
 * #20 item 1 adds the e2e peers: Vercel's @ai-sdk/mcp client (ai-sdk) in
 * every e2e workload and e2e-cold, floor-wire (a bare stdio client) as the
 * floor of every stdio e2e row, and over Streamable HTTP two bare clients,
 * one on fetch (floor-fetch) and one on node:http with a keep-alive agent
 * (floor-http); toolsource-startup-8 gets 8 bare server processes started
 * concurrently (floor-8-servers), the machine's floor. serve-call (#21
 * item 1) has mcpwire's client through `mcpwire serve --stdio` (serve)
 * against the same client direct (mcpwire), and a bare stdio relay
 * (floor-relay: parse, remap the id, stringify) as the floor of a proxy.
 * The SSE workloads read mcpwire through both HTTP request paths: node:http
 * (mcpwire, Node's default) and fetch (mcpwire-fetch).
 */
export const CONTENDERS = [...FRAMING_CONTENDERS, 'mcpwire-fetch', 'sdk-v2', 'ai-sdk', 'floor-node', 'toolsource', 'bare-client', 'one-server', 'floor-8-servers', 'bare-script', 'floor-wire', 'floor-wire-group', 'floor-fetch', 'floor-http', 'serve', 'floor-relay'] as const;
export type ContenderId = (typeof CONTENDERS)[number];

export const WORKLOADS = [
  'ndjson-small-64k',
  'ndjson-small-tiny',
  'ndjson-medium-64k',
  'ndjson-medium-tiny',
  'ndjson-utf8-64k',
  'ndjson-1mib',
  'ndjson-4mib',
  'ndjson-16mib',
  'ndjson-32mib',
  'sse-small-64k',
  'sse-per-event',
  'sse-16mib',
  'encode-small',
  'e2e-startup',
  'e2e-sequential',
  'e2e-sequential-echo',
  'e2e-concurrent16',
  'e2e-concurrent16-echo',
  'e2e-modern-concurrent16',
  'e2e-http-concurrent16',
  'e2e-cold',
  'memory-16mib',
  'memory-sse-endless',
  'import-cold',
  'toolsource-dispatch',
  'toolsource-startup-8',
  'cli-cold-tools',
  'cli-session-call',
  'cli-version',
  'serve-call',
] as const;
export type WorkloadId = (typeof WORKLOADS)[number];

/** One line of `--json` output: the shape is fixed by issue 4. */
export interface BenchRecord {
  workload: WorkloadId;
  contender: ContenderId;
  unit: string;
  median: number;
  min: number;
  max: number;
  /** The contender whose median (same workload, same unit) is the denominator of `ratio`. */
  baseline: ContenderId;
  ratio: number;
  /** How many samples the median was taken over. */
  rounds: number;
}

/** One sample: a value per unit (most contenders measure one unit; e2e and memory several). */
export type Metrics = Record<string, number>;

export interface Contender {
  id: ContenderId;
  sample(): Metrics | Promise<Metrics>;
}

export interface Plan {
  /** Measured rounds; in each, every contender gives one sample. */
  rounds: number;
  /** Untimed rounds first, so the JIT has compiled each contender's hot path. */
  warmups: number;
  /**
   * A contender whose single sample takes longer than this (ms) is "slow"
   * (e.g. a parser that is quadratic in the message size): its warm-up sample
   * counts as a measurement, since the JIT is warm long before the end of a
   * multi-second run, and it gives at most `slowRounds` samples, so one slow
   * peer cannot blow the time budget of the whole run.
   */
  slowSampleMs: number;
  slowRounds: number;
  /**
   * Force a full GC before each sample (default true): one contender's
   * garbage is then not collected on the next one's clock. Off for the
   * long-lived end-to-end pairs, where it distorts what it should protect:
   * measured with 16 calls in flight against server-everything, a gc()
   * before each 5000-call sample doubled the steady-state CPU per call of
   * both clients (mcpwire ~10-15 -> 26-28 us, SDK ~20-24 -> 42-46 us).
   */
  collectGarbage: boolean;
}

export interface Workload {
  id: WorkloadId;
  /** What is measured, for people. */
  title: string;
  baseline: ContenderId;
  prepare(options: { quick: boolean }): Promise<Prepared>;
}

export interface Prepared {
  contenders: Contender[];
  plan?: Partial<Plan>;
  /** Said beside the figures (e.g. a cap raised, a contender skipped in --quick). */
  notes?: string[];
  dispose?(): Promise<void>;
}

/**
 * Forces a full GC between samples, so one contender's garbage is not
 * collected on the next one's clock. Works without --expose-gc: the flag is
 * set at run time and `gc` is taken from a fresh context.
 */
export const collectGarbage: () => void = (() => {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The p-th percentile (0..100) by nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/**
 * Runs the contenders interleaved: in round r each contender gives one
 * sample, the order rotated by r so that no contender always runs right
 * after the same neighbour (and inherits its cache state or GC debt).
 * Returns each contender's samples.
 */
export async function runRounds(contenders: readonly Contender[], plan: Plan, log: (line: string) => void = () => {}): Promise<Map<ContenderId, Metrics[]>> {
  const samples = new Map<ContenderId, Metrics[]>(contenders.map((c) => [c.id, []]));
  const slow = new Set<ContenderId>();
  const total = plan.warmups + plan.rounds;
  for (let round = 0; round < total; round++) {
    const warmup = round < plan.warmups;
    for (let k = 0; k < contenders.length; k++) {
      const contender = contenders[(k + round) % contenders.length]!;
      const taken = samples.get(contender.id)!;
      if (slow.has(contender.id) && taken.length >= plan.slowRounds) continue;
      if (plan.collectGarbage) collectGarbage();
      const start = performance.now();
      const metrics = await contender.sample();
      const elapsed = performance.now() - start;
      if (elapsed > plan.slowSampleMs && !slow.has(contender.id)) {
        slow.add(contender.id);
        log(`  ${contender.id} took ${(elapsed / 1000).toFixed(1)} s for one sample: this sample counts, and it gives at most ${plan.slowRounds}`);
        taken.push(metrics);
        continue;
      }
      if (!warmup) taken.push(metrics);
    }
  }
  return samples;
}

/** Turns samples into records: per unit, each contender's median, min, max, and the ratio to the baseline's median. */
export function toRecords(workload: WorkloadId, baseline: ContenderId, samples: Map<ContenderId, Metrics[]>): BenchRecord[] {
  const base = samples.get(baseline);
  if (!base || base.length === 0) throw new Error(`${workload}: the baseline ${baseline} has no samples`);
  const units = Object.keys(base[0]!);
  const records: BenchRecord[] = [];
  for (const unit of units) {
    const baseMedian = median(base.map((m) => m[unit]!));
    for (const [contender, list] of samples) {
      const values = list.map((m) => m[unit]).filter((v): v is number => v !== undefined);
      if (values.length === 0) continue;
      const mid = median(values);
      records.push({
        workload,
        contender,
        unit,
        median: mid,
        min: Math.min(...values),
        max: Math.max(...values),
        baseline,
        ratio: mid / baseMedian,
        rounds: values.length,
      });
    }
  }
  return records;
}

/** Higher-is-better units (the rest are costs: lower is better). */
export function higherIsBetter(unit: string): boolean {
  return unit === 'calls/s' || unit.startsWith('calls/s ');
}

/**
 * Wraps a framing run as a contender: times it, checks it delivered the
 * expected number of messages (a parser that silently drops messages must
 * not look fast), and reports ms scaled to the workload's unit.
 */
export function timed(id: ContenderId, unit: string, perUnit: number, expected: number, run: () => number | Promise<number>): Contender {
  return {
    id,
    async sample() {
      const start = performance.now();
      const delivered = await run();
      const ms = performance.now() - start;
      if (delivered !== expected) throw new Error(`${id} delivered ${delivered} messages, expected ${expected}`);
      return { [unit]: ms / perUnit };
    },
  };
}
