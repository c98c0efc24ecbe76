// W5 server requests: `ping` is answered `{}`; `sampling/createMessage` is
// rejected with `-32601` (method not found: the capability was not
// advertised) unless sampling is enabled (K6); `elicitation/create` and
// `roots/list` likewise unless the host supplies a handler; unknown methods
// get `-32601`. No server request is ever left unanswered.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpClient } from '../src/client/client.js';
import { RpcError } from '../src/errors.js';
import { ScriptedTransport, handshake, type WireMessage } from '../src/testing/scripted-transport.js';
import { startScriptedServer } from './helpers/scripted-server.js';

const ALL = ['ping', 'sampling/createMessage', 'elicitation/create', 'roots/list', 'vendor/unknown-method'];

/** Has the scripted server send each method to the client and returns the answers it got. */
async function ask(client: McpClient, methods = ALL): Promise<Record<string, WireMessage>> {
  // The tool only answers once every server request has been answered: a hang here is a W5 failure.
  const result = await client.callTool('ask', { methods }, { timeoutMs: 5_000 });
  return (result.structuredContent as { answers: Record<string, WireMessage> }).answers;
}

describe('W5 server requests', { timeout: 30_000 }, () => {
  test('W5: `ping` is answered `{}`', async (t) => {
    const { client } = await startScriptedServer(t);
    const answers = await ask(client, ['ping']);
    assert.deepEqual(answers.ping, { jsonrpc: '2.0', id: answers.ping!.id, result: {} });
  });

  test('W5: without handlers, sampling/createMessage, elicitation/create, roots/list and unknown methods get -32601', async (t) => {
    const { client } = await startScriptedServer(t);
    const answers = await ask(client);
    for (const method of ALL.slice(1)) {
      assert.equal(answers[method]?.error?.code, -32601, method);
      assert.equal('result' in answers[method]!, false, method);
    }
  });

  test('W5: with host handlers, each request gets its handler’s result; unknown methods still get -32601', async (t) => {
    const seen: unknown[] = [];
    const { client } = await startScriptedServer(t, [], {
      handlers: {
        sampling: (params) => (seen.push(params), { role: 'assistant', model: 'host-model', content: { type: 'text', text: 'sampled' } }),
        elicitation: () => ({ action: 'decline' }),
        roots: async () => ({ roots: [{ uri: 'file:///project', name: 'project' }] }),
      },
    });
    const answers = await ask(client);
    assert.deepEqual(answers['sampling/createMessage']?.result, { role: 'assistant', model: 'host-model', content: { type: 'text', text: 'sampled' } });
    assert.deepEqual(answers['elicitation/create']?.result, { action: 'decline' });
    assert.deepEqual(answers['roots/list']?.result, { roots: [{ uri: 'file:///project', name: 'project' }] });
    assert.deepEqual(answers.ping?.result, {});
    assert.equal(answers['vendor/unknown-method']?.error?.code, -32601);
    assert.deepEqual(seen, [{ probe: 'sampling/createMessage' }]);
  });

  test('W5: a handler that refuses (RpcError) or fails still answers: its code, or -32603', async (t) => {
    const { client } = await startScriptedServer(t, [], {
      handlers: {
        sampling: () => {
          throw new RpcError({ server: 'host' }, -1, 'User rejected sampling request');
        },
        roots: () => {
          throw new TypeError('host bug');
        },
      },
    });
    const answers = await ask(client, ['sampling/createMessage', 'roots/list']);
    assert.deepEqual(answers['sampling/createMessage']?.error, { code: -1, message: 'User rejected sampling request' });
    assert.equal(answers['roots/list']?.error?.code, -32603);
  });

  test('W5: a malformed server request is answered too: -32600 Invalid Request (JSON-RPC 2.0 §5.1)', async () => {
    const transport = new ScriptedTransport(handshake());
    const client = new McpClient(transport, { handlers: { roots: () => ({ roots: [] }) } });
    await client.connect();
    transport.inject({ jsonrpc: '2.0', id: 'bad-params', method: 'roots/list', params: ['not', 'an', 'object'] });
    transport.inject({ id: 'no-version', method: 'ping' });
    const answers = await Promise.all(['bad-params', 'no-version'].map((id) => transport.next((m) => m.id === id)));
    for (const answer of answers) assert.equal(answer.error?.code, -32600, JSON.stringify(answer));
    await client.close();
  });

  test('W5: no server request is left unanswered, even a flood of them in one batch', async () => {
    const transport = new ScriptedTransport(handshake());
    const client = new McpClient(transport, { handlers: { roots: () => ({ roots: [] }) } });
    await client.connect();
    const requests = Array.from({ length: 50 }, (_, i) => ({ jsonrpc: '2.0', id: `r${i}`, method: i % 2 ? 'roots/list' : `unknown/${i}` }));
    transport.inject(requests);
    const answers = await Promise.all(requests.map((r) => transport.next((m) => m.id === r.id && m.method === undefined)));
    for (const [i, answer] of answers.entries()) {
      if (i % 2) assert.deepEqual(answer.result, { roots: [] });
      else assert.equal(answer.error?.code, -32601);
    }
    await client.close();
  });
});
