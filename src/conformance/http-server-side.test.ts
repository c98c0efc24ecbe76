// The HTTP server sides on their own, driven by plain fetch (not the
// client under test): where each s2c message goes, which client requests
// are refused as transport violations, and that an s2c close and dispose()
// leave nothing listening.

import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { accepts, rawBytesSkipReason, type HttpServerSide } from './http-server-side.js';
import type { ServerSide, ServerSideEvents } from './server-side.js';
import { sseServerSides } from './sse-server-side.js';
import { streamableHttpServerSides } from './streamable-http-server-side.js';
import { parseTranscript } from './transcript.js';
import { until } from '../testing/http-fixture.js';

/** What a server side reported to the runner. */
interface Seen {
  messages: unknown[];
  bad: string[];
  gone: string[];
}

const started: ServerSide[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((side) => side.dispose()));
});

/** Starts a server side and returns it with its URL (read from the transport it would give the client). */
async function startSide(transport: 'streamable-http' | 'sse'): Promise<{ side: ServerSide; url: string; seen: Seen }> {
  const factory = transport === 'sse' ? sseServerSides : streamableHttpServerSides;
  const side = factory.create('unit');
  started.push(side);
  const seen: Seen = { messages: [], bad: [], gone: [] };
  const events: ServerSideEvents = {
    onMessage: (value) => seen.messages.push(value),
    onBadOutput: (detail) => seen.bad.push(detail),
    onGone: (detail) => seen.gone.push(detail),
  };
  await side.start(events);
  const url = (side as HttpServerSide).url;
  return { side, url, seen };
}

/** Reads SSE events (their data, parsed when JSON) from a response until `count` arrived or the body ends. */
async function readEvents(response: Response, count = Infinity): Promise<{ events: { event?: string; data: unknown }[]; ended: boolean }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: { event?: string; data: unknown }[] = [];
  let buffer = '';
  for (;;) {
    if (events.length >= count) {
      reader.releaseLock();
      return { events, ended: false };
    }
    const { value, done } = await reader.read();
    if (done) return { events, ended: true };
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
      let parsed: unknown = data;
      try {
        parsed = JSON.parse(data);
      } catch {
        // the endpoint event's data is a plain URI
      }
      events.push(event === undefined ? { data: parsed } : { event, data: parsed });
    }
  }
}

const ACCEPT_BOTH = 'application/json, text/event-stream';
const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const INITIALIZE_RESULT = { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers }, body: JSON.stringify(body) });
}

/** Streamable HTTP: initialize and initialized, as a client would; returns the session headers. */
async function handshake(side: ServerSide, url: string, seen: Seen): Promise<Record<string, string>> {
  // The initialize stream's headers go with its first event (a refused initialize gets no session), so answer first.
  const arrived = seen.messages.length;
  const pending = post(url, INITIALIZE);
  await until(() => seen.messages.length > arrived, 'the initialize POST');
  side.sendMessage(INITIALIZE_RESULT);
  const response = await pending;
  const sessionId = response.headers.get('mcp-session-id');
  assert.ok(sessionId, 'the initialize answer carries Mcp-Session-Id');
  assert.deepEqual((await readEvents(response)).events, [{ data: INITIALIZE_RESULT }]);
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
  assert.equal((await post(url, INITIALIZED, headers)).status, 202);
  return headers;
}

describe('rawBytesSkipReason', () => {
  const header = '{"mcpTranscript":1,"name":"x","transport":"stdio","protocolVersion":"2025-11-25"}';
  test('names the first raw or rawBase64 line', () => {
    const t = parseTranscript(`${header}\n{"op":"connect"}\n{"dir":"s2c","msg":{"jsonrpc":"2.0","method":"x"}}\n{"dir":"s2c","rawBase64":"AA=="}\n{"dir":"s2c","raw":"x"}`);
    assert.match(rawBytesSkipReason(t) ?? '', /^line 4 is an s2c rawBase64 line: .*skipped/);
  });
  test('nothing to say about a case of msg and close lines', () => {
    const t = parseTranscript(`${header}\n{"op":"connect"}\n{"dir":"s2c","msg":{"jsonrpc":"2.0","method":"x"}}\n{"dir":"s2c","close":true}`);
    assert.equal(rawBytesSkipReason(t), undefined);
  });
});

test('accepts() reads media ranges and wildcards', () => {
  assert.equal(accepts('application/json, text/event-stream', 'text/event-stream'), true);
  assert.equal(accepts('text/*;q=0.5', 'text/event-stream'), true);
  assert.equal(accepts('*/*', 'application/json'), true);
  assert.equal(accepts('application/json', 'text/event-stream'), false);
  assert.equal(accepts(undefined, 'application/json'), false);
});

describe('Streamable HTTP server side', () => {
  test('a request gets an SSE stream: messages for it first, then the response, which ends it; a notification gets 202', async () => {
    const { side, url, seen } = await startSide('streamable-http');
    const headers = await handshake(side, url, seen);
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', _meta: { progressToken: 'p1' } } };
    const response = await post(url, call, headers);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 1 } };
    const log = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } };
    const answer = { jsonrpc: '2.0', id: 1, result: { content: [] } };
    side.sendMessage(progress);
    side.sendMessage(log);
    side.sendMessage(answer);
    assert.deepEqual(await readEvents(response), { events: [{ data: progress }, { data: log }, { data: answer }], ended: true });
    assert.deepEqual(seen.messages, [INITIALIZE, INITIALIZED, call]);
    assert.deepEqual(seen.bad, []);
  });

  test('with no request open, notifications wait for the GET stream; a response with no open request is dropped, never put on it', async () => {
    const { side, url, seen } = await startSide('streamable-http');
    const headers = await handshake(side, url, seen);
    const listChanged = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
    const ping = { jsonrpc: '2.0', id: 'srv-1', method: 'ping' };
    side.sendMessage(listChanged);
    side.sendMessage({ jsonrpc: '2.0', id: 99, result: {} });
    side.sendMessage(ping);
    const get = await fetch(url, { headers: { accept: 'text/event-stream', ...headers } });
    assert.equal(get.status, 200);
    assert.deepEqual((await readEvents(get, 2)).events, [{ data: listChanged }, { data: ping }]);
    // The client's answer to the server's ping is a POSTed response: 202.
    assert.equal((await post(url, { jsonrpc: '2.0', id: 'srv-1', result: {} }, headers)).status, 202);
    assert.equal(seen.messages.length, 3);
    assert.deepEqual(seen.bad, []);
    await get.body?.cancel();
  });

  test('an initialize refused with an error gets no session id, and a later request without one is fine (#17: the -32022 retry)', async () => {
    const { side, url, seen } = await startSide('streamable-http');
    const pending = post(url, INITIALIZE);
    await until(() => seen.messages.length === 1, 'the initialize POST');
    side.sendMessage({ jsonrpc: '2.0', id: 0, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'] } } });
    const refused = await pending;
    assert.equal(refused.headers.get('mcp-session-id'), null);
    await readEvents(refused);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
    const discover = post(url, { jsonrpc: '2.0', id: 'p', method: 'server/discover', params: { _meta: meta } }, { 'mcp-protocol-version': '2026-07-28' });
    await until(() => seen.messages.length === 2, 'the server/discover POST');
    side.sendMessage({ jsonrpc: '2.0', id: 'p', result: { supportedVersions: ['2026-07-28'], capabilities: {} } });
    assert.equal((await discover).status, 200);
    assert.deepEqual(seen.bad, []);
  });

  test('a modern message whose MCP-Protocol-Version header disagrees with its _meta is refused (400) and fails the case', async () => {
    const { url, seen } = await startSide('streamable-http');
    const response = await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }, { 'mcp-protocol-version': '2025-11-25' });
    assert.equal(response.status, 400);
    assert.match(seen.bad.join('\n'), /MCP-Protocol-Version is "2025-11-25", but the message's _meta names "2026-07-28"/);
  });

  test('a POST without Accept listing both types is refused (406) and fails the case', async () => {
    const { url, seen } = await startSide('streamable-http');
    const response = await post(url, INITIALIZE, { accept: 'application/json' });
    assert.equal(response.status, 406);
    assert.equal(seen.messages.length, 0);
    assert.match(seen.bad[0] ?? '', /Accept "application\/json"; Streamable HTTP requires both/);
  });

  test('after initialize, a request without the session id (400) or the protocol version (400) fails the case', async () => {
    const { side, url, seen } = await startSide('streamable-http');
    const headers = await handshake(side, url, seen);
    const noSession = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2025-11-25' });
    assert.equal(noSession.status, 400);
    assert.match(seen.bad[0] ?? '', /POST ping: the client sent no Mcp-Session-Id/);
    const noVersion = await post(url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': headers['mcp-session-id']! });
    assert.equal(noVersion.status, 400);
    assert.match(seen.bad[1] ?? '', /MCP-Protocol-Version is null; after initialization the client must send the negotiated "2025-11-25"/);
  });

  test('a cancellation that overtakes its request is handed on after it, in the order the client sent them', async () => {
    const { side, url, seen } = await startSide('streamable-http');
    const headers = await handshake(side, url, seen);
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'timed out' } };
    const call = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'slow' } };
    assert.equal((await post(url, cancel, headers)).status, 202);
    assert.deepEqual(seen.messages, [INITIALIZE, INITIALIZED]);
    const response = await post(url, call, headers);
    assert.deepEqual(seen.messages, [INITIALIZE, INITIALIZED, call, cancel]);
    await response.body?.cancel();
  });

  test('a held cancellation whose request never comes is handed on when the client goes away', async () => {
    const { side, url, seen } = await startSide('streamable-http');
    const headers = await handshake(side, url, seen);
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } };
    await post(url, cancel, headers);
    assert.equal((await fetch(url, { method: 'DELETE', headers })).status, 200);
    assert.deepEqual(seen.messages, [INITIALIZE, INITIALIZED, cancel]);
    assert.equal(seen.gone.length, 1);
  });

  test('DELETE ends the session: the client is gone and the session id is no longer accepted', async () => {
    const { side, url, seen } = await startSide('streamable-http');
    const headers = await handshake(side, url, seen);
    assert.equal((await fetch(url, { method: 'DELETE', headers })).status, 200);
    assert.deepEqual(seen.gone, ['the client ended the session (HTTP DELETE)']);
    assert.equal((await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' }, headers)).status, 404);
  });

  test('s2c close cuts the open stream and stops listening', async () => {
    const { side, url, seen } = await startSide('streamable-http');
    const headers = await handshake(side, url, seen);
    const response = await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } }, headers);
    side.closeServer();
    await assert.rejects(readEvents(response)); // cut, not ended: the chunked body never finishes
    await assert.rejects(post(url, { jsonrpc: '2.0', id: 2, method: 'ping' }, headers), TypeError); // nothing listens
    assert.deepEqual(seen.gone, ['the server side exited (s2c close)']);
  });
});

describe('legacy HTTP+SSE server side', () => {
  test('the stream starts with the endpoint event; messages sent earlier follow it; POSTs get 202', async () => {
    const { side, url, seen } = await startSide('sse');
    const early = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'early' } };
    side.sendMessage(early);
    const stream = await fetch(url, { headers: { accept: 'text/event-stream' } });
    const first = await readEvents(stream, 2);
    assert.equal(first.events[0]?.event, 'endpoint');
    assert.deepEqual(first.events[1], { event: 'message', data: early });
    const endpoint = new URL(String(first.events[0]?.data), url).href;
    assert.equal((await post(endpoint, INITIALIZE)).status, 202);
    side.sendMessage(INITIALIZE_RESULT);
    assert.deepEqual((await readEvents(stream, 1)).events, [{ event: 'message', data: INITIALIZE_RESULT }]);
    assert.deepEqual(seen.messages, [INITIALIZE]);
    await stream.body?.cancel();
  });

  test('a POST to another session is refused (404) and fails the case; closing the stream means the client is gone', async () => {
    const { url, seen } = await startSide('sse');
    const stream = await fetch(url, { headers: { accept: 'text/event-stream' } });
    const endpoint = new URL(String((await readEvents(stream, 1)).events[0]?.data), url);
    endpoint.searchParams.set('sessionId', 'someone-else');
    assert.equal((await post(endpoint.href, INITIALIZE)).status, 404);
    assert.match(seen.bad[0] ?? '', /POSTed to session "someone-else"/);
    await stream.body?.cancel();
    for (let i = 0; i < 50 && seen.gone.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(seen.gone, ['the client closed its SSE stream']);
  });

  test('dispose() leaves nothing listening', async () => {
    const { side, url } = await startSide('sse');
    await side.dispose();
    await assert.rejects(fetch(url, { headers: { accept: 'text/event-stream' } }), TypeError);
  });
});
