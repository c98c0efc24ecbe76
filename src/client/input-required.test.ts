// #17 item 3 (MRTR) at the edges the SDK v2 server does not reach, over the
// in-memory scripted transport: which handler answers which input request,
// requestState echoed exactly (and absent when the server sent none), the
// round bound, the refusal for a method with no handler, the methods
// input_required is allowed on, concurrent calls that keep their state apart.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProtocolError, UnhandledInputRequestError } from '../errors.js';
import { handshake, ScriptedTransport, type WireMessage } from '../testing/scripted-transport.js';
import { McpClient, type McpClientOptions } from './client.js';

type Script = (request: WireMessage) => unknown;

async function connected(rest: Script, options: McpClientOptions = {}) {
  const transport = new ScriptedTransport(handshake(rest));
  const client = new McpClient(transport, options);
  await client.connect();
  return { transport, client };
}

const calls = (transport: ScriptedTransport, method = 'tools/call') => transport.sent.filter((m) => m.method === method);
const done = (text: string) => ({ content: [{ type: 'text', text }] });

describe('#17 item 3: input_required rounds', () => {
  test('each input request goes to its handler (elicitation, sampling, roots, requestHandlers); the retry carries every answer under its key', async () => {
    const seen: string[] = [];
    const { client, transport } = await connected(
      (request) => {
        const params = request.params!;
        if (params.inputResponses === undefined) {
          return {
            resultType: 'input_required',
            inputRequests: {
              e: { method: 'elicitation/create', params: { message: 'm' } },
              s: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } },
              r: { method: 'roots/list' },
              x: { method: 'vendor/thing', params: { n: 1 } },
            },
          };
        }
        return done(JSON.stringify(params.inputResponses));
      },
      {
        handlers: {
          elicitation: (p) => (seen.push(`e:${JSON.stringify(p)}`), { action: 'accept', content: {} }),
          sampling: () => (seen.push('s'), { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' }),
          roots: (p) => (seen.push(`r:${JSON.stringify(p)}`), { roots: [] }),
        },
        requestHandlers: { 'vendor/thing': (p) => ({ got: (p as { n: number }).n }) },
      },
    );
    const result = await client.callTool('t', {});
    assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), {
      e: { action: 'accept', content: {} },
      s: { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' },
      r: { roots: [] },
      x: { got: 1 },
    });
    assert.deepEqual(seen.sort(), ['e:{"message":"m"}', 'r:undefined', 's']);
    const [first, retry] = calls(transport);
    assert.notEqual(first!.id, retry!.id);
    assert.equal('requestState' in retry!.params!, false, 'no requestState in the retry when the server sent none');
  });

  test('requestState goes back exactly as sent, and only the latest round\'s state and answers', async () => {
    const odd = 'é\u2028"\\ \u0000 {"not":"json"} 🙂';
    let round = 0;
    const { client, transport } = await connected(
      () => {
        round++;
        if (round === 1) return { resultType: 'input_required', requestState: odd, inputRequests: { a: { method: 'elicitation/create', params: {} } } };
        if (round === 2) return { resultType: 'input_required', inputRequests: { b: { method: 'elicitation/create', params: {} } } };
        if (round === 3) return { resultType: 'input_required', requestState: 'third' };
        return done('ok');
      },
      { handlers: { elicitation: () => ({ action: 'accept', content: { round } }) } },
    );
    assert.deepEqual(await client.callTool('t', { k: 1 }), done('ok'));
    const sent = calls(transport);
    assert.equal(sent.length, 4);
    assert.equal(new Set(sent.map((m) => m.id)).size, 4, 'a new id every round');
    assert.equal(sent[1]!.params!.requestState, odd);
    assert.deepEqual(sent[1]!.params!.inputResponses, { a: { action: 'accept', content: { round: 1 } } });
    assert.equal('requestState' in sent[2]!.params!, false);
    assert.deepEqual(sent[2]!.params!.inputResponses, { b: { action: 'accept', content: { round: 2 } } });
    // A round without inputRequests is retried at once, with the state and no stale answers.
    assert.equal(sent[3]!.params!.requestState, 'third');
    assert.equal('inputResponses' in sent[3]!.params!, false);
    for (const m of sent) assert.deepEqual(m.params!.arguments, { k: 1 });
  });

  test('no handler for a requested method: UnhandledInputRequestError naming it, no handler runs, no retry', async () => {
    let ran = 0;
    const { client, transport } = await connected(
      () => ({ resultType: 'input_required', inputRequests: { a: { method: 'elicitation/create', params: {} }, b: { method: 'sampling/createMessage', params: {} } } }),
      { handlers: { elicitation: () => (ran++, { action: 'accept' }) } },
    );
    const error = await client.callTool('t').catch((e: unknown) => e);
    assert.ok(error instanceof UnhandledInputRequestError);
    assert.ok(error instanceof ProtocolError);
    assert.equal(error.inputMethod, 'sampling/createMessage');
    assert.equal(error.inputKey, 'b');
    assert.match(error.message, /sampling\/createMessage/);
    assert.equal(ran, 0);
    assert.equal(calls(transport).length, 1);
  });

  test('rounds are bounded: maxInputRounds answered, the next input_required is a ProtocolError', async () => {
    const { client, transport } = await connected(() => ({ resultType: 'input_required', requestState: 's' }), { maxInputRounds: 3 });
    await assert.rejects(client.callTool('t'), (e: unknown) => e instanceof ProtocolError && /after 3 rounds/.test(e.message));
    assert.equal(calls(transport).length, 4);
  });

  test('default bound is 8 rounds', async () => {
    const { client, transport } = await connected(() => ({ resultType: 'input_required', requestState: 's' }));
    await assert.rejects(client.callTool('t'), ProtocolError);
    assert.equal(calls(transport).length, 9);
  });

  test('resources/read and prompts/get get rounds too; tools/list does not (the spec forbids it there)', async () => {
    const script: Script = (request) =>
      request.params?.requestState === 'go' ? (request.method === 'resources/read' ? { contents: [] } : { messages: [] }) : { resultType: 'input_required', requestState: 'go', tools: [] };
    const { client } = await connected(script);
    assert.deepEqual(await client.readResource('x://y'), { contents: [] });
    assert.deepEqual(await client.getPrompt('p'), { messages: [] });
    await assert.rejects(client.listTools(), (e: unknown) => e instanceof ProtocolError && /input_required/.test(e.message));
  });

  test('an invalid input_required result is a ProtocolError, not a retry', async () => {
    for (const bad of [{ resultType: 'input_required' }, { resultType: 'input_required', inputRequests: [] }, { resultType: 'input_required', requestState: 7 }, { resultType: 'input_required', inputRequests: { a: { params: {} } } }]) {
      const { client, transport } = await connected(() => bad);
      await assert.rejects(client.callTool('t'), ProtocolError);
      assert.equal(calls(transport).length, 1, JSON.stringify(bad));
      await client.close();
    }
  });

  test('concurrent calls keep their rounds apart', async () => {
    const { client, transport } = await connected(
      (request) => {
        const { name, arguments: args } = request.params as { name: string; arguments: Record<string, unknown> };
        if (request.params!.requestState === undefined) return { resultType: 'input_required', requestState: `state-${name}`, inputRequests: { q: { method: 'elicitation/create', params: { message: name } } } };
        return done(`${name}:${String(request.params!.requestState)}:${JSON.stringify(request.params!.inputResponses)}:${JSON.stringify(args)}`);
      },
      { handlers: { elicitation: async (p) => ({ action: 'accept', content: { who: (p as { message: string }).message } }) } },
    );
    const [a, b] = await Promise.all([client.callTool('a', { n: 1 }), client.callTool('b', { n: 2 })]);
    assert.equal((a.content[0] as { text: string }).text, 'a:state-a:{"q":{"action":"accept","content":{"who":"a"}}}:{"n":1}');
    assert.equal((b.content[0] as { text: string }).text, 'b:state-b:{"q":{"action":"accept","content":{"who":"b"}}}:{"n":2}');
    assert.equal(calls(transport).length, 4);
  });

  test('a handler that throws fails the call with its error; an abort during a handler stops the rounds', async () => {
    const boom = new Error('user went away');
    const { client, transport } = await connected(() => ({ resultType: 'input_required', inputRequests: { a: { method: 'elicitation/create', params: {} } } }), {
      handlers: { elicitation: () => Promise.reject(boom) },
    });
    await assert.rejects(client.callTool('t'), (e: unknown) => e === boom);
    const controller = new AbortController();
    client.setRequestHandler('elicitation/create', () => {
      controller.abort(new Error('stop'));
      return { action: 'accept' };
    });
    await assert.rejects(client.callTool('t', {}, { signal: controller.signal }), /stop/);
    assert.equal(calls(transport).length, 2, 'one call each, no retry');
  });
});
