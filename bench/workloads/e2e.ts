// End to end: mcpwire's McpClient vs the official SDK clients, v1
// (@modelcontextprotocol/sdk's Client, the baseline of the 2025 workloads)
// and v2 (@modelcontextprotocol/client 2.4.0), each against its own server
// process, calling its `echo` tool. The 2025 workloads run over stdio against
// @modelcontextprotocol/server-everything, or a minimal echo server
// (bench/fixtures) that costs a fraction of a client per call, so there the
// clients, not the server, set the pace. e2e-modern-concurrent16 puts
// mcpwire and the SDK v2 client, both in the 2026-07-28 era, in front of the
// SDK v2 server (bench/fixtures/v2-echo-server.mjs) over stdio and over
// Streamable HTTP; there the SDK v2 client is the baseline.
//
// CPU is attributed per client by running one client's phase at a time
// (never two at once) and taking process.cpuUsage() deltas around it: the
// idle clients and their idle servers cost nothing meanwhile (every server
// is a process of its own), and phases are interleaved round by round, so
// drift in the machine's load hits every client alike.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpClient } from '../../src/client/client.js';
import { StdioTransport } from '../../src/transport/stdio.js';
import { StreamableHttpTransport } from '../../src/transport/streamable-http.js';
import { percentile, type Contender, type Metrics, type Prepared, type Workload } from '../harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const V2_ECHO = path.join(ROOT, 'bench/fixtures/v2-echo-server.mjs');
/**
 * The servers run on this very Node, never whatever `node` is first on
 * PATH: the clients must face identical servers. `v2-stdio` and `v2-http`
 * speak 2026-07-28 only; the HTTP one is started by the bench, one per
 * client, and listens on 127.0.0.1.
 */
const SERVERS = {
  everything: [process.execPath, path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  echo: [process.execPath, path.join(ROOT, 'bench/fixtures/echo-server.mjs')],
  'v2-stdio': [process.execPath, V2_ECHO, 'stdio'],
  'v2-http': [process.execPath, V2_ECHO, 'http'],
} as const;
type ServerName = keyof typeof SERVERS;
const MODERN_VERSION = '2026-07-28';

/** What the workloads need from any client. */
interface E2eClient {
  /** The server process's pid, for its CPU from /proc. */
  pid: number | undefined;
  listTools(): Promise<unknown>;
  echo(message: string): Promise<unknown>;
  close(): Promise<void>;
}

type ClientId = 'mcpwire' | 'sdk' | 'sdk-v2' | 'floor-wire';

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

const READY_MS = 15_000;

/** A server the bench starts itself (Streamable HTTP): its URL, its pid, and how to stop it. */
interface HttpServer {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Starts bench/fixtures/v2-echo-server.mjs over HTTP on 127.0.0.1 and waits for the URL line it prints once listening. */
async function startHttpServer(): Promise<HttpServer> {
  const [command, ...args] = SERVERS['v2-http'];
  const child = spawn(command, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  if (child.pid !== undefined) live.add(child.pid);
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
    if (child.pid !== undefined) live.delete(child.pid);
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

function assertModern(client: McpClient, server: ServerName): void {
  if (client.era !== 'modern') throw new Error(`mcpwire speaks the ${client.era} era to the v2 ${server} server, not ${MODERN_VERSION}`);
}

/** mcpwire: spawns a stdio server (or reaches the HTTP one) and completes the handshake, in the 2026-07-28 era for the v2 servers. */
async function startMcpwire(server: ServerName): Promise<E2eClient> {
  if (server === 'v2-http') {
    const http = await startHttpServer();
    const client = new McpClient(new StreamableHttpTransport({ url: http.url, server }), { protocolEra: 'modern' });
    try {
      await client.connect();
      assertModern(client, server);
    } catch (error) {
      await client.close();
      await http.stop();
      throw error;
    }
    return {
      pid: http.pid,
      listTools: () => client.listTools(),
      echo: (message) => client.callTool('echo', { message }),
      close: async () => {
        await client.close();
        await http.stop();
      },
    };
  }
  const transport = new StdioTransport({ command: SERVERS[server], server });
  const client = new McpClient(transport, server === 'v2-stdio' ? { protocolEra: 'modern' } : {});
  await client.connect();
  if (server === 'v2-stdio') {
    try {
      assertModern(client, server);
    } catch (error) {
      await client.close();
      throw error;
    }
  }
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

/**
 * The SDK v2 client: its default era (legacy, the plain 2025 handshake)
 * against the 2025 servers, as mcpwire's; pinned to 2026-07-28 against the
 * v2 servers, as mcpwire's protocolEra 'modern'. Over stdio, the same
 * environment and stderr handling as the v1 client above.
 */
async function startSdkV2(server: ServerName): Promise<E2eClient> {
  const modern = server === 'v2-stdio' || server === 'v2-http';
  const client = new ClientV2({ name: 'mcpwire-bench', version: '0.0.0' }, modern ? { versionNegotiation: { mode: { pin: MODERN_VERSION } } } : {});
  let pid: number | undefined;
  let stopServer = async () => {};
  if (server === 'v2-http') {
    const http = await startHttpServer();
    pid = http.pid;
    stopServer = http.stop;
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    } catch (error) {
      await http.stop();
      throw error;
    }
  } else {
    const [command, ...args] = SERVERS[server];
    const transport = new StdioClientTransportV2({ command, args, stderr: 'pipe', env: { ...process.env } as Record<string, string> });
    transport.stderr?.on('data', () => {});
    await client.connect(transport);
    pid = transport.pid ?? undefined;
  }
  if (modern && client.getProtocolEra() !== 'modern') throw new Error(`the SDK v2 client speaks ${client.getNegotiatedProtocolVersion()} to the v2 ${server} server, not ${MODERN_VERSION}`);
  return {
    pid,
    listTools: () => client.listTools(),
    echo: (message) => client.callTool({ name: 'echo', arguments: { message } }),
    close: async () => {
      await client.close();
      await stopServer();
    },
  };
}

/** The `_meta` every 2026-07-28 request carries (what mcpwire sends with no handlers installed). */
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'mcpwire-bench', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/**
 * The floor of e2e-modern-concurrent16: no MCP client at all, only the
 * wire. The same tools/call request (the modern `_meta` included) as a JSON
 * line written to the server's stdin, answers split on newlines, parsed and
 * matched by id; over HTTP, one fetch() POST with the headers mcpwire sends
 * and response.json(). Neither checks anything it does not need to, so what
 * a client costs above it is the client.
 */
async function startFloor(server: ServerName): Promise<E2eClient> {
  let id = 0;
  const body = (message: string) => JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'echo', arguments: { message }, _meta: MODERN_META } });
  if (server === 'v2-http') {
    const http = await startHttpServer();
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
    return {
      pid: http.pid,
      listTools: async () => {},
      echo: async (message) => ((await (await fetch(http.url, { method: 'POST', headers, body: body(message) })).json()) as { result: unknown }).result,
      close: http.stop,
    };
  }
  if (server !== 'v2-stdio') throw new Error(`floor-wire speaks to the v2 servers only, not ${server}`);
  const [command, ...args] = SERVERS[server];
  const child = spawn(command, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pending = new Map<number, (result: unknown) => void>();
  let held = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    const lines = (held + text).split('\n');
    held = lines.pop()!;
    for (const line of lines) {
      const answer = JSON.parse(line) as { id: number; result: unknown };
      pending.get(answer.id)?.(answer.result);
      pending.delete(answer.id);
    }
  });
  return {
    pid: child.pid,
    listTools: async () => {},
    echo: (message) =>
      new Promise((resolve) => {
        pending.set(id, resolve);
        child.stdin.write(`${body(message)}\n`);
      }),
    close: async () => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function start(id: ClientId, server: ServerName = 'everything'): Promise<E2eClient> {
  const client = id === 'mcpwire' ? await startMcpwire(server) : id === 'sdk' ? await startSdk(server) : id === 'sdk-v2' ? await startSdkV2(server) : await startFloor(server);
  if (client.pid !== undefined) live.add(client.pid);
  return client;
}

/** Every long-lived client must really reach the tool: a sample of failing calls would only look fast. */
async function assertEchoes(id: ClientId, server: ServerName, client: E2eClient): Promise<void> {
  const answer = (await client.echo('ready')) as { content?: Array<{ text?: string }> };
  if (answer.content?.[0]?.text !== 'Echo: ready') throw new Error(`${id} against ${server}: echo answered ${JSON.stringify(answer)}`);
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
 * measured mostly the JIT. Every client and every server gets the same.
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

/** The 2025 contenders, the v1 SDK client (the baseline) first. */
const LEGACY_CLIENTS: readonly ClientId[] = ['sdk', 'sdk-v2', 'mcpwire'];

/** Long-lived clients, one per contender, started at prepare and stopped at dispose. */
async function groupOf(quick: boolean, server: ServerName, sample: (client: E2eClient) => Promise<Metrics>): Promise<Prepared> {
  const clients = new Map<ClientId, E2eClient>();
  try {
    for (const id of LEGACY_CLIENTS) clients.set(id, await start(id, server));
    for (const [id, client] of clients) await assertEchoes(id, server, client);
    // The SDK caches the tools' output schemas from tools/list; each client discovers once, as a host would.
    for (const client of clients.values()) await client.listTools();
    for (const client of clients.values()) await concurrentCalls(client, warmUpCalls(quick));
  } catch (error) {
    await Promise.all([...clients.values()].map(stop));
    throw error;
  }
  const contender = (id: ClientId): Contender => ({ id, sample: () => sample(clients.get(id)!) });
  return {
    contenders: LEGACY_CLIENTS.map(contender),
    // A sample lasts as long as its calls do; the slow-contender rule is for quadratic parsers, not for this.
    // No forced GC between samples: see Plan.collectGarbage.
    plan: { slowSampleMs: Infinity, collectGarbage: false },
    dispose: async () => {
      await Promise.all([...clients.values()].map(stop));
    },
  };
}

/**
 * `calls` echo calls with 16 in flight: calls/s, the client's CPU per call,
 * and the server's, each unit with `suffix` (the transport, where a sample
 * covers more than one).
 */
async function measureConcurrent(client: E2eClient, calls: number, suffix = ''): Promise<Metrics> {
  const serverBefore = processCpuUs(client.pid);
  const cpu = process.cpuUsage();
  const begin = performance.now();
  await concurrentCalls(client, calls);
  const seconds = (performance.now() - begin) / 1000;
  const used = process.cpuUsage(cpu);
  const serverAfter = processCpuUs(client.pid);
  const metrics: Metrics = { [`calls/s${suffix}`]: calls / seconds, [`us CPU/call${suffix}`]: (used.user + used.system) / calls };
  // The server's share: the same echo work for every client; at ~1 s of server CPU per second the server is the bottleneck.
  if (serverBefore !== undefined && serverAfter !== undefined) metrics[`us server CPU/call${suffix}`] = (serverAfter - serverBefore) / calls;
  return metrics;
}

/** Echo calls with 16 in flight against a 2025 server. */
async function concurrent16(quick: boolean, server: ServerName): Promise<Prepared> {
  // Enough calls that a sample lasts a fair fraction of a second: shorter ones were at the mercy of the machine's other load.
  const calls = quick ? 1_000 : 5_000;
  const prepared = await groupOf(quick, server, (client) => measureConcurrent(client, calls));
  return {
    ...prepared,
    notes: [`${calls} calls per sample, after ${warmUpCalls(quick)} warm-up calls per client; CPU = user + system of the client process only; server CPU from /proc, 10 ms ticks`],
  };
}

/** The modern contenders: the SDK v2 client (the baseline), mcpwire and the bare wire, each with a stdio and an HTTP connection. */
const MODERN_CLIENTS = ['sdk-v2', 'mcpwire', 'floor-wire'] as const;
/**
 * Calls per sample and warm-up calls per client, by transport. An HTTP call
 * costs the SDK v2 server ~1 ms of CPU here (it builds a server instance per
 * request), so HTTP runs at a few hundred to a thousand calls per second on
 * this box; the clients' CPU per call over HTTP stopped falling after ~4k
 * calls (measured), over stdio it takes longer, as in the 2025 workloads.
 * Fewer in --quick keep bench.test.ts fast.
 */
const MODERN_TRANSPORTS = [
  { server: 'v2-stdio', suffix: ' stdio', calls: 3_000, warmUp: 20_000, quickCalls: 400, quickWarmUp: 800 },
  { server: 'v2-http', suffix: ' http', calls: 1_500, warmUp: 8_000, quickCalls: 200, quickWarmUp: 400 },
] as const;

/**
 * 2026-07-28 echo calls with 16 in flight, over stdio and over Streamable
 * HTTP. A contender's sample is one phase per transport, back to back; the
 * units carry the transport's name. Over HTTP the client's CPU includes
 * Node's fetch (undici), which both clients use.
 */
async function modernConcurrent16(quick: boolean): Promise<Prepared> {
  const counts = MODERN_TRANSPORTS.map((t) => ({ ...t, calls: quick ? t.quickCalls : t.calls, warmUp: quick ? t.quickWarmUp : t.warmUp }));
  const clients = new Map<string, E2eClient>();
  const key = (id: ClientId, server: ServerName) => `${id} ${server}`;
  try {
    for (const id of MODERN_CLIENTS) {
      for (const { server } of MODERN_TRANSPORTS) {
        const client = await start(id, server);
        clients.set(key(id, server), client);
        await assertEchoes(id, server, client);
      }
    }
    for (const client of clients.values()) await client.listTools();
    for (const id of MODERN_CLIENTS) for (const { server, warmUp } of counts) await concurrentCalls(clients.get(key(id, server))!, warmUp);
  } catch (error) {
    await Promise.all([...clients.values()].map(stop));
    throw error;
  }
  const contender = (id: ClientId): Contender => ({
    id,
    async sample() {
      const metrics: Metrics = {};
      for (const { server, suffix, calls } of counts) Object.assign(metrics, await measureConcurrent(clients.get(key(id, server))!, calls, suffix));
      return metrics;
    },
  });
  return {
    contenders: MODERN_CLIENTS.map(contender),
    plan: { slowSampleMs: Infinity, collectGarbage: false },
    notes: [
      `calls per sample: ${counts.map((t) => `${t.calls} ${t.suffix.trim()}`).join(', ')}, after ${counts.map((t) => `${t.warmUp} ${t.suffix.trim()}`).join(', ')} warm-up calls per client; mcpwire with protocolEra 'modern', the SDK v2 client with versionNegotiation { pin: '${MODERN_VERSION}' }; each against its own bench/fixtures/v2-echo-server.mjs (@modelcontextprotocol/server 2.4.0, modern only: serveStdio, or createMcpHandler behind node:http on 127.0.0.1)`,
      'CPU = user + system of the client process only (every server is a process of its own); server CPU from /proc, 10 ms ticks',
      'floor-wire: no client, only the wire (a JSON line per request over stdio; a fetch() POST and response.json() over HTTP), the same request and headers as mcpwire sends',
    ],
    dispose: async () => {
      await Promise.all([...clients.values()].map(stop));
    },
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
      return { contenders: LEGACY_CLIENTS.map(contender), plan: { slowSampleMs: Infinity, ...(quick ? { warmups: 0 } : {}) } };
    },
  },
  {
    id: 'e2e-sequential',
    title: 'echo calls one after another: latency per call, p50 and p99',
    baseline: 'sdk',
    async prepare({ quick }): Promise<Prepared> {
      const calls = quick ? 200 : 1_000;
      const prepared = await groupOf(quick, 'everything', async (client) => {
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
  {
    id: 'e2e-modern-concurrent16',
    title: '2026-07-28 echo calls with 16 in flight against the SDK v2 server, over stdio and Streamable HTTP: mcpwire vs the SDK v2 client',
    baseline: 'sdk-v2',
    prepare: ({ quick }) => modernConcurrent16(quick),
  },
];
