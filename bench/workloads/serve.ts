// serve-call (#21 item 1, SPEC G1): what a call through `mcpwire serve`
// costs against the same call made directly. The same client (mcpwire's
// McpClient from dist/, in a process of its own: bench/fixtures/e2e-peer.mjs)
// calls the `echo` tool of the minimal echo server
// (bench/fixtures/echo-server.mjs) with 16 calls in flight, over stdio:
//   mcpwire (the baseline): client → echo server;
//   serve: client → `mcpwire serve --stdio --names short --config kaged.yaml`
//          (a kaged project naming that echo server) → echo server.
// "Both sides measured": the judged unit adds the serve process's CPU (from
// /proc/<pid>/stat) to the client's (process.cpuUsage in the peer), per call;
// the direct contender has no middle process, so its figure is its client's
// alone. The client's own share and the upstream echo server's are shown as
// units of their own (the upstream does the same work in both). Every answer
// is checked by the peer. Linux only (/proc).
// MCPWIRE_BENCH_SERVE_NODE_ARGS (space-separated) adds node options to the
// serve process only, for profiling it under this load: `--cpu-prof
// --cpu-prof-dir=DIR`, or `--perf-basic-prof` for `perf record -p PID`
// (perf's cpu-clock samples CPU time; --cpu-prof's samples are wall time,
// which at a high load charges a pipe write with the wait for the CPU).

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Contender, ContenderId, Metrics, Prepared, Workload } from '../harness.js';
import { ensureBuilt } from './built.js';
import { LONG_LIVED, PEER_NOTE, Peer, processCpuUs, STDIO } from './e2e.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'mcpwire.js');
const RELAY = path.join(ROOT, 'bench', 'fixtures', 'floor-relay.mjs');

/** The judged unit: client CPU + serve CPU per call (serve contender), client CPU per call (direct). */
export const SERVE_UNIT = 'us CPU/call client+serve';

/** The pid of `pid`'s first child (the upstream server serve spawned), from /proc; undefined if none is found. */
function childOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The 2nd field after the ")" that ends the command name is the parent pid.
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(fields[1]) === pid) return Number(entry);
    } catch {
      // The process ended while the list was read.
    }
  }
  return undefined;
}

/** One sample: `calls` echo calls, 16 in flight; the client's, the middle's (if any) and the upstream's CPU per call. */
async function measure(peer: Peer, calls: number, middlePid: number | undefined, upstreamPid: number | undefined): Promise<Metrics> {
  const middleBefore = processCpuUs(middlePid);
  const upstreamBefore = processCpuUs(upstreamPid);
  const { ms, cpuUs } = await peer.request('concurrent', { calls });
  const middleAfter = processCpuUs(middlePid);
  const upstreamAfter = processCpuUs(upstreamPid);
  if (middlePid !== undefined && (middleBefore === undefined || middleAfter === undefined)) throw new Error(`serve-call: no /proc/${middlePid}/stat for the serve process; this workload needs Linux`);
  const middle = middlePid === undefined ? 0 : middleAfter! - middleBefore!;
  const client = cpuUs!;
  const metrics: Metrics = {
    [SERVE_UNIT]: (client + middle) / calls,
    'us client CPU/call': client / calls,
    'calls/s': (calls * 1000) / ms!,
  };
  if (upstreamBefore !== undefined && upstreamAfter !== undefined) metrics['us upstream CPU/call'] = (upstreamAfter - upstreamBefore) / calls;
  return metrics;
}

async function prepare(quick: boolean): Promise<Prepared> {
  ensureBuilt();
  // /proc counts in 10 ms ticks: a sample must cost serve ~200 ms for the tick to stay near a twentieth of it; 4k-call samples (~50 ms direct) spread the direct client's figure 2.5× between rounds.
  const calls = quick ? 10_000 : 20_000;
  const warmUp = quick ? 10_000 : 40_000;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-bench-serve-'));
  const config = path.join(dir, 'kaged.yaml');
  writeFileSync(config, `mcp:\n  echo:\n    transport: stdio\n    command: ${JSON.stringify(STDIO.echo.command)}\n`);
  // --names short: the tool is served as `echo`, the name the peer calls, as directly.
  const nodeArgs = process.env.MCPWIRE_BENCH_SERVE_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const served = { command: [process.execPath, ...nodeArgs, BIN, 'serve', '--stdio', '--names', 'short', '--config', config] };
  const peers = new Map<ContenderId, Peer>();
  const pids = new Map<ContenderId, { middle?: number; upstream?: number }>();
  const stopAll = async () => {
    await Promise.all([...peers.values()].map((p) => p.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const [id, spec] of [
      ['mcpwire', STDIO.echo],
      ['serve', served],
      // The floor of any proxy that reads what it forwards: parse, remap the id, stringify, one write per read.
      ['floor-relay', { command: [process.execPath, RELAY, ...STDIO.echo.command] }],
    ] as const) {
      const peer = Peer.spawn('mcpwire');
      peers.set(id, peer);
      await peer.start(spec);
      if (id !== 'mcpwire') {
        const upstream = childOf(peer.serverPid);
        if (upstream === undefined) throw new Error(`serve-call: found no upstream child of the ${id} process ${peer.serverPid}`);
        pids.set(id, { middle: peer.serverPid, upstream });
      } else pids.set(id, { upstream: peer.serverPid });
      await peer.request('list');
      await peer.request('concurrent', { calls: warmUp });
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  const contender = (id: ContenderId): Contender => ({ id, sample: () => measure(peers.get(id)!, calls, pids.get(id)!.middle, pids.get(id)!.upstream) });
  return {
    contenders: [contender('mcpwire'), contender('serve'), contender('floor-relay')],
    // Five measured rounds even with --quick: two contenders of ~0.2–0.6 s a sample keep it near 10 s.
    plan: { ...LONG_LIVED, rounds: 5, warmups: 1 },
    notes: [
      `${calls} echo calls (16 in flight) per sample after ${warmUp} warm-up calls per client; mcpwire: the client straight to bench/fixtures/echo-server.mjs; serve: the same client to \`mcpwire serve --stdio --names short --config kaged.yaml\` naming that server; floor-relay: the same client to bench/fixtures/floor-relay.mjs (parse, remap the id, stringify, one write per read) in front of that server, the floor of a proxy that reads what it forwards`,
      `${SERVE_UNIT}: the client's CPU plus the serve process's (/proc, 10 ms ticks), per call; the direct row has no serve process; floor-relay's middle is the relay; us upstream CPU/call: the echo server's`,
      PEER_NOTE,
    ],
    dispose: stopAll,
  };
}

export const serveWorkloads: Workload[] = [
  {
    id: 'serve-call',
    title: 'an echo call through mcpwire serve (stdio) vs direct: client + serve CPU per call over the direct client\'s',
    baseline: 'mcpwire',
    prepare: ({ quick }) => prepare(quick),
  },
];
