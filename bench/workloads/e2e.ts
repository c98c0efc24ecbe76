// End to end: mcpwire's McpClient against its peers (#20 item 1): the
// official SDK clients, v1 (@modelcontextprotocol/sdk's Client, the baseline
// of the 2025 workloads) and v2 (@modelcontextprotocol/client 2.4.0),
// Vercel's @ai-sdk/mcp 2.0.99, and a bare client that is the physical floor
// of every row (floor-wire over stdio; floor-fetch and floor-http over
// HTTP). Each calls the `echo` tool of its own server process, and every
// answer is checked (bench/fixtures/e2e-peer.mjs).
//
// The 2025 workloads run over stdio against @modelcontextprotocol/server-
// everything, or a minimal echo server (bench/fixtures/echo-server.mjs) that
// costs a fraction of a client per call, so there the clients, not the
// server, set the pace. e2e-modern-concurrent16 puts the 2026-07-28 clients
// in front of the SDK v2 server (bench/fixtures/v2-echo-server.mjs) over
// stdio and over Streamable HTTP (the SDK v2 client the baseline);
// e2e-http-concurrent16 every client, in the 2025 era, in front of one such
// server over Streamable HTTP on 127.0.0.1, serving both eras.
//
// Every client runs in a process of its own (a peer): its heap, its garbage
// and its GC are its own, as in a host, and the CPU that process uses during
// a phase is the client's. Only one peer works at a time (its server beside
// it); the others and their servers sit idle, and phases are interleaved
// round by round, so drift in the machine's load hits every client alike.

import { execFile, fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Contender, type ContenderId, type Metrics, type Prepared, type Workload } from '../harness.js';
import { ensureBuilt } from './built.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PEER = path.join(ROOT, 'bench/fixtures/e2e-peer.mjs');
const V2_ECHO = path.join(ROOT, 'bench/fixtures/v2-echo-server.mjs');
const MODERN_VERSION = '2026-07-28';

/** What a peer is told about its server: a stdio command, or an HTTP URL; modern = the 2026-07-28 era. */
interface ServerSpec {
  command?: readonly string[];
  url?: string;
  modern?: boolean;
}

/**
 * The servers run on this very Node, never whatever `node` is first on
 * PATH: the clients must face identical servers.
 */
export const STDIO = {
  everything: { command: [process.execPath, path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] },
  echo: { command: [process.execPath, path.join(ROOT, 'bench/fixtures/echo-server.mjs')] },
  'v2-stdio': { command: [process.execPath, V2_ECHO, 'stdio'], modern: true },
} satisfies Record<string, ServerSpec>;

/** The client a peer runs, by contender. */
type PeerClient = 'mcpwire' | 'sdk' | 'sdk-v2' | 'ai-sdk' | 'floor-wire' | 'floor-wire-group' | 'floor-fetch' | 'floor-http';

/** Every process started and not yet seen to exit: killed on the way out whatever happens. */
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

const READY_MS = 30_000;

/** One client in its own process, driven over IPC, one op at a time. */
export class Peer {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (value: Record<string, number>) => void; reject: (error: Error) => void }>();
  private readonly exited: Promise<void>;
  /** The server process's pid (stdio), for its CPU from /proc. */
  serverPid: number | undefined;

  constructor(
    readonly client: PeerClient,
    private readonly child: ChildProcess,
  ) {
    live.add(child);
    child.on('message', (message: { id: number; result?: Record<string, number>; error?: string }) => {
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(`${client}: ${message.error}`));
      else waiter?.resolve(message.result!);
    });
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        live.delete(child);
        for (const waiter of this.waiting.values()) waiter.reject(new Error(`the ${client} peer exited (${code ?? signal}) mid-operation`));
        this.waiting.clear();
        resolve();
      }),
    );
  }

  static spawn(client: PeerClient): Peer {
    // Its stdout and stderr are the bench's: a peer prints nothing unless it fails.
    return new Peer(client, fork(PEER, [], { cwd: ROOT, execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  }

  request(op: string, args: Record<string, unknown> = {}): Promise<Record<string, number>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ id, op, ...args });
    });
  }

  async start(server: ServerSpec): Promise<void> {
    const { pid } = await this.request('start', { client: this.client, server });
    this.serverPid = pid;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      await this.request('close').catch(() => undefined);
      this.child.disconnect();
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 3_000);
      await this.exited;
      clearTimeout(timer);
    }
  }
}

/** A server the bench starts itself (Streamable HTTP): its URL, its pid, and how to stop it. */
interface HttpServer {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Starts bench/fixtures/v2-echo-server.mjs over HTTP on 127.0.0.1 (`mode` http: modern only; http-dual: both eras) and waits for its URL line. */
async function startHttpServer(mode: 'http' | 'http-dual'): Promise<HttpServer> {
  const child = spawn(process.execPath, [V2_ECHO, mode], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 1_000);
      await exited;
      clearTimeout(timer);
    }
    live.delete(child);
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the v2 HTTP echo server printed no URL within ${READY_MS} ms; stderr:\n${stderr}`)), READY_MS);
      createInterface({ input: child.stdout }).once('line', (line) => {
        clearTimeout(timer);
        resolve(String((JSON.parse(line) as { url: unknown }).url));
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the v2 HTTP echo server exited (${code ?? signal}) before it was ready; stderr:\n${stderr}`));
      });
    });
    return { url, pid: child.pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * CPU time (user + system, us) a process has used so far, from
 * /proc/<pid>/stat; undefined where there is no /proc. Tells whether the
 * server, not the client, is what limits throughput.
 */
export function processCpuUs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the ")" that ends the command name: utime is the 12th, stime the 13th, in clock ticks (100 per second on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Calls each client makes (16 in flight) before the first round. A host
 * keeps its connections for hours; what it pays per call is the steady
 * state, and it takes both sides tens of thousands of calls to get there:
 * measured here, CPU per call fell from ~60 to ~12 us (mcpwire) and from
 * ~110 to ~25 us (SDK) over the first 30k calls, the server's own cost per
 * call from ~120 to ~30 us. One warm-up round of a few thousand calls
 * measured mostly the JIT. Every client and every server gets the same.
 */
function warmUpCalls(quick: boolean): number {
  return quick ? 5_000 : 30_000;
}

/** A contender: its id in the tables and the client its peer runs, per transport where a workload has two. */
interface Entry {
  id: ContenderId;
  client: PeerClient;
}

/** The 2025 stdio contenders: the v1 SDK client (the baseline) first, the bare floor last. */
const STDIO_2025: readonly Entry[] = [
  { id: 'sdk', client: 'sdk' },
  { id: 'sdk-v2', client: 'sdk-v2' },
  { id: 'ai-sdk', client: 'ai-sdk' },
  { id: 'mcpwire', client: 'mcpwire' },
  { id: 'floor-wire', client: 'floor-wire' },
];

/**
 * The long-lived 2025 stdio rows add the bare floor with its server in a
 * process group of its own, as mcpwire starts its servers (floor-wire-group,
 * see bench/fixtures/e2e-peer.mjs): the like-for-like floor that the "≤ 1.2×
 * the bare floor client" lines are judged against (#20).
 */
const STDIO_2025_RUNNING: readonly Entry[] = [...STDIO_2025, { id: 'floor-wire-group', client: 'floor-wire-group' }];

/** Starts one peer per entry, each connected to `server` (or the spec `serverFor` gives it), answering, discovered, warmed up. */
async function startPeers(entries: readonly Entry[], server: ServerSpec, warmUp: number): Promise<Map<ContenderId, Peer>> {
  const peers = new Map<ContenderId, Peer>();
  try {
    for (const { id, client } of entries) {
      const peer = Peer.spawn(client);
      peers.set(id, peer);
      await peer.start(server);
    }
    // The SDK caches the tools' output schemas from tools/list; each client discovers once, as a host would.
    for (const peer of peers.values()) await peer.request('list');
    for (const peer of peers.values()) await peer.request('concurrent', { calls: warmUp });
  } catch (error) {
    await Promise.all([...peers.values()].map((p) => p.stop()));
    throw error;
  }
  return peers;
}

/**
 * `calls` echo calls with 16 in flight in one peer: calls/s, the client's
 * CPU per call, and the server's (serverPid, from /proc), each unit with
 * `suffix` (the transport, where a sample covers more than one).
 */
async function measureConcurrent(peer: Peer, calls: number, serverPid: number | undefined, suffix = ''): Promise<Metrics> {
  const serverBefore = processCpuUs(serverPid);
  const { ms, cpuUs } = await peer.request('concurrent', { calls });
  const serverAfter = processCpuUs(serverPid);
  const metrics: Metrics = { [`calls/s${suffix}`]: (calls * 1000) / ms!, [`us CPU/call${suffix}`]: cpuUs! / calls };
  // The server's share: the same echo work for every client; at ~1 s of server CPU per second the server is the bottleneck.
  if (serverBefore !== undefined && serverAfter !== undefined) metrics[`us server CPU/call${suffix}`] = (serverAfter - serverBefore) / calls;
  return metrics;
}

/** The plan of the long-lived workloads: a sample lasts as long as its calls; no forced GC between samples (see Plan.collectGarbage). */
export const LONG_LIVED = { slowSampleMs: Infinity, collectGarbage: false } as const;

export const PEER_NOTE = 'every client in a process of its own (bench/fixtures/e2e-peer.mjs; mcpwire from dist/), every answer checked; CPU = user + system of that process only; server CPU from /proc, 10 ms ticks';

/** Echo calls with 16 in flight against a 2025 stdio server. */
async function concurrent16(quick: boolean, server: ServerSpec): Promise<Prepared> {
  ensureBuilt();
  // Enough calls that a sample lasts a fair fraction of a second: shorter ones were at the mercy of the machine's other load.
  const calls = quick ? 1_000 : 5_000;
  const peers = await startPeers(STDIO_2025_RUNNING, server, warmUpCalls(quick));
  return {
    contenders: STDIO_2025_RUNNING.map(({ id }) => ({ id, sample: () => measureConcurrent(peers.get(id)!, calls, peers.get(id)!.serverPid) })),
    // 9 rounds, as the sequential rows: a sample is ~40 ms of client CPU, and one full run's samples of this row
    // spread 8.03-16.2 us per call against a 1.27x/1.05x gap to the floor from one run to the next.
    plan: quick ? LONG_LIVED : { ...LONG_LIVED, rounds: 9 },
    notes: [`${calls} calls per sample, after ${warmUpCalls(quick)} warm-up calls per client; ${PEER_NOTE}`],
    dispose: async () => {
      await Promise.all([...peers.values()].map((p) => p.stop()));
    },
  };
}

/**
 * Echo calls one after another against a 2025 stdio server: latency per
 * call, p50 and p99 over a sample's calls (timed inside the peer, around
 * each call), and the client's CPU per call.
 */
async function sequential(quick: boolean, server: ServerSpec): Promise<Prepared> {
  ensureBuilt();
  const calls = quick ? 300 : 2_000;
  const peers = await startPeers(STDIO_2025_RUNNING, server, warmUpCalls(quick));
  const sample = async (peer: Peer): Promise<Metrics> => {
    const { p50, p99, cpuUs } = await peer.request('sequential', { calls });
    return { 'ms p50': p50!, 'ms p99': p99!, 'us CPU/call': cpuUs! / calls };
  };
  return {
    contenders: STDIO_2025_RUNNING.map(({ id }) => ({ id, sample: () => sample(peers.get(id)!) })),
    // 9 rounds, not 5: a sample is 2,000 calls of ~20-60 us CPU each, and in one full run (2026-12-06) the echo
    // row's own samples spread 22.8-48.0 us, twice the gap its target judges; four more rounds cost a few seconds.
    plan: quick ? LONG_LIVED : { ...LONG_LIVED, rounds: 9 },
    notes: [`${calls} calls per sample, after ${warmUpCalls(quick)} warm-up calls per client; latency timed in the client's process around each call; ${PEER_NOTE}`],
    dispose: async () => {
      await Promise.all([...peers.values()].map((p) => p.stop()));
    },
  };
}

/** The modern contenders: the SDK v2 client (the baseline), mcpwire, ai-sdk and the bare wire (stdio) or bare fetch (HTTP). */
const MODERN: readonly { id: ContenderId; stdio: PeerClient; http: PeerClient }[] = [
  { id: 'sdk-v2', stdio: 'sdk-v2', http: 'sdk-v2' },
  { id: 'ai-sdk', stdio: 'ai-sdk', http: 'ai-sdk' },
  { id: 'mcpwire', stdio: 'mcpwire', http: 'mcpwire' },
  { id: 'floor-wire', stdio: 'floor-wire', http: 'floor-fetch' },
];

/**
 * Calls per sample and warm-up calls per client, by transport. An HTTP call
 * costs the SDK v2 server ~1 ms of CPU here (it builds a server instance per
 * request), so HTTP runs at a few hundred to a thousand calls per second on
 * this box; the clients' CPU per call over HTTP stopped falling after ~4k
 * calls (measured), over stdio it takes longer, as in the 2025 workloads.
 */
const MODERN_COUNTS = {
  stdio: { calls: 3_000, warmUp: 20_000, quickCalls: 400, quickWarmUp: 800 },
  http: { calls: 1_000, warmUp: 4_000, quickCalls: 200, quickWarmUp: 400 },
} as const;

/**
 * 2026-07-28 echo calls with 16 in flight, over stdio (each client its own
 * modern-only server) and over Streamable HTTP (one modern-only server for
 * all). A contender's sample is one phase per transport, back to back.
 */
async function modernConcurrent16(quick: boolean): Promise<Prepared> {
  ensureBuilt();
  const counts = (t: 'stdio' | 'http') => ({ calls: quick ? MODERN_COUNTS[t].quickCalls : MODERN_COUNTS[t].calls, warmUp: quick ? MODERN_COUNTS[t].quickWarmUp : MODERN_COUNTS[t].warmUp });
  const http = await startHttpServer('http');
  const stdio = new Map<ContenderId, Peer>();
  const overHttp = new Map<ContenderId, Peer>();
  const all = () => [...stdio.values(), ...overHttp.values()];
  try {
    for (const entry of MODERN) {
      const a = Peer.spawn(entry.stdio);
      stdio.set(entry.id, a);
      await a.start(STDIO['v2-stdio']);
      const b = Peer.spawn(entry.http);
      overHttp.set(entry.id, b);
      await b.start({ url: http.url, modern: true });
    }
    for (const peer of all()) await peer.request('list');
    for (const peer of stdio.values()) await peer.request('concurrent', { calls: counts('stdio').warmUp });
    for (const peer of overHttp.values()) await peer.request('concurrent', { calls: counts('http').warmUp });
  } catch (error) {
    await Promise.all(all().map((p) => p.stop()));
    await http.stop();
    throw error;
  }
  const contender = (id: ContenderId): Contender => ({
    id,
    async sample() {
      const a = stdio.get(id)!;
      return { ...(await measureConcurrent(a, counts('stdio').calls, a.serverPid, ' stdio')), ...(await measureConcurrent(overHttp.get(id)!, counts('http').calls, http.pid, ' http')) };
    },
  });
  return {
    contenders: MODERN.map(({ id }) => contender(id)),
    plan: LONG_LIVED,
    notes: [
      `calls per sample: ${counts('stdio').calls} stdio, ${counts('http').calls} http, after ${counts('stdio').warmUp} stdio and ${counts('http').warmUp} http warm-up calls per client; mcpwire with protocolEra 'modern', the SDK v2 client with versionNegotiation { pin: '${MODERN_VERSION}' }, ai-sdk with its server/discover probe on; over stdio each against its own bench/fixtures/v2-echo-server.mjs (@modelcontextprotocol/server 2.4.0, modern only, serveStdio), over HTTP all against one (createMcpHandler behind node:http on 127.0.0.1)`,
      PEER_NOTE,
      'floor-wire: no client, only the wire (a JSON line per request over stdio; over HTTP floor-fetch: a fetch() POST with the 2026-07-28 headers and _meta, the body parsed)',
    ],
    dispose: async () => {
      await Promise.all(all().map((p) => p.stop()));
      await http.stop();
    },
  };
}

/** The Streamable HTTP contenders (2025 era): the v1 SDK client (the baseline), the peers, and two bare floors. */
const HTTP_2025: readonly Entry[] = [
  { id: 'sdk', client: 'sdk' },
  { id: 'sdk-v2', client: 'sdk-v2' },
  { id: 'ai-sdk', client: 'ai-sdk' },
  { id: 'mcpwire', client: 'mcpwire' },
  { id: 'floor-fetch', client: 'floor-fetch' },
  { id: 'floor-http', client: 'floor-http' },
];

/**
 * Calls each client makes over HTTP (16 in flight) before the first round
 * of e2e-http-concurrent16. One process per client, CPU per call in
 * 4,000-call phases from the 4,000th call on (#20, Node 20): mcpwire 184,
 * 170, 185, 133, 117, 114 us, the bare node:http client 121, 98, 94, 101,
 * 91, 91 us; other runs settled earlier or later (mcpwire by 8k–16k calls,
 * the bare client by ~8k), and this box moves a 1,000-call sample by half
 * over tens of seconds either way. At the 4,000 used before, the samples
 * were still warm-up, mcpwire's more than the 30-line loop's; a host keeps
 * its connection far longer than either.
 */
const HTTP_WARM_UP_CALLS = 20_000;

/**
 * 2025-era echo calls with 16 in flight over Streamable HTTP, every client
 * against one SDK v2 server on 127.0.0.1 that serves both eras (its
 * stateless legacy leg: a server instance per request, the answer one SSE
 * event). Only one client calls at a time, so the server's CPU per call is
 * still each client's own.
 */
async function httpConcurrent16(quick: boolean): Promise<Prepared> {
  ensureBuilt();
  const calls = quick ? 200 : 1_000;
  const warmUp = quick ? 400 : HTTP_WARM_UP_CALLS;
  const http = await startHttpServer('http-dual');
  let peers: Map<ContenderId, Peer>;
  try {
    peers = await startPeers(HTTP_2025, { url: http.url }, warmUp);
  } catch (error) {
    await http.stop();
    throw error;
  }
  return {
    contenders: HTTP_2025.map(({ id }) => ({ id, sample: () => measureConcurrent(peers.get(id)!, calls, http.pid) })),
    plan: quick ? LONG_LIVED : { ...LONG_LIVED, rounds: 9 },
    notes: [
      `${calls} calls per sample after ${warmUp} warm-up calls per client, all against one bench/fixtures/v2-echo-server.mjs http-dual on 127.0.0.1; ${PEER_NOTE}`,
      `floor-fetch: a fetch() POST per call with the 2025 headers, the SSE answer cut and parsed; floor-http: the same on node:http with a keep-alive agent (16 sockets). mcpwire's HTTP options come from MCPWIRE_BENCH_HTTP_OPTIONS (JSON) if set${process.env.MCPWIRE_BENCH_HTTP_OPTIONS ? `: ${process.env.MCPWIRE_BENCH_HTTP_OPTIONS}` : ` (not set in this run: the transport's default, ${process.env.MCPWIRE_HTTP_CLIENT === 'fetch' ? 'fetch (MCPWIRE_HTTP_CLIENT=fetch)' : 'node:http'})`}`,
    ],
    dispose: async () => {
      await Promise.all([...peers.values()].map((p) => p.stop()));
      await http.stop();
    },
  };
}

/** e2e-cold's contenders: the clients, the bare wire, and a bare `node -e 0`. */
const COLD: readonly (Entry | { id: 'floor-node'; client?: undefined })[] = [...STDIO_2025, { id: 'floor-node' }];

/**
 * A fresh process per sample: import the client, spawn the minimal echo
 * server, handshake, tools/list, one checked echo call, close, exit. The
 * echo server starts in tens of ms, so the clients' import and start-up are
 * most of what is measured beyond node's own start.
 */
async function cold(quick: boolean): Promise<Prepared> {
  ensureBuilt();
  const spec = JSON.stringify(STDIO.echo);
  const contender = (entry: (typeof COLD)[number]): Contender => ({
    id: entry.id,
    async sample() {
      const args = entry.client === undefined ? ['-e', '0'] : [PEER, '--cold', entry.client, spec];
      const begin = performance.now();
      await run(process.execPath, args, { cwd: ROOT });
      return { ms: performance.now() - begin };
    },
  });
  return {
    contenders: COLD.map(contender),
    plan: { warmups: 1, rounds: quick ? 3 : 9, slowSampleMs: Infinity, collectGarbage: false },
    notes: ['each sample a fresh `node bench/fixtures/e2e-peer.mjs --cold CLIENT` (mcpwire from dist/): import, connect to bench/fixtures/echo-server.mjs over stdio, tools/list, one echo call checked, close, exit (ms wall); floor-node is `node -e 0`'],
  };
}

export const e2eWorkloads: Workload[] = [
  {
    id: 'e2e-startup',
    title: 'in a warm client process: spawn server-everything, initialize, first tools/list (ms)',
    baseline: 'sdk',
    async prepare({ quick }): Promise<Prepared> {
      ensureBuilt();
      const peers = STDIO_2025.map(({ id, client }) => ({ id, peer: Peer.spawn(client) }));
      return {
        // Every sample is a new server process (~1 s on a busy machine): that is what is measured, not a sign of a slow contender.
        // --quick skips the warm-up start: a start is mostly the server's own start-up, not client code to warm.
        contenders: peers.map(({ id, peer }) => ({ id, sample: async () => ({ ms: (await peer.request('startup', { client: peer.client, server: STDIO.everything })).ms! }) })),
        plan: { slowSampleMs: Infinity, ...(quick ? { warmups: 0 } : {}) },
        notes: ['each client in a process of its own, already started (its library imported); close not timed'],
        dispose: async () => {
          await Promise.all(peers.map(({ peer }) => peer.stop()));
        },
      };
    },
  },
  {
    id: 'e2e-sequential',
    title: 'echo calls one after another against server-everything: latency per call, p50 and p99',
    baseline: 'sdk',
    prepare: ({ quick }) => sequential(quick, STDIO.everything),
  },
  {
    id: 'e2e-sequential-echo',
    title: 'the same against the minimal echo server (bench/fixtures/echo-server.mjs)',
    baseline: 'sdk',
    prepare: ({ quick }) => sequential(quick, STDIO.echo),
  },
  {
    id: 'e2e-concurrent16',
    title: 'echo calls with 16 in flight against server-everything: throughput and client CPU per call',
    baseline: 'sdk',
    prepare: ({ quick }) => concurrent16(quick, STDIO.everything),
  },
  {
    id: 'e2e-concurrent16-echo',
    title: 'the same against a minimal echo server (bench/fixtures/echo-server.mjs): the clients set the pace',
    baseline: 'sdk',
    prepare: ({ quick }) => concurrent16(quick, STDIO.echo),
  },
  {
    id: 'e2e-modern-concurrent16',
    title: '2026-07-28 echo calls with 16 in flight against the SDK v2 server, over stdio and Streamable HTTP (baseline: the SDK v2 client)',
    baseline: 'sdk-v2',
    prepare: ({ quick }) => modernConcurrent16(quick),
  },
  {
    id: 'e2e-http-concurrent16',
    title: 'echo calls with 16 in flight over Streamable HTTP against one SDK v2 server on 127.0.0.1 (2025 era): client CPU per call',
    baseline: 'sdk',
    prepare: ({ quick }) => httpConcurrent16(quick),
  },
  {
    id: 'e2e-cold',
    title: 'a fresh process: import the client, connect to the echo server, tools/list, one call, close (ms wall)',
    baseline: 'sdk',
    prepare: ({ quick }) => cold(quick),
  },
];
