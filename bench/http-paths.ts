// A quick A/B of the HTTP request paths (#20): client CPU per call over
// Streamable HTTP, 16 calls in flight, against bench/fixtures/v2-echo-server.mjs
// behind node:http on 127.0.0.1 (one server process, shared; the contenders
// take turns, in a new order each round). Contenders: mcpwire on the
// node:http path, mcpwire on fetch, the SDK v2 client (the e2e workload's
// baseline; SDK v1 cannot join, the fixture speaks 2026-07-28 only), and two bare clients with no MCP in them: node:http with a
// keep-alive Agent, and fetch. CPU = user + system of this process over the
// measured calls; medians over the rounds. Run:
//   nice node --import tsx bench/http-paths.ts [rounds=5] [calls=2000]

import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpClient } from '../src/client/client.js';
import { StreamableHttpTransport } from '../src/transport/streamable-http.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODERN_VERSION = '2026-07-28';
const rounds = Number(process.argv[2] ?? 5);
const calls = Number(process.argv[3] ?? 2_000);
const warmUp = Math.max(500, calls / 2);

interface Contender {
  name: string;
  start(url: string): Promise<{ echo(message: string): Promise<unknown>; close(): Promise<void> }>;
}

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '0.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
let id = 0;
const body = (message: string) => JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'echo', arguments: { message }, _meta: MODERN_META } });

const mcpwire = (httpClient: 'node' | 'fetch'): Contender => ({
  name: `mcpwire ${httpClient}`,
  async start(url) {
    const client = new McpClient(new StreamableHttpTransport({ url, httpClient }), { protocolEra: 'modern' });
    await client.connect();
    if (client.era !== 'modern') throw new Error(`mcpwire spoke ${client.era}`);
    return { echo: (message) => client.callTool('echo', { message }), close: () => client.close() };
  },
});

const CONTENDERS: Contender[] = [
  mcpwire('node'),
  mcpwire('fetch'),
  {
    name: 'sdk v2',
    async start(url) {
      const client = new ClientV2({ name: 'bench', version: '0.0.0' }, { versionNegotiation: { mode: { pin: MODERN_VERSION } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return { echo: (message) => client.callTool({ name: 'echo', arguments: { message } }), close: () => client.close() };
    },
  },
  {
    name: 'bare node:http',
    async start(url) {
      const agent = new http.Agent({ keepAlive: true });
      const target = new URL(url);
      const echo = (message: string) =>
        new Promise<unknown>((resolve, reject) => {
          const payload = body(message);
          const request = http.request({ hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers: { ...HEADERS, 'content-length': Buffer.byteLength(payload) } }, (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { result: unknown }).result));
            response.on('error', reject);
          });
          request.on('error', reject);
          request.end(payload);
        });
      return { echo, close: async () => agent.destroy() };
    },
  },
  {
    name: 'bare fetch',
    async start(url) {
      return { echo: async (message) => ((await (await fetch(url, { method: 'POST', headers: HEADERS, body: body(message) })).json()) as { result: unknown }).result, close: async () => {} };
    },
  },
];

async function concurrent(echo: (message: string) => Promise<unknown>, n: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < n) {
        next++;
        await echo('hello');
      }
    }),
  );
}

async function startServer(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/fixtures/v2-echo-server.mjs'), 'http'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', (line) => resolve(String((JSON.parse(line) as { url: string }).url))));
  return { url, stop: () => child.kill('SIGTERM') };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const server = await startServer();
try {
  const samples = new Map<string, number[]>(CONTENDERS.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = CONTENDERS.map((c, i) => CONTENDERS[(i + round) % CONTENDERS.length]!);
    for (const contender of order) {
      const client = await contender.start(server.url);
      await concurrent(client.echo, warmUp);
      const before = process.cpuUsage();
      await concurrent(client.echo, calls);
      const used = process.cpuUsage(before);
      await client.close();
      samples.get(contender.name)!.push((used.user + used.system) / calls);
    }
  }
  const medians = new Map([...samples].map(([name, values]) => [name, median(values)]));
  const bareNode = medians.get('bare node:http')!;
  const sdk = medians.get('sdk v2')!;
  console.log(`client CPU per call, 16 in flight, ${calls} calls x ${rounds} rounds (median), Node ${process.version}`);
  for (const [name, us] of medians) console.log(`${name.padEnd(16)} ${us.toFixed(0).padStart(6)} us   ${(us / bareNode).toFixed(2)}x bare node:http   ${(us / sdk).toFixed(2)}x sdk v2   samples ${samples.get(name)!.map((v) => v.toFixed(0)).join(' ')}`);
} finally {
  server.stop();
}
