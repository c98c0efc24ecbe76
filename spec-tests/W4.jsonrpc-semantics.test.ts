// W4 JSON-RPC semantics: request ids allocated by the client; responses
// matched by id; a response for an unknown id, or a message that is not
// valid JSON-RPC 2.0, is reported and dropped, never thrown into the caller
// of another request. Incoming batches (arrays) are accepted [spec 2025-03-26].

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpClient } from '../src/client/client.js';
import { ProtocolError } from '../src/errors.js';
import type { Diagnostic } from '../src/diagnostics.js';
import { NO_ANSWER, ScriptedTransport, handshake } from '../src/testing/scripted-transport.js';
import { receivedLines, startScriptedServer } from './helpers/scripted-server.js';

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('W4 JSON-RPC semantics', { timeout: 30_000 }, () => {
  test('W4: request ids are allocated by the client, unique per request', async (t) => {
    const { client } = await startScriptedServer(t);
    await Promise.all([client.callTool('echo', { text: 'a' }), client.callTool('echo', { text: 'b' }), client.ping(), client.listTools()]);
    const ids = (await receivedLines(client))
      .map((line) => JSON.parse(line) as { id?: unknown })
      .filter((m) => m.id !== undefined)
      .map((m) => m.id);
    assert.equal(ids.length, 5, 'initialize + 4 requests');
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.ok(typeof id === 'number' || typeof id === 'string');
  });

  test('W4: responses are matched by id, also when they come back out of order', async (t) => {
    const { client } = await startScriptedServer(t);
    const order: string[] = [];
    const slow = client.callTool('delay', { ms: 150, text: 'slow' }).then((r) => (order.push('slow'), textOf(r)));
    const fast = client.callTool('delay', { ms: 1, text: 'fast' }).then((r) => (order.push('fast'), textOf(r)));
    assert.deepEqual(await Promise.all([slow, fast]), ['slow', 'fast']);
    assert.deepEqual(order, ['fast', 'slow'], 'the answers really crossed');
  });

  test('W4: a response for an unknown id is reported and dropped', async (t) => {
    const { client, diagnostics } = await startScriptedServer(t);
    const pending = client.callTool('delay', { ms: 100, text: 'mine' });
    // The `unknown-id` tool first sends an answer for id 999999, which nobody asked for.
    const other = client.callTool('unknown-id').catch((e: unknown) => e);
    assert.equal(textOf(await pending), 'mine', 'the unrelated pending request is untouched');
    assert.ok(diagnostics.some((d) => d.kind === 'unknown-response' && d.id === 999999), JSON.stringify(diagnostics));
    await other;
  });

  test('W4: a message that is not valid JSON-RPC 2.0 is reported and dropped, never thrown into another caller', async () => {
    const diagnostics: Diagnostic[] = [];
    const transport = new ScriptedTransport(handshake(() => NO_ANSWER));
    const client = new McpClient(transport, { onDiagnostic: (d) => diagnostics.push(d) });
    await client.connect();
    const call = client.callTool('x');
    const call2 = client.callTool('y');
    const [idX, idY] = transport.sent.filter((m) => m.method === 'tools/call').map((m) => m.id);
    const garbage = [
      { jsonrpc: '1.0', id: 'zzz', result: {} },
      { id: idX, method: 'ping' }, // a request without "jsonrpc" that happens to reuse our id
      { jsonrpc: '2.0', id: null, result: {} },
      { jsonrpc: '2.0', method: 42 },
      { jsonrpc: '2.0', id: 'q', error: { code: 'not-a-number', message: 'm' } },
      17,
      'a string',
    ];
    for (const value of garbage) transport.inject(value);
    assert.equal(diagnostics.filter((d) => d.kind === 'invalid-message').length, garbage.length);
    transport.inject({ jsonrpc: '2.0', id: idY, result: { content: [] } });
    transport.inject({ jsonrpc: '2.0', id: idX, result: { content: [{ type: 'text', text: 'x' }] } });
    assert.deepEqual(await call, { content: [{ type: 'text', text: 'x' }] });
    assert.deepEqual(await call2, { content: [] });
    await client.close();
  });

  test('W4: an invalid answer to one of our requests fails that request (and only it) with a ProtocolError', async () => {
    const diagnostics: Diagnostic[] = [];
    const transport = new ScriptedTransport(handshake(() => NO_ANSWER));
    const client = new McpClient(transport, { onDiagnostic: (d) => diagnostics.push(d) });
    await client.connect();
    const broken = client.callTool('x');
    const fine = client.callTool('y');
    const [idX, idY] = transport.sent.filter((m) => m.method === 'tools/call').map((m) => m.id);
    transport.inject({ jsonrpc: '2.0', id: idX, result: {}, error: { code: 1, message: 'both' } });
    await assert.rejects(broken, (e: unknown) => e instanceof ProtocolError && e.method === 'tools/call' && e.server === 'scripted');
    transport.inject({ jsonrpc: '2.0', id: idY, result: { content: [] } });
    assert.deepEqual(await fine, { content: [] });
    assert.deepEqual(diagnostics.map((d) => d.kind), ['invalid-message']);
    await client.close();
  });

  test('W4: over a real process, invalid lines and stray answers do not disturb the session', async (t) => {
    const { client, diagnostics } = await startScriptedServer(t);
    // `unknown-id` sends: a stray answer, an invalid message carrying our id, an invalid "1.0" message, then its answer.
    await assert.rejects(client.callTool('unknown-id'), ProtocolError);
    // The server writes in order, so once the next answer is in, everything before it has been read.
    assert.equal(textOf(await client.callTool('echo', { text: 'still fine' })), 'still fine');
    assert.deepEqual(
      diagnostics.filter((d) => d.kind !== 'stderr').map((d) => d.kind),
      // stray answer; invalid message with our id (fails the call); the "1.0" message; the call's real answer, now unknown.
      ['unknown-response', 'invalid-message', 'invalid-message', 'unknown-response'],
    );
  });

  test('W4: incoming batches (arrays) are accepted', async (t) => {
    const logs: unknown[] = [];
    const { client } = await startScriptedServer(t, [], { onLog: (p) => logs.push(p) });
    const result = await client.callTool('batch');
    assert.equal(textOf(result), 'batched');
    assert.deepEqual(logs, [{ level: 'info', data: 'in batch' }]);
  });
});
