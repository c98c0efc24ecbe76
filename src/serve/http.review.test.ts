// Review: a 2026-07-28 POST without a session that holds only a notification
// is answered (202) and its one-request session ends; it used to wait for an
// answer that never comes, holding the connection until the client gave up.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolSourceBridge } from './bridge.js';
import { serveHttp } from './http.js';

test('a stateless notification POST is answered 202 at once', async () => {
  const bridge = { onChange: () => () => {} } as unknown as ToolSourceBridge;
  const served = await serveHttp({ host: '127.0.0.1', port: 0, agents: [], bridge, serverInfo: { name: 'review', version: '1' } });
  try {
    const body = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });
    const response = await fetch(served.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body, signal: AbortSignal.timeout(3_000) });
    assert.equal(response.status, 202);
    assert.equal(served.sessionCount(), 0);
  } finally {
    await served.close();
  }
});

test('a request id already waiting on another POST of the session is refused, and the first POST still gets its answer', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const bridge = {
    onChange: () => () => {},
    listResources: async () => {
      await gate;
      return [];
    },
  } as unknown as ToolSourceBridge;
  const served = await serveHttp({ host: '127.0.0.1', port: 0, agents: [], bridge, serverInfo: { name: 'review', version: '1' } });
  try {
    const post = (body: object, session?: string) =>
      fetch(served.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...(session ? { 'mcp-session-id': session } : {}) }, body: JSON.stringify(body), signal: AbortSignal.timeout(3_000) });
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'review', version: '1' } } });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const first = post({ jsonrpc: '2.0', id: 7, method: 'resources/list' }, session);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await post({ jsonrpc: '2.0', id: 7, method: 'resources/list' }, session);
    assert.equal(second.status, 400);
    assert.match(await second.text(), /already in use/);
    release();
    const answered = await first;
    assert.equal(answered.status, 200);
    assert.deepEqual(((await answered.json()) as { id: number }).id, 7);
  } finally {
    await served.close();
  }
});

test('a POST that is not application/json (a browser\'s preflight-free text/plain) is refused 415 and runs nothing', async () => {
  let listed = 0;
  const bridge = {
    onChange: () => () => {},
    listResources: async () => {
      listed++;
      return [];
    },
  } as unknown as ToolSourceBridge;
  const served = await serveHttp({ host: '127.0.0.1', port: 0, agents: [], bridge, serverInfo: { name: 'review', version: '1' } });
  try {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });
    // A page of this listener's own origin (any other is refused 403 before this: G1.serve-http-hardening).
    const origin = new URL(served.url).origin;
    const modern = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/list' };
    const refused = await fetch(served.url, { method: 'POST', headers: { 'content-type': 'text/plain', origin, accept: 'application/json', ...modern }, body, signal: AbortSignal.timeout(3_000) });
    assert.equal(refused.status, 415);
    await refused.text();
    assert.equal(listed, 0);
    const taken = await fetch(served.url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/json', ...modern }, body, signal: AbortSignal.timeout(3_000) });
    await taken.text();
    assert.equal(listed, 1);
  } finally {
    await served.close();
  }
});
