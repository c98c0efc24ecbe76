// List caching (2026-07-28 server/utilities/caching, SEP-2549) against the real
// SDK v2 server (fixtures/v2-server.mjs, @modelcontextprotocol/server 2.4.0),
// modern, over stdio and Streamable HTTP. With V2_CACHE_TTL_MS the server's
// cacheHints put that ttlMs on tools/list, resources/list and prompts/list;
// without it they carry ttlMs 0. What is counted is what went on the wire.

import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { connect, type ServerParams } from '../src/client/connect.js';
import type { McpClient, McpClientOptions } from '../src/client/client.js';
import { createMemoryEraCache } from '../src/client/era-cache.js';
import { until } from '../src/testing/http-fixture.js';
import type { WireEntry } from '../src/transport/tap.js';
import type { ToolsChange } from '../src/toolsource/registry.js';
import { configOf, fixtureServer, openForTest } from './helpers/toolsource.js';
import { firstText, startV2Http, v2StdioCommand, V2_CWD, type V2Transport } from './helpers/v2-peers.js';

type Message = { id?: unknown; method?: string; params?: Record<string, unknown> };

async function open(t: TestContext, transport: V2Transport, ttlMs: number | undefined, extra: McpClientOptions = {}): Promise<{ client: McpClient; sent: Message[] }> {
  const env: Record<string, string> = ttlMs === undefined ? {} : { V2_CACHE_TTL_MS: String(ttlMs) };
  let params: ServerParams;
  if (transport === 'stdio') {
    const [command, ...args] = v2StdioCommand('modern');
    params = { transport: 'stdio', command: command!, args, cwd: V2_CWD, env, protocolEra: 'modern' };
  } else {
    params = { transport: 'streamable-http', url: (await startV2Http(t, 'modern', env)).url, protocolEra: 'modern' };
  }
  const sent: Message[] = [];
  const client = await connect(params, { eraCache: createMemoryEraCache(), ...extra, onWire: (entry: WireEntry) => entry.direction === 'send' && sent.push(entry.message as Message) });
  t.after(() => client.close());
  return { client, sent };
}

const count = (sent: Message[], method: string) => sent.filter((m) => m.method === method).length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const transport of ['stdio', 'http'] as const) {
  describe(`list caching, modern, ${transport}`, () => {
    test('ttlMs 60 000: a second listing inside the TTL is answered from memory; refresh asks again', async (t) => {
      const { client, sent } = await open(t, transport, 60_000);
      const first = await client.listTools();
      assert.equal(first.ttlMs, 60_000, 'the server said so (the fixture works)');
      assert.equal(first.cacheScope, 'public');
      const second = await client.listTools();
      assert.deepEqual(second.tools.map((tool) => tool.name), first.tools.map((tool) => tool.name));
      assert.equal(count(sent, 'tools/list'), 1);
      await client.listPrompts();
      await client.listPrompts();
      await client.listResources();
      await client.listResources();
      assert.deepEqual([count(sent, 'prompts/list'), count(sent, 'resources/list')], [1, 1]);
      await client.listTools({ refresh: true });
      assert.equal(count(sent, 'tools/list'), 2);
      await client.listTools();
      assert.equal(count(sent, 'tools/list'), 2, 'the refreshed answer is cached in turn');
    });

    test('ttlMs 0 (the SDK default): every listing asks the server', async (t) => {
      const { client, sent } = await open(t, transport, undefined);
      assert.equal((await client.listTools()).ttlMs, 0);
      await client.listTools();
      assert.equal(count(sent, 'tools/list'), 2);
    });

    test('a short ttlMs runs out: the listing after it asks again', async (t) => {
      const { client, sent } = await open(t, transport, 150);
      await client.listTools();
      await sleep(600);
      await client.listTools();
      assert.equal(count(sent, 'tools/list'), 2);
    });

    test('list_changed (through subscriptions/listen) makes the cached list stale at once: the new tool is listed', async (t) => {
      let changes = 0;
      const { client, sent } = await open(t, transport, 60_000, { onListChanged: (kind) => kind === 'tools' && changes++ });
      const before = await client.listTools();
      const name = `cached-${transport}`;
      assert.ok(!before.tools.some((tool) => tool.name === name));
      assert.equal(firstText(await client.callTool('add-tool', { name })), `added ${name}`);
      await until(() => changes > 0, 'notifications/tools/list_changed', 10_000);
      const after = await client.listTools();
      assert.ok(after.tools.some((tool) => tool.name === name), after.tools.map((tool) => tool.name).join(', '));
      assert.equal(count(sent, 'tools/list'), 2);
      await client.listTools();
      assert.equal(count(sent, 'tools/list'), 2, 'and the new list is cached');
    });
  });
}

describe('list caching under the tool source', () => {
  test('a modern server with ttlMs 60 000: add-tool\'s list_changed is re-discovered from the server, not the cache', async (t) => {
    const [command, ...args] = v2StdioCommand('modern');
    const server = fixtureServer('v2', {}, {});
    server.params = { transport: 'stdio', command, args, cwd: V2_CWD, env: { V2_CACHE_TTL_MS: '60000' }, server: 'v2', protocolEra: 'modern' } as typeof server.params;
    const sent: Message[] = [];
    const received: Array<{ result?: { tools?: unknown; ttlMs?: unknown } }> = [];
    const source = await openForTest(t, {
      config: configOf([server]),
      start: 'startup',
      client: { onWire: (entry) => (entry.direction === 'send' ? sent.push(entry.message as Message) : received.push(entry.message as (typeof received)[number])) },
    });
    assert.equal(count(sent, 'tools/list'), 1);
    assert.equal(received.find((m) => m.result?.tools !== undefined)?.result?.ttlMs, 60_000, 'the server said the list may be cached');
    const changed = new Promise<ToolsChange>((resolve) => {
      const off = source.on('tools-changed', (change) => {
        if (change.added.includes('mcp.v2.late')) {
          off();
          resolve(change);
        }
      });
    });
    await source.call('mcp.v2.add-tool', { name: 'late' });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the new tool was not registered within 15 s (a stale cached list?)')), 15_000)));
    await Promise.race([changed, late]).finally(() => clearTimeout(timer));
    assert.equal(count(sent, 'tools/list'), 2);
    assert.ok(source.registered().some((tool) => tool.name === 'mcp.v2.late'));
  });
});

describe('the tool source and a tool list with a TTL and no re-discovery on list_changed', () => {
  async function source(t: TestContext, ttlMs: number) {
    const [command, ...args] = v2StdioCommand('modern');
    const server = fixtureServer('v2', {}, {});
    server.params = { transport: 'stdio', command, args, cwd: V2_CWD, env: { V2_CACHE_TTL_MS: String(ttlMs) }, server: 'v2', protocolEra: 'modern' } as typeof server.params;
    const sent: Message[] = [];
    // rediscover: false — only the TTL can make the tool source list again.
    const opened = await openForTest(t, { config: configOf([server]), start: 'startup', rediscover: false, client: { onWire: (entry) => entry.direction === 'send' && sent.push(entry.message as Message) } });
    return { source: opened, sent };
  }
  const names = async (s: Awaited<ReturnType<typeof source>>['source']) => (await s.tools()).map((tool) => tool.name);

  test('past the ttlMs, tools() lists the server again and offers the tool added meanwhile', async (t) => {
    const { source: s, sent } = await source(t, 300);
    await s.call('mcp.v2.add-tool', { name: 'after-ttl' });
    await sleep(700);
    assert.ok((await names(s)).includes('mcp.v2.after-ttl'));
    assert.equal(count(sent, 'tools/list'), 2);
    // Calling the new tool by name works too (and needs no listing of its own).
    assert.equal(firstText((await s.call('mcp.v2.after-ttl', { text: 'x' })).result), 'x');
  });

  test('inside the ttlMs, tools() asks nothing: the list is what the server said may be kept', async (t) => {
    const { source: s, sent } = await source(t, 60_000);
    await s.call('mcp.v2.add-tool', { name: 'inside-ttl' });
    assert.ok(!(await names(s)).includes('mcp.v2.inside-ttl'));
    assert.equal(count(sent, 'tools/list'), 1);
  });
});
