// The targets of issues 4, 17 and 20, checked against one run's records. A target the
// run did not measure (--only) is reported as such, never as met.

import { num } from './format.js';
import type { BenchRecord, ContenderId, WorkloadId } from './harness.js';

export interface TargetResult {
  target: string;
  /** The reference figure the issue quotes for the SDK. */
  reference: string;
  /** This run's figure, or undefined when the run did not measure it. */
  figure?: string;
  met?: boolean;
}

function find(records: readonly BenchRecord[], workload: WorkloadId, contender: ContenderId, unit?: string): BenchRecord | undefined {
  return records.find((r) => r.workload === workload && r.contender === contender && (unit === undefined || r.unit === unit));
}

/** The issue-4 targets that are a ratio of mcpwire's on one workload and unit, for the chart to mark. */
export const TARGET_RATIOS: readonly { workload: WorkloadId; unit: string; ratio: number }[] = [
  { workload: 'ndjson-small-64k', unit: 'ns/msg', ratio: 1.05 },
  { workload: 'ndjson-medium-64k', unit: 'ns/msg', ratio: 1.05 },
  { workload: 'ndjson-utf8-64k', unit: 'ns/msg', ratio: 1.05 },
  { workload: 'ndjson-medium-tiny', unit: 'ns/msg', ratio: 2.5 },
  { workload: 'ndjson-16mib', unit: 'ms/MiB', ratio: 1.3 },
  { workload: 'sse-small-64k', unit: 'ns/event', ratio: 1.3 },
  { workload: 'sse-per-event', unit: 'ns/event', ratio: 2.5 },
  { workload: 'sse-16mib', unit: 'ms/MiB', ratio: 2 },
  { workload: 'encode-small', unit: 'ns/msg', ratio: 0.9 },
  { workload: 'e2e-concurrent16', unit: 'us CPU/call', ratio: 0.35 },
  { workload: 'e2e-concurrent16', unit: 'calls/s', ratio: 1.5 },
  { workload: 'e2e-modern-concurrent16', unit: 'us CPU/call stdio', ratio: 0.25 },
  { workload: 'e2e-modern-concurrent16', unit: 'us CPU/call http', ratio: 0.25 },
  { workload: 'cli-cold-tools', unit: 'ms', ratio: 1.15 },
  { workload: 'cli-session-call', unit: 'ms', ratio: 1.2 },
  { workload: 'cli-version', unit: 'ms', ratio: 1.5 },
];

/** Three decimals: a figure right at a limit (1.30× against ≤ 1.3×) must show which side it is on. */
const x = (ratio: number) => `${ratio.toFixed(3)}×`;

/** mcpwire's ratio on one workload must be at most (or, for throughput, at least) `limit`. */
function ratioTarget(records: readonly BenchRecord[], target: string, reference: string, workload: WorkloadId, limit: number, unit?: string, atLeast = false): TargetResult {
  const mine = find(records, workload, 'mcpwire', unit);
  if (!mine) return { target, reference };
  const sdk = find(records, workload, 'sdk', unit);
  // The SSE rows judge mcpwire on Node's default request path (node:http); its fetch path is shown beside it.
  const fetchPath = find(records, workload, 'mcpwire-fetch', unit);
  const beside = `${fetchPath ? `; mcpwire-fetch ${x(fetchPath.ratio)}` : ''}${sdk && mine.baseline !== 'sdk' ? `; sdk ${x(sdk.ratio)}` : ''}`;
  return { target, reference, figure: `${x(mine.ratio)} (${num(mine.median)} ${mine.unit}, range ${num(mine.min)}–${num(mine.max)})${beside}`, met: atLeast ? mine.ratio >= limit : mine.ratio <= limit };
}

/**
 * "Flat ms/MiB up to 32 MiB": cost linear in bytes. Met when mcpwire's
 * ms/MiB at every size from 1 to 32 MiB is within 1.5× of its lowest (a
 * quadratic framer grows 32× over that range); the bytes floor's own spread
 * is shown beside it, since big strings are not free for V8 either.
 */
function flatTarget(records: readonly BenchRecord[]): TargetResult {
  const target = 'ms/MiB flat from 1 to 32 MiB (spread ≤ 1.5×)';
  const reference = 'SDK refuses > 10 MiB';
  const sizes: WorkloadId[] = ['ndjson-1mib', 'ndjson-4mib', 'ndjson-16mib', 'ndjson-32mib'];
  const mine = sizes.map((w) => find(records, w, 'mcpwire'));
  const floor = sizes.map((w) => find(records, w, 'floor-bytes'));
  if (mine.some((r) => !r) || floor.some((r) => !r)) return { target, reference };
  const spread = (rs: (BenchRecord | undefined)[]) => Math.max(...rs.map((r) => r!.median)) / Math.min(...rs.map((r) => r!.median));
  const values = mine.map((r) => r!.median.toFixed(2)).join(' / ');
  return { target, reference, figure: `${values} ms/MiB at 1/4/16/32 MiB: spread ${x(spread(mine))} (floor-bytes ${x(spread(floor))})`, met: spread(mine) <= 1.5 };
}

/**
 * "Peak extra memory while framing ≤ 1.5× the size". Decoding and parsing
 * alone (the bytes floor) already peaks at ~2× (the decoded string, and the
 * parsed value's own copy of the text), so a whole-process peak can never
 * meet it: the verdict is on what framing adds on top of the floor
 * (mcpwire's peak − floor-bytes' peak); the whole peak is shown beside it.
 */
function memoryTarget(records: readonly BenchRecord[]): TargetResult {
  const target = 'peak extra memory framing a 16 MiB message ≤ 1.5× its size (judged: peak above the bytes floor)';
  const reference = '';
  const unit = 'x size (heap+buffers)';
  const heap = find(records, 'memory-16mib', 'mcpwire', unit);
  const floor = find(records, 'memory-16mib', 'floor-bytes', unit);
  const rss = find(records, 'memory-16mib', 'mcpwire', 'x size (rss)');
  if (!heap || !floor || !rss) return { target, reference };
  const above = heap.median - floor.median;
  return {
    target,
    reference,
    figure: `${x(above)} above the floor; whole peak ${x(heap.median)} heap+buffers (floor-bytes ${x(floor.median)}), ${x(rss.median)} rss`,
    met: above <= 1.5,
  };
}

/**
 * An SSE event that never ends (#20 item 2): the peak while reading it until
 * the cap refuses it must stay ≤ 1.5× the cap, judged on heap+buffers (what
 * the reader holds and the garbage it leaves); the resident set is shown
 * beside it, and the floor (the reads held up to the cap, as bytes).
 */
function sseEndlessTarget(records: readonly BenchRecord[]): TargetResult {
  const target = 'memory-sse-endless: peak while reading an endless SSE event ≤ 1.5× the cap (heap+buffers)';
  const heap = find(records, 'memory-sse-endless', 'mcpwire', 'x cap (heap+buffers)');
  const rss = find(records, 'memory-sse-endless', 'mcpwire', 'x cap (rss)');
  const floor = find(records, 'memory-sse-endless', 'floor-bytes', 'x cap (heap+buffers)');
  if (!heap || !rss || !floor) return { target, reference: '' };
  return { target, reference: 'earlier: 1.47–2.2× rss through fetch', figure: `${x(heap.median)} heap+buffers (floor-bytes ${x(floor.median)}), ${x(rss.median)} rss`, met: heap.median <= 1.5 };
}

/**
 * import-cold: what importing costs above a bare process start. Judged as
 * mcpwire's time above the `node -e 0` floor over the SDK v2 client's.
 */
function importColdTarget(records: readonly BenchRecord[]): TargetResult {
  const target = 'import-cold: time above the node floor ≤ 0.2× the SDK v2 client\'s';
  const reference = 'earlier: floor 75 ms, mcpwire 115, v1 284, v2 241';
  const [floor, mine, v1, v2] = (['floor-node', 'mcpwire', 'sdk', 'sdk-v2'] as const).map((c) => find(records, 'import-cold', c));
  if (!floor || !mine || !v2) return { target, reference };
  const share = (mine.median - floor.median) / (v2.median - floor.median);
  const ms = (r: BenchRecord | undefined) => (r ? r.median.toFixed(0) : '—');
  return { target, reference, figure: `${share.toFixed(3)} (floor ${ms(floor)} ms, mcpwire ${ms(mine)}, v1 ${ms(v1)}, v2 ${ms(v2)})`, met: share <= 0.2 };
}

/**
 * e2e-modern-concurrent16 (#17 Bench): mcpwire's client CPU per call over
 * one transport against the SDK v2 client's; the bare wire's ratio
 * (floor-wire) is shown beside it, since no client can cost less than it.
 */
function modernTarget(records: readonly BenchRecord[], transport: 'stdio' | 'http'): TargetResult {
  const unit = `us CPU/call ${transport}`;
  const target = `e2e-modern-concurrent16 ${transport}: client CPU/call ≤ 0.25× the SDK v2 client's`;
  const mine = find(records, 'e2e-modern-concurrent16', 'mcpwire', unit);
  if (!mine) return { target, reference: '' };
  const floor = find(records, 'e2e-modern-concurrent16', 'floor-wire', unit);
  const beside = floor ? `; floor-wire ${x(floor.ratio)}, mcpwire ${x(mine.median / floor.median)} of the floor` : '';
  return { target, reference: '', figure: `${x(mine.ratio)} (${num(mine.median)} us CPU/call, range ${num(mine.min)}–${num(mine.max)})${beside}`, met: mine.ratio <= 0.25 };
}

/** The tool source's ratio on one workload and unit against that workload's baseline. */
function toolSourceTarget(records: readonly BenchRecord[], target: string, workload: WorkloadId, unit: string, limit: number): TargetResult {
  const mine = find(records, workload, 'toolsource', unit);
  if (!mine) return { target, reference: '' };
  return { target, reference: '', figure: `${x(mine.ratio)} (${num(mine.median)} ${mine.unit} against ${mine.baseline}, range ${num(mine.min)}–${num(mine.max)})`, met: mine.ratio <= limit };
}

/** The CLI's wall time on one workload against its baseline process (U1). */
function cliTarget(records: readonly BenchRecord[], target: string, workload: WorkloadId, limit: number): TargetResult {
  const mine = find(records, workload, 'mcpwire', 'ms');
  if (!mine) return { target, reference: '' };
  const base = find(records, workload, mine.baseline, 'ms');
  return { target, reference: '', figure: `${x(mine.ratio)} (${num(mine.median)} ms against ${mine.baseline} ${base ? num(base.median) : '?'} ms, range ${num(mine.min)}–${num(mine.max)})`, met: mine.ratio <= limit };
}

/**
 * Issue #20 item 2: mcpwire's figure on one workload and unit over another
 * contender's (the SDK v1, a bare floor), whatever the workload's baseline.
 * Every contender's median is shown beside it, so the verdict can be read
 * against the issue's numbers.
 */
function againstTarget(records: readonly BenchRecord[], target: string, reference: string, workload: WorkloadId, unit: string, against: ContenderId, limit: number, mineId: ContenderId = 'mcpwire'): TargetResult {
  const mine = find(records, workload, mineId, unit);
  const other = find(records, workload, against, unit);
  if (!mine || !other) return { target, reference };
  const ratio = mine.median / other.median;
  const all = records.filter((r) => r.workload === workload && r.unit === unit).map((r) => `${r.contender} ${num(r.median)}`).join(', ');
  return { target, reference, figure: `${x(ratio)} (${unit}: ${all}; ${mineId} range ${num(mine.min)}–${num(mine.max)})`, met: ratio <= limit };
}

/** The #20 rows, with the issue's side-by-side figures as the reference. */
function issue20Targets(records: readonly BenchRecord[]): TargetResult[] {
  const echo = 'issue #20: mcpwire 11.9 µs, v1 48.9, v2 93.9, ai-sdk 50.6';
  const everything = 'issue #20: mcpwire 26.1 µs, v1 55.0, v2 98.2, ai-sdk 53.9';
  const http = 'issue #20: mcpwire 1145 µs, v1 1550, v2 1722, ai-sdk 1426, bare fetch 1007, bare node:http 342';
  const p99 = 'issue #20: a side run 2.0× the v1 p99 (p50 0.8×), the bench 0.48×';
  const cpu = 'us CPU/call';
  const rows: TargetResult[] = [];
  for (const [workload, reference] of [
    ['e2e-concurrent16-echo', echo],
    ['e2e-concurrent16', everything],
    ['e2e-sequential-echo', ''],
    ['e2e-sequential', ''],
  ] as const) {
    // Judged against the floor whose server sits in a process group of its own, as mcpwire's does (L2): under other
    // load a new session alone costs the client CPU per call (see RESULTS.md); the plain floor-wire stays in the figure.
    rows.push(againstTarget(records, `${workload}: client CPU/call ≤ 1.2× the bare floor client (its server in a process group, as mcpwire's)`, reference, workload, cpu, 'floor-wire-group', 1.2));
    rows.push(againstTarget(records, `${workload}: client CPU/call ≤ 0.3× the SDK v1`, reference, workload, cpu, 'sdk', 0.3));
  }
  rows.push(againstTarget(records, 'e2e-http-concurrent16: client CPU/call ≤ 0.35× the SDK v1', http, 'e2e-http-concurrent16', cpu, 'sdk', 0.35));
  rows.push(againstTarget(records, 'e2e-http-concurrent16: client CPU/call ≤ 1.3× the bare node:http client', http, 'e2e-http-concurrent16', cpu, 'floor-http', 1.3));
  rows.push(againstTarget(records, 'e2e-sequential-echo: p99 ≤ 1.0× the SDK v1', p99, 'e2e-sequential-echo', 'ms p99', 'sdk', 1.0));
  rows.push(againstTarget(records, 'e2e-sequential: p99 ≤ 1.0× the SDK v1', p99, 'e2e-sequential', 'ms p99', 'sdk', 1.0));
  rows.push(againstTarget(records, 'e2e-cold: import, connect, list, call, close ≤ 0.6× the SDK v1', 'issue #20: mcpwire 397 ms, v1 730, v2 690, ai-sdk 584, node -e 0 163', 'e2e-cold', 'ms', 'sdk', 0.6));
  rows.push(againstTarget(records, 'toolsource-startup-8: ≤ 1.15× 8 bare server processes started concurrently', '', 'toolsource-startup-8', 'ms', 'floor-8-servers', 1.15, 'toolsource'));
  return rows;
}

/**
 * serve-call (#21 item 1): "a call through serve costs ≤ 1.3× the direct
 * call's client CPU (both sides measured)". Judged: (client CPU + serve
 * process CPU) per call through `mcpwire serve --stdio` over the same
 * client's CPU per call straight to the echo server; the upstream echo
 * server's CPU is left out of both (it does the same work either way). The
 * client's share alone and the serve process's are shown beside it.
 */
function serveTarget(records: readonly BenchRecord[]): TargetResult {
  const target = 'serve-call: (client CPU + serve CPU) per call through mcpwire serve --stdio ≤ 1.3× the same client\'s CPU per call direct';
  const total = find(records, 'serve-call', 'serve', 'us CPU/call client+serve');
  const direct = find(records, 'serve-call', 'mcpwire', 'us CPU/call client+serve');
  const client = find(records, 'serve-call', 'serve', 'us client CPU/call');
  if (!total || !direct || !client) return { target, reference: '' };
  const ratio = total.median / direct.median;
  // Informational: the same client through a bare relay that only parses, remaps ids and stringifies, the floor of any proxy that reads what it forwards.
  const floor = find(records, 'serve-call', 'floor-relay', 'us CPU/call client+serve');
  const floorNote = floor ? `; floor relay ${x(floor.median / direct.median)} (${num(floor.median)})` : '';
  return {
    target,
    reference: '',
    figure: `${x(ratio)} (through serve ${num(total.median)} us CPU/call: client ${num(client.median)} + serve ${num(total.median - client.median)}; direct ${num(direct.median)}${floorNote}; range ${num(total.min)}–${num(total.max)})`,
    met: ratio <= 1.3,
  };
}

export function evaluateTargets(records: readonly BenchRecord[]): TargetResult[] {
  return [
    ratioTarget(records, 'ndjson-small-64k ≤ 1.05× bytes floor', 'SDK ≈ 2.6×', 'ndjson-small-64k', 1.05),
    ratioTarget(records, 'ndjson-medium-64k ≤ 1.05× bytes floor', 'SDK ≈ 2.0×', 'ndjson-medium-64k', 1.05),
    ratioTarget(records, 'ndjson-utf8-64k ≤ 1.05× bytes floor', 'SDK ≈ 1.1×', 'ndjson-utf8-64k', 1.05),
    ratioTarget(records, 'ndjson-medium-tiny ≤ 2.5× bytes floor', 'SDK ≈ 19×', 'ndjson-medium-tiny', 2.5),
    ratioTarget(records, 'ndjson-16mib ≤ 1.3× bytes floor', 'SDK ≈ 20×', 'ndjson-16mib', 1.3),
    flatTarget(records),
    ratioTarget(records, 'sse-small-64k ≤ 1.3× JSON.parse floor (mcpwire on node:http, Node\'s default)', 'SDK ≈ 3×', 'sse-small-64k', 1.3),
    ratioTarget(records, 'sse-per-event ≤ 2.5× JSON.parse floor (mcpwire on node:http, Node\'s default)', 'SDK ≈ 13×', 'sse-per-event', 2.5),
    ratioTarget(records, 'sse-16mib ≤ 2.0× JSON.parse floor (mcpwire on node:http, Node\'s default)', 'SDK ≈ 3.5×', 'sse-16mib', 2),
    ratioTarget(records, 'encode-small ≤ 0.9× bytes floor (Buffer.from(JSON.stringify(m)))', 'SDK ≈ 1.0×', 'encode-small', 0.9),
    ratioTarget(records, 'e2e-concurrent16 client CPU/call ≤ 0.35× SDK', '', 'e2e-concurrent16', 0.35, 'us CPU/call'),
    ratioTarget(records, 'e2e-concurrent16 throughput ≥ 1.5× SDK', '', 'e2e-concurrent16', 1.5, 'calls/s', true),
    modernTarget(records, 'stdio'),
    modernTarget(records, 'http'),
    memoryTarget(records),
    sseEndlessTarget(records),
    importColdTarget(records),
    toolSourceTarget(records, 'toolsource-dispatch: CPU per call ≤ 1.05× a bare McpClient', 'toolsource-dispatch', 'us CPU/call', 1.05),
    toolSourceTarget(records, 'toolsource-startup-8: 8 slow servers ready ≤ 1.5× one', 'toolsource-startup-8', 'ms', 1.5),
    ...issue20Targets(records),
    cliTarget(records, 'cli-cold-tools: mcpwire tools ≤ 1.15× a bare spawn+initialize+tools/list script', 'cli-cold-tools', 1.15),
    cliTarget(records, 'cli-session-call: mcpwire call through a running session ≤ 1.2× node -e 0', 'cli-session-call', 1.2),
    cliTarget(records, 'cli-version: mcpwire --version ≤ 1.5× node -e 0', 'cli-version', 1.5),
    serveTarget(records),
  ];
}

export function verdict(result: TargetResult): string {
  return result.met === undefined ? 'not measured' : result.met ? 'met' : 'MISSED';
}
