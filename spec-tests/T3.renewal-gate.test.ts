// T3 and L1 at the renewal gate: while the client runs its handshake again
// for an expired session, requests made meanwhile wait; one that times out
// there never reached the server, so no notifications/cancelled names it;
// and a host hook that throws on the renewal does not end the connection.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { McpClient, StreamableHttpTransport, TimeoutError, type Diagnostic } from '../src/index.js';
import { startHttpFixture, until } from '../src/testing/http-fixture.js';

async function expiringServer(t: Parameters<typeof startHttpFixture>[0]) {
  let sessions = 0;
  const fixture = await startHttpFixture(t, {
    sessionId: () => `sess-${++sessions}`,
    post: async (ex) => {
      if (ex.message?.method === 'initialize' && sessions >= 1) await delay(400); // the renewal takes a while
      if (ex.message?.method === 'tools/list' && ex.request.headers['mcp-session-id'] === 'sess-1') return ex.status(404, 'session expired');
      return ex.default();
    },
  });
  return fixture;
}

test('T3/W7: a request that times out while held at the renewal gate is not cancelled on the wire (the server never saw it)', async (t) => {
  const fixture = await expiringServer(t);
  const client = new McpClient(new StreamableHttpTransport({ url: fixture.url, server: 'gate', listen: false }));
  t.after(() => client.close());
  await client.connect();
  const listing = client.listTools(); // meets the expired session: the renewal starts
  await until(() => fixture.posted().filter((m) => m.method === 'initialize').length === 2, 'the renewal started');
  await assert.rejects(client.ping({ timeoutMs: 100 }), TimeoutError);
  await listing;
  assert.equal(fixture.posted().filter((m) => m.method === 'ping').length, 0, 'the ping was held, never sent');
  // Anything released by the gate has gone out before a request made now is answered.
  await client.ping();
  await client.ping();
  assert.deepEqual(fixture.posted().filter((m) => m.method === 'notifications/cancelled'), [], 'so nothing is cancelled');
});

test('L1: an onSessionRenewed hook that throws is reported as a handler error; the connection goes on', async (t) => {
  const fixture = await expiringServer(t);
  const diagnostics: Diagnostic[] = [];
  const client = new McpClient(new StreamableHttpTransport({ url: fixture.url, server: 'hook', listen: false }), {
    onSessionRenewed: () => {
      throw new Error('host bug');
    },
    onDiagnostic: (d) => diagnostics.push(d),
  });
  t.after(() => client.close());
  await client.connect();
  const { tools } = await client.listTools();
  assert.ok(tools.length > 0);
  assert.equal(client.state, 'ready');
  assert.ok(diagnostics.some((d) => d.kind === 'handler-error' && d.method === 'onSessionRenewed'));
  await client.ping();
});
