// The client/transport seam, seen from a host: the handshake runs again, in
// the client, when a session expires (L1, T2, T3) and the host hears of it;
// a transport that cannot start says why in its own terms (W8); what a
// supervisor reads (pid, stderr tail, the transport in use, one settled
// `closed`); headers that change during a connection and a challenge that
// is retried once (T4); the escape hatches for methods the client does not
// wrap. Real node:http servers on 127.0.0.1 and real child processes.

import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import {
  AuthError,
  ClosedError,
  McpClient,
  RpcError,
  SseTransport,
  StdioTransport,
  StreamableHttpTransport,
  connect,
  type ServerProfile,
  type TransportEnd,
} from '../src/index.js';
import { setTimeout as delay } from 'node:timers/promises';
import { FIXTURE_INIT_RESULT, responseTo, startHttpFixture, until } from '../src/testing/http-fixture.js';
import { FIXTURE } from './helpers/fault-harness.js';
import { freePort } from './helpers/interop.js';

describe('session renewal belongs to the client (L1, T3, T2)', () => {
  test('T3/L1: after a 404 the client runs the handshake itself: its profile holds what the server said the second time, and onSessionRenewed fires once', async (t) => {
    let sessions = 0;
    const fixture = await startHttpFixture(t, {
      sessionId: () => `sess-${++sessions}`,
      post: (ex) => {
        const message = ex.message;
        if (message?.method === 'initialize' && sessions >= 1) {
          // The server restarted with a new version of itself.
          ex.json(responseTo(message, { ...FIXTURE_INIT_RESULT, serverInfo: { name: 'http-fixture', version: '2.0.0' }, instructions: 'restarted' }), {
            headers: { 'mcp-session-id': `sess-${++sessions}` },
          });
          return;
        }
        if (message?.method === 'tools/list' && ex.request.headers['mcp-session-id'] === 'sess-1') return ex.status(404, 'session expired');
        return ex.default();
      },
    });
    const renewed: ServerProfile[] = [];
    const client = new McpClient(new StreamableHttpTransport({ url: fixture.url, server: 'renew' }), { onSessionRenewed: (p) => renewed.push(p) });
    t.after(() => client.close());
    const first = await client.connect();
    assert.equal(first.serverInfo.version, '1.0.0');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), ['echo']);
    assert.equal(renewed.length, 1, 'the host is told once');
    assert.equal(renewed[0]!.serverInfo.version, '2.0.0');
    assert.equal(client.serverInfo?.version, '2.0.0', 'the client no longer reports the server it first met');
    assert.equal(client.profile?.instructions, 'restarted');
    assert.equal(client.state, 'ready');
    const ids = fixture.posted().filter((m) => m.method === 'initialize').map((m) => m.id);
    assert.equal(ids.length, 2);
    assert.ok(ids.every((id) => typeof id === 'number'), `both initialize requests carry the Connection's own ids, not transport-made ones: ${JSON.stringify(ids)}`);
  });

  test('T3: a renewal whose initialize fails ends the connection with that failure; pending and later calls reject as closed', async (t) => {
    let sessions = 0;
    const fixture = await startHttpFixture(t, {
      sessionId: () => `sess-${++sessions}`,
      post: (ex) => {
        if (ex.message?.method === 'initialize' && sessions >= 1) return ex.status(500, 'cannot start a session now');
        if (ex.message?.method === 'tools/list') return ex.status(404, 'session expired');
        return ex.default();
      },
    });
    const ends: TransportEnd[] = [];
    const client = new McpClient(new StreamableHttpTransport({ url: fixture.url, server: 'renew-fails' }), { onClose: (end) => ends.push(end) });
    t.after(() => client.close());
    await client.connect();
    await assert.rejects(client.listTools(), (e: unknown) => e instanceof ClosedError && e.reason === 'transport' && /HTTP 500/.test(e.message));
    assert.equal(client.state, 'closed');
    const end = await client.closed;
    assert.equal(end.reason, 'transport');
    assert.deepEqual(ends, [end], 'onClose once, with the same end');
    await assert.rejects(client.ping(), ClosedError);
  });

  test('T2: after a legacy SSE stream drops, requests made before the new handshake completes wait for it and then succeed', async (t) => {
    const fixture = await startHttpFixture(t, {
      kind: 'sse',
      post: async (ex) => {
        // The new session's handshake takes a while: the call below is made while it runs.
        if (ex.message?.method === 'initialize' && fixture.sessions.length > 1) await delay(200);
        return ex.default();
      },
    });
    const renewed: ServerProfile[] = [];
    const client = new McpClient(new SseTransport({ url: fixture.url, server: 'sse-renew', reconnect: { initialMs: 50 } }), { onSessionRenewed: (p) => renewed.push(p) });
    t.after(() => client.close());
    await client.connect();
    fixture.sessions[0]!.stream.drop();
    await until(() => fixture.received('POST').filter((r) => r.message?.method === 'initialize').length === 2, 'the new handshake starts');
    // Made while the stream is being reopened: held by the Connection, sent after the handshake.
    const result = await client.callTool('echo', { message: 'after the drop' }, { timeoutMs: 10_000 });
    assert.ok(Array.isArray(result.content));
    assert.equal(renewed.length, 1);
    const second = fixture.received('POST').filter((r) => r.path.endsWith(`session=${fixture.sessions[1]!.id}`)).map((r) => r.message?.method);
    assert.deepEqual(second, ['initialize', 'notifications/initialized', 'tools/call'], 'nothing goes out on the new session before its handshake');
  });
});

describe('a transport that cannot start says why in its own terms (W8)', () => {
  test('W8: legacy SSE on a closed port fails as a transport failure that names the fetch, not as a process that could not start; later calls tell the same story', async () => {
    const port = await freePort();
    const ends: TransportEnd[] = [];
    const client = new McpClient(new SseTransport({ url: `http://127.0.0.1:${port}/sse`, server: 'nobody-home', reconnect: { maxAttempts: 1 } }), { onClose: (end) => ends.push(end) });
    const failure = await client.connect().then(
      () => assert.fail('connect should fail'),
      (e: unknown) => e,
    );
    assert.ok(failure instanceof ClosedError, String(failure));
    assert.equal(failure.reason, 'transport');
    assert.doesNotMatch(failure.message, /process/);
    assert.match(failure.message, /fetch failed|ECONNREFUSED/);
    const later = await client.ping().then(
      () => assert.fail('ping should fail'),
      (e: unknown) => e,
    );
    assert.ok(later instanceof ClosedError && later.reason === 'transport', String(later));
    assert.doesNotMatch(later.message, /process/);
    assert.equal(ends.length, 1, 'onClose fires for a transport that never started');
    assert.equal((await client.closed).reason, 'transport');
  });

  test('W8: a stdio command that does not exist ends as spawn-failed, through closed and onClose too', async () => {
    const ends: TransportEnd[] = [];
    const client = new McpClient(new StdioTransport({ command: ['mcpwire-no-such-program-x'], server: 'missing' }), { onClose: (end) => ends.push(end) });
    await assert.rejects(client.connect(), (e: unknown) => e instanceof ClosedError && e.reason === 'spawn-failed');
    assert.deepEqual(ends.map((e) => e.reason), ['spawn-failed']);
    assert.equal((await client.closed).reason, 'spawn-failed');
  });
});

describe('what a supervisor reads (S1, S3)', () => {
  test('S3: pid, stderr tail and transport kind of a stdio server; one `closed` settles when it dies, with the exit code and the tail', async (t) => {
    const client = new McpClient(new StdioTransport({ command: [process.execPath, FIXTURE], server: 'fault' }));
    t.after(() => client.close());
    await client.connect();
    assert.equal(client.transportKind, 'stdio');
    const pid = client.pid;
    assert.ok(typeof pid === 'number' && pid > 0 && pid !== process.pid);
    const call = client.callTool('exit', { code: 3, stderr: 'fatal: out of disk' });
    await assert.rejects(call, (e: unknown) => e instanceof ClosedError && e.reason === 'exited' && e.exitCode === 3);
    const end = await client.closed;
    assert.equal(end.reason, 'exited');
    assert.equal('exitCode' in end ? end.exitCode : undefined, 3);
    assert.match(client.stderrTail(), /fatal: out of disk/);
    assert.equal(client.state, 'closed');
  });

  test('S1: after connect() falls back from Streamable HTTP to legacy SSE, the client says which transport it uses', async (t) => {
    const fixture = await startHttpFixture(t, {
      kind: 'sse',
      path: '/mcp',
    });
    const client = await connect({ transport: 'streamable-http', url: fixture.url, server: 'fallback', fallbackToSse: true });
    t.after(() => client.close());
    assert.equal(client.transportKind, 'sse');
  });
});

describe('headers that change during a connection (T4)', () => {
  test('T4: a header provider is asked before every request; a 401 is retried once with fresh headers when its challenge handler says so', async (t) => {
    let issued = 0;
    let valid = 'tok-1';
    const fixture = await startHttpFixture(t, {
      post: (ex) => {
        if (ex.request.headers.authorization !== `Bearer ${valid}`) return ex.status(401, 'expired token', { 'www-authenticate': 'Bearer error="invalid_token"' });
        return ex.default();
      },
    });
    const challenges: { status: number; wwwAuthenticate: string | undefined }[] = [];
    const client = new McpClient(
      new StreamableHttpTransport({
        url: fixture.url,
        server: 'rotating',
        headerProvider: {
          headers: async () => ({ Authorization: `Bearer tok-${issued === 0 ? ++issued : issued}` }),
          onChallenge: ({ status, wwwAuthenticate }) => {
            challenges.push({ status, wwwAuthenticate });
            issued++;
            return true;
          },
        },
      }),
    );
    t.after(() => client.close());
    await client.connect();
    valid = 'tok-2'; // the server rotates the token
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), ['echo']);
    assert.deepEqual(challenges, [{ status: 401, wwwAuthenticate: 'Bearer error="invalid_token"' }]);
    const auth = fixture.received('POST').map((r) => r.headers.authorization);
    assert.deepEqual(auth.slice(-2), ['Bearer tok-1', 'Bearer tok-2'], 'the refused request, then the same request with the new token');
  });

  test('T4: a challenge the provider declines fails with AuthError; a request is sent again at most twice (a renewed token, then a DPoP nonce), never a third time', async (t) => {
    const fixture = await startHttpFixture(t, { post: (ex) => (ex.message?.method === 'tools/list' ? ex.status(401) : ex.default()) });
    let challenges = 0;
    const client = new McpClient(
      new StreamableHttpTransport({ url: fixture.url, server: 'declines', headerProvider: { headers: () => ({ 'x-api-key': 'k-123456' }), onChallenge: () => ++challenges <= 2 } }),
    );
    t.after(() => client.close());
    await client.connect();
    const lists = () => fixture.received('POST').filter((r) => r.message?.method === 'tools/list').length;
    await assert.rejects(client.listTools(), (e: unknown) => e instanceof AuthError && e.status === 401);
    assert.equal(challenges, 2, 'asked after the first 401 and after the first retry');
    assert.equal(lists(), 3, 'the request and two retries, then the 401 stands');
    await assert.rejects(client.listTools(), AuthError);
    assert.equal(challenges, 3, 'declined: no retry');
    assert.equal(lists(), 4);
  });

  test('T4: a value a provider hands out later is scrubbed from errors like a configured secret (canary)', async (t) => {
    const canary = `sk-canary-${Math.random().toString(16).slice(2)}`;
    let calls = 0;
    const fixture = await startHttpFixture(t, {
      post: (ex) => (ex.message?.method === 'tools/list' ? ex.status(500, `internal error, your header was ${String(ex.request.headers['x-session-token'])}`) : ex.default()),
    });
    const client = new McpClient(
      new StreamableHttpTransport({ url: fixture.url, server: 'late-secret', listen: false, headerProvider: { headers: () => ({ 'X-Session-Token': ++calls > 2 ? canary : 'first-value' }) } }),
    );
    t.after(() => client.close());
    await client.connect();
    assert.equal(calls, 2, 'the canary is handed out only after the handshake');
    const error = await client.listTools().then(
      () => assert.fail('listTools should fail'),
      (e: unknown) => e as Error,
    );
    assert.ok(error instanceof ClosedError && error.status === 500);
    const seen = `${error.message}\n${error.stack}\n${String((error.cause as Error | undefined)?.message)}`;
    assert.doesNotMatch(seen, new RegExp(canary));
    assert.match(seen, /\[redacted\]/);
  });
});

describe('escape hatches (K1)', () => {
  test('K1: client.request() reaches a method the client does not wrap, with typed errors; requestHandlers answer server requests beyond sampling, elicitation and roots', async (t) => {
    // What the client POSTed back as answers to the server's requests.
    const seen = () => fixture.posted().flatMap((m) => (m.method === undefined && 'result' in m ? [m.result] : []));
    const fixture = await startHttpFixture(t, {
      post: async (ex) => {
        const message = ex.message;
        // initialize is answered by the fixture, and so are notifications and responses (202).
        if (!message || message.id === undefined || message.method === undefined || message.method === 'initialize') return ex.default();
        if (message.method === 'completion/complete') return ex.json(responseTo(message, { completion: { values: ['alpha', 'beta'], total: 2 } }));
        if (message.method === 'tools/call') {
          // Ask the client something first, on the response stream, then answer.
          await ex.event({ data: { jsonrpc: '2.0', id: 'q1', method: 'x-vendor/whoami', params: { detail: true } } });
          try {
            await until(() => seen().length > 0, 'the answer to x-vendor/whoami');
          } catch {
            // Without the client's answer the stream is dropped, so the call fails rather than hangs.
            return ex.drop();
          }
          await ex.event({ data: responseTo(message, { content: [{ type: 'text', text: 'done' }] }) });
          return ex.end();
        }
        ex.json({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
      },
    });
    const client = new McpClient(new StreamableHttpTransport({ url: fixture.url, server: 'hatch', listen: false }), {
      requestHandlers: { 'x-vendor/whoami': (params) => ({ me: 'mcpwire', asked: params }) },
    });
    t.after(() => client.close());
    await client.connect();
    assert.deepEqual(await client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }), { completion: { values: ['alpha', 'beta'], total: 2 } });
    await assert.rejects(client.request('vendor/unknown'), (e: unknown) => e instanceof RpcError && e.rpcCode === -32601 && e.method === 'vendor/unknown');
    const result = await client.callTool('ask', {});
    assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
    assert.deepEqual(seen(), [{ me: 'mcpwire', asked: { detail: true } }]);
  });
});
