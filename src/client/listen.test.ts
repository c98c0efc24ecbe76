// #17 item 4 (subscriptions/listen) over the in-memory scripted transport:
// when the stream is opened (and when not), its filter, the acknowledgement
// connect() waits for, routing to onListChanged, cancellation on close(), and
// a server that refuses it.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Diagnostic } from '../diagnostics.js';
import { handshake, NO_ANSWER, ScriptedTransport } from '../testing/scripted-transport.js';
import { McpClient, type ListChangedKind, type McpClientOptions } from './client.js';
import type { Handshake } from './handshake.js';

const calls = (transport: ScriptedTransport, method: string) => transport.sent.filter((m) => m.method === method);

/** A stand-in for the modern handshake: the profile a 2026-07-28 server/discover would give. */
const modern = (capabilities: Record<string, unknown>): Handshake => ({
  run: async () => ({ era: 'modern', protocolVersion: '2026-07-28', serverInfo: { name: 's', version: '1' }, capabilities }),
});

describe('#17 item 4: the listen stream', () => {
  const ack = (transport: ScriptedTransport, id: unknown) =>
    setImmediate(() => transport.inject({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': id }, notifications: {} } }));

  test('opened for the lists the server says change, acknowledged before connect() returns, routed to onListChanged, cancelled on close()', async () => {
    const changes: ListChangedKind[] = [];
    let transport!: ScriptedTransport;
    transport = new ScriptedTransport((request) => {
      if (request.method === 'subscriptions/listen') {
        ack(transport, request.id);
        return NO_ANSWER;
      }
      return {};
    });
    const client = new McpClient(transport, { handshake: modern({ tools: { listChanged: true }, prompts: { listChanged: true }, resources: {} }), onListChanged: (k) => changes.push(k) });
    await client.connect();
    const [listen] = calls(transport, 'subscriptions/listen');
    assert.deepEqual(listen!.params!.notifications, { toolsListChanged: true, promptsListChanged: true });
    transport.inject({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': listen!.id } } });
    assert.deepEqual(changes, ['tools']);
    await client.close();
    assert.equal(calls(transport, 'notifications/cancelled')[0]?.params?.requestId, listen!.id);
  });

  test('not opened without onListChanged, in the legacy era, or when the server says nothing changes', async () => {
    for (const options of [
      { handshake: modern({ tools: { listChanged: true } }) },
      { handshake: modern({ tools: {} }), onListChanged: () => {} },
      { onListChanged: () => {} },
    ] as McpClientOptions[]) {
      const transport = new ScriptedTransport(handshake(() => ({})));
      const client = new McpClient(transport, options);
      await client.connect();
      assert.equal(calls(transport, 'subscriptions/listen').length, 0);
      await client.close();
    }
  });

  test('a server that refuses listen: connect() still succeeds, and a listen-ended diagnostic says so', async () => {
    const diagnostics: Diagnostic[] = [];
    const transport = new ScriptedTransport((request) => (request.method === 'subscriptions/listen' ? { error: { code: -32601, message: 'Method not found' } } : {}));
    const client = new McpClient(transport, { handshake: modern({ tools: { listChanged: true } }), onListChanged: () => {}, onDiagnostic: (d) => diagnostics.push(d) });
    await client.connect();
    assert.equal(diagnostics.filter((d) => d.kind === 'listen-ended').length, 1);
    await client.close();
  });
});
