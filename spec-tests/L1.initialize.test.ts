// L1 initialize [spec]: send the newest supported `protocolVersion`,
// `clientInfo`, and only the capabilities actually enabled; accept a server
// version the client supports, else fail with an error naming both; then
// send `notifications/initialized`. No request but `ping` before that.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { McpClient } from '../src/client/client.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '../src/client/results.js';
import { ClosedError, ProtocolError } from '../src/errors.js';
import { INIT_RESULT, NO_ANSWER, ScriptedTransport, type WireMessage } from '../src/testing/scripted-transport.js';
import { receivedLines, startScriptedServer } from './helpers/scripted-server.js';
import { tempDir } from './helpers/temp.js';

type Line = { id?: unknown; method?: string; params?: Record<string, unknown> };

describe('L1 initialize', { timeout: 30_000 }, () => {
  test('L1: initialize sends the newest supported protocolVersion (2025-11-25) and clientInfo', async (t) => {
    const { client } = await startScriptedServer(t, [], { clientInfo: { name: 'kaged', version: '4.2.0' } });
    assert.equal(LATEST_PROTOCOL_VERSION, '2025-11-25');
    assert.equal(SUPPORTED_PROTOCOL_VERSIONS[0], LATEST_PROTOCOL_VERSION);
    const [init] = (await receivedLines(client)).map((l) => JSON.parse(l) as Line);
    assert.equal(init?.method, 'initialize');
    assert.equal(init?.params?.protocolVersion, '2025-11-25');
    assert.deepEqual(init?.params?.clientInfo, { name: 'kaged', version: '4.2.0' });
    assert.equal(client.protocolVersion, '2025-11-25');
  });

  test('L1: only the capabilities actually enabled are advertised', async (t) => {
    const none = await startScriptedServer(t);
    const [plain] = (await receivedLines(none.client)).map((l) => JSON.parse(l) as Line);
    assert.deepEqual(plain?.params?.capabilities, {});

    const sampling = await startScriptedServer(t, [], { handlers: { sampling: () => ({}) } });
    const [withSampling] = (await receivedLines(sampling.client)).map((l) => JSON.parse(l) as Line);
    assert.deepEqual(withSampling?.params?.capabilities, { sampling: {} });

    const all = await startScriptedServer(t, [], { handlers: { sampling: () => ({}), elicitation: () => ({}), roots: () => ({}) } });
    const [withAll] = (await receivedLines(all.client)).map((l) => JSON.parse(l) as Line);
    assert.deepEqual(withAll?.params?.capabilities, { sampling: {}, elicitation: {}, roots: {} });
  });

  for (const version of ['2025-06-18', '2025-03-26', '2024-11-05']) {
    test(`L1: a server version the client supports is accepted (${version})`, async (t) => {
      const { client } = await startScriptedServer(t, [`--version=${version}`]);
      assert.equal(client.protocolVersion, version);
      assert.equal(client.state, 'ready');
      assert.deepEqual(await client.ping(), {});
    });
  }

  test('L1: any other server version fails with a ProtocolError naming both, and initialized is not sent', async (t) => {
    const dir = tempDir(t, 'l1');
    const log = join(dir, 'received.log');
    const { client } = await startScriptedServer(t, ['--version=2023-01-01'], { env: { SCRIPTED_LOG: log }, connect: false });
    const error = await client.connect().then(
      () => assert.fail('connected'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ProtocolError, String(error));
    assert.equal(error.method, 'initialize');
    assert.match(error.message, /2023-01-01/);
    assert.match(error.message, /2025-11-25/);
    assert.equal(client.state, 'closed');
    const methods = readFileSync(log, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as Line).method);
    assert.deepEqual(methods, ['initialize']);
  });

  test('L1: notifications/initialized is sent after the initialize answer, before anything else', async (t) => {
    const { client } = await startScriptedServer(t);
    await client.listTools();
    const lines = (await receivedLines(client)).map((l) => JSON.parse(l) as Line);
    assert.deepEqual(lines.map((m) => m.method), ['initialize', 'notifications/initialized', 'tools/list']);
    assert.equal(lines[1]!.id, undefined, 'a notification');
  });

  test('L1: initialized waits for the initialize answer', async () => {
    let answer: () => void = () => {};
    const transport: ScriptedTransport = new ScriptedTransport((request: WireMessage) => {
      if (request.method !== 'initialize') return {};
      answer = () => transport.inject({ jsonrpc: '2.0', id: request.id, result: INIT_RESULT });
      return NO_ANSWER;
    });
    const client = new McpClient(transport);
    const connecting = client.connect();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(transport.methods(), ['initialize']);
    answer();
    await connecting;
    assert.deepEqual(transport.methods(), ['initialize', 'notifications/initialized']);
    await client.close();
  });

  test('L1: no request but ping before initialization completes', async () => {
    let answer: () => void = () => {};
    const transport: ScriptedTransport = new ScriptedTransport((request: WireMessage) => {
      if (request.method !== 'initialize') return request.method === 'tools/list' ? { tools: [] } : {};
      answer = () => transport.inject({ jsonrpc: '2.0', id: request.id, result: INIT_RESULT });
      return NO_ANSWER;
    });
    const client = new McpClient(transport);
    const connecting = client.connect();
    await new Promise((resolve) => setImmediate(resolve));
    const refused = [client.listTools(), client.callTool('x'), client.listResources(), client.listPrompts(), client.readResource('u'), client.getPrompt('p')];
    for (const call of refused) await assert.rejects(call, (e: unknown) => e instanceof ClosedError && e.reason === 'not-connected');
    assert.deepEqual(await client.ping(), {});
    assert.deepEqual(transport.methods(), ['initialize', 'ping'], 'nothing but ping went out');
    answer();
    await connecting;
    await client.listTools();
    assert.deepEqual(transport.methods(), ['initialize', 'ping', 'notifications/initialized', 'tools/list']);
    await client.close();
  });
});
