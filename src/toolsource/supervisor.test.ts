// The supervisor's re-discovery (R7) when list_changed notifications come in
// a burst: one tools/list at a time, and one more after a listing that a
// change overtook (its answer may predate the change), so the registry ends on
// the newest list and a burst costs two listings, not one per notification.
// The server is scripted in memory (ScriptedTransport) so that each tools/list
// is answered exactly when the test says.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { McpClient } from '../client/client.js';
import { within } from '../testing/http-fixture.js';
import { handshake, NO_ANSWER, ScriptedTransport, type WireMessage } from '../testing/scripted-transport.js';
import { DEFAULT_RESTART_POLICY, ServerSupervisor, systemClock } from './supervisor.js';

const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

test('a burst of list_changed while a listing is under way: one more listing after it, and the newest list registered', async () => {
  let transport!: ScriptedTransport;
  const registered: string[][] = [];
  const supervisor = new ServerSupervisor(
    { key: 's', params: { transport: 'stdio', command: ['unused'], server: 's' }, tools: { enabled: true, allow: undefined, deny: [] }, disabled: false, timeoutMs: undefined, unsupported: undefined },
    {
      clock: systemClock,
      restart: DEFAULT_RESTART_POLICY,
      client: {},
      rediscover: true,
      secrets: [],
      onTools: (tools) => (registered.push(tools.map((t) => t.name)), tools.length),
      onState: () => {},
      startupTimeoutMs: 5_000,
      connectServer: async (_server, options) => {
        // The first tools/list (discovery at start) is answered at once; later ones wait for the test.
        transport = new ScriptedTransport(handshake((m: WireMessage) => (m.method === 'tools/list' ? (transport.requests('tools/list').length === 1 ? { tools: [tool('a')] } : NO_ANSWER) : {})));
        const client = new McpClient(transport, options);
        await client.connect();
        return client;
      },
    },
  );
  await supervisor.ready();
  assert.deepEqual(registered, [['a']]);

  const listChanged = () => transport.inject({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  /** The n-th tools/list request, sent or to come. */
  const nthList = (n: number) => transport.next((m) => m.method === 'tools/list' && transport.requests('tools/list').indexOf(m) === n - 1);
  const second = nthList(2);
  listChanged();
  const first = await second;
  listChanged();
  listChanged();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(transport.requests('tools/list').length, 2, 'no listing beside the one under way');

  const third = nthList(3);
  transport.inject({ jsonrpc: '2.0', id: first.id, result: { tools: [tool('a'), tool('b')] } });
  const last = await within(third, 'a tools/list after the one the changes overtook', 5_000);
  assert.equal(transport.requests('tools/list').length, 3, 'one more for the changes that came meanwhile');
  transport.inject({ jsonrpc: '2.0', id: last.id, result: { tools: [tool('a'), tool('b'), tool('c')] } });
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(registered.at(-1), ['a', 'b', 'c']);
  assert.equal(transport.requests('tools/list').length, 3);
  await supervisor.close();
});
