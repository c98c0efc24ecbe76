// G1 (#21 item 1) over Streamable HTTP: `mcpwire serve --listen 127.0.0.1:0`
// (the compiled CLI, a real child) in front of real upstream servers, used
// by the SDK v1 client and by mcpwire's client in both eras; then what the
// listener refuses before it reads a request (the transport spec's DNS-
// rebinding rule: Host and Origin; an oversize body; a missing bearer token),
// sessions that expire when idle, and a client whose connection drops in
// the middle of a call, which must cancel the upstream call.

import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ConfigError, McpClient, StreamableHttpTransport } from '../src/index.js';
import { serveToolSource } from '../src/serve/serve.js';
import { openToolSource } from '../src/toolsource/tool-source.js';
import { until } from '../src/testing/http-fixture.js';
import { everythingUpstream, fixtureUpstream, logLines, memoryUpstream, slowUpstream, startServeHttp, writeProject, type ServedHttp } from './helpers/serve.js';
import { tempLog } from './helpers/temp.js';
import { suiteCleanup } from './helpers/v2-peers.js';

type Content = { type: string; text?: string }[];
const textOf = (result: object) => (((result as { content?: unknown }).content ?? []) as Content).map((c) => c.text ?? `[${c.type}]`).join('');

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly these headers (fetch would not let a test set Host), answered or not within 10 s. */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Raw> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: options.method ?? 'POST', agent: false, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...options.headers }, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end(options.body);
  });
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'g1-raw', version: '1' } } });

describe('G1 serve --listen: SDK v1 and mcpwire against server-everything and server-memory', () => {
  const cleanup = suiteCleanup();
  let served: ServedHttp;
  before(async () => {
    const project = writeProject(cleanup, [everythingUpstream('everything', ['tools:', '  deny: ["get-env"]']), memoryUpstream(cleanup), fixtureUpstream('fx', { TS_TOOLS: 'echo,add-tool' })], 'primary:\n  tools:\n    "mcp.memory.*": { enabled: true }\n');
    served = await startServeHttp(cleanup, ['--config', project]);
  });
  after(() => cleanup.run());

  test('G1: serve prints its /mcp URL on 127.0.0.1 and the per-agent URLs; no token on loopback', () => {
    assert.match(served.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.deepEqual(served.printed.agents, [`${served.url}/primary`]);
    assert.equal(served.printed.token, undefined);
  });

  test('G1: the SDK v1 client lists the filtered tools, calls both upstreams, and hears progress and list_changed', async (t) => {
    const client = new Client({ name: 'g1-sdk-v1-http', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(served.url));
    t.after(() => client.close().catch(() => {}));
    await client.connect(transport);
    assert.ok(transport.sessionId, 'a legacy client gets a session');
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.includes('mcp_everything_echo') && names.includes('mcp_memory_read_graph'), names.join(', '));
    assert.ok(!names.includes('mcp_everything_get-env'), 'the denied tool is not served');
    assert.equal(textOf(await client.callTool({ name: 'mcp_everything_echo', arguments: { message: 'over http' } })), 'Echo: over http');
    await client.callTool({ name: 'mcp_memory_create_entities', arguments: { entities: [{ name: 'Grace', entityType: 'person', observations: ['found a moth'] }] } });
    assert.match(textOf(await client.callTool({ name: 'mcp_memory_read_graph', arguments: {} })), /found a moth/);

    const progress: number[] = [];
    await client.callTool({ name: 'mcp_everything_trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: (p) => progress.push(p.progress) });
    await until(() => progress.length === 3, 'three progress notifications on the call\'s stream');
    assert.deepEqual(progress, [1, 2, 3]);

    // list_changed has no request to ride on: it goes on the session's GET stream, which the SDK opened.
    const before = changed;
    await client.callTool({ name: 'mcp_fx_add-tool', arguments: { name: 'late' } });
    await until(() => changed > before, 'tools/list_changed on the GET stream');
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'mcp_fx_late'));
  });

  test('G1/R3: /mcp/primary serves the agent\'s tools only; an agent nobody declared is 404', async (t) => {
    const client = new Client({ name: 'g1-sdk-v1-agent', version: '1.0.0' });
    t.after(() => client.close().catch(() => {}));
    await client.connect(new StreamableHTTPClientTransport(new URL(`${served.url}/primary`)));
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.length > 0 && names.every((name) => name.startsWith('mcp_memory_')), names.join(', '));
    const nobody = await raw(`${served.url}/nobody`, { headers: { host: new URL(served.url).host }, body: INITIALIZE });
    assert.equal(nobody.status, 404);
    assert.match(nobody.body, /\/mcp\/<agent> \(primary\)/);
  });

  for (const era of ['legacy', 'modern'] as const) {
    test(`G1/E1: mcpwire (${era}) over Streamable HTTP lists and calls through serve`, async (t) => {
      const client = new McpClient(new StreamableHttpTransport({ url: served.url, server: 'serve' }), { protocolEra: era });
      t.after(() => client.close().catch(() => {}));
      await client.connect();
      assert.equal(client.era, era);
      assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'mcp_everything_echo'));
      assert.equal(textOf(await client.callTool('mcp_everything_echo', { message: era })), `Echo: ${era}`);
    });
  }

  test('G1 (DNS rebinding): a Host that is not this machine is refused 421, and nothing reaches a server', async () => {
    const port = new URL(served.url).port;
    for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `localhost.:${port}.evil.example`]) {
      const answer = await raw(served.url, { headers: { host }, body: INITIALIZE });
      assert.equal(answer.status, 421, `Host ${host}`);
      assert.equal(answer.headers['mcp-session-id'], undefined, 'no session was opened');
      assert.match(answer.body, /--allow-host/);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) assert.equal((await raw(served.url, { headers: { host }, body: INITIALIZE })).status, 200, `Host ${host}`);
  });

  test('G1 (DNS rebinding): an Origin of another site is refused 403; one of this machine is served', async () => {
    const host = new URL(served.url).host;
    for (const origin of ['http://evil.example', 'null', `http://evil.example:${new URL(served.url).port}`]) {
      const answer = await raw(served.url, { headers: { host, origin }, body: INITIALIZE });
      assert.equal(answer.status, 403, `Origin ${origin}`);
      assert.match(answer.body, /--allow-origin/);
    }
    assert.equal((await raw(served.url, { headers: { host, origin: `http://${host}` }, body: INITIALIZE })).status, 200);
  });

  test('G1 (oversize): a declared body over the limit is refused 413 before it is read', async () => {
    const answer = await raw(served.url, { headers: { host: new URL(served.url).host, 'content-length': String(64 * 1024 * 1024) }, body: '' }).catch((error: Error) => ({ status: -1, body: error.message }) as Raw);
    assert.equal(answer.status, 413, answer.body);
  });

  test('G1: a session id serve does not know is 404 (the client initializes again); a modern POST whose headers disagree with its body is -32020', async () => {
    const host = new URL(served.url).host;
    const unknown = await raw(served.url, { headers: { host, 'mcp-session-id': 'no-such-session' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    assert.equal(unknown.status, 404);
    const modern = { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } };
    const mismatch = await raw(served.url, { headers: { host, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' }, body: JSON.stringify(modern) });
    assert.equal(mismatch.status, 400);
    assert.equal((JSON.parse(mismatch.body) as { error: { code: number } }).error.code, -32020);
    const matching = await raw(served.url, { headers: { host, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }, body: JSON.stringify(modern) });
    assert.equal(matching.status, 200);
    const result = (JSON.parse(matching.body) as { result: { resultType: string; tools: unknown[] } }).result;
    assert.equal(result.resultType, 'complete');
    assert.ok(result.tools.length > 0);
  });
});

describe('G1 serve --listen: the bearer token', () => {
  test('G1: --require-token with --token-env: 401 with a Bearer challenge without it or with a wrong one; served with it; the token is never printed', async (t) => {
    const canary = 'g1-canary-token-7f3e9a1c2b5d';
    const served = await startServeHttp(t, ['--config', writeProject(t, [everythingUpstream()]), '--require-token', '--token-env', 'G1_TOKEN', '-v'], { G1_TOKEN: canary });
    const host = new URL(served.url).host;
    const none = await raw(served.url, { headers: { host }, body: INITIALIZE });
    assert.equal(none.status, 401);
    assert.match(String(none.headers['www-authenticate']), /^Bearer /);
    assert.equal((await raw(served.url, { headers: { host, authorization: 'Bearer wrong-token-of-some-length' }, body: INITIALIZE })).status, 401);
    const client = new McpClient(new StreamableHttpTransport({ url: served.url, server: 'serve', headers: { authorization: `Bearer ${canary}` } }));
    t.after(() => client.close().catch(() => {}));
    await client.connect();
    assert.equal(textOf(await client.callTool('mcp_everything_echo', { message: 'with the token' })), 'Echo: with the token');
    assert.equal(served.printed.token, undefined, 'a token from the environment is not printed');
    await served.stop();
    assert.ok(!served.stderr().includes(canary), 'the token is not in stderr');
  });

  test('G1: --require-token without --token-env generates a token and prints it once', async (t) => {
    const served = await startServeHttp(t, ['--config', writeProject(t, [everythingUpstream()]), '--require-token']);
    const token = served.printed.token;
    assert.ok(token && token.length >= 16, 'a generated token is printed in the --json line');
    const host = new URL(served.url).host;
    assert.equal((await raw(served.url, { headers: { host }, body: INITIALIZE })).status, 401);
    assert.equal((await raw(served.url, { headers: { host, authorization: `Bearer ${token}` }, body: INITIALIZE })).status, 200);
  });

  test('G1: serveToolSource refuses a bind that is not loopback without a token, before it listens', async (t) => {
    const source = await openToolSource({ project: writeProject(t, [fixtureUpstream('fx')]) });
    t.after(() => source.close());
    for (const host of ['0.0.0.0', '::', '192.0.2.1']) {
      await assert.rejects(serveToolSource(source, { kind: 'http', host, port: 0 }), (error: unknown) => error instanceof ConfigError && /bearer token is required/.test(error.message), host);
    }
    await assert.rejects(serveToolSource(source, { kind: 'http', port: 0, token: 'short' }), /at least 16 characters/);
  });
});

describe('G1 serve (library): bounded bodies, idle sessions, a dropped connection', () => {
  test('G1 (oversize): a chunked body that grows past maxBodyBytes is cut off with 413, and serve goes on', async (t) => {
    const source = await openToolSource({ project: writeProject(t, [fixtureUpstream('fx')]) });
    t.after(() => source.close());
    const handle = await serveToolSource(source, { kind: 'http', maxBodyBytes: 4096 });
    t.after(() => handle.close());
    const host = new URL(handle.url!).host;
    const padding = 'x'.repeat(8192);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: padding, version: '1' } } });
    // No content-length: the limit must hold while reading, not only on the header.
    const answer = await raw(handle.url!, { headers: { host, 'transfer-encoding': 'chunked' }, body: big }).catch((error: Error) => ({ status: -1, body: error.message, headers: {} }) as Raw);
    assert.ok(answer.status === 413 || answer.status === -1, `refused: ${answer.status} ${answer.body}`);
    assert.equal((await raw(handle.url!, { headers: { host }, body: INITIALIZE })).status, 200, 'a small request is still served');
  });

  test('G1: a session idle past sessionIdleMs expires, and its id then gets 404', async (t) => {
    const source = await openToolSource({ project: writeProject(t, [fixtureUpstream('fx')]) });
    t.after(() => source.close());
    const handle = await serveToolSource(source, { kind: 'http', sessionIdleMs: 100 });
    t.after(() => handle.close());
    const host = new URL(handle.url!).host;
    const opened = await raw(handle.url!, { headers: { host }, body: INITIALIZE });
    const session = String(opened.headers['mcp-session-id']);
    assert.match(session, /^[\x21-\x7e]+$/);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    assert.equal((await raw(handle.url!, { headers: { host, 'mcp-session-id': session }, body: list })).status, 200);
    // Left alone longer than the idle time (each request is use, so the waits are longer than it), the session goes.
    let status = 200;
    const deadline = Date.now() + 10_000;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      status = (await raw(handle.url!, { headers: { host, 'mcp-session-id': session }, body: list })).status;
    }
    assert.equal(status, 404);
  });

  for (const era of ['legacy', 'modern'] as const) {
    test(`G1: a ${era} client whose connection drops mid-call cancels the upstream call`, async (t) => {
      const log = tempLog(t, 'g1-http-drop');
      const source = await openToolSource({ project: writeProject(t, [slowUpstream('slow', log)]) });
      t.after(() => source.close());
      const handle = await serveToolSource(source, { kind: 'http' });
      t.after(() => handle.close());
      const host = new URL(handle.url!).host;
      const headers: Record<string, string> = { host };
      let params: Record<string, unknown> = { name: 'mcp_slow_wait', arguments: {} };
      if (era === 'legacy') {
        headers['mcp-session-id'] = String((await raw(handle.url!, { headers: { host }, body: INITIALIZE })).headers['mcp-session-id']);
      } else {
        params = { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } };
        Object.assign(headers, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'mcp_slow_wait' });
      }
      const url = new URL(handle.url!);
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } });
      req.on('error', () => {});
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }));
      await until(() => logLines(log).some((l) => l.startsWith('call ')), 'the call reached the upstream', 15_000);
      req.destroy();
      await until(() => logLines(log).some((l) => l.startsWith('cancelled ')), 'notifications/cancelled reached the upstream', 15_000);
      const callId = logLines(log).find((l) => l.startsWith('call '))!.slice(5);
      assert.ok(logLines(log).includes(`cancelled ${callId}`), logLines(log).join(' | '));
    });
  }
});
