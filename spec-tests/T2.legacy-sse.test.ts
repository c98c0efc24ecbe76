// T2 legacy HTTP+SSE (`transport: sse`) [kaged]: GET with `Accept:
// text/event-stream`; wait for the `endpoint` event; resolve it against the
// SSE URL and refuse one of another origin; POST each message there; read
// answers from `message` events; reconnect with backoff on disconnect;
// configured headers on every request. Also W8: a pending request never
// hangs when its stream dies. Real node:http server on 127.0.0.1
// (helpers/http-fixture.ts, legacy mode).

import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import {
  AuthError,
  ClosedError,
  McpClient,
  MessageTooLargeError,
  ProtocolError,
  SseTransport,
  TimeoutError,
  type McpClientOptions,
  type SseTransportOptions,
} from '../src/index.js';
import type { JsonObject } from '../src/client/results.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../src/client/connection.js';
import { DEFAULT_RECONNECT } from '../src/transport/http-base.js';
import { nextDelay } from '../src/util/backoff.js';
import { FIXTURE_PROTOCOL_VERSION, startHttpFixture, until, type HttpFixture, type HttpFixtureOptions } from '../src/testing/http-fixture.js';

const SERVER = 't2-fixture';

function clientFor(t: TestContext, fixture: HttpFixture, transport: Partial<SseTransportOptions> = {}, options: McpClientOptions = {}): McpClient {
  const client = new McpClient(new SseTransport({ url: fixture.url, server: SERVER, endpointTimeoutMs: 5_000, ...transport }), options);
  t.after(() => client.close().catch(() => {}));
  return client;
}

async function connected(t: TestContext, options: Omit<HttpFixtureOptions, 'kind'> = {}, transport: Partial<SseTransportOptions> = {}, clientOptions: McpClientOptions = {}) {
  const fixture = await startHttpFixture(t, { kind: 'sse', ...options });
  const client = clientFor(t, fixture, transport, clientOptions);
  await client.connect();
  return { fixture, client };
}

const textOf = (result: { content: JsonObject[] }) => String(result.content[0]?.text);

describe('T2 legacy HTTP+SSE', { timeout: 20_000 }, () => {
  test('T2: the client opens the stream with GET and Accept: text/event-stream, then POSTs the handshake to the announced endpoint', async (t) => {
    const { fixture, client } = await connected(t);
    assert.equal(client.protocolVersion, FIXTURE_PROTOCOL_VERSION);
    const [get, ...posts] = fixture.requests;
    assert.equal(get?.method, 'GET');
    assert.equal(get?.path, '/sse');
    assert.ok(String(get?.headers.accept).includes('text/event-stream'), String(get?.headers.accept));
    assert.deepEqual(posts.map((p) => `${p.method} ${p.path} ${p.message?.method}`), ['POST /messages?session=s1 initialize', 'POST /messages?session=s1 notifications/initialized']);
    for (const post of posts) assert.equal(post.headers['content-type'], 'application/json');
  });

  test('T2: a relative endpoint (path and query) is resolved against the SSE URL; configured headers go on the GET and every POST', async (t) => {
    const { fixture, client } = await connected(
      t,
      { path: '/base/sse', endpoint: (session) => `messages?session=${session}&x=a%20b` },
      { headers: { 'X-Client': 'mcpwire-t2' }, auth: { type: 'bearer', value: 'tok-t2' } },
    );
    await client.listTools();
    const posts = fixture.received('POST');
    assert.equal(posts.length, 3, fixture.describe());
    for (const post of posts) assert.equal(post.path, '/base/messages?session=s1&x=a%20b', 'resolved like a URL reference: /base/ + messages?…');
    for (const r of fixture.requests) {
      assert.equal(r.headers['x-client'], 'mcpwire-t2', `${r.method} ${r.path}`);
      assert.equal(r.headers.authorization, 'Bearer tok-t2', `${r.method} ${r.path}`);
    }
  });

  test('T2: an endpoint of another origin is refused: connect rejects with ProtocolError and nothing is posted there', async (t) => {
    const elsewhere = await startHttpFixture(t, { kind: 'sse' });
    const fixture = await startHttpFixture(t, { kind: 'sse', endpoint: (session) => `${elsewhere.origin}/messages?session=${session}` });
    const client = clientFor(t, fixture, { auth: { type: 'bearer', value: 'do-not-leak' } });
    await assert.rejects(client.connect(), (e: unknown) => {
      assert.ok(e instanceof ProtocolError && !(e instanceof MessageTooLargeError), String(e));
      assert.equal(e.code, 'protocol');
      assert.equal(e.server, SERVER);
      assert.ok(e.message.includes(elsewhere.origin), e.message);
      return true;
    });
    assert.equal(elsewhere.requests.length, 0, 'no request (and no credential) went to the other origin');
    assert.equal(fixture.received('POST').length, 0);
    assert.equal(client.state, 'closed');
  });

  test('T2: answers are read from `message` events on the stream, not from the POST responses', async (t) => {
    const { fixture, client } = await connected(t, {
      post: async (ex) => {
        if (ex.message?.params?.name !== 'delayed') return ex.default();
        // A decoy in the POST response body: the answer must be taken from the stream only.
        ex.json({ jsonrpc: '2.0', id: ex.message.id, result: { content: [{ type: 'text', text: 'decoy from the POST body' }] } });
        // Before the answer: an unrelated event type, a notification, then the answer as a `message` event.
        await fixture.sessions[0]!.stream.event({ event: 'ping-comment', data: 'ignored' });
        await fixture.push({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'streamed' } });
        await fixture.push({ jsonrpc: '2.0', id: ex.message.id, result: { content: [{ type: 'text', text: 'from the stream' }] } });
      },
    });
    assert.equal(textOf(await client.callTool('delayed')), 'from the stream');
  });

  test('T2: the stream drops mid-request → that request rejects with ClosedError; the transport reconnects, replays the handshake on the new stream, and later calls succeed', async (t) => {
    const closes: unknown[] = [];
    const { fixture, client } = await connected(
      t,
      {
        post: (ex) => {
          if (ex.message?.params?.name !== 'doomed') return ex.default();
          ex.status(202, 'Accepted');
          fixture.sessions[0]!.stream.drop(); // the answer never comes
        },
      },
      { reconnect: { initialMs: 50 } },
      { onClose: (end) => closes.push(end) },
    );
    // A hang would end in TimeoutError at 10 s, which the predicate rejects.
    await assert.rejects(client.callTool('doomed', {}, { timeoutMs: 10_000 }), (e: unknown) => {
      assert.ok(e instanceof ClosedError, String(e));
      assert.equal(e.reason, 'transport');
      assert.equal(e.method, 'tools/call');
      assert.equal(e.server, SERVER);
      return true;
    });
    assert.equal(textOf(await client.callTool('later', {}, { timeoutMs: 10_000 })), 'called later');

    const gets = fixture.received('GET');
    assert.equal(gets.length, 2, `one reconnect (${fixture.describe()})`);
    const onNewStream = fixture.received('POST').filter((r) => r.seq > gets[1]!.seq);
    assert.deepEqual(
      onNewStream.map((r) => `${r.path} ${r.message?.method}`),
      ['/messages?session=s2 initialize', '/messages?session=s2 notifications/initialized', '/messages?session=s2 tools/call'],
      'the handshake is replayed on the new session before the next request',
    );
    const [firstInit, replayed] = fixture.posted().filter((m) => m.method === 'initialize');
    assert.deepEqual(replayed?.params, firstInit?.params, 'the same initialize params');
    assert.equal(client.state, 'ready');
    assert.deepEqual(closes, [], 'the connection did not end');
  });

  test('T2: a reopened stream that drops again during the replayed handshake is reopened once more, and the session that follows is left alone', async (t) => {
    const ENDPOINT_TIMEOUT_MS = 400;
    const { fixture, client } = await connected(
      t,
      {
        post: async (ex) => {
          const session = ex.query('session');
          if (ex.message?.params?.name === 'doomed' || (session === 's2' && ex.message?.method === 'initialize')) {
            ex.status(202, 'Accepted');
            ex.fixture.sessions.find((s) => s.id === session)!.stream.drop(); // s1 mid-request, then s2 mid-handshake
            return;
          }
          return ex.default();
        },
      },
      { reconnect: { initialMs: 20 }, endpointTimeoutMs: ENDPOINT_TIMEOUT_MS },
    );
    await assert.rejects(client.callTool('doomed', {}, { timeoutMs: 10_000 }), (e: unknown) => e instanceof ClosedError && e.reason === 'transport');
    assert.equal(textOf(await client.callTool('after', {}, { timeoutMs: 10_000 })), 'called after');
    // Past the replay's wait for an answer: nothing may tear the working session down now.
    await new Promise((resolve) => setTimeout(resolve, ENDPOINT_TIMEOUT_MS + 200));
    assert.equal(textOf(await client.callTool('still', {}, { timeoutMs: 10_000 })), 'called still');
    assert.deepEqual(fixture.sessions.map((s) => s.id), ['s1', 's2', 's3'], fixture.describe());
    assert.equal(fixture.sessions[2]!.stream.done, false, 'the third stream is still open');
    const s3 = fixture.received('POST').filter((r) => r.path.endsWith('session=s3')).map((r) => r.message?.method);
    assert.deepEqual(s3, ['initialize', 'notifications/initialized', 'tools/call', 'tools/call']);
  });

  test('T2: reconnecting fails for good after the configured attempts → the transport ends, and calls reject with ClosedError', async (t) => {
    let gets = 0;
    const ended: unknown[] = [];
    const { fixture, client } = await connected(
      t,
      {
        get: (ex) => {
          if (++gets === 1) return ex.default();
          ex.status(503, 'down'); // every reconnect is refused
        },
      },
      { reconnect: { initialMs: 20, maxAttempts: 3 } },
      { onClose: (end) => ended.push(end) },
    );
    fixture.sessions[0]!.stream.drop();
    await until(() => ended.length === 1, 'the transport to end after its reconnect attempts');
    assert.equal(gets, 1 + 3);
    await assert.rejects(client.listTools(), (e: unknown) => e instanceof ClosedError && e.code === 'closed');
  });

  test('T2: a request made while the stream is being reopened waits for it, and fails as closed (not as a timeout) when the transport gives up', async (t) => {
    let gets = 0;
    const { fixture, client } = await connected(
      t,
      {
        get: (ex) => {
          if (++gets === 1) return ex.default();
          ex.status(503, 'down');
        },
      },
      { reconnect: { initialMs: 100, maxAttempts: 3 } },
    );
    fixture.sessions[0]!.stream.drop();
    await until(() => gets >= 2, 'the first reconnect attempt');
    const started = performance.now();
    await assert.rejects(client.listTools({ timeoutMs: 10_000 }), (e: unknown) => {
      assert.ok(e instanceof ClosedError, String(e));
      assert.equal(e.reason, 'transport');
      assert.equal(e.method, 'tools/list');
      return true;
    });
    assert.ok(performance.now() - started < 5_000, 'failed when the reconnects ran out, long before its own timeout');
    assert.equal(gets, 1 + 3);
  });

  test('T2: the default reconnect schedule ends well inside the default request timeout', () => {
    let waits = 0;
    for (let attempt = 0; attempt < DEFAULT_RECONNECT.maxAttempts; attempt++) waits += nextDelay(attempt, DEFAULT_RECONNECT);
    assert.ok(waits <= DEFAULT_REQUEST_TIMEOUT_MS / 1.5, `${waits} ms of reconnect waits against a ${DEFAULT_REQUEST_TIMEOUT_MS} ms request timeout`);
  });

  test('T2: a stream that never sends the endpoint event → connect rejects with TimeoutError after endpointTimeoutMs', async (t) => {
    const fixture = await startHttpFixture(t, { kind: 'sse', get: (ex) => void ex.event({ event: 'message', data: { jsonrpc: '2.0', method: 'notifications/message', params: {} } }) });
    const client = clientFor(t, fixture, { endpointTimeoutMs: 200 });
    await assert.rejects(client.connect(), (e: unknown) => e instanceof TimeoutError && e.timeoutMs === 200 && e.server === SERVER && /endpoint/.test(e.message));
    assert.equal(fixture.received('POST').length, 0);
  });

  test('T2/W2: an event on the stream past maxMessageBytes → the pending call rejects with MessageTooLargeError and the transport ends', async (t) => {
    const LIMIT = 1024 * 1024;
    const ended: { reason: string }[] = [];
    let written = 0;
    const { fixture, client } = await connected(
      t,
      {
        post: async (ex) => {
          if (ex.message?.params?.name !== 'huge') return ex.default();
          ex.status(202, 'Accepted');
          written = await fixture.sessions[0]!.stream.endless({ totalBytes: 32 * LIMIT, prefix: 'event: message\ndata: ' });
        },
      },
      { maxMessageBytes: LIMIT, reconnect: { initialMs: 20 } },
      { onClose: (end) => ended.push(end) },
    );
    await assert.rejects(client.callTool('huge', {}, { timeoutMs: 10_000 }), (e: unknown) => e instanceof MessageTooLargeError && e.limitBytes === LIMIT);
    await until(() => ended.length === 1, 'the transport to end');
    assert.equal(ended[0]!.reason, 'too-large');
    await until(() => fixture.sessions[0]!.stream.done, 'the client to let go of the stream');
    assert.ok(written < 32 * LIMIT, `the client stopped reading (${written} bytes written)`);
    assert.equal(fixture.received('GET').length, 1, 'no reconnect after a too-large message');
    await assert.rejects(client.listTools(), MessageTooLargeError);
  });

  test('T2: 401 on the GET → AuthError naming the server', async (t) => {
    const fixture = await startHttpFixture(t, { kind: 'sse', get: (ex) => ex.status(401, 'who are you') });
    const client = clientFor(t, fixture, { auth: { type: 'bearer', value: 'tok-401' } });
    await assert.rejects(client.connect(), (e: unknown) => {
      assert.ok(e instanceof AuthError, String(e));
      assert.equal(e.status, 401);
      assert.equal(e.reason, 'http');
      assert.ok(e.message.includes(SERVER), e.message);
      assert.ok(!e.message.includes('tok-401'));
      return true;
    });
    assert.equal(fixture.received('GET').length, 1);
    assert.equal(fixture.received('POST').length, 0);
  });
});
