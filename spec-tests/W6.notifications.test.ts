// W6 notifications: `notifications/progress`, `notifications/message`,
// `notifications/*/list_changed`, `notifications/cancelled` are delivered to
// hooks; unknown notifications are ignored.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpClient, type ListChangedKind } from '../src/client/client.js';
import type { ProgressUpdate } from '../src/client/connection.js';
import { ScriptedTransport, handshake } from '../src/testing/scripted-transport.js';
import { receivedLines, startScriptedServer } from './helpers/scripted-server.js';

describe('W6 notifications', { timeout: 30_000 }, () => {
  test('W6: progress, message and list_changed notifications reach their hooks (real process)', async (t) => {
    const logs: unknown[] = [];
    const changed: ListChangedKind[] = [];
    const globalProgress: [string | number, ProgressUpdate][] = [];
    const callProgress: ProgressUpdate[] = [];
    const { client } = await startScriptedServer(t, [], {
      onLog: (p) => logs.push(p),
      onListChanged: (kind) => changed.push(kind),
      onProgress: (token, update) => globalProgress.push([token, update]),
    });
    const result = await client.callTool('notify', {}, { onProgress: (u) => callProgress.push(u) });
    assert.deepEqual(result.content, [{ type: 'text', text: 'notified' }]);
    assert.deepEqual(logs, [{ level: 'warning', logger: 'scripted', data: 'careful' }]);
    assert.deepEqual(changed, ['tools', 'resources', 'prompts']);
    assert.deepEqual(callProgress, [{ progress: 1, total: 2, message: 'halfway' }]);
    assert.equal(globalProgress.length, 1);
    assert.deepEqual(globalProgress[0]![1], { progressToken: globalProgress[0]![0], progress: 1, total: 2, message: 'halfway' });
  });

  test('W6: unknown notifications are ignored: no error, no answer, the session goes on', async (t) => {
    const methods: string[] = [];
    const { client, diagnostics } = await startScriptedServer(t, [], { onNotification: (n) => methods.push(n.method) });
    await client.callTool('notify');
    assert.ok(methods.includes('notifications/vendor/unknown'), 'still visible to the catch-all hook');
    assert.deepEqual(diagnostics.filter((d) => d.kind !== 'stderr'), []);
    // The client sent nothing in reply to the six notifications: only its own messages reached the server.
    const sent = (await receivedLines(client)).map((l) => (JSON.parse(l) as { method?: string }).method);
    assert.deepEqual(sent, ['initialize', 'notifications/initialized', 'tools/call']);
  });

  test('W6: notifications/cancelled is delivered to the hook and aborts the server request it names', async () => {
    const transport = new ScriptedTransport(handshake());
    const cancelled: unknown[] = [];
    let handlerSignal: AbortSignal | undefined;
    const client = new McpClient(transport, {
      onNotification: (n) => n.method === 'notifications/cancelled' && cancelled.push(n.params),
      handlers: {
        sampling: (_params, { signal }) => {
          handlerSignal = signal;
          return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ never: 'sent' })));
        },
      },
    });
    await client.connect();
    transport.inject({ jsonrpc: '2.0', id: 'srv-1', method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(handlerSignal?.aborted, false);
    transport.inject({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'srv-1', reason: 'user' } });
    assert.deepEqual(cancelled, [{ requestId: 'srv-1', reason: 'user' }]);
    assert.equal(handlerSignal?.aborted, true);
    await new Promise((resolve) => setImmediate(resolve));
    // MCP cancellation: the receiver SHOULD NOT answer a cancelled request.
    assert.deepEqual(transport.sent.filter((m) => m.id === 'srv-1'), []);
    await client.close();
  });
});
