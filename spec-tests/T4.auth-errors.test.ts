// #16 item 8 (transport part): a refused credential (401/403) reaches the
// owner of the client as the typed AuthError, with the status, on every path
// (the handshake over Streamable HTTP and legacy SSE, the legacy SSE GET, a
// call, a renewal's handshake, a legacy SSE stream reopened after a drop),
// so that a supervisor can stop retrying at once; and the connection's end
// carries the status (reason 'http'), so that what is pending or comes later
// fails as AuthError too. A reopened stream refused this way is not tried again.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AuthError, McpClient, SseTransport, StreamableHttpTransport, type TransportEnd } from '../src/index.js';
import { startHttpFixture, until } from '../src/testing/http-fixture.js';

const isAuth = (status: number) => (e: unknown) => e instanceof AuthError && e.status === status && e.code === 'closed';

describe('T4: AuthError on every path (#16 item 8)', () => {
  for (const status of [401, 403]) {
    test(`Streamable HTTP: initialize answered ${status} → connect() rejects with AuthError ${status}; the end carries it`, async (t) => {
      const fixture = await startHttpFixture(t, { post: (ex) => ex.status(status, 'no') });
      const ends: TransportEnd[] = [];
      const client = new McpClient(new StreamableHttpTransport({ url: fixture.url }), { onClose: (end) => ends.push(end) });
      await assert.rejects(client.connect(), isAuth(status));
      assert.equal(ends.length, 1);
    });

    test(`legacy SSE: the GET answered ${status} → connect() rejects with AuthError ${status}`, async (t) => {
      const fixture = await startHttpFixture(t, { kind: 'sse', get: (ex) => ex.status(status) });
      await assert.rejects(new McpClient(new SseTransport({ url: fixture.url })).connect(), isAuth(status));
    });
  }

  test('legacy SSE: the initialize POST answered 403 → AuthError', async (t) => {
    const fixture = await startHttpFixture(t, { kind: 'sse', post: (ex) => ex.status(403) });
    await assert.rejects(new McpClient(new SseTransport({ url: fixture.url })).connect(), isAuth(403));
  });

  test('Streamable HTTP: a call answered 401 rejects with AuthError naming the method; the client stays usable', async (t) => {
    const fixture = await startHttpFixture(t, { post: (ex) => (ex.message?.method === 'tools/call' ? ex.status(401) : ex.default()) });
    const client = new McpClient(new StreamableHttpTransport({ url: fixture.url }));
    t.after(() => client.close());
    await client.connect();
    await assert.rejects(client.callTool('x'), (e: unknown) => isAuth(401)(e) && (e as AuthError).method === 'tools/call');
  });

  test('Streamable HTTP: a renewal whose initialize is answered 401 ends the connection with status 401; the call and later ones reject with AuthError', async (t) => {
    let inits = 0;
    const fixture = await startHttpFixture(t, {
      sessionId: 'sess-1',
      post: (ex) => {
        if (ex.message?.method === 'initialize' && ++inits > 1) return ex.status(401);
        if (ex.message?.method === 'tools/list') return ex.status(404, 'session expired');
        return ex.default();
      },
    });
    const ends: TransportEnd[] = [];
    const client = new McpClient(new StreamableHttpTransport({ url: fixture.url }), { onClose: (end) => ends.push(end) });
    t.after(() => client.close());
    await client.connect();
    await assert.rejects(client.listTools(), isAuth(401));
    assert.deepEqual([ends[0]?.reason, ends[0] && 'status' in ends[0] ? ends[0].status : undefined], ['http', 401]);
    await assert.rejects(client.callTool('x'), isAuth(401));
  });

  test('legacy SSE: a reopened stream answered 401 is not tried again: the end is http 401 at once, calls reject with AuthError', async (t) => {
    let gets = 0;
    const fixture = await startHttpFixture(t, { kind: 'sse', get: (ex) => (++gets === 1 ? ex.default() : ex.status(401)) });
    const ends: TransportEnd[] = [];
    const client = new McpClient(new SseTransport({ url: fixture.url, reconnect: { initialMs: 20, maxAttempts: 5 } }), { onClose: (end) => ends.push(end) });
    t.after(() => client.close());
    await client.connect();
    fixture.sessions[0]!.stream.drop();
    await until(() => ends.length === 1, 'the connection to end');
    assert.equal(gets, 2, 'one reopen, refused, and no more');
    assert.deepEqual([ends[0]!.reason, 'status' in ends[0]! ? ends[0].status : undefined], ['http', 401]);
    await assert.rejects(client.listTools(), isAuth(401));
  });
});
