// The tool source's own costs. toolsource-dispatch: client CPU per call
// through the tool source (name lookup, timeout, the result cap) against a
// bare McpClient.callTool, each with its own minimal echo server, 16 calls
// in flight. toolsource-startup-8: wall time until the registry is ready
// for 8 servers that each take 300 ms to answer initialize, against one
// such server: discovery runs concurrently, so it should cost little more.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpClient } from '../../src/client/client.js';
import type { SourceServer, ToolSourceConfig } from '../../src/toolsource/config/types.js';
import { openToolSource, type ToolSource } from '../../src/toolsource/tool-source.js';
import { StdioTransport } from '../../src/transport/stdio.js';
import type { Contender, Metrics, Prepared, Workload } from '../harness.js';

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

export const toolSourceWorkloads: Workload[] = [
  {
    id: 'toolsource-dispatch',
    title: 'echo calls through the tool source vs a bare McpClient, 16 in flight: client CPU per call',
    baseline: 'bare-client',
    async prepare({ quick }): Promise<Prepared> {
      const calls = quick ? 1_000 : 5_000;
      const warmUp = quick ? 5_000 : 30_000;
      const bare = new McpClient(new StdioTransport({ command: ECHO_SERVER, server: 'echo' }));
      await bare.connect();
      const source: ToolSource = await openToolSource({ start: 'startup', config: config([server('echo', ECHO_SERVER)]) });
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
        notes: [`${calls} calls per sample after ${warmUp} warm-up calls each; each contender has its own bench/fixtures/echo-server.mjs; CPU = this process only`],
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
      return {
        contenders: [
          { id: 'one-server', sample: startup(1) },
          { id: 'toolsource', sample: startup(8) },
        ],
        plan: { slowSampleMs: Infinity },
        notes: [`each sample starts fresh server processes (spec-tests/fixtures/toolsource-server.mjs); the ${INIT_DELAY_MS} ms is the servers' own`],
      };
    },
  },
];
