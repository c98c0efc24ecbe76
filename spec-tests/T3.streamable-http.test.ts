// T3 Streamable HTTP [kestrel][spec]: POST with `Accept: application/json,
// text/event-stream`; read a JSON answer or an SSE stream; 202 for
// notifications; keep `Mcp-Session-Id` and send it back; send
// `MCP-Protocol-Version` after initialize; optional GET stream for server
// messages (405 is fine); resume with `Last-Event-ID`, honoring the server's
// `retry`; on 404/410 with a session, re-initialize once and retry the
// request [kestrel]; DELETE on close. Also W2 (bounded memory on an endless
// SSE event), W7 (cancellation over HTTP) and W8 (typed HTTP failures).
// Every test talks to a real node:http server on 127.0.0.1 (helpers/http-fixture.ts).

import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import {
  AuthError,
  ClosedError,
  McpClient,
  MessageTooLargeError,
  StreamableHttpTransport,
  TimeoutError,
  connect,
  type Diagnostic,
  type McpClientOptions,
  type StreamableHttpTransportOptions,
} from '../src/index.js';
import type { JsonObject } from '../src/client/results.js';
import { peakGrowth } from './helpers/memory.js';
import { FIXTURE_PROTOCOL_VERSION, responseTo, startHttpFixture, until, within, type HttpFixture, type HttpFixtureOptions } from '../src/testing/http-fixture.js';

const SERVER = 't3-fixture';

/** A client for `fixture`'s MCP endpoint, closed after the test. */
function clientFor(
  t: TestContext,
  fixture: HttpFixture,
  transport: Partial<StreamableHttpTransportOptions> = {},
  options: McpClientOptions = {},
): { client: McpClient; transport: StreamableHttpTransport } {
  const http = new StreamableHttpTransport({ url: fixture.url, server: SERVER, ...transport });
  const client = new McpClient(http, options);
  t.after(() => client.close().catch(() => {}));
  return { client, transport: http };
}

async function connected(t: TestContext, options: HttpFixtureOptions = {}, transport: Partial<StreamableHttpTransportOptions> = {}, clientOptions: McpClientOptions = {}) {
  const fixture = await startHttpFixture(t, options);
  const { client } = clientFor(t, fixture, transport, clientOptions);
  await client.connect();
  return { fixture, client };
}

const isClosed = (reason: string, status?: number) => (e: unknown) => {
  assert.ok(e instanceof ClosedError, `expected a ClosedError, got ${String(e)}`);
  assert.equal(e.code, 'closed');
  assert.equal(e.reason, reason, e.message);
  if (status !== undefined) assert.equal(e.status, status);
  assert.equal(e.server, SERVER);
  return true;
};

const textOf = (result: { content: JsonObject[] }) => String(result.content[0]?.text);

describe('T3 Streamable HTTP', { timeout: 20_000 }, () => {
  test('T3: every POST carries Accept: application/json, text/event-stream and Content-Type: application/json', async (t) => {
    const { fixture, client } = await connected(t);
    await client.listTools();
    const posts = fixture.received('POST');
    assert.deepEqual(posts.map((p) => p.message?.method), ['initialize', 'notifications/initialized', 'tools/list']);
    for (const post of posts) {
      const accept = String(post.headers.accept).split(',').map((s) => s.trim());
      assert.ok(accept.includes('application/json') && accept.includes('text/event-stream'), `Accept of ${post.message?.method}: ${post.headers.accept}`);
      assert.equal(post.headers['content-type'], 'application/json');
      assert.equal(post.path, '/mcp');
    }
  });

  test('T3: "the client MUST support both these cases": an application/json answer', async (t) => {
    const { client } = await connected(t, { result: (m) => (m.method === 'tools/call' ? { content: [{ type: 'text', text: `json ${String(m.params?.name)}` }] } : {}) });
    assert.equal(client.protocolVersion, FIXTURE_PROTOCOL_VERSION);
    assert.equal(textOf(await client.callTool('x')), 'json x');
  });

  test('T3: a request JSON cannot carry (a BigInt argument) fails that call with the serializer\'s error, sends nothing, and the connection goes on', async (t) => {
    // The POST is built in a promise chain, not an async function (#20): a throw while building it must still be the
    // call's rejection, not an exception out of send() that leaves the request pending until its timeout.
    const { client, fixture } = await connected(t, { result: (m) => (m.method === 'tools/call' ? { content: [{ type: 'text', text: `json ${String(m.params?.name)}` }] } : {}) });
    const postsBefore = fixture.received('POST').length;
    const failed = await within(client.callTool('x', { n: 1n as unknown as number }, { timeoutMs: 100 }).then(() => assert.fail('resolved'), (e: unknown) => e), 'the unserializable call to fail', 2_000);
    assert.ok(failed instanceof TypeError && /BigInt/.test(failed.message), String(failed));
    // Past its timeout: a request left pending (a throw out of send()) would time out now and send notifications/cancelled.
    await delay(300);
    assert.deepEqual(fixture.received('POST').slice(postsBefore).map((r) => r.body), [], 'a POST went out for a request that cannot be serialized');
    assert.equal(textOf(await client.callTool('y')), 'json y');
  });

  test('T3: an SSE answer may carry a notification and a server request (ping) before the response; the client answers the ping by POST', async (t) => {
    const logs: JsonObject[] = [];
    let pingSeenBeforeAnswer = false;
    const { fixture, client } = await connected(
      t,
      {
        sessionId: 'sess-sse',
        post: async (ex) => {
          const m = ex.message;
          if (m?.method !== 'tools/call') return ex.default();
          await ex.event({ id: 'p-0', data: '' }); // priming event: an id and empty data
          await ex.event({ id: 'p-1', event: 'message', data: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } } });
          await ex.event({ id: 'p-2', data: { jsonrpc: '2.0', id: 'srv-ping-1', method: 'ping' } });
          const reply = await fixture.waitFor((r) => r.message?.id === 'srv-ping-1' && r.message.method === undefined);
          pingSeenBeforeAnswer = true;
          assert.deepEqual(reply.message, { jsonrpc: '2.0', id: 'srv-ping-1', result: {} });
          await ex.event({ id: 'p-3', data: responseTo(m, { content: [{ type: 'text', text: 'after ping' }] }) });
          ex.end();
        },
      },
      {},
      { onLog: (params) => logs.push(params) },
    );
    assert.equal(textOf(await client.callTool('streamed', {}, { timeoutMs: 5_000 })), 'after ping');
    assert.ok(pingSeenBeforeAnswer);
    assert.deepEqual(logs, [{ level: 'info', data: 'working' }]);
    const reply = fixture.requests.find((r) => r.message?.id === 'srv-ping-1')!;
    assert.equal(reply.method, 'POST');
    assert.equal(reply.status, 202);
    assert.equal(reply.headers['mcp-session-id'], 'sess-sse');
  });

  test('T3: once the answer has arrived the client lets go of the SSE stream, even if the server keeps it open', async (t) => {
    // "After the JSON-RPC response has been sent, the server SHOULD terminate the SSE stream"; a server
    // that does not (the official suite's sse-retry mock) must not keep one connection per call open.
    let streamClosed: Promise<void> | undefined;
    const { client } = await connected(t, {
      post: async (ex) => {
        const m = ex.message;
        if (m?.method !== 'tools/call') return ex.default();
        streamClosed = ex.closed;
        await ex.event({ id: 'k-1', data: responseTo(m, { content: [{ type: 'text', text: 'kept open' }] }) });
        // no ex.end(): the server leaves the stream open
      },
    });
    assert.equal(textOf(await client.callTool('lingering', {}, { timeoutMs: 5_000 })), 'kept open');
    const outcome = await Promise.race([streamClosed!.then(() => 'closed by the client'), delay(2_000).then(() => 'still open')]);
    assert.equal(outcome, 'closed by the client');
  });

  test('T3: notifications are answered 202 Accepted with no body, and that is success', async (t) => {
    const { fixture, client } = await connected(t);
    assert.equal(client.state, 'ready');
    const initialized = fixture.requests.find((r) => r.message?.method === 'notifications/initialized');
    assert.equal(initialized?.status, 202);
    assert.equal(initialized?.message?.id, undefined);
    await client.listTools(); // the connection is healthy after it
  });

  test('T3: Mcp-Session-Id from the initialize answer is sent back on every later request, and not on initialize', async (t) => {
    const { fixture, client } = await connected(t, { sessionId: 'sess-42', get: (ex) => ex.status(405) });
    await fixture.waitFor((r) => r.method === 'GET');
    await client.callTool('echo');
    await client.close();
    const [init, ...later] = fixture.requests;
    assert.equal(init?.message?.method, 'initialize');
    assert.equal(init?.headers['mcp-session-id'], undefined);
    const labels = later.map((r) => `${r.method} ${r.message?.method ?? ''}`.trim());
    for (const want of ['POST notifications/initialized', 'GET', 'POST tools/call', 'DELETE']) assert.ok(labels.includes(want), `${want} was sent (${fixture.describe()})`);
    for (const r of later) assert.equal(r.headers['mcp-session-id'], 'sess-42', `${r.method} ${r.message?.method ?? ''}`);
  });

  test('T3: MCP-Protocol-Version is sent on every request after initialize, not on initialize', async (t) => {
    const { fixture, client } = await connected(t, { sessionId: 'sess-v', get: (ex) => ex.status(405) });
    await fixture.waitFor((r) => r.method === 'GET');
    await client.listTools();
    await client.close();
    const [init, ...later] = fixture.requests;
    assert.equal(init?.headers['mcp-protocol-version'], undefined);
    assert.ok(later.length >= 4, fixture.describe());
    for (const r of later) assert.equal(r.headers['mcp-protocol-version'], FIXTURE_PROTOCOL_VERSION, `${r.method} ${r.message?.method ?? ''}`);
  });

  test('T3: the GET stream is opened after initialized; a server notification on it reaches the client hooks', async (t) => {
    const changed: string[] = [];
    const logs: JsonObject[] = [];
    const { fixture } = await connected(
      t,
      {
        sessionId: 'sess-get',
        get: async (ex) => {
          await ex.event({ id: 'g-1', data: { jsonrpc: '2.0', method: 'notifications/tools/list_changed' } });
          await ex.event({ id: 'g-2', data: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'warning', data: 'from GET' } } });
          // stays open, as a listening stream does
        },
      },
      {},
      { onListChanged: (kind) => changed.push(kind), onLog: (p) => logs.push(p) },
    );
    await until(() => changed.length === 1 && logs.length === 1, 'both notifications from the GET stream');
    assert.deepEqual(changed, ['tools']);
    assert.deepEqual(logs, [{ level: 'warning', data: 'from GET' }]);
    const get = fixture.received('GET')[0]!;
    const initialized = fixture.requests.find((r) => r.message?.method === 'notifications/initialized')!;
    assert.ok(get.seq > initialized.seq, 'the GET comes after notifications/initialized');
    assert.ok(String(get.headers.accept).includes('text/event-stream'));
    assert.equal(get.headers['mcp-session-id'], 'sess-get');
    assert.equal(get.path, '/mcp');
  });

  test('T3: the GET stream, closed by the server after an event id and a retry, is reopened with Last-Event-ID after the retry', async (t) => {
    const logs: JsonObject[] = [];
    let endedAt = 0;
    const { fixture } = await connected(
      t,
      {
        sessionId: 'sess-get2',
        get: async (ex) => {
          const gets = fixture.received('GET').length;
          if (gets === 1) {
            await ex.event({ id: 'g-1', retry: 100, data: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'first' } } });
            endedAt = performance.now();
            return ex.end();
          }
          await ex.event({ id: 'g-2', data: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `second, after ${String(ex.request.headers['last-event-id'])}` } } });
        },
      },
      { reconnect: { initialMs: 3_000 } },
      { onLog: (p) => logs.push(p) },
    );
    await until(() => logs.length === 2, 'a notification from each GET stream');
    assert.deepEqual(logs.map((p) => p.data), ['first', 'second, after g-1']);
    const second = fixture.received('GET')[1]!;
    assert.equal(second.headers['last-event-id'], 'g-1');
    assert.equal(second.headers['mcp-session-id'], 'sess-get2');
    assert.ok(second.receivedAt - endedAt >= 100 - 1, `reopened after ${(second.receivedAt - endedAt).toFixed(1)} ms, before the retry of 100 ms`);
  });

  for (const status of [405, 400]) {
    test(`T3: a GET answered ${status} means no server stream: tolerated, not retried, calls go on`, async (t) => {
      // With a 10 ms backoff, a listener that retried a refused GET would be back well within the 150 ms below.
      const { fixture, client } = await connected(t, { get: (ex) => ex.status(status, status === 400 ? 'Bad Request: no session' : '') }, { reconnect: { initialMs: 10 } });
      await fixture.waitFor((r) => r.method === 'GET');
      assert.equal(textOf(await client.callTool('after-get')), 'called after-get');
      await delay(150);
      assert.equal(fixture.received('GET').length, 1, fixture.describe());
      assert.equal(client.state, 'ready');
    });
  }

  test('T3: resumption: the stream closes after an event id and retry: 300; the client waits ≥ retry, GETs with Last-Event-ID and takes the answer from the new stream', async (t) => {
    const RETRY_MS = 300;
    let endedAt = 0;
    const progress: number[] = [];
    const { fixture, client } = await connected(
      t,
      {
        sessionId: 'sess-resume',
        post: async (ex) => {
          const m = ex.message;
          if (m?.method !== 'tools/call') return ex.default();
          await ex.event({ id: 'r-1', data: '', retry: RETRY_MS });
          await ex.event({ id: 'r-2', data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: m.params?._meta && (m.params._meta as { progressToken: unknown }).progressToken, progress: 1, total: 2 } } });
          endedAt = performance.now();
          ex.end(); // closes the connection without answering: the SSE stream is not over
        },
        get: async (ex) => {
          const last = ex.request.headers['last-event-id'];
          if (last === undefined) return ex.status(405); // the listening GET
          const call = fixture.posted().find((m) => m.method === 'tools/call')!;
          await ex.event({ id: 'r-3', data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: (call.params?._meta as { progressToken: unknown }).progressToken, progress: 2, total: 2 } } });
          await ex.event({ id: 'r-4', data: responseTo(call, { content: [{ type: 'text', text: `resumed after ${String(last)}` }] }) });
          ex.end();
        },
      },
      // The default backoff would wait 3 s: a delay well under that shows the server's retry was used.
      { reconnect: { initialMs: 3_000 } },
    );
    const result = await client.callTool('long', {}, { onProgress: (u) => progress.push(u.progress), timeoutMs: 10_000 });
    assert.equal(textOf(result), 'resumed after r-2');
    assert.deepEqual(progress, [1, 2]);
    const resume = fixture.received('GET').find((r) => r.headers['last-event-id'] !== undefined)!;
    assert.equal(resume.headers['last-event-id'], 'r-2');
    assert.equal(resume.headers['mcp-session-id'], 'sess-resume');
    assert.ok(String(resume.headers.accept).includes('text/event-stream'));
    const waited = resume.receivedAt - endedAt;
    t.diagnostic(`reconnect delay ${waited.toFixed(1)} ms for retry ${RETRY_MS} ms`);
    // ≥ retry ("MUST respect the retry field"); 1 ms of slack for libuv's millisecond timer clock.
    assert.ok(waited >= RETRY_MS - 1, `reconnected after ${waited.toFixed(1)} ms, before the server's retry of ${RETRY_MS} ms`);
    assert.ok(waited < 2_500, `reconnected after ${waited.toFixed(1)} ms: the retry field was not used`);
    assert.equal(fixture.received('POST').filter((r) => r.message?.method === 'tools/call').length, 1, 'the request is not re-sent: resumption is by GET');
  });

  for (const how of ['ends', 'drops'] as const) {
    test(`T3: a response stream that ${how} with no event id rejects the call with ClosedError (never hangs)`, async (t) => {
      const { client } = await connected(t, {
        post: async (ex) => {
          if (ex.message?.params?.name !== 'gone') return ex.default();
          await ex.event({ data: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'about to go' } } });
          await delay(20);
          if (how === 'ends') ex.end();
          else ex.drop();
        },
      });
      // A hang would end in TimeoutError at 10 s, which the predicate rejects.
      await assert.rejects(client.callTool('gone', {}, { timeoutMs: 10_000 }), (e: unknown) => isClosed('transport')(e) && (e as ClosedError).method === 'tools/call');
      assert.equal(textOf(await client.callTool('next')), 'called next', 'the connection survives one broken response');
    });
  }

  test('T3: a stream with an event id whose resumption the server refuses (GET 405) rejects the call, typed', async (t) => {
    const { client } = await connected(t, {
      post: async (ex) => {
        if (ex.message?.method !== 'tools/call') return ex.default();
        await ex.event({ id: 'x-1', data: '', retry: 10 });
        ex.end();
      },
      get: (ex) => ex.status(405),
    });
    await assert.rejects(client.callTool('unresumable', {}, { timeoutMs: 10_000 }), isClosed('http', 405));
  });

  test('T3: resumption refused (503) every time is tried reconnect.maxAttempts times, then the call rejects with ClosedError', async (t) => {
    const { fixture, client } = await connected(
      t,
      {
        post: async (ex) => {
          if (ex.message?.method !== 'tools/call') return ex.default();
          await ex.event({ id: 'z-1', data: '', retry: 20 });
          ex.end();
        },
        get: (ex) => (ex.request.headers['last-event-id'] === undefined ? ex.status(405) : ex.status(503, 'try later')),
      },
      { reconnect: { initialMs: 20, maxAttempts: 3 } },
    );
    await assert.rejects(client.callTool('flaky', {}, { timeoutMs: 10_000 }), isClosed('transport'));
    const resumes = fixture.received('GET').filter((r) => r.headers['last-event-id'] === 'z-1');
    assert.equal(resumes.length, 3, fixture.describe());
  });

  for (const expiredStatus of [404, 410]) test(`T3: ${expiredStatus} with a session → one new initialize without the session id, then initialized, then the request again`, async (t) => {
    let sessions = 0;
    const fixture = await startHttpFixture(t, {
      sessionId: () => `sess-${++sessions}`,
      post: (ex) => {
        if (ex.message?.method === 'tools/list' && ex.request.headers['mcp-session-id'] === 'sess-1') return ex.status(expiredStatus, 'session expired');
        return ex.default();
      },
    });
    const { client } = clientFor(t, fixture);
    await client.connect();
    // Two requests meet the expired session at once: one re-initialization serves both.
    const [a, b] = await Promise.all([client.listTools(), client.listTools()]);
    assert.deepEqual(a.tools.map((tool) => tool.name), ['echo']);
    assert.deepEqual(b.tools.map((tool) => tool.name), ['echo']);
    const posts = fixture.received('POST');
    const inits = posts.filter((r) => r.message?.method === 'initialize');
    assert.equal(inits.length, 2, `one re-initialization (${fixture.describe()})`);
    const reinit = inits[1]!;
    assert.equal(reinit.headers['mcp-session-id'], undefined, 'the new initialize carries no session id');
    assert.deepEqual(reinit.message?.params, inits[0]!.message?.params, 'the same initialize params');
    const after = posts.filter((r) => r.seq > reinit.seq);
    assert.equal(after[0]?.message?.method, 'notifications/initialized');
    assert.deepEqual(after.slice(1).map((r) => r.message?.method), ['tools/list', 'tools/list']);
    for (const r of after) assert.equal(r.headers['mcp-session-id'], 'sess-2', `${r.message?.method} uses the new session`);
    const expired = posts.filter((r) => r.status === expiredStatus);
    assert.equal(expired.length, 2, 'both requests met the expired session');
  });

  test('T3: a second 404 after re-initializing fails the request with ClosedError http 404 (once only)', async (t) => {
    let sessions = 0;
    const { fixture, client } = await connected(t, {
      sessionId: () => `sess-${++sessions}`,
      post: (ex) => (ex.message?.method === 'tools/list' ? ex.status(404) : ex.default()),
    });
    await assert.rejects(client.listTools(), isClosed('http', 404));
    assert.equal(fixture.posted().filter((m) => m.method === 'initialize').length, 2, fixture.describe());
    assert.equal(fixture.posted().filter((m) => m.method === 'tools/list').length, 2, fixture.describe());
  });

  test('T3/W8: HTTP 500 → ClosedError reason "http", status 500; the connection goes on', async (t) => {
    let fail = true;
    const { client } = await connected(t, {
      post: (ex) => {
        if (ex.message?.method === 'tools/call' && fail) {
          fail = false;
          return ex.status(500, 'internal trouble');
        }
        return ex.default();
      },
    });
    await assert.rejects(client.callTool('boom'), (e: unknown) => isClosed('http', 500)(e) && /HTTP 500/.test((e as Error).message) && (e as ClosedError).method === 'tools/call');
    assert.equal(textOf(await client.callTool('again')), 'called again');
  });

  for (const status of [401, 403]) {
    test(`T3/T4: HTTP ${status} → AuthError naming the server, never the credential`, async (t) => {
      const secret = `sk-${crypto.randomUUID()}`;
      const fixture = await startHttpFixture(t, { post: (ex) => ex.status(status, 'go away') });
      const { client } = clientFor(t, fixture, { auth: { type: 'bearer', value: secret } });
      await assert.rejects(client.connect(), (e: unknown) => {
        assert.ok(e instanceof AuthError, String(e));
        assert.ok(e instanceof ClosedError);
        assert.equal(e.name, 'AuthError');
        assert.equal(e.status, status);
        assert.equal(e.reason, 'http');
        assert.ok(e.message.includes(SERVER), e.message);
        assert.ok(!e.message.includes(secret));
        return true;
      });
      assert.equal(fixture.requests[0]?.headers.authorization, `Bearer ${secret}`, 'the credential was sent, so its absence from the error means something');
      assert.equal(client.state, 'closed');
    });
  }

  test('T3/W2: an SSE event that never ends (no blank line) → MessageTooLargeError, memory bounded by the cap', async (t) => {
    const LIMIT = 4 * 1024 * 1024;
    const STREAMED = 50 * 1024 * 1024;
    let written = 0;
    let stopped: Promise<void> | undefined;
    const { client } = await connected(
      t,
      {
        post: async (ex) => {
          const name = ex.message?.params?.name;
          if (name !== 'line' && name !== 'lines') return ex.default();
          let finished!: () => void;
          stopped = new Promise((resolve) => (finished = resolve));
          // One shape per call: a single endless data line, or endless data lines with no blank line between them.
          written = await ex.endless({ totalBytes: STREAMED, fill: name === 'lines' ? `${'y'.repeat(1023)}\ndata: ` : 'x' });
          finished();
        },
      },
      { maxMessageBytes: LIMIT },
    );
    for (const shape of ['line', 'lines']) {
      const { growth, result } = await peakGrowth(() => client.callTool(shape, {}, { timeoutMs: 15_000 }));
      assert.equal(result.status, 'rejected');
      const error = (result as PromiseRejectedResult).reason;
      assert.ok(error instanceof MessageTooLargeError, String(error));
      assert.equal(error.limitBytes, LIMIT);
      assert.equal(error.code, 'protocol');
      assert.match(error.message, new RegExp(`${LIMIT} bytes`));
      await stopped; // the fixture stopped writing: the client let go of the stream
      t.diagnostic(`${shape}: server wrote ${(written / 2 ** 20).toFixed(1)} MiB before the client let go; peak growth heap+external ${(growth.js / 2 ** 20).toFixed(1)} MiB, rss ${(growth.rss / 2 ** 20).toFixed(1)} MiB`);
      // What the server got to write is the cap plus what the socket buffers hold; an unbounded reader takes all 50 MiB.
      assert.ok(written < STREAMED / 2, `the client stopped reading soon after the cap (server wrote ${written} of ${STREAMED} bytes)`);
      // Bounded by the cap (a few times LIMIT for UTF-16 strings and socket buffers), nowhere near the 50 MiB sent.
      assert.ok(growth.js < 6 * LIMIT, `heap + external grew by ${(growth.js / 2 ** 20).toFixed(1)} MiB`);
    }
    assert.equal(textOf(await client.callTool('small')), 'called small');
  });

  test('T3/W1: an SSE answer dripped one byte per write (a multi-byte character split) still parses; so does a JSON answer', async (t) => {
    const text = 'drip ✓ ünïcode 😀';
    const { client } = await connected(t, {
      post: async (ex) => {
        const m = ex.message;
        if (m?.method !== 'tools/call') return ex.default();
        const answer = responseTo(m, { content: [{ type: 'text', text }] });
        if (m.params?.name === 'sse') {
          ex.openSse();
          await ex.drip(`id: d-1\r\nevent: message\r\ndata: ${JSON.stringify(answer)}\r\n\r\n`);
        } else {
          ex.head(200, { 'content-type': 'application/json' });
          await ex.drip(JSON.stringify(answer));
        }
        ex.end();
      },
    });
    assert.equal(textOf(await client.callTool('sse', {}, { timeoutMs: 10_000 })), text);
    assert.equal(textOf(await client.callTool('json', {}, { timeoutMs: 10_000 })), text);
  });

  test('T3: an Mcp-Session-Id that is not visible ASCII (0x21-0x7E) is not kept, so never sent back', async (t) => {
    // MCP transports, session management: the session ID "MUST only contain visible ASCII characters (0x21 to 0x7E)".
    for (const bad of ['two words', 'caf\u00e9', 'tab\there']) {
      const { fixture, client } = await connected(t, { sessionId: bad });
      await client.listTools();
      await client.close();
      const after = fixture.requests.filter((r) => r.message?.method !== 'initialize');
      assert.ok(after.length >= 2, fixture.describe());
      for (const r of after) assert.equal(r.headers['mcp-session-id'], undefined, `${JSON.stringify(bad)} sent back on ${r.method} ${r.message?.method ?? ''}`);
    }
  });

  test('T3/L2: close() sends DELETE with the session id; 405 is fine', async (t) => {
    const { fixture, client } = await connected(t, { sessionId: 'sess-del', delete: (ex) => ex.status(405) });
    await client.close();
    assert.equal(client.state, 'closed');
    const deletes = fixture.received('DELETE');
    assert.equal(deletes.length, 1);
    assert.equal(deletes[0]!.headers['mcp-session-id'], 'sess-del');
    assert.equal(deletes[0]!.path, '/mcp');
    await assert.rejects(client.listTools(), isClosed('closed'));
  });

  test('T3/L2: without a session, close() sends no DELETE', async (t) => {
    const { fixture, client } = await connected(t);
    await client.close();
    assert.equal(fixture.received('DELETE').length, 0);
  });

  test('T3/W7: a timeout on a hung POST sends notifications/cancelled with the request id and lets go of the hung request', async (t) => {
    let hung: Promise<void> | undefined;
    const { fixture, client } = await connected(t, {
      sessionId: 'sess-hang',
      post: (ex) => {
        if (ex.message?.method !== 'tools/call') return ex.default();
        hung = ex.closed; // never answered
      },
    });
    await assert.rejects(client.callTool('hang', {}, { timeoutMs: 200 }), (e: unknown) => e instanceof TimeoutError && e.timeoutMs === 200 && e.method === 'tools/call');
    const call = fixture.posted().find((m) => m.method === 'tools/call')!;
    const cancelled = await fixture.waitFor((r) => r.message?.method === 'notifications/cancelled');
    assert.equal(cancelled.message?.params?.requestId, call.id);
    assert.equal(cancelled.headers['mcp-session-id'], 'sess-hang');
    assert.equal(cancelled.status, 202);
    assert.ok(hung, 'the tools/call POST reached the server');
    await within(hung, 'the client to abort the hung POST');
  });

  test('T3/L2: a notifications/cancelled still on its way when close() is called reaches the server', async (t) => {
    // The server takes its time to accept notifications; close() lets them finish (briefly) before it aborts.
    const { fixture, client } = await connected(t, {
      post: async (ex) => {
        if (ex.message?.method === 'tools/call') return; // never answered
        if (ex.message?.method === 'notifications/cancelled') await delay(300);
        return ex.default();
      },
    });
    await assert.rejects(client.callTool('hang', {}, { timeoutMs: 100 }), TimeoutError);
    await client.close(); // at once, while the cancellation is still being POSTed
    const cancelled = fixture.requests.find((r) => r.message?.method === 'notifications/cancelled');
    assert.equal(cancelled?.status, 202, 'the cancellation was accepted, not cut off by close()');
  });
});


// MCP 2025-11-25, transports, "Backwards compatibility": a client given a URL
// that may be either transport POSTs initialize; on a 4xx it GETs the same URL
// and expects the legacy endpoint event. connect() does this with fallbackToSse
// (an mcpServers entry with a url and no type).
describe('T3 backwards compatibility: connect() falls back to legacy HTTP+SSE', { timeout: 30_000 }, () => {
  const legacyRefusingPost = (status: number): HttpFixtureOptions => ({
    kind: 'sse',
    // The legacy server has no MCP endpoint at its SSE URL: POST there is refused; its message endpoint works.
    post: (ex) => (ex.request.path === '/sse' ? ex.status(status, 'Cannot POST /sse') : ex.default()),
  });

  test('T3: a legacy server refusing the initialize POST with 405 is reached over HTTP+SSE at the same URL', async (t) => {
    const fixture = await startHttpFixture(t, legacyRefusingPost(405));
    const diagnostics: Diagnostic[] = [];
    const client = await connect({ transport: 'streamable-http', fallbackToSse: true, url: fixture.url, server: SERVER }, { onDiagnostic: (d) => diagnostics.push(d) });
    t.after(() => client.close().catch(() => {}));
    assert.equal(client.state, 'ready');
    const { tools } = await client.listTools();
    assert.ok(Array.isArray(tools));
    assert.deepEqual(diagnostics.filter((d) => d.kind === 'transport-fallback'), [{ kind: 'transport-fallback', server: SERVER, from: 'streamable-http', to: 'sse', status: 405 }]);
    // The order on the wire: the refused POST, the SSE stream, then the handshake on the announced endpoint.
    assert.deepEqual(fixture.requests.slice(0, 3).map((r) => `${r.method} ${r.path.split('?')[0]} ${r.message?.method ?? ''}`.trim()), ['POST /sse initialize', 'GET /sse', 'POST /messages initialize']);
  });

  test('T3: 404 falls back too; without fallbackToSse the same refusal is a ClosedError and nothing else is tried', async (t) => {
    const fallback = await startHttpFixture(t, legacyRefusingPost(404));
    const client = await connect({ transport: 'streamable-http', fallbackToSse: true, url: fallback.url, server: SERVER });
    t.after(() => client.close().catch(() => {}));
    assert.equal(client.state, 'ready');

    const explicit = await startHttpFixture(t, legacyRefusingPost(404));
    await assert.rejects(connect({ transport: 'streamable-http', url: explicit.url, server: SERVER }), (e: unknown) => e instanceof ClosedError && e.reason === 'http' && e.status === 404);
    assert.deepEqual(explicit.received('GET'), []);
  });

  for (const status of [401, 403, 429]) {
    test(`T3: ${status} on the initialize POST is not a transport refusal: no fallback, no GET`, async (t) => {
      const fixture = await startHttpFixture(t, legacyRefusingPost(status));
      await assert.rejects(connect({ transport: 'streamable-http', fallbackToSse: true, url: fixture.url, server: SERVER }), (e: unknown) => e instanceof ClosedError && e.status === status && (status === 429) !== e instanceof AuthError);
      assert.deepEqual(fixture.received('GET'), []);
    });
  }

  test('T3: a 5xx or a network failure is not a refusal either', async (t) => {
    const fixture = await startHttpFixture(t, legacyRefusingPost(500));
    await assert.rejects(connect({ transport: 'streamable-http', fallbackToSse: true, url: fixture.url, server: SERVER }), (e: unknown) => e instanceof ClosedError && e.status === 500);
    assert.deepEqual(fixture.received('GET'), []);
  });

  test('T3: refused over both transports, the error is the Streamable HTTP one (the URL is likelier wrong than the transport)', async (t) => {
    const fixture = await startHttpFixture(t, { post: (ex) => ex.status(404, 'no such endpoint'), get: (ex) => ex.status(410, 'gone') });
    await assert.rejects(
      connect({ transport: 'streamable-http', fallbackToSse: true, url: fixture.url, server: SERVER }),
      (e: unknown) => e instanceof ClosedError && e.reason === 'http' && e.status === 404 && e.method === 'initialize',
    );
    assert.equal(fixture.received('GET').length, 1, 'the legacy GET was tried once');
  });

  test('T3: a Streamable HTTP server is used as it is: no GET before the handshake, no diagnostic', async (t) => {
    const fixture = await startHttpFixture(t);
    const diagnostics: Diagnostic[] = [];
    const client = await connect({ transport: 'streamable-http', fallbackToSse: true, url: fixture.url, server: SERVER }, { onDiagnostic: (d) => diagnostics.push(d) });
    t.after(() => client.close().catch(() => {}));
    assert.equal(fixture.requests[0]?.method, 'POST');
    assert.deepEqual(diagnostics, []);
  });
});
