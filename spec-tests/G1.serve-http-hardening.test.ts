// G1 (#21 item 1): what `mcpwire serve`'s Streamable HTTP listener owes its
// clients besides answers. close() answers every request still waiting (a
// host then exits by itself); sessions are capped; a client that stops
// reading its stream loses it (and its upstream call) instead of making the
// process hold every byte; an Origin is this listener's own only with its
// port; a 2026-07-28 POST carries the standard headers. Real upstream
// children, real sockets on 127.0.0.1.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import type { ToolSourceBridge } from '../src/serve/bridge.js';
import { serveHttp } from '../src/serve/http.js';
import { serveToolSource } from '../src/serve/serve.js';
import { openToolSource } from '../src/toolsource/tool-source.js';
import { until, within } from '../src/testing/http-fixture.js';
import { ROOT } from './helpers/cli.js';
import { logLines, slowUpstream, startServeHttp, writeProject, type Upstream } from './helpers/serve.js';
import { tempLog } from './helpers/temp.js';

const CLOSE_HOST = fileURLToPath(new URL('./fixtures/G1-serve-close-host.ts', import.meta.url));
const FLOOD_UPSTREAM = fileURLToPath(new URL('./fixtures/G1-flood-upstream.mjs', import.meta.url));
const MODERN = '2026-07-28';
const modernMeta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'g1-hardening', version: '1' } } });

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Whether the whole response came (not cut off by a closed socket). */
  complete: boolean;
}

/** One request with exactly these headers; resolves with what came, also when the socket closed mid-answer. */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Raw> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: options.method ?? 'POST', agent: false, headers: { host: target.host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...options.headers }, timeout: 20_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('error', () => {});
      res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, complete: res.complete }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 20 s')));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The JSON-RPC messages of an SSE body. */
function events(body: string): { id?: unknown; error?: { code: number; message: string } }[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as { id?: unknown; error?: { code: number; message: string } });
}

/** A listener whose bridge answers nothing but resources/list (enough for sessions, origins and headers). */
async function bare(t: { after(fn: () => unknown): void }, options: Partial<Parameters<typeof serveHttp>[0]> = {}) {
  const bridge = { onChange: () => () => {}, listResources: async () => [], listTools: async () => [] } as unknown as ToolSourceBridge;
  const served = await serveHttp({ host: '127.0.0.1', port: 0, agents: [], bridge, serverInfo: { name: 'g1-hardening', version: '1' }, ...options });
  t.after(() => served.close());
  return served;
}

describe('G1 serve close(): nothing left waiting', () => {
  test('G1: close() answers a legacy SSE call and a modern JSON call waiting on a slow upstream with -32000, and the host then exits by itself', async (t) => {
    const log = tempLog(t, 'g1-close');
    const project = writeProject(t, [slowUpstream('slow', log)]);
    const host = spawn(process.execPath, ['--import', 'tsx', CLOSE_HOST, project], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => host.once('exit', (code) => resolve(code)));
    t.after(() => {
      if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
    });
    let stderr = '';
    host.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const lines: string[] = [];
    createInterface({ input: host.stdout }).on('line', (line) => lines.push(line));
    await until(() => lines.length > 0 || host.exitCode !== null, 'the host to listen', 30_000);
    const { url } = JSON.parse(lines[0] ?? `{"url":"none: ${stderr}"}`) as { url: string };

    const session = String((await raw(url, { body: INITIALIZE })).headers['mcp-session-id']);
    const call = { name: 'mcp_slow_wait', arguments: {} };
    const legacy = raw(url, { headers: { 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: call }) });
    const modern = raw(url, {
      headers: { accept: 'application/json', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': call.name },
      body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { ...call, _meta: modernMeta } }),
    });
    await until(() => logLines(log).filter((l) => l.startsWith('call ')).length === 2, 'both calls to reach the upstream', 20_000);
    host.stdin.end('close\n');

    const sse = await legacy;
    assert.equal(sse.status, 200);
    assert.ok(sse.complete, `the stream ended cleanly, not cut off: ${sse.body}`);
    assert.deepEqual(events(sse.body).find((m) => m.id === 7)?.error?.code, -32000, sse.body);
    const json = await modern;
    assert.ok(json.complete, 'the JSON answer came whole');
    const answer = JSON.parse(json.body) as { id: number; error: { code: number; message: string } };
    assert.equal(answer.id, 8);
    assert.equal(answer.error.code, -32000);
    assert.match(answer.error.message, /shutting down/);

    const code = await within(exited, 'the host to exit by itself once serve and the source are closed', 20_000).catch((error: Error) => {
      throw new Error(`${error.message}; it printed: ${lines.join(' | ')}`);
    });
    assert.equal(code, 0, stderr);
    assert.ok(lines.includes('closed'), lines.join(' | '));
  });

  test('G1: SIGTERM to `mcpwire serve --listen` answers a call still waiting with -32000 before the process exits', async (t) => {
    const log = tempLog(t, 'g1-sigterm');
    const served = await startServeHttp(t, ['--config', writeProject(t, [slowUpstream('slow', log)])]);
    const session = String((await raw(served.url, { body: INITIALIZE })).headers['mcp-session-id']);
    const waiting = raw(served.url, { headers: { 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'mcp_slow_wait', arguments: {} } }) });
    await until(() => logLines(log).some((l) => l.startsWith('call ')), 'the call to reach the upstream', 20_000);
    const exited = new Promise<number | null>((resolve) => served.child.once('exit', (code) => resolve(code)));
    served.child.kill('SIGTERM');
    const answer = await waiting;
    assert.ok(answer.complete, `the stream ended cleanly: ${answer.body}`);
    assert.equal(events(answer.body).find((m) => m.id === 11)?.error?.code, -32000, answer.body);
    assert.equal(await exited, 143, served.stderr());
  });

  test('G1: close() ends a session\'s open GET stream cleanly, and the listener is gone afterwards', async (t) => {
    const served = await bare(t);
    const session = String((await raw(served.url, { body: INITIALIZE })).headers['mcp-session-id']);
    const stream = raw(served.url, { method: 'GET', headers: { 'mcp-session-id': session, accept: 'text/event-stream' } });
    await until(() => served.sessionCount() === 1, 'the session', 5_000);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the GET is in before close()
    await served.close();
    const ended = await stream;
    assert.equal(ended.status, 200);
    assert.ok(ended.complete, 'the stream ended, not cut off');
    await assert.rejects(raw(served.url, { body: INITIALIZE }), /ECONNREFUSED/);
  });
});

describe('G1 serve: sessions are capped', () => {
  test('G1: an initialize over maxSessions is answered 503 with a JSON-RPC error saying what to do; ending a session makes room', async (t) => {
    const served = await bare(t, { maxSessions: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const opened = await raw(served.url, { body: INITIALIZE });
      assert.equal(opened.status, 200);
      ids.push(String(opened.headers['mcp-session-id']));
    }
    const refused = await raw(served.url, { body: INITIALIZE });
    assert.equal(refused.status, 503);
    assert.equal(refused.headers['mcp-session-id'], undefined, 'no session was opened');
    assert.match(String(refused.headers['retry-after']), /^\d+$/);
    const error = JSON.parse(refused.body) as { id: number; error: { code: number; message: string } };
    assert.equal(error.id, 1);
    assert.equal(error.error.code, -32000);
    assert.match(error.error.message, /2 sessions open.*DELETE/);
    assert.equal(served.sessionCount(), 2);
    // The sessions open are untouched (not evicted) …
    assert.equal((await raw(served.url, { headers: { 'mcp-session-id': ids[0]! }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) })).status, 200);
    // … and one ended makes room.
    assert.equal((await raw(served.url, { method: 'DELETE', headers: { 'mcp-session-id': ids[1]! } })).status, 200);
    assert.equal((await raw(served.url, { body: INITIALIZE })).status, 200);
  });

  test('G1: at the cap, a session already idle past sessionIdleMs is swept at once, not waited for', async (t) => {
    // Date alone is mocked: the sweep's real interval (30 s at this idle time) cannot have run when the clock jumps.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const served = await bare(t, { maxSessions: 1, sessionIdleMs: 600_000 });
    assert.equal((await raw(served.url, { body: INITIALIZE })).status, 200);
    assert.equal((await raw(served.url, { body: INITIALIZE })).status, 503, 'a session used just now is not swept');
    t.mock.timers.tick(600_001);
    assert.equal((await raw(served.url, { body: INITIALIZE })).status, 200, 'the expired session made room');
    assert.equal(served.sessionCount(), 1);
  });
});

describe('G1 serve: a client that stops reading its stream', () => {
  for (const era of ['legacy', 'modern'] as const) {
    test(`G1: a ${era} client that stops reading while the upstream floods progress loses its stream and its call; the bytes held stay bounded`, async (t) => {
      const log = tempLog(t, `g1-flood-${era}`);
      const upstream: Upstream = { key: 'flood', lines: ['transport: stdio', `command: ${JSON.stringify([process.execPath, FLOOD_UPSTREAM])}`, 'env:', `  G1_LOG: ${JSON.stringify(log)}`] };
      const source = await openToolSource({ project: writeProject(t, [upstream]) });
      t.after(() => source.close());
      const problems: string[] = [];
      const maxUnreadBytes = 256 * 1024;
      const handle = await serveToolSource(source, { kind: 'http', maxUnreadBytes }, { onProblem: (text) => problems.push(text) });
      t.after(() => handle.close());
      const url = new URL(handle.url!);

      // 12288 notifications of 4 KiB: 48 MiB if every one were held for the client.
      const floodBytes = 12_288 * 4096;
      const headers: Record<string, string> = { host: url.host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      let params: Record<string, unknown> = { name: 'mcp_flood_flood', arguments: {}, _meta: { progressToken: 'p1' } };
      if (era === 'legacy') {
        headers['mcp-session-id'] = String((await raw(handle.url!, { body: INITIALIZE })).headers['mcp-session-id']);
      } else {
        params = { ...params, _meta: { progressToken: 'p1', ...modernMeta } };
        Object.assign(headers, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'mcp_flood_flood' });
      }
      const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params });
      const socket = connect({ host: url.hostname, port: Number(url.port) });
      t.after(() => socket.destroy());
      let received = 0;
      let closed = false;
      socket.on('data', (chunk: Buffer) => (received += chunk.length));
      socket.on('close', () => (closed = true));
      socket.on('error', () => {});
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.pause(); // never reads from here on, until the upstream has said how the call ended
      socket.write(`POST ${url.pathname} HTTP/1.1\r\n${Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body)) }).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`);

      await until(() => logLines(log).some((l) => l.startsWith('cancelled ') || l.startsWith('answered ')), 'the upstream to end or cancel the flood', 60_000);
      const ended = logLines(log).find((l) => l.startsWith('cancelled ') || l.startsWith('answered '))!;
      assert.match(ended, /^cancelled /, `the call was cancelled upstream when its stream was dropped, not run to its end: ${ended}`);
      assert.ok(problems.some((p) => /stopped reading/.test(p)), problems.join(' | '));

      // What reaches the client now is what was still held for it (the kernel's buffers included): far less than the flood.
      socket.resume();
      await until(() => closed, 'the server to close the stream', 20_000);
      t.diagnostic(`the client got ${received} bytes of a ${floodBytes}-byte flood (bound ${maxUnreadBytes}); the upstream ${ended}`);
      assert.ok(received < floodBytes / 4, `the client got ${received} bytes of a ${floodBytes}-byte flood`);
    });
  }

  test('G1: close() does not wait on a client that never reads: its socket is closed after the grace, and close() resolves', async (t) => {
    const log = tempLog(t, 'g1-flood-close');
    const upstream: Upstream = { key: 'flood', lines: ['transport: stdio', `command: ${JSON.stringify([process.execPath, FLOOD_UPSTREAM])}`, 'env:', `  G1_LOG: ${JSON.stringify(log)}`] };
    const source = await openToolSource({ project: writeProject(t, [upstream]) });
    t.after(() => source.close());
    // A bound the flood stays under: the whole answer waits in the response for a client that does not read.
    const handle = await serveToolSource(source, { kind: 'http', maxUnreadBytes: 256 * 1024 * 1024 });
    t.after(() => handle.close());
    const url = new URL(handle.url!);
    const session = String((await raw(handle.url!, { body: INITIALIZE })).headers['mcp-session-id']);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'mcp_flood_flood', arguments: { count: 4096 }, _meta: { progressToken: 'p1' } } });
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    t.after(() => socket.destroy());
    let closed = false;
    socket.on('close', () => (closed = true)).on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.pause();
    socket.write(`POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\nmcp-session-id: ${session}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    await until(() => logLines(log).some((l) => l.startsWith('answered ')), 'the flood to end', 60_000);
    await within(handle.close(), 'close() with a client that does not read', 15_000);
    socket.resume();
    await until(() => closed, 'the socket to be closed by serve', 15_000);
  });
});

describe('G1 serve: the Origin is this listener\'s own, port included', () => {
  test('G1 (DNS rebinding): an Origin of another port of localhost is refused 403; the listener\'s own origin and an --allow-origin are served', async (t) => {
    const served = await bare(t, { allowOrigins: ['http://localhost:5173'] });
    const port = Number(new URL(served.url).port);
    const other = port === 65_535 ? port - 1 : port + 1;
    for (const origin of [`http://localhost:${other}`, `http://127.0.0.1:${other}`, 'http://localhost', `https://localhost:${port}`, 'http://localhost:5174']) {
      const refused = await raw(served.url, { headers: { origin }, body: INITIALIZE });
      assert.equal(refused.status, 403, `Origin ${origin}`);
      assert.match(refused.body, /--allow-origin/);
    }
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`, 'http://localhost:5173']) {
      assert.equal((await raw(served.url, { headers: { origin }, body: INITIALIZE })).status, 200, `Origin ${origin}`);
    }
    // The Host rules are unchanged.
    assert.equal((await raw(served.url, { headers: { host: `evil.example:${port}` }, body: INITIALIZE })).status, 421);
  });
});

describe('G1 serve: a 2026-07-28 POST carries the standard headers', () => {
  const list = { jsonrpc: '2.0', id: 4, method: 'resources/list', params: { _meta: modernMeta } };
  const read = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'café tool', arguments: {}, _meta: modernMeta } };
  const mismatch = (answer: Raw, id: number, pattern: RegExp) => {
    assert.equal(answer.status, 400, answer.body);
    const error = JSON.parse(answer.body) as { id: number; error: { code: number; message: string } };
    assert.equal(error.error.code, -32020, answer.body);
    assert.equal(error.id, id);
    assert.match(error.error.message, pattern);
  };

  test('G1/M2: a modern request without Mcp-Method or MCP-Protocol-Version is refused 400 with HeaderMismatch (-32020); with them it is served', async (t) => {
    const served = await bare(t);
    mismatch(await raw(served.url, { headers: { 'mcp-protocol-version': MODERN }, body: JSON.stringify(list) }), 4, /Mcp-Method header is absent/);
    mismatch(await raw(served.url, { headers: { 'mcp-method': 'resources/list' }, body: JSON.stringify(list) }), 4, /MCP-Protocol-Version header is absent/);
    const served200 = await raw(served.url, { headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'resources/list' }, body: JSON.stringify(list) });
    assert.equal(served200.status, 200, served200.body);
  });

  test('G1/M2: Mcp-Name is required on tools/call and must match the body, Base64 sentinel decoded', async (t) => {
    const served = await bare(t);
    const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' };
    mismatch(await raw(served.url, { headers, body: JSON.stringify(read) }), 5, /Mcp-Name header is absent/);
    mismatch(await raw(served.url, { headers: { ...headers, 'mcp-name': 'other' }, body: JSON.stringify(read) }), 5, /does not match/);
    mismatch(await raw(served.url, { headers: { ...headers, 'mcp-name': '=?base64?not base64?=' }, body: JSON.stringify(read) }), 5, /invalid/);
    const encoded = `=?base64?${Buffer.from('café tool', 'utf8').toString('base64')}?=`;
    const passed = await raw(served.url, { headers: { ...headers, 'mcp-name': encoded, accept: 'application/json' }, body: JSON.stringify(read) });
    assert.notEqual(passed.status, 400, `the headers were accepted: ${passed.body}`);
  });

  test('G1/M2: a modern notification without the headers is still accepted (202), as the SDK v2 server has it', async (t) => {
    const served = await bare(t);
    const note = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, _meta: modernMeta } };
    assert.equal((await raw(served.url, { body: JSON.stringify(note) })).status, 202);
  });
});
