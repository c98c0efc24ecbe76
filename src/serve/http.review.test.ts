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
