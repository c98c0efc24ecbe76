// The tool source's own costs. toolsource-dispatch: client CPU per call
// through the tool source (name lookup, timeout, the result cap) against a
// bare McpClient.callTool, each with its own minimal echo server, 16 calls
// in flight. toolsource-startup-8: wall time until the registry is ready
// for 8 servers that each take 300 ms to answer initialize, against one
// such server: discovery runs concurrently, so it should cost little more.
// Its floor (floor-8-servers, #20 item 2) is the same 8 processes spawned at
// once and driven by hand (initialize, initialized, tools/list, each answer
// checked): what this machine needs to start 8 servers, with no client.

import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SourceServer, ToolSourceConfig } from '../../src/toolsource/config/types.js';
import { openToolSource } from '../../src/toolsource/tool-source.js';
import type { Contender, Metrics, Prepared, Workload } from '../harness.js';
import { importBuilt } from './built.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ECHO_SERVER = [process.execPath, path.join(ROOT, 'bench/fixtures/echo-server.mjs')];
const SLOW_SERVER = [process.execPath, path.join(ROOT, 'spec-tests/fixtures/toolsource-server.mjs')];
const INIT_DELAY_MS = 300;

function server(key: string, command: string[], env: Record<string, string> = {}): SourceServer {
  return {
    key,
    params: { transport: 'stdio', command, env, server: key },
    tools: { enabled: true, allow: undefined, deny: [] },
    disabled: false,
    timeoutMs: undefined,
    unsupported: undefined,
  };
}

function config(servers: SourceServer[]): ToolSourceConfig {
  return { file: 'bench', format: 'kaged', projectRoot: ROOT, servers, resultCapBytes: 65_536, defaultTimeoutMs: 30_000, agents: {}, secrets: [] };
}

/** `calls` calls with 16 in flight. */
async function concurrent(call: (i: number) => Promise<unknown>, calls: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < calls) await call(next++);
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

async function measure(call: (i: number) => Promise<unknown>, calls: number): Promise<Metrics> {
  const cpu = process.cpuUsage();
  const begin = performance.now();
  await concurrent(call, calls);
  const seconds = (performance.now() - begin) / 1000;
  const used = process.cpuUsage(cpu);
  return { 'us CPU/call': (used.user + used.system) / calls, 'calls/s': calls / seconds };
}

/**
 * One bare server process driven by hand to the point the registry reaches
 * (initialize answered, tools/list answered with one tool), then ended. No
 * client library: a line buffer and JSON.parse, the physical floor.
 */
function bareServerReady(env: Record<string, string>): Promise<{ exited: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const [command, ...args] = SLOW_SERVER;
    const child = spawn(command!, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'ignore'], detached: true }); // as the stdio transport spawns (its own group); it ends with its stdin
    let buffered = '';
    const fail = (error: Error) => {
      child.kill();
      reject(error);
    };
    child.on('error', fail);
    child.on('exit', (code) => reject(new Error(`floor-8-servers: the server exited (code ${code}) before it was ready`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf('\n')) >= 0) {
        const message = JSON.parse(buffered.slice(0, end)) as { id?: number; result?: { tools?: unknown[] } };
        buffered = buffered.slice(end + 1);
        if (message.id === 1) {
          child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n');
        } else if (message.id === 2) {
          if (message.result?.tools?.length !== 1) return fail(new Error(`floor-8-servers: tools/list answered ${JSON.stringify(message)}, expected one tool`));
          child.removeAllListeners('exit');
          const exited = new Promise<void>((done) => child.once('exit', () => done()));
          child.stdin.end(); // the server exits when its stdin ends
          resolve({ exited });
        }
      }
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'floor', version: '0' } } })}\n`,
    );
  });
}

export const toolSourceWorkloads: Workload[] = [
  {
    id: 'toolsource-dispatch',
    title: 'echo calls through the tool source vs a bare McpClient, 16 in flight: client CPU per call',
    baseline: 'bare-client',
    async prepare({ quick }): Promise<Prepared> {
      const calls = quick ? 1_000 : 5_000;
      const warmUp = quick ? 5_000 : 30_000;
      // Both from dist/, as a host runs them: through tsx every closure the per-call path makes also calls tsx's
      // __name helper, which cost the tool source (more closures per call than the bare client) ~0.15x of this ratio.
      const { McpClient, StdioTransport, openToolSource: openBuilt } = await importBuilt();
      const bare = new McpClient(new StdioTransport({ command: ECHO_SERVER, server: 'echo' }));
      await bare.connect();
      const source = await openBuilt({ start: 'startup', config: config([server('echo', ECHO_SERVER)]) });
      const viaBare = (i: number) => bare.callTool('echo', { message: `hello ${i}` });
      const viaSource = (i: number) => source.call('mcp.echo.echo', { message: `hello ${i}` });
      // Both warmed the same: a host keeps its connections for hours (see e2e.ts on warm-up).
      await concurrent(viaBare, warmUp);
      await concurrent(viaSource, warmUp);
      const contenders: Contender[] = [
        { id: 'bare-client', sample: () => measure(viaBare, calls) },
        { id: 'toolsource', sample: () => measure(viaSource, calls) },
      ];
      return {
        contenders,
        plan: { slowSampleMs: Infinity, collectGarbage: false },
        notes: [`${calls} calls per sample after ${warmUp} warm-up calls each; each contender has its own bench/fixtures/echo-server.mjs; both from dist/ (the built package); CPU = this process only`],
        dispose: async () => {
          await Promise.all([bare.close(), source.close()]);
        },
      };
    },
  },
  {
    id: 'toolsource-startup-8',
    title: `registry ready for 8 stdio servers that each answer initialize after ${INIT_DELAY_MS} ms, vs one (ms)`,
    baseline: 'one-server',
    async prepare(): Promise<Prepared> {
      const startup = (count: number) => async (): Promise<Metrics> => {
        const servers = Array.from({ length: count }, (_, i) => server(`slow${i}`, SLOW_SERVER, { TS_INIT_DELAY_MS: String(INIT_DELAY_MS) }));
        const begin = performance.now();
        const source = await openToolSource({ start: 'startup', config: config(servers) });
        const tools = await source.tools();
        const ms = performance.now() - begin;
        await source.close(); // not timed
        if (tools.length !== count) throw new Error(`toolsource-startup: ${tools.length} tools registered, expected ${count}`);
        return { ms };
      };
      const floor = async (): Promise<Metrics> => {
        const begin = performance.now();
        const ready = await Promise.all(Array.from({ length: 8 }, () => bareServerReady({ TS_INIT_DELAY_MS: String(INIT_DELAY_MS) })));
        const ms = performance.now() - begin;
        await Promise.all(ready.map((r) => r.exited)); // not timed, as the tool source's close()
        return { ms };
      };
      return {
        contenders: [
          { id: 'one-server', sample: startup(1) },
          { id: 'floor-8-servers', sample: floor },
          { id: 'toolsource', sample: startup(8) },
        ],
        plan: { slowSampleMs: Infinity },
        notes: [
          `each sample starts fresh server processes (spec-tests/fixtures/toolsource-server.mjs); the ${INIT_DELAY_MS} ms is the servers' own`,
          'floor-8-servers: the same 8 servers spawned at once and driven by hand (initialize, initialized, tools/list, each answer checked), no client library: the machine\'s floor for the #20 target',
        ],
      };
    },
  },
];
