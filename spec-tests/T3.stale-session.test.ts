// #16 item 7: a server restarted on the same port no longer knows the
// client's session. The spec's answer is HTTP 404 (the client MUST start a
// new session); server-everything, like the SDK examples it follows, answers
// 400 with a JSON-RPC error "Bad Request: No valid session ID provided".
// Either way the client runs the handshake again once and sends the message
// again: against the real server-everything (killed and started again on
// its port, with the GET stream off so that only the POST path is tested)
// and against an SDK v1 server answering 404. A 400 that says something
// else, or one to a message without a session, stays an HTTP error.

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { describe, test, type TestContext } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ClosedError, McpClient, SessionExpiredError, StreamableHttpTransport } from '../src/index.js';
import { startHttpFixture } from '../src/testing/http-fixture.js';
import { restartableEverything } from './helpers/everything-restartable.js';
import { text } from './helpers/interop.js';

/** A fetch that records the status and body of every refused answer. */
function recordingFetch(refusals: { method: string; status: number; body: string }[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.status >= 400) refusals.push({ method: init?.method ?? 'GET', status: response.status, body: await response.clone().text() });
    return response;
  };
}

async function listen(t: TestContext, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const http: Server = createServer(handler);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => http.close(() => resolve())));
  return `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
}

async function sdkServer(): Promise<McpServer> {
  const { z } = await import('zod');
  const mcp = new McpServer({ name: 'sdk-v1', version: '1.0.0' });
  mcp.tool('echo', { message: z.string() }, async ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] }));
  return mcp;
}

/**
 * An SDK v1 server with one transport per session, as the SDK's examples
 * route them, except that a session it does not know is answered the way
 * the spec says and the SDK's own transport does: 404, -32001 "Session not
 * found". "Restarted" by forgetting every session.
 */
async function sdkMultiSessionServer(t: TestContext): Promise<{ url: string; restart: () => void }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const url = await listen(t, (req, res) => {
    void (async () => {
      const id = req.headers['mcp-session-id'];
      if (typeof id === 'string') {
        const known = sessions.get(id);
        if (known) return known.handleRequest(req, res);
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void sessions.set(sid, transport) });
      await (await sdkServer()).connect(transport);
      await transport.handleRequest(req, res);
    })();
  });
  return { url, restart: () => sessions.clear() };
}

/** An SDK v1 server with a single session, the SDK's simplest setup: after a restart its fresh transport answers 400 "Server not initialized". */
async function sdkSingleSessionServer(t: TestContext): Promise<{ url: string; restart: () => Promise<void> }> {
  let transport!: StreamableHTTPServerTransport;
  const boot = async () => {
    transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await (await sdkServer()).connect(transport);
  };
  await boot();
  const url = await listen(t, (req, res) => void transport.handleRequest(req, res));
  return { url, restart: boot };
}

describe('T3: a stale session after a server restart (#16 item 7)', { timeout: 90_000 }, () => {
  test('real server-everything: restarted on the same port, it answers 400 to the old session; the client re-initializes once and the call succeeds', async (t) => {
    const server = await restartableEverything(t, 'streamableHttp');
    const refusals: { method: string; status: number; body: string }[] = [];
    let renewed = 0;
    const client = new McpClient(new StreamableHttpTransport({ url: `http://127.0.0.1:${server.port}/mcp`, server: 'everything-http', listen: false, fetch: recordingFetch(refusals) }), {
      timeoutMs: 15_000,
      onSessionRenewed: () => renewed++,
    });
    t.after(() => client.close());
    await client.connect();
    assert.equal(text(await client.callTool('echo', { message: 'before' })), 'Echo: before');

    await server.kill();
    await server.start();
    assert.equal(text(await client.callTool('echo', { message: 'after the restart' })), 'Echo: after the restart');
    assert.equal(renewed, 1);
    assert.equal(client.state, 'ready');
    const refusal = refusals.find((r) => r.method === 'POST');
    assert.equal(refusal?.status, 400, JSON.stringify(refusals));
    assert.match(refusal!.body, /No valid session ID provided/);
    t.diagnostic(`server-everything answered the old session with HTTP ${refusal!.status} ${refusal!.body}`);
    assert.equal(text(await client.callTool('echo', { message: 'still' })), 'Echo: still');
  });

  test('SDK v1 server: a new session after a restart answers 404 "Session not found" to the old one (the spec path); the client re-initializes once', async (t) => {
    const server = await sdkMultiSessionServer(t);
    const refusals: { method: string; status: number; body: string }[] = [];
    let renewed = 0;
    const client = new McpClient(new StreamableHttpTransport({ url: server.url, server: 'sdk-v1', listen: false, fetch: recordingFetch(refusals) }), { onSessionRenewed: () => renewed++ });
    t.after(() => client.close());
    await client.connect();
    assert.equal(text(await client.callTool('echo', { message: 'one' })), 'Echo: one');
    server.restart();
    assert.equal(text(await client.callTool('echo', { message: 'two' })), 'Echo: two');
    assert.equal(renewed, 1);
    assert.equal(refusals[0]?.status, 404, JSON.stringify(refusals));
    assert.match(refusals[0]!.body, /Session not found/);
  });

  test('SDK v1 single-session server: restarted, it answers 400 "Bad Request: Server not initialized" to the old session; the client re-initializes once', async (t) => {
    const server = await sdkSingleSessionServer(t);
    const refusals: { method: string; status: number; body: string }[] = [];
    let renewed = 0;
    const client = new McpClient(new StreamableHttpTransport({ url: server.url, server: 'sdk-v1-single', listen: false, fetch: recordingFetch(refusals) }), { onSessionRenewed: () => renewed++ });
    t.after(() => client.close());
    await client.connect();
    await server.restart();
    assert.equal(text(await client.callTool('echo', { message: 'two' })), 'Echo: two');
    assert.equal(renewed, 1);
    assert.equal(refusals[0]?.status, 400, JSON.stringify(refusals));
    assert.match(refusals[0]!.body, /Server not initialized/);
  });

  test('a 400 that does not say the session is unknown stays an HTTP error: no new handshake', async (t) => {
    const fixture = await startHttpFixture(t, {
      sessionId: 'sess-1',
      post: (ex) => (ex.message?.method === 'tools/call' ? ex.json({ jsonrpc: '2.0', id: ex.message.id, error: { code: -32602, message: 'Bad Request: invalid arguments' } }, { status: 400 }) : ex.default()),
    });
    const client = new McpClient(new StreamableHttpTransport({ url: fixture.url, server: 'http' }));
    t.after(() => client.close());
    await client.connect();
    await assert.rejects(client.callTool('echo'), (e: unknown) => e instanceof ClosedError && !(e instanceof SessionExpiredError) && e.reason === 'http' && e.status === 400 && /invalid arguments/.test(e.message));
    assert.equal(fixture.posted().filter((m) => m.method === 'initialize').length, 1);
  });

  test('a 400 "No valid session" to a request that carried no session stays an HTTP error', async (t) => {
    const fixture = await startHttpFixture(t, {
      post: (ex) => (ex.message?.method === 'tools/call' ? ex.json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } }, { status: 400 }) : ex.default()),
    });
    const client = new McpClient(new StreamableHttpTransport({ url: fixture.url, server: 'http' }));
    t.after(() => client.close());
    await client.connect();
    await assert.rejects(client.callTool('echo'), (e: unknown) => e instanceof ClosedError && !(e instanceof SessionExpiredError) && e.status === 400);
    assert.equal(fixture.posted().filter((m) => m.method === 'initialize').length, 1);
  });

  test('a fixture answering 400 "No valid session ID provided" to the old session: one renewal, then the call is sent again', async (t) => {
    let sessions = 0;
    let current = '';
    const fixture = await startHttpFixture(t, {
      sessionId: () => (current = `sess-${++sessions}`),
      post: (ex) => {
        const sent = ex.request.headers['mcp-session-id'];
        if (sent !== undefined && sent !== current) return ex.json({ jsonrpc: '2.0', id: ex.message?.id ?? null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } }, { status: 400 });
        return ex.default();
      },
    });
    const client = new McpClient(new StreamableHttpTransport({ url: fixture.url, server: 'http' }));
    t.after(() => client.close());
    await client.connect();
    current = 'sess-restarted'; // the server forgot sess-1
    assert.equal(text(await client.callTool('echo')), 'called echo');
    assert.deepEqual(fixture.posted().map((m) => m.method), ['initialize', 'notifications/initialized', 'tools/call', 'initialize', 'notifications/initialized', 'tools/call']);
  });
});
