// List caching (2026-07-28 caching, SEP-2549) where no installed server can
// show it: pages with their own ttlMs, a cursor from a cached page refused,
// a list_changed that arrives while a listing is under way, and the tools/call
// error that makes the tool list stale. A scripted server (the SDK v2 server
// covers the plain cases in spec-tests/E4.list-caching.test.ts).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { handshake, NO_ANSWER, ScriptedTransport, type WireMessage } from '../testing/scripted-transport.js';
import { McpClient } from './client.js';
import { ListCache } from './list-cache.js';

const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });
const lists = (t: ScriptedTransport, method = 'tools/list') => t.sent.filter((m) => m.method === method).map((m) => (m.params as { cursor?: string } | undefined)?.cursor ?? null);

async function client(script: (m: WireMessage) => unknown): Promise<{ client: McpClient; transport: ScriptedTransport }> {
  const transport = new ScriptedTransport(handshake(script));
  const c = new McpClient(transport, { onListChanged: () => {} });
  await c.connect();
  return { client: c, transport };
}

describe('list caching', () => {
  test('each page keeps its own ttlMs: a fresh first page is reused, a page without ttlMs is fetched again by its cursor', async () => {
    const { client: c, transport } = await client((m) => {
      if (m.method !== 'tools/list') return {};
      const cursor = (m.params as { cursor?: string }).cursor;
      return cursor === undefined ? { tools: [tool('a')], nextCursor: 'p2', ttlMs: 60_000 } : { tools: [tool('b')], ttlMs: 0 };
    });
    assert.deepEqual((await c.listTools()).tools.map((t) => t.name), ['a', 'b']);
    assert.deepEqual((await c.listTools()).tools.map((t) => t.name), ['a', 'b']);
    assert.deepEqual(lists(transport), [null, 'p2', 'p2']);
    await c.close();
  });

  test('a cursor from a cached page that the server refuses: the cached pages are dropped and the listing starts again', async () => {
    let round = 0;
    const { client: c, transport } = await client((m) => {
      if (m.method !== 'tools/list') return {};
      const cursor = (m.params as { cursor?: string }).cursor;
      if (cursor === undefined) return { tools: [tool(`a${++round}`)], nextCursor: `c${round}`, ttlMs: 60_000 };
      // The third request (the cached first page's cursor, on the second listing) is refused.
      if (lists(transport).length === 3) return { error: { code: -32602, message: 'invalid cursor' } };
      return { tools: [tool('b')] };
    });
    await c.listTools();
    const again = await c.listTools();
    assert.deepEqual(again.tools.map((t) => t.name), ['a2', 'b']);
    assert.deepEqual(lists(transport), [null, 'c1', 'c1', null, 'c2']);
    await c.close();
  });

  test('a listing under way when list_changed arrives is returned but not kept', async () => {
    const transport: ScriptedTransport = new ScriptedTransport(handshake((m): unknown => (m.method === 'tools/list' && lists(transport).length === 1 ? NO_ANSWER : { tools: [tool('new')], ttlMs: 60_000 })));
    const c = new McpClient(transport, { onListChanged: () => {} });
    await c.connect();
    const pending = c.listTools();
    const first = await transport.next((m) => m.method === 'tools/list');
    transport.inject({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    transport.inject({ jsonrpc: '2.0', id: first.id, result: { tools: [tool('old')], ttlMs: 60_000 } });
    assert.deepEqual((await pending).tools.map((t) => t.name), ['old']);
    assert.deepEqual((await c.listTools()).tools.map((t) => t.name), ['new'], 'the server is asked again');
    assert.deepEqual((await c.listTools()).tools.map((t) => t.name), ['new']);
    assert.equal(lists(transport).length, 2);
    await c.close();
  });

  test('tools/call answered -32602 (no such tool): the tool list is stale; other lists are not', async () => {
    const { client: c, transport } = await client((m) => {
      if (m.method === 'tools/call') return { error: { code: -32602, message: 'Unknown tool: gone' } };
      if (m.method === 'prompts/list') return { prompts: [], ttlMs: 60_000 };
      return m.method === 'tools/list' ? { tools: [tool('gone')], ttlMs: 60_000 } : {};
    });
    await c.listTools();
    await c.listPrompts();
    await assert.rejects(c.callTool('gone'));
    await c.listTools();
    await c.listPrompts();
    assert.equal(lists(transport).length, 2);
    assert.equal(lists(transport, 'prompts/list').length, 1);
    await c.close();
  });

  test('ttlMs negative, absent or not a number: never cached', () => {
    const cache = new ListCache();
    for (const ttlMs of [-5, undefined, '60000', Number.NaN]) {
      cache.store('tools/list', undefined, { tools: [], ttlMs }, cache.generation('tools'));
      assert.equal(cache.fresh('tools/list', undefined), undefined, String(ttlMs));
    }
    cache.store('tools/list', undefined, { tools: [], ttlMs: 1_000 }, cache.generation('tools'));
    assert.ok(cache.fresh('tools/list', undefined));
    cache.invalidate('resources');
    assert.ok(cache.fresh('tools/list', undefined), 'another list changing leaves it');
    cache.invalidate('tools');
    assert.equal(cache.fresh('tools/list', undefined), undefined);
  });
});
