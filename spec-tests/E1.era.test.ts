// M1/M2 (#17 items 1–3): the era per server, decided once, against real
// servers: the SDK v2 server (@modelcontextprotocol/server 2.4.0) modern-only
// and dual-era over stdio and Streamable HTTP, and legacy servers (the
// fixtures, server-everything) that must see exactly what a plain legacy
// connect sends them.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { connect, type ServerParams } from '../src/client/connect.js';
import { createMemoryEraCache, eraCacheKey, type EraCache } from '../src/client/era-cache.js';
import type { McpClient, McpClientOptions } from '../src/client/client.js';
import { EraProbeClosedError } from '../src/client/modern-handshake.js';
import type { Diagnostic } from '../src/diagnostics.js';
import { ProtocolError, UnsupportedVersionError } from '../src/errors.js';
import type { WireEntry } from '../src/transport/tap.js';
import { startEverythingHttp } from './helpers/interop.js';
import { tempLog } from './helpers/temp.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const ECHO = fixture('E1-echo-server.mjs');
const META = 'io.modelcontextprotocol/protocolVersion';

interface Seen {
  sent: Record<string, unknown>[];
  eras: Extract<Diagnostic, { kind: 'era' }>[];
  fallbacks: Diagnostic[];
}

/** connect() with a fresh verdict cache (unless given), recording what the client sent and the era diagnostics. */
async function open(t: TestContext, params: ServerParams, extra: McpClientOptions = {}): Promise<{ client: McpClient; seen: Seen }> {
  const seen: Seen = { sent: [], eras: [], fallbacks: [] };
  const client = await connect(params, {
    eraCache: createMemoryEraCache(),
    probeTimeoutMs: 10_000, // the SDK v2 server takes a while to start on a busy machine; the silent-server test sets its own
    ...extra,
    onWire: (entry: WireEntry) => entry.direction === 'send' && seen.sent.push(entry.message as Record<string, unknown>),
    onDiagnostic: (d) => {
      extra.onDiagnostic?.(d);
      if (d.kind === 'era') seen.eras.push(d);
      if (d.kind === 'transport-fallback') seen.fallbacks.push(d);
    },
  });
  t.after(() => client.close());
  return { client, seen };
}

const stdio = (args: string[], protocolEra: ServerParams['protocolEra'] = 'auto', env?: Record<string, string>): ServerParams => ({
  transport: 'stdio',
  command: process.execPath,
  args,
  protocolEra,
  ...(env ? { env } : {}),
});

function metaOf(message: Record<string, unknown>): Record<string, unknown> | undefined {
  return (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
}

describe('M1 era over stdio', () => {
  test('auto against a modern-only SDK v2 server: modern, 2026-07-28, the profile from server/discover, and every request carries the _meta envelope', async (t) => {
    const { client, seen } = await open(t, stdio([ECHO, 'stdio', 'modern']));
    assert.equal(client.era, 'modern');
    assert.equal(client.profile?.protocolVersion, '2026-07-28');
    assert.equal(client.profile?.serverInfo.name, 'e1-echo');
    assert.ok(client.profile?.capabilities.tools, 'capabilities come from server/discover');
    const result = await client.callTool('echo', { text: 'hi' });
    assert.deepEqual(result.content, [{ type: 'text', text: 'hi' }]);
    const [probe, ...rest] = seen.sent;
    assert.equal(probe!.method, 'server/discover');
    assert.equal(typeof probe!.id, 'string', 'the probe id cannot collide with numeric ids');
    assert.ok(!seen.sent.some((m) => m.method === 'initialize' || m.method === 'notifications/initialized'));
    for (const m of rest.filter((m) => 'id' in m)) {
      const meta = metaOf(m)!;
      assert.equal(meta[META], '2026-07-28', `${String(m.method)} carries the protocol version`);
      // No handler, no capability; callTool declares the tasks extension (SEP-2663), since it follows a task answer.
      assert.deepEqual(meta['io.modelcontextprotocol/clientCapabilities'], m.method === 'tools/call' ? { extensions: { 'io.modelcontextprotocol/tasks': {} } } : {}, String(m.method));
      assert.equal((meta['io.modelcontextprotocol/clientInfo'] as { name: string }).name, 'mcpwire');
    }
    assert.deepEqual(seen.eras.map((d) => [d.era, d.how]), [['modern', 'probed']]);
  });

  test('a dual-era server: auto goes modern, legacy stays on initialize', async (t) => {
    const auto = await open(t, stdio([ECHO, 'stdio', 'dual']));
    assert.equal(auto.client.era, 'modern');
    const legacy = await open(t, stdio([ECHO, 'stdio', 'dual'], 'legacy'));
    assert.equal(legacy.client.era, 'legacy');
    assert.equal(legacy.client.protocolVersion, '2025-11-25');
    assert.equal(legacy.seen.sent[0]!.method, 'initialize');
    assert.deepEqual((await legacy.client.callTool('echo', { text: 'old' })).content, [{ type: 'text', text: 'old' }]);
  });

  test('auto against a legacy server answering -32601: legacy, and the initialize is byte for byte a plain legacy connect', async (t) => {
    const auto = await open(t, stdio([fixture('fault-server.mjs')]));
    const plain = await open(t, stdio([fixture('fault-server.mjs')], 'legacy'));
    assert.equal(auto.client.era, 'legacy');
    assert.equal(auto.seen.sent[0]!.method, 'server/discover');
    const init = (s: Seen) => JSON.stringify(s.sent.find((m) => m.method === 'initialize'));
    assert.equal(init(auto.seen), init(plain.seen));
    assert.equal(JSON.parse(init(auto.seen)).id, 0);
    // After the probe, the same messages as the plain connect: no _meta envelope leaks into the 2025 wire.
    const wire = (s: Seen) => s.sent.filter((m) => m.method !== 'server/discover').map((m) => JSON.stringify(m));
    await auto.client.listTools();
    await plain.client.listTools();
    assert.deepEqual(wire(auto.seen), wire(plain.seen));
  });

  test('auto against a legacy server that ignores unknown methods: legacy after the probe timeout', async (t) => {
    const { client, seen } = await open(t, stdio([fixture('toolsource-server.mjs')]), { probeTimeoutMs: 300 });
    assert.equal(client.era, 'legacy');
    assert.deepEqual(seen.eras.map((d) => [d.era, d.how]), [['legacy', 'probed']]);
    assert.equal((await client.listTools()).tools[0]!.name, 'echo');
  });

  test('a legacy server that exits on the probe is started once more in legacy mode, and the verdict is remembered', async (t) => {
    const log = tempLog(t, 'e1-exits');
    const cache = createMemoryEraCache();
    const params = stdio([fixture('E1-exits-before-initialize.mjs')], 'auto', { E1_LOG: log });
    const ends: unknown[] = [];
    const { client } = await open(t, params, { eraCache: cache, onClose: (end) => ends.push(end) });
    assert.equal(client.era, 'legacy');
    assert.deepEqual((await client.callTool('echo', { text: 'x' })).content, [{ type: 'text', text: 'x' }]);
    assert.equal(readFileSync(log, 'utf8'), 'START\nSTART\n', 'started twice: the probe, then legacy');
    assert.deepEqual(ends, [], 'the probe child’s end is not reported to the host');
    assert.deepEqual(cache.get(eraCacheKey(params)), { era: 'legacy' });
    const again = await open(t, params, { eraCache: cache });
    assert.equal(again.seen.sent[0]!.method, 'initialize', 'a cached legacy verdict skips the probe');
    assert.equal(readFileSync(log, 'utf8'), 'START\nSTART\nSTART\n');
  });

  test('McpClient.connect() itself reports the exit as EraProbeClosedError', async (t) => {
    const { McpClient } = await import('../src/client/client.js');
    const { StdioTransport } = await import('../src/transport/stdio.js');
    const client = new McpClient(new StdioTransport({ command: process.execPath, args: [fixture('E1-exits-before-initialize.mjs')] }), { protocolEra: 'auto', probeTimeoutMs: 10_000 });
    t.after(() => client.close());
    await assert.rejects(client.connect(), EraProbeClosedError);
  });

  test('a host cache: a cached modern verdict at a version the server no longer speaks is corrected by -32022 (one retry)', async (t) => {
    const params = stdio([ECHO, 'stdio', 'modern']);
    const writes: unknown[] = [];
    const memory = createMemoryEraCache();
    memory.set(eraCacheKey(params), { era: 'modern', version: '2027-01-01' });
    const cache: EraCache = { get: (k) => memory.get(k), set: (k, v) => (writes.push(v), memory.set(k, v)), delete: (k) => memory.delete(k) };
    const { client, seen } = await open(t, params, { eraCache: cache });
    assert.equal(client.protocolVersion, '2026-07-28');
    assert.deepEqual(seen.sent.filter((m) => m.method === 'server/discover').map((m) => metaOf(m)![META]), ['2027-01-01', '2026-07-28']);
    assert.deepEqual(writes, [{ era: 'modern', version: '2026-07-28' }]);
  });

  test('a cached legacy verdict for a server that is now modern-only: initialize is refused with -32022, and the client goes modern', async (t) => {
    const params = stdio([ECHO, 'stdio', 'modern']);
    const cache = createMemoryEraCache();
    cache.set(eraCacheKey(params), { era: 'legacy' });
    const { client, seen } = await open(t, params, { eraCache: cache });
    assert.equal(client.era, 'modern');
    assert.deepEqual(seen.eras.map((d) => d.how), ['upgraded']);
    assert.deepEqual(cache.get(eraCacheKey(params)), { era: 'modern', version: '2026-07-28' });
  });

  test("protocolEra 'modern' against a legacy server fails with a protocol error that says what to do", async (t) => {
    await assert.rejects(open(t, stdio([fixture('fault-server.mjs')], 'modern')), (e: unknown) => e instanceof ProtocolError && /use 'auto' or 'legacy'/.test(e.message));
  });

  test("protocolEra 'legacy' against a modern-only server fails with the typed -32022, naming what the server speaks", async (t) => {
    await assert.rejects(open(t, stdio([ECHO, 'stdio', 'modern'], 'legacy')), (e: unknown) => e instanceof UnsupportedVersionError && e.supported.includes('2026-07-28'));
  });
});

describe('M2 per-request _meta hook points (trace context, tasks)', () => {
  for (const protocolEra of ['auto', 'legacy'] as const) {
    test(`${protocolEra}: requestMeta entries go on every request, RequestOptions.meta on one, beside the envelope`, async (t) => {
      const { client, seen } = await open(t, stdio([ECHO, 'stdio', 'dual'], protocolEra), { requestMeta: () => ({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }) });
      await client.callTool('echo', { text: 'x' }, { meta: { baggage: 'k=v' } });
      const call = seen.sent.find((m) => m.method === 'tools/call')!;
      const meta = metaOf(call)!;
      assert.equal(meta.traceparent, '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
      assert.equal(meta.baggage, 'k=v');
      assert.equal(meta[META], protocolEra === 'auto' ? '2026-07-28' : undefined);
      assert.ok(seen.sent.filter((m) => 'id' in m).every((m) => metaOf(m)?.traceparent), 'every request, the handshake’s too');
    });
  }
});

/** Starts the E1 echo server over HTTP; resolves with its URL. */
async function startEchoHttp(t: TestContext, era: 'modern' | 'dual'): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, [ECHO, 'http', era], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the echo server exited (${code}) before it listened`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

describe('M1/M2 era over Streamable HTTP', () => {
  test('auto against a modern-only createMcpHandler: modern, stateless, and tools/call passes its header validation (Mcp-Method, Mcp-Name, MCP-Protocol-Version)', async (t) => {
    const url = await startEchoHttp(t, 'modern');
    const { client, seen } = await open(t, { transport: 'streamable-http', url, fallbackToSse: true, protocolEra: 'auto' });
    assert.equal(client.era, 'modern');
    assert.equal(client.transportKind, 'streamable-http');
    assert.deepEqual((await client.callTool('echo', { text: 'über' })).content, [{ type: 'text', text: 'über' }]);
    assert.equal(seen.fallbacks.length, 0);
  });

  test("protocolEra 'legacy' against a modern-only HTTP server: the -32022 in the 400 body is a typed error, and no SSE fallback is tried", async (t) => {
    const url = await startEchoHttp(t, 'modern');
    const seen: Diagnostic[] = [];
    await assert.rejects(
      connect({ transport: 'streamable-http', url, fallbackToSse: true, protocolEra: 'legacy' }, { onDiagnostic: (d) => seen.push(d) }),
      (e: unknown) => e instanceof UnsupportedVersionError && e.supported.includes('2026-07-28'),
    );
    assert.ok(!seen.some((d) => d.kind === 'transport-fallback'), 'a recognised modern error is not a legacy HTTP+SSE server');
  });

  test('auto against a dual-era HTTP server: modern', async (t) => {
    const url = await startEchoHttp(t, 'dual');
    const { client } = await open(t, { transport: 'streamable-http', url, protocolEra: 'auto' });
    assert.equal(client.era, 'modern');
  });

  test('auto against server-everything over Streamable HTTP: its 4xx is not modern, so legacy initialize, and the calls work', async (t) => {
    const { port } = await startEverythingHttp(t, 'streamableHttp');
    const { client, seen } = await open(t, { transport: 'streamable-http', url: `http://127.0.0.1:${port}/mcp`, fallbackToSse: true, protocolEra: 'auto' });
    assert.equal(client.era, 'legacy');
    assert.equal(client.transportKind, 'streamable-http');
    assert.deepEqual(seen.sent.map((m) => m.method).slice(0, 3), ['server/discover', 'initialize', 'notifications/initialized']);
    assert.ok((await client.listTools()).tools.length > 0);
  });
});

describe('M2 x-mcp-header over modern Streamable HTTP', () => {
  test('a mirrored parameter goes out as Mcp-Param-Region (the SDK v2 server validates it), and a tool with an invalid annotation is left out with a diagnostic', async (t) => {
    const url = await startEchoHttp(t, 'modern');
    const rejected: Diagnostic[] = [];
    const { client } = await open(t, { transport: 'streamable-http', url, protocolEra: 'auto' }, { onDiagnostic: (d) => d.kind === 'rejected-tool' && rejected.push(d) });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    assert.deepEqual(names.sort(), ['echo', 'regional']);
    assert.equal(rejected.length, 1);
    assert.deepEqual((await client.callTool('regional', { region: 'eu-wést' })).content, [{ type: 'text', text: 'region eu-wést' }]);
  });

  test('over stdio the annotations are ignored (the spec allows it): every tool is listed', async (t) => {
    const { client } = await open(t, stdio([ECHO, 'stdio', 'modern']));
    assert.equal((await client.listTools()).tools.length, 3);
  });
});
