// #17 item 3: Kestrel's sampling budget over input_required rounds. The
// call's first answer is an input_required result, so the call is still in
// flight while its inputs are answered (a sampling input is charged to it
// like a server request), and the retry's new id is the one whose answer
// ends it.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpClient } from '../../client/client.js';
import { RpcError } from '../../errors.js';
import { handshake, ScriptedTransport } from '../../testing/scripted-transport.js';
import { CallAttribution, samplingHandler } from './sampling.js';

const SAMPLE = { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 } };

async function kestrelLike(maxRequestsPerCall: number, rounds: number) {
  const attribution = new CallAttribution();
  let sampled = 0;
  const transport = new ScriptedTransport(
    handshake((request) => {
      const round = Number(request.params?.requestState ?? 0);
      return round < rounds ? { resultType: 'input_required', requestState: String(round + 1), inputRequests: { s: SAMPLE } } : { content: [{ type: 'text', text: 'done' }] };
    }),
    { server: 'asker' },
  );
  const client = new McpClient(transport, {
    onWire: attribution.observe,
    handlers: {
      sampling: samplingHandler('asker', {
        config: { enabled: true, model: 'm', maxTokens: 10, maxRequestsPerCall },
        sampler: async () => (sampled++, { content: { type: 'text', text: 'ok' } }),
        models: ['m'],
        defaultModel: 'm',
        currentCall: (server) => attribution.current(server),
      }),
    },
  });
  await client.connect();
  const call = () => attribution.within('asker', 'tools/call', undefined, () => client.callTool('t'));
  return { client, call, attribution, sampled: () => sampled };
}

describe('#17 item 3: Kestrel sampling budget over input_required rounds', () => {
  test('each round\'s sampling input is charged to the call in flight; the call ends with its final answer', async () => {
    const k = await kestrelLike(8, 3);
    assert.deepEqual((await k.call()).content, [{ type: 'text', text: 'done' }]);
    assert.equal(k.sampled(), 3);
    assert.equal(k.attribution.current('asker'), undefined);
    await k.client.close();
  });

  test('rounds past maxRequestsPerCall are refused with the budget error', async () => {
    const k = await kestrelLike(2, 3);
    await assert.rejects(k.call(), (e: unknown) => e instanceof RpcError && /sampling budget spent: at most 2/.test(e.message));
    assert.equal(k.sampled(), 2);
    await k.client.close();
  });
});
