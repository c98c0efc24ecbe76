// Unit tests for McpClient (L1, W5–W6, K1) over an in-memory scripted
// Transport that plays the server: each request goes to a script function
// whose return value is sent back as the result.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClosedError, ProtocolError, RpcError } from '../errors.js';
import { NO_ANSWER, ScriptedTransport, type WireMessage } from '../testing/scripted-transport.js';
import type { TransportEnd } from '../transport/transport.js';
import { McpClient, type McpClientOptions } from './client.js';

type Sent = WireMessage;
/** Answers one request: a result, `{ error }` to answer with a JSON-RPC error, or `NO_ANSWER`. */
type Script = (method: string, params: Record<string, unknown> | undefined, request: Sent) => unknown;

const INIT_RESULT = { protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'scripted', version: '1.0.0' } };

/** The shared scripted transport, driven by a script of (method, params, request). */
class ScriptedServer extends ScriptedTransport {
  constructor(script: Script) {
    super((request) => script(request.method!, request.params, request));
  }
}

/** A server that completes the handshake and hands other requests to `rest`. */
function server(rest: Script = () => ({}), init: unknown = INIT_RESULT): ScriptedServer {
  return new ScriptedServer((method, params, request) => (method === 'initialize' ? init : rest(method, params, request)));
}

async function connected(rest?: Script, options: McpClientOptions = {}) {
  const transport = server(rest);
  const client = new McpClient(transport, options);
  await client.connect();
  return { transport, client };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('McpClient.connect (L1)', () => {
  test('initialize carries protocolVersion 2025-11-25, empty capabilities without handlers, and clientInfo', async () => {
    const { transport, client } = await connected();
    const init = transport.sent[0]!;
    assert.equal(init.method, 'initialize');
    assert.deepEqual(init.params, { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcpwire', version: '0.1.0' } });
    assert.equal(client.state, 'ready');
    assert.equal(client.protocolVersion, '2025-11-25');
    assert.deepEqual(client.profile, INIT_RESULT, 'the profile is what the server said');
    assert.deepEqual(client.serverInfo, INIT_RESULT.serverInfo);
    assert.equal(transport.protocolVersionSet, '2025-11-25', 'the transport learns the negotiated version');
  });

  test('a custom clientInfo is sent as given', async () => {
    const { transport } = await connected(undefined, { clientInfo: { name: 'kaged', version: '9.9.9', title: 'Kaged' } });
    assert.deepEqual(transport.sent[0]!.params?.clientInfo, { name: 'kaged', version: '9.9.9', title: 'Kaged' });
  });

  test('only the capabilities with a handler are advertised', async () => {
    const handler = () => ({});
    const cases: [McpClientOptions['handlers'], Record<string, unknown>][] = [
      [{ sampling: handler }, { sampling: {} }],
      [{ elicitation: handler }, { elicitation: {} }],
      [{ roots: handler }, { roots: {} }],
      [{ sampling: handler, elicitation: handler, roots: handler }, { sampling: {}, elicitation: {}, roots: {} }],
    ];
    for (const [handlers, capabilities] of cases) {
      const { transport } = await connected(undefined, { handlers });
      assert.deepEqual(transport.sent[0]!.params?.capabilities, capabilities);
    }
  });

  test('notifications/initialized is sent after the initialize answer, and before any other request', async () => {
    const { transport, client } = await connected((method) => (method === 'tools/list' ? { tools: [] } : {}));
    await client.listTools();
    assert.deepEqual(transport.methods(), ['initialize', 'notifications/initialized', 'tools/list']);
    assert.equal(transport.sent[1]!.id, undefined, 'initialized is a notification');
  });

  for (const version of ['2025-06-18', '2025-03-26', '2024-11-05']) {
    test(`accepts the older server version ${version}`, async () => {
      const transport = server(undefined, { ...INIT_RESULT, protocolVersion: version });
      const client = new McpClient(transport);
      const result = await client.connect();
      assert.equal(result.protocolVersion, version);
      assert.equal(client.protocolVersion, version);
      assert.equal(transport.protocolVersionSet, version);
    });
  }

  for (const version of ['2099-01-01', '2024-10-07', '1.0']) {
    test(`rejects server version ${version} with a ProtocolError naming both versions, and closes`, async () => {
      const transport = server(undefined, { ...INIT_RESULT, protocolVersion: version });
      const client = new McpClient(transport);
      await assert.rejects(client.connect(), (e: unknown) => e instanceof ProtocolError && e.message.includes(version) && e.message.includes('2025-11-25') && e.method === 'initialize');
      assert.equal(transport.methods().includes('notifications/initialized'), false);
      assert.equal(transport.ended, true);
      assert.equal(client.state, 'closed');
    });
  }

  test('an invalid initialize result is a ProtocolError', async () => {
    for (const init of [{ capabilities: {}, serverInfo: { name: 's' } }, { ...INIT_RESULT, capabilities: [] }, { ...INIT_RESULT, serverInfo: {} }, 'hello']) {
      const client = new McpClient(server(undefined, init));
      await assert.rejects(client.connect(), (e: unknown) => e instanceof ProtocolError && /invalid result/.test(e.message));
    }
  });

  test('an initialize error answer rejects with its RpcError', async () => {
    const client = new McpClient(server(undefined, { error: { code: -32602, message: 'Unsupported protocol version' } }));
    await assert.rejects(client.connect(), (e: unknown) => e instanceof RpcError && e.rpcCode === -32602);
  });

  test('connect() twice throws', async () => {
    const { client } = await connected();
    await assert.rejects(client.connect(), /not idle/);
  });

  test('no request but ping before the handshake completes; nothing is sent for the refused ones', async () => {
    let answerInit: () => void = () => {};
    const transport = new ScriptedServer((method, _params, request) => {
      if (method === 'initialize') {
        answerInit = () => transport.inject({ jsonrpc: '2.0', id: request.id, result: INIT_RESULT });
        return NO_ANSWER;
      }
      return method === 'tools/list' ? { tools: [] } : {};
    });
    const client = new McpClient(transport);
    // Before connect(): not even ping, the transport is not started.
    await assert.rejects(client.listTools(), (e: unknown) => e instanceof ClosedError && e.reason === 'not-connected');
    await assert.rejects(client.ping(), (e: unknown) => e instanceof ClosedError && e.reason === 'not-connected');
    const connecting = client.connect();
    await tick();
    assert.equal(client.state, 'connecting');
    await assert.rejects(client.listTools(), (e: unknown) => e instanceof ClosedError && e.reason === 'not-connected');
    await assert.rejects(client.callTool('x'), ClosedError);
    await assert.rejects(client.readResource('file:///a'), ClosedError);
    assert.deepEqual(await client.ping(), {}, 'ping is allowed while initializing');
    assert.deepEqual(transport.methods(), ['initialize', 'ping']);
    answerInit();
    await connecting;
    assert.deepEqual((await client.listTools()).tools, []);
    assert.deepEqual(transport.methods(), ['initialize', 'ping', 'notifications/initialized', 'tools/list']);
  });

  test('methods after close() reject with ClosedError', async () => {
    const { client } = await connected();
    await client.close();
    assert.equal(client.state, 'closed');
    await assert.rejects(client.listTools(), (e: unknown) => e instanceof ClosedError && e.reason === 'closed');
    await assert.rejects(client.ping(), ClosedError);
  });
});

describe('McpClient: pagination', () => {
  const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

  test('concatenates every page; the first page’s other keys are kept and nextCursor is dropped', async () => {
    const pages: Record<string, unknown> = {
      '': { tools: [tool('a'), tool('b')], nextCursor: 'p2', _meta: { first: true } },
      p2: { tools: [tool('c')], nextCursor: 'p3' },
      p3: { tools: [tool('d')] },
    };
    const cursors: unknown[] = [];
    const { client } = await connected((method, params) => {
      cursors.push(params?.cursor);
      return pages[(params?.cursor as string | undefined) ?? ''];
    });
    const result = await client.listTools();
    assert.deepEqual(result.tools.map((t) => t.name), ['a', 'b', 'c', 'd']);
    assert.deepEqual(result._meta, { first: true });
    assert.equal('nextCursor' in result, false);
    assert.deepEqual(cursors, [undefined, 'p2', 'p3']);
  });

  test('an empty-string nextCursor ends the list', async () => {
    const { client } = await connected(() => ({ resources: [{ uri: 'file:///a', name: 'a' }], nextCursor: '' }));
    assert.equal(((await client.listResources()).resources as unknown[]).length, 1);
  });

  test('a cursor seen twice stops with a ProtocolError', async () => {
    const next: Record<string, string> = { '': 'a', a: 'b', b: 'a' };
    const { client, transport } = await connected((_m, params) => ({ prompts: [], nextCursor: next[(params?.cursor as string | undefined) ?? ''] }));
    await assert.rejects(client.listPrompts(), (e: unknown) => e instanceof ProtocolError && /twice/.test(e.message) && e.method === 'prompts/list');
    assert.equal(transport.methods().filter((m) => m === 'prompts/list').length, 3);
  });

  test('the page limit stops a server whose cursors never end', async () => {
    let n = 0;
    const { client, transport } = await connected(() => ({ tools: [], nextCursor: `c${n++}` }), { maxPages: 5 });
    await assert.rejects(client.listTools(), (e: unknown) => e instanceof ProtocolError && /5 pages/.test(e.message));
    assert.equal(transport.methods().filter((m) => m === 'tools/list').length, 5);
  });

  test('every list method follows cursors', async () => {
    const results: Record<string, [string, Record<string, unknown>]> = {
      'resources/list': ['resources', { uri: 'u', name: 'n' }],
      'resources/templates/list': ['resourceTemplates', { uriTemplate: 'u/{x}', name: 'n' }],
      'prompts/list': ['prompts', { name: 'p' }],
    };
    const { client } = await connected((method, params) => {
      const [key, item] = results[method]!;
      return params?.cursor ? { [key]: [item] } : { [key]: [item], nextCursor: 'more' };
    });
    assert.equal(((await client.listResources()).resources as unknown[]).length, 2);
    assert.equal(((await client.listResourceTemplates()).resourceTemplates as unknown[]).length, 2);
    assert.equal(((await client.listPrompts()).prompts as unknown[]).length, 2);
  });
});

describe('McpClient: results', () => {
  test('a valid tools/call result comes back as the same object, unknown keys intact', async () => {
    const result = { content: [{ type: 'text', text: 'hi', extra: 1 }], structuredContent: { n: 1 }, isError: false, vendorKey: { deep: [1] } };
    let sent: unknown;
    const { client, transport } = await connected(() => {
      sent = JSON.parse(JSON.stringify(result));
      return sent;
    });
    const got = await client.callTool('echo', { text: 'hi' });
    assert.equal(got, sent, 'the very object the server sent');
    assert.deepEqual(got, result);
    assert.deepEqual(transport.sent.at(-1)!.params, { name: 'echo', arguments: { text: 'hi' } });
  });

  test('isError: true is a result, not an exception', async () => {
    const { client } = await connected(() => ({ content: [{ type: 'text', text: 'failed' }], isError: true }));
    assert.equal((await client.callTool('x')).isError, true);
  });

  test('structurally invalid results are ProtocolErrors naming what is wrong', async () => {
    const bad: [string, unknown, RegExp][] = [
      ['tools/call', { content: 'not an array' }, /"content" is not an array/],
      ['tools/call', { content: [{ text: 'no type' }] }, /type/],
      ['tools/call', { content: [], isError: 'yes' }, /isError/],
      ['tools/call', { content: [], structuredContent: [1] }, /structuredContent/],
      ['tools/list', { tools: [{ name: 'x' }] }, /inputSchema/],
      ['tools/list', { tools: [], nextCursor: 5 }, /nextCursor/],
      ['resources/read', { contents: [{ text: 'no uri' }] }, /uri/],
      ['prompts/get', { messages: {} }, /messages/],
      ['ping', [], /not an object/],
    ];
    for (const [method, result, pattern] of bad) {
      const { client } = await connected((m) => (m === method ? result : {}));
      const call =
        method === 'tools/call' ? client.callTool('x')
        : method === 'tools/list' ? client.listTools()
        : method === 'resources/read' ? client.readResource('u')
        : method === 'prompts/get' ? client.getPrompt('p')
        : client.ping();
      await assert.rejects(call, (e: unknown) => e instanceof ProtocolError && e.method === method && pattern.test(e.message), `${method}: ${JSON.stringify(result)}`);
      assert.equal(client.state, 'ready', 'an invalid result does not end the connection');
    }
  });

  test('readResource and getPrompt send their params and return the server’s object', async () => {
    const read = { contents: [{ uri: 'file:///a', text: 'A', mimeType: 'text/plain' }] };
    const prompt = { description: 'd', messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] };
    const { client, transport } = await connected((method) => (method === 'resources/read' ? read : prompt));
    assert.deepEqual(await client.readResource('file:///a'), read);
    assert.deepEqual(transport.sent.at(-1)!.params, { uri: 'file:///a' });
    assert.deepEqual(await client.getPrompt('p', { a: '1' }), prompt);
    assert.deepEqual(transport.sent.at(-1)!.params, { name: 'p', arguments: { a: '1' } });
    await client.getPrompt('p');
    assert.deepEqual(transport.sent.at(-1)!.params, { name: 'p' });
  });
});

describe('McpClient: hooks (W6) and server requests (W5)', () => {
  test('onLog, onListChanged, onProgress and onNotification fire; unknown notifications are ignored', async () => {
    const logs: unknown[] = [];
    const changed: string[] = [];
    const progress: unknown[] = [];
    const all: string[] = [];
    const { transport } = await connected(undefined, {
      onLog: (p) => logs.push(p),
      onListChanged: (kind) => changed.push(kind),
      onProgress: (token, update) => progress.push([token, update.progress, update.total]),
      onNotification: (n) => all.push(n.method),
    });
    const notify = (method: string, params?: Record<string, unknown>) => transport.inject({ jsonrpc: '2.0', method, ...(params ? { params } : {}) });
    notify('notifications/message', { level: 'info', logger: 'x', data: 'hello' });
    notify('notifications/tools/list_changed');
    notify('notifications/resources/list_changed');
    notify('notifications/prompts/list_changed');
    notify('notifications/progress', { progressToken: 'tok', progress: 1, total: 2 });
    notify('notifications/progress', { progressToken: 'tok', progress: 'bad' });
    notify('notifications/unknown/thing', { x: 1 });
    assert.deepEqual(logs, [{ level: 'info', logger: 'x', data: 'hello' }]);
    assert.deepEqual(changed, ['tools', 'resources', 'prompts']);
    assert.deepEqual(progress, [['tok', 1, 2]]);
    assert.equal(all.length, 7);
    assert.equal(all.at(-1), 'notifications/unknown/thing');
  });

  test('per-call onProgress receives the server’s updates for that call', async () => {
    const updates: unknown[] = [];
    const { client, transport } = await connected((method, params, request) => {
      if (method !== 'tools/call') return {};
      const token = (params?._meta as { progressToken: unknown }).progressToken;
      transport.inject({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 50, total: 100 } });
      return { content: [] };
    });
    await client.callTool('slow', {}, { onProgress: (u) => updates.push(u) });
    assert.deepEqual(updates, [{ progress: 50, total: 100 }]);
  });

  test('a sampling handler answers sampling/createMessage; without one it is -32601', async () => {
    const { transport } = await connected(undefined, { handlers: { sampling: (params) => ({ role: 'assistant', model: 'm', content: { type: 'text', text: String(params?.maxTokens) } }) } });
    transport.inject({ jsonrpc: '2.0', id: 's1', method: 'sampling/createMessage', params: { maxTokens: 7, messages: [] } });
    transport.inject({ jsonrpc: '2.0', id: 'r1', method: 'roots/list' });
    await tick();
    assert.deepEqual(transport.sent.find((m) => m.id === 's1')?.result, { role: 'assistant', model: 'm', content: { type: 'text', text: '7' } });
    assert.equal(transport.sent.find((m) => m.id === 'r1')?.error?.code, -32601);
  });

  test('onClose fires when the transport ends, and the state becomes closed', async () => {
    const ends: TransportEnd[] = [];
    const { transport, client } = await connected(() => NO_ANSWER, { onClose: (e) => ends.push(e) });
    const p = client.callTool('x');
    transport.end({ reason: 'exited', exitCode: 2 });
    await assert.rejects(p, (e: unknown) => e instanceof ClosedError && e.exitCode === 2 && e.method === 'tools/call');
    assert.deepEqual(ends, [{ reason: 'exited', exitCode: 2 }]);
    assert.equal(client.state, 'closed');
  });
});
