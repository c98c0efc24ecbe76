// End to end over stdio: mcpwire's McpClient vs the official SDK's Client,
// each against its own @modelcontextprotocol/server-everything process,
// calling its `echo` tool. Baseline: the SDK client. One more workload puts
// both clients in front of a minimal echo server (bench/fixtures), which
// costs a fraction of a client per call: there the clients, not the server,
// set the pace.
//
// CPU is attributed per client by running one client's phase at a time
// (never both at once) and taking process.cpuUsage() deltas around it: the
// idle client and its idle server cost nothing meanwhile, and phases are
// interleaved round by round, so drift in the machine's load hits both.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpClient } from '../../src/client/client.js';
import { StdioTransport } from '../../src/transport/stdio.js';
import { percentile, type Contender, type Metrics, type Prepared, type Workload } from '../harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The servers run on this very Node, never whatever `node` is first on
 * PATH: the two clients must face identical servers.
 */
const SERVERS = {
  everything: [process.execPath, path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  echo: [process.execPath, path.join(ROOT, 'bench/fixtures/echo-server.mjs')],
} as const;
type ServerName = keyof typeof SERVERS;

/** What the workloads need from either client. */
interface E2eClient {
  pid: number | undefined;
  listTools(): Promise<unknown>;
  echo(message: string): Promise<unknown>;
  close(): Promise<void>;
}

type ClientId = 'mcpwire' | 'sdk';

/** Every server process started and not yet seen to exit: killed on the way out whatever happens. */
const live = new Set<number>();
process.on('exit', () => {
  for (const pid of live) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** Spawns a server and completes the handshake (what connectStdio() does, with the transport kept to learn its pid). */
async function startMcpwire(server: ServerName): Promise<E2eClient> {
  const transport = new StdioTransport({ command: SERVERS[server], server });
  const client = new McpClient(transport);
  await client.connect();
  return {
    pid: transport.pid,
    listTools: () => client.listTools(),
    echo: (message) => client.callTool('echo', { message }),
    close: () => client.close(),
  };
}

async function startSdk(server: ServerName): Promise<E2eClient> {
  const [command, ...args] = SERVERS[server];
  // stderr piped and drained, as mcpwire always does with a server's stderr (the SDK's default would inherit it).
  // The same environment as mcpwire gives its server (the whole host environment, SPEC T1): by default the
  // SDK passes only a few variables, and the server measurably starts slower (~15%) with the full set, which
  // is the server's cost, not the client's.
  const transport = new StdioClientTransport({ command, args, stderr: 'pipe', env: { ...process.env } as Record<string, string> });
  transport.stderr?.on('data', () => {});
  const client = new Client({ name: 'mcpwire-bench', version: '0.0.0' });
  await client.connect(transport);
  return {
    pid: transport.pid ?? undefined,
    listTools: () => client.listTools(),
    echo: (message) => client.callTool({ name: 'echo', arguments: { message } }),
    close: () => client.close(),
  };
}

async function start(id: ClientId, server: ServerName = 'everything'): Promise<E2eClient> {
  const client = id === 'mcpwire' ? await startMcpwire(server) : await startSdk(server);
  if (client.pid !== undefined) live.add(client.pid);
  return client;
}

async function stop(client: E2eClient): Promise<void> {
  await client.close();
  if (client.pid !== undefined) {
    // close() escalates to SIGKILL itself; this makes sure before forgetting the pid.
    try {
      process.kill(client.pid, 0);
      process.kill(client.pid, 'SIGKILL');
    } catch {
      // exited, as it should have
    }
    live.delete(client.pid);
  }
}

/** `calls` echo calls with 16 in flight. */
async function concurrentCalls(client: E2eClient, calls: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < calls) await client.echo(`hello ${next++}`);
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/**
 * Calls each client makes (16 in flight) before the first round. A host
 * keeps its connections for hours; what it pays per call is the steady
 * state, and it takes both sides tens of thousands of calls to get there:
 * measured here, CPU per call fell from ~60 to ~12 us (mcpwire) and from
 * ~110 to ~25 us (SDK) over the first 30k calls, the server's own cost per
 * call from ~120 to ~30 us. One warm-up round of a few thousand calls
 * measured mostly the JIT. Both clients and both servers get the same.
 */
function warmUpCalls(quick: boolean): number {
  return quick ? 5_000 : 30_000;
}

/**
 * CPU time (user + system, us) a process has used so far, from
 * /proc/<pid>/stat; undefined where there is no /proc. Tells whether the
 * server, not the client, is what limits throughput.
 */
function processCpuUs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the ")" that ends the command name: utime is the 12th, stime the 13th, in clock ticks (100 per second on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return undefined;
  }
}

/** Two long-lived clients, started at prepare and stopped at dispose, one contender each. */
async function pairOf(quick: boolean, server: ServerName, sample: (client: E2eClient) => Promise<Metrics>): Promise<Prepared> {
  const clients = { mcpwire: await start('mcpwire', server), sdk: await start('sdk', server) };
  // The SDK caches the tools' output schemas from tools/list; each client discovers once, as a host would.
  await clients.mcpwire.listTools();
  await clients.sdk.listTools();
  for (const client of [clients.sdk, clients.mcpwire]) await concurrentCalls(client, warmUpCalls(quick));
  const contender = (id: ClientId): Contender => ({ id, sample: () => sample(clients[id]) });
  return {
    contenders: [contender('sdk'), contender('mcpwire')],
    // A sample lasts as long as its calls do; the slow-contender rule is for quadratic parsers, not for this.
    // No forced GC between samples: see Plan.collectGarbage.
    plan: { slowSampleMs: Infinity, collectGarbage: false },
    dispose: async () => {
      await Promise.all([stop(clients.mcpwire), stop(clients.sdk)]);
    },
  };
}

/** Echo calls with 16 in flight: calls/s, the client's CPU per call, and the server's. */
async function concurrent16(quick: boolean, server: ServerName): Promise<Prepared> {
  // Enough calls that a sample lasts a fair fraction of a second: shorter ones were at the mercy of the machine's other load.
  const calls = quick ? 1_000 : 5_000;
  const prepared = await pairOf(quick, server, async (client) => {
    const serverBefore = processCpuUs(client.pid);
    const cpu = process.cpuUsage();
    const begin = performance.now();
    await concurrentCalls(client, calls);
    const seconds = (performance.now() - begin) / 1000;
    const used = process.cpuUsage(cpu);
    const serverAfter = processCpuUs(client.pid);
    const metrics: Metrics = { 'calls/s': calls / seconds, 'us CPU/call': (used.user + used.system) / calls };
    // The server's share: the same echo work for both clients; at ~1 s of server CPU per second the server is the bottleneck.
    if (serverBefore !== undefined && serverAfter !== undefined) metrics['us server CPU/call'] = (serverAfter - serverBefore) / calls;
    return metrics;
  });
  return {
    ...prepared,
    notes: [`${calls} calls per sample, after ${warmUpCalls(quick)} warm-up calls per client; CPU = user + system of the client process only; server CPU from /proc, 10 ms ticks`],
  };
}

export const e2eWorkloads: Workload[] = [
  {
    id: 'e2e-startup',
    title: 'spawn server-everything, initialize, first tools/list (ms)',
    baseline: 'sdk',
    async prepare({ quick }): Promise<Prepared> {
      const contender = (id: ClientId): Contender => ({
        id,
        async sample() {
          const begin = performance.now();
          const client = await start(id);
          await client.listTools();
          const ms = performance.now() - begin;
          await stop(client); // not timed
          return { ms };
        },
      });
      // Every sample is a new server process (~1 s on a busy machine): that is what is measured, not a sign of a slow contender.
      // --quick skips the warm-up start: a start is mostly the server's own start-up, not client code to warm.
      return { contenders: [contender('sdk'), contender('mcpwire')], plan: { slowSampleMs: Infinity, ...(quick ? { warmups: 0 } : {}) } };
    },
  },
  {
    id: 'e2e-sequential',
    title: 'echo calls one after another: latency per call, p50 and p99',
    baseline: 'sdk',
    async prepare({ quick }): Promise<Prepared> {
      const calls = quick ? 200 : 1_000;
      const prepared = await pairOf(quick, 'everything', async (client) => {
        const latencies: number[] = [];
        for (let i = 0; i < calls; i++) {
          const begin = performance.now();
          await client.echo(`hello ${i}`);
          latencies.push(performance.now() - begin);
        }
        return { 'ms p50': percentile(latencies, 50), 'ms p99': percentile(latencies, 99) };
      });
      return { ...prepared, notes: [`${calls} calls per sample, after ${warmUpCalls(quick)} warm-up calls per client`] };
    },
  },
  {
    id: 'e2e-concurrent16',
    title: 'echo calls with 16 in flight: throughput and client CPU per call',
    baseline: 'sdk',
    prepare: ({ quick }) => concurrent16(quick, 'everything'),
  },
  {
    id: 'e2e-concurrent16-echo',
    title: 'the same against a minimal echo server (bench/fixtures/echo-server.mjs): the clients set the pace',
    baseline: 'sdk',
    prepare: ({ quick }) => concurrent16(quick, 'echo'),
  },
];
