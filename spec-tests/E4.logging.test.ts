// Server logging in both eras (#17), against the real SDK v2 server
// (fixtures/v2-server.mjs, @modelcontextprotocol/server 2.4.0) over stdio and
// Streamable HTTP. Its `log` tool logs at debug, info, warning and error
// through the SDK's own filter: in 2026-07-28 by the request's
// `_meta["io.modelcontextprotocol/logLevel"]` (nothing at all without it), in
// 2025 by the connection's `logging/setLevel`. What reaches onLog is what the
// server chose to send, so each level the client asked for shows.

import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { connect, type ServerParams } from '../src/client/connect.js';
import type { McpClient, McpClientOptions } from '../src/client/client.js';
import { createMemoryEraCache } from '../src/client/era-cache.js';
import type { JsonObject } from '../src/client/results.js';
import type { WireEntry } from '../src/transport/tap.js';
import { firstText, startV2Http, v2StdioCommand, V2_CWD, type V2Era, type V2Transport } from './helpers/v2-peers.js';

type Message = { id?: unknown; method?: string; params?: Record<string, unknown> & { _meta?: Record<string, unknown> } };
const LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

async function open(t: TestContext, transport: V2Transport, era: 'modern' | 'legacy', extra: McpClientOptions = {}): Promise<{ client: McpClient; sent: Message[]; logs: JsonObject[] }> {
  const serverEra: V2Era = era === 'modern' ? 'modern' : 'dual';
  let params: ServerParams;
  if (transport === 'stdio') {
    const [command, ...args] = v2StdioCommand(serverEra);
    params = { transport: 'stdio', command: command!, args, cwd: V2_CWD, protocolEra: era };
  } else {
    params = { transport: 'streamable-http', url: (await startV2Http(t, serverEra)).url, protocolEra: era };
  }
  const sent: Message[] = [];
  const logs: JsonObject[] = [];
  const client = await connect(params, {
    eraCache: createMemoryEraCache(),
    onLog: extra.onLog === undefined && !('onLog' in extra) ? (p) => logs.push(p) : extra.onLog,
    ...extra,
    onWire: (entry: WireEntry) => entry.direction === 'send' && sent.push(entry.message as Message),
  });
  t.after(() => client.close());
  assert.equal(client.era, era);
  return { client, sent, logs };
}

const levels = (logs: JsonObject[]) => logs.map((p) => p.level);
const requests = (sent: Message[]) => sent.filter((m) => m.id !== undefined && m.method !== undefined);

for (const transport of ['stdio', 'http'] as const) {
  describe(`logging, modern (2026-07-28), ${transport}`, () => {
    test('logLevel: every request carries it in _meta; the server sends that level and above; no logging/setLevel', async (t) => {
      const { client, sent, logs } = await open(t, transport, 'modern', { logLevel: 'warning' });
      assert.equal(firstText(await client.callTool('log')), 'logged');
      assert.deepEqual(levels(logs), ['warning', 'error']);
      assert.deepEqual(logs[0], { level: 'warning', logger: 'v2-fixture', data: 'warning message' });
      const reqs = requests(sent);
      assert.ok(reqs.length >= 2, 'server/discover and tools/call');
      for (const m of reqs) assert.equal(m.params?._meta?.[LEVEL_KEY], 'warning', m.method);
      assert.ok(!sent.some((m) => m.method === 'logging/setLevel'));
    });

    test('setLoggingLevel (and request("logging/setLevel")) change the level the next requests carry, sending nothing', async (t) => {
      const { client, sent, logs } = await open(t, transport, 'modern', { logLevel: 'debug' });
      await client.callTool('log');
      assert.deepEqual(levels(logs), ['debug', 'info', 'warning', 'error']);
      const before = sent.length;
      await client.setLoggingLevel('error');
      assert.equal(sent.length, before, 'nothing went out');
      logs.length = 0;
      await client.callTool('log');
      assert.deepEqual(levels(logs), ['error']);
      assert.deepEqual(await client.request('logging/setLevel', { level: 'info' }), {});
      logs.length = 0;
      await client.callTool('log');
      assert.deepEqual(levels(logs), ['info', 'warning', 'error']);
      assert.ok(!sent.some((m) => m.method === 'logging/setLevel'));
      await assert.rejects(client.setLoggingLevel('loud' as never), TypeError);
    });

    test('onLog alone asks for every level (what a 2025 server sends unasked); without onLog or logLevel nothing is asked and nothing comes', async (t) => {
      const first = await open(t, transport, 'modern');
      await first.client.callTool('log');
      assert.deepEqual(levels(first.logs), ['debug', 'info', 'warning', 'error']);
      assert.equal(requests(first.sent).at(-1)?.params?._meta?.[LEVEL_KEY], 'debug');

      const heard: string[] = [];
      const second = await open(t, transport, 'modern', { onLog: undefined, onNotification: (n) => heard.push(n.method) });
      await second.client.callTool('log');
      for (const m of requests(second.sent)) assert.equal(m.params?._meta?.[LEVEL_KEY], undefined, m.method);
      assert.ok(!heard.includes('notifications/message'), 'the server MUST NOT log for a request that did not ask');
    });
  });

  describe(`logging, legacy (2025-11-25, the dual-era server), ${transport}`, () => {
    test('logLevel: logging/setLevel after initialize, never _meta; the messages reach onLog', async (t) => {
      const { client, sent, logs } = await open(t, transport, 'legacy', { logLevel: 'warning' });
      const methods = sent.map((m) => m.method);
      assert.deepEqual(methods.slice(0, 3), ['initialize', 'notifications/initialized', 'logging/setLevel']);
      assert.deepEqual(sent[2]!.params, { level: 'warning' });
      await client.callTool('log');
      for (const m of sent) assert.equal(m.params?._meta?.[LEVEL_KEY], undefined, m.method);
      // Over stateless 2025 HTTP every request meets a fresh server instance, which forgets the level: all four arrive.
      assert.deepEqual(levels(logs), transport === 'stdio' ? ['warning', 'error'] : ['debug', 'info', 'warning', 'error']);
    });

    test('setLoggingLevel sends logging/setLevel; onLog alone sends nothing', async (t) => {
      const { client, sent, logs } = await open(t, transport, 'legacy');
      assert.ok(!sent.some((m) => m.method === 'logging/setLevel'));
      await client.callTool('log');
      assert.deepEqual(levels(logs), ['debug', 'info', 'warning', 'error']);
      await client.setLoggingLevel('error');
      assert.deepEqual(sent.filter((m) => m.method === 'logging/setLevel').map((m) => m.params), [{ level: 'error' }]);
      if (transport === 'stdio') {
        logs.length = 0;
        await client.callTool('log');
        assert.deepEqual(levels(logs), ['error']);
      }
    });
  });
}
