// Interop with a real server nobody here wrote: the MCP reference
// "everything" server (@modelcontextprotocol/server-everything, built on the
// official SDK), over stdio. Tools, progress, timeouts reset by progress,
// logging, resources (+ templates), prompts and ping, each against what that
// server really sends. Every test closes its client and checks the child is gone.

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { TimeoutError, type McpClientOptions, type ProgressUpdate } from '../src/index.js';
import { connectRealServer, text } from './helpers/interop.js';

const SERVER = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

/** Starts the everything server and connects (see connectRealServer). */
function everything(t: TestContext, options: McpClientOptions = {}) {
  return connectRealServer(t, [process.execPath, SERVER, 'stdio'], 'everything', options);
}


test('everything: handshake, tools/list, echo, get-sum, ping', async (t) => {
  const { client, close } = await everything(t);
  assert.equal(client.protocolVersion, '2025-11-25');
  assert.equal(client.serverInfo?.name, 'mcp-servers/everything');
  assert.ok(client.profile?.capabilities.tools, 'the server advertises tools');

  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  for (const name of ['echo', 'get-sum', 'trigger-long-running-operation', 'toggle-simulated-logging']) {
    assert.ok(names.includes(name), `tools/list has ${name} (got ${names.join(', ')})`);
  }
  for (const tool of tools) {
    assert.equal(typeof tool.inputSchema, 'object', `${tool.name} has an inputSchema`);
    assert.equal(tool.inputSchema.type, 'object', `${tool.name}'s inputSchema is an object schema`);
  }
  const sumSchema = tools.find((tool) => tool.name === 'get-sum')!.inputSchema as { properties?: Record<string, unknown> };
  assert.deepEqual(Object.keys(sumSchema.properties ?? {}).sort(), ['a', 'b']);

  assert.equal(text(await client.callTool('echo', { message: 'hello, mcpwire ✓' })), 'Echo: hello, mcpwire ✓');
  assert.equal(text(await client.callTool('get-sum', { a: 2.5, b: 40 })), 'The sum of 2.5 and 40 is 42.5.');
  assert.deepEqual(await client.ping(), {});
  await close();
});

test('everything: trigger-long-running-operation reports 3 progress updates to onProgress', async (t) => {
  const { client, close } = await everything(t);
  const updates: ProgressUpdate[] = [];
  const result = await client.callTool('trigger-long-running-operation', { duration: 1, steps: 3 }, { onProgress: (u) => updates.push(u) });
  assert.equal(text(result), 'Long running operation completed. Duration: 1 seconds, Steps: 3.');
  assert.deepEqual(updates, [
    { progress: 1, total: 3 },
    { progress: 2, total: 3 },
    { progress: 3, total: 3 },
  ]);
  await close();
});

test('everything: resetTimeoutOnProgress lets a call that takes longer than timeoutMs succeed while progress keeps coming', async (t) => {
  const { client, close } = await everything(t);
  // Control: without the reset, the same kind of call does hit the 600 ms timeout (so the next check means something).
  await assert.rejects(client.callTool('trigger-long-running-operation', { duration: 1.5, steps: 5 }, { timeoutMs: 600 }), TimeoutError);

  // 5 steps of 300 ms: each gap is well inside 600 ms, the whole call is not.
  let progress = 0;
  const startedAt = Date.now();
  const result = await client.callTool(
    'trigger-long-running-operation',
    { duration: 1.5, steps: 5 },
    { timeoutMs: 600, resetTimeoutOnProgress: true, onProgress: () => progress++ },
  );
  const tookMs = Date.now() - startedAt;
  t.diagnostic(`the call took ${tookMs} ms with timeoutMs 600`);
  assert.equal(text(result), 'Long running operation completed. Duration: 1.5 seconds, Steps: 5.');
  assert.equal(progress, 5);
  assert.ok(tookMs > 600, `the call outlived its 600 ms timeout (${tookMs} ms)`);

  // The server is still fine after the cancelled control call.
  assert.equal(text(await client.callTool('echo', { message: 'after' })), 'Echo: after');
  await close();
});

test('everything: toggle-simulated-logging delivers notifications/message to onLog', async (t) => {
  const logs: Record<string, unknown>[] = [];
  const { client, close } = await everything(t, { onLog: (params) => logs.push(params) });
  const started = text(await client.callTool('toggle-simulated-logging'));
  assert.match(started, /^Started simulated/);
  // The server sends one message at once, then one every 5 s: wait for the first, bounded.
  const deadline = Date.now() + 3_000;
  while (logs.length === 0 && Date.now() < deadline) await delay(20);
  assert.ok(logs.length >= 1, 'a notifications/message arrived within 3 s');
  const levels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
  for (const log of logs) {
    assert.ok(levels.includes(String(log.level)), `level ${String(log.level)}`);
    assert.match(String(log.data), /message/i);
  }
  // Turn it off again: with its interval running the server would not exit on stdin EOF alone.
  assert.match(text(await client.callTool('toggle-simulated-logging')), /^Stopped simulated/);
  await close();
});

test('everything: resources/list, resources/templates/list, read a text and a blob resource', async (t) => {
  const { client, close } = await everything(t);
  const { resources } = (await client.listResources()) as { resources: { uri: string; name: string; mimeType?: string }[] };
  assert.ok(resources.length > 0);
  const doc = resources.find((r) => r.uri === 'demo://resource/static/document/features.md');
  assert.ok(doc, `a static document resource (got ${resources.map((r) => r.uri).join(', ')})`);
  assert.equal(doc.mimeType, 'text/markdown');

  const { resourceTemplates } = (await client.listResourceTemplates()) as { resourceTemplates: { uriTemplate: string }[] };
  assert.deepEqual(resourceTemplates.map((r) => r.uriTemplate).sort(), ['demo://resource/dynamic/blob/{resourceId}', 'demo://resource/dynamic/text/{resourceId}']);

  const textRead = (await client.readResource(doc.uri)) as { contents: { uri: string; text?: string; blob?: string }[] };
  assert.equal(textRead.contents.length, 1);
  assert.equal(textRead.contents[0]!.uri, doc.uri);
  assert.ok((textRead.contents[0]!.text ?? '').length > 100, 'the document text came through');

  const dynamicText = (await client.readResource('demo://resource/dynamic/text/7')) as { contents: { text?: string }[] };
  assert.match(dynamicText.contents[0]!.text ?? '', /^Resource 7: This is a plaintext resource/);

  const blobRead = (await client.readResource('demo://resource/dynamic/blob/3')) as { contents: { uri: string; blob?: string; text?: string }[] };
  const blob = blobRead.contents[0]!;
  assert.equal(blob.uri, 'demo://resource/dynamic/blob/3');
  assert.equal(blob.text, undefined);
  assert.match(Buffer.from(blob.blob ?? '', 'base64').toString('utf8'), /^Resource 3: This is a base64 blob/);
  await close();
});

test('everything: prompts/list and prompts/get with arguments', async (t) => {
  const { client, close } = await everything(t);
  const { prompts } = (await client.listPrompts()) as { prompts: { name: string; arguments?: { name: string; required?: boolean }[] }[] };
  const args = prompts.find((p) => p.name === 'args-prompt');
  assert.ok(args, `args-prompt is listed (got ${prompts.map((p) => p.name).join(', ')})`);
  assert.deepEqual(args.arguments?.map((a) => [a.name, a.required]), [
    ['city', true],
    ['state', false],
  ]);
  const got = (await client.getPrompt('args-prompt', { city: 'Lyon', state: 'Rhône' })) as { messages: { role: string; content: { type: string; text: string } }[] };
  assert.deepEqual(got.messages, [{ role: 'user', content: { type: 'text', text: "What's weather in Lyon, Rhône?" } }]);
  const simple = (await client.getPrompt('simple-prompt')) as { messages: unknown[] };
  assert.ok(simple.messages.length >= 1);
  await close();
});
