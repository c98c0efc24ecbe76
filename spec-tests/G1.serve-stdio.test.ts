// G1 (#21 item 1) over stdio: `mcpwire serve --config kaged.yaml` (the
// compiled CLI, a real child) in front of real upstream servers
// (server-everything, server-memory, the tool-source fixture, the slow G1
// fixture), used by the official SDK v1 client and by mcpwire's own client
// as downstream clients. What a client sees is the tool source's view: the
// config's deny filter, the agent's block, aliases, the result cap; progress,
// list_changed, cancellation and upstream sampling pass through.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { until } from '../src/testing/http-fixture.js';
import { waitGone } from './helpers/fault-harness.js';
import { ROOT } from './helpers/cli.js';
import { everythingUpstream, fixtureUpstream, logLines, memoryUpstream, mcpwireThroughServe, serveArgv, slowUpstream, writeProject } from './helpers/serve.js';
import { tempDir, tempLog } from './helpers/temp.js';

type Content = { type: string; text?: string }[];
const textOf = (result: object) => (((result as { content?: unknown }).content ?? []) as Content).map((c) => c.text ?? `[${c.type}]`).join('');

/** The SDK v1 client connected to `mcpwire serve ARGS` over stdio; closed (and the child gone) after the test. */
async function sdkV1(t: TestContext, args: string[], capabilities: Record<string, object> = {}): Promise<{ client: Client; transport: StdioClientTransport }> {
  const [command, ...rest] = serveArgv(args);
  const transport = new StdioClientTransport({ command: command!, args: rest, cwd: ROOT, stderr: 'pipe' });
  const client = new Client({ name: 'g1-sdk-v1', version: '1.0.0' }, { capabilities });
  t.after(async () => {
    const pid = transport.pid;
    await client.close().catch(() => {});
    if (pid !== null && pid !== undefined && !(await waitGone(pid, 5_000))) process.kill(pid, 'SIGKILL');
  });
  await client.connect(transport);
  return { client, transport };
}

describe('G1 serve --stdio: the SDK v1 client against server-everything and server-memory through mcpwire serve', () => {
  test('G1: the filtered tools under their aliases (deny applied), and calls to both upstreams answer', async (t) => {
    const project = writeProject(t, [everythingUpstream('everything', ['tools:', '  deny: ["get-env", "trigger-*"]']), memoryUpstream(t)]);
    const { client } = await sdkV1(t, ['--config', project]);
    assert.equal(client.getServerVersion()?.name, 'mcpwire-serve');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    for (const name of ['mcp_everything_echo', 'mcp_everything_get-sum', 'mcp_memory_create_entities', 'mcp_memory_read_graph']) assert.ok(names.includes(name), `${name} is served; got ${names.join(', ')}`);
    for (const name of names) assert.doesNotMatch(name, /get-env|trigger-/, 'a denied tool is not served');

    assert.equal(textOf(await client.callTool({ name: 'mcp_everything_echo', arguments: { message: 'through serve' } })), 'Echo: through serve');
    assert.match(textOf(await client.callTool({ name: 'mcp_everything_get-sum', arguments: { a: 2, b: 40 } })), /42/);
    await client.callTool({ name: 'mcp_memory_create_entities', arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] } });
    assert.match(textOf(await client.callTool({ name: 'mcp_memory_read_graph', arguments: {} })), /wrote the first program/);
    // The canonical name resolves too; a name nobody serves is a protocol error that says what to do.
    assert.equal(textOf(await client.callTool({ name: 'mcp.everything.echo', arguments: { message: 'canonical' } })), 'Echo: canonical');
    await assert.rejects(client.callTool({ name: 'mcp_everything_get-env', arguments: {} }), /-32602|no tool|not/i);
  });

  test('G1/R3: --agent serves only that agent\'s block of tools', async (t) => {
    const project = writeProject(t, [everythingUpstream(), memoryUpstream(t)], 'primary:\n  tools:\n    "mcp.memory.*": { enabled: true }\n');
    const { client } = await sdkV1(t, ['--config', project, '--agent', 'primary']);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.length > 0 && names.every((name) => name.startsWith('mcp_memory_')), `only memory tools: ${names.join(', ')}`);
    await assert.rejects(client.callTool({ name: 'mcp_everything_echo', arguments: { message: 'x' } }), /-32602|not/i);
  });

  test('G1: an unknown --agent fails at start with the agents there are', async (t) => {
    const project = writeProject(t, [memoryUpstream(t)], 'primary:\n  tools:\n    "mcp.memory.*": { enabled: true }\n');
    const { runCli } = await import('./helpers/cli.js');
    const run = await runCli(['serve', '--config', project, '--agent', 'nobody']);
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /primary/);
    assert.equal(run.stdout, '', 'nothing but protocol messages on stdout');
  });

  test('G1: the result cap of the daemon config applies to a served call', async (t) => {
    const project = writeProject(t, [everythingUpstream()]);
    const daemon = path.join(tempDir(t, 'g1-daemon'), 'config.toml');
    writeFileSync(daemon, '[mcp]\nresult_cap_bytes = 2000\n');
    const { client } = await sdkV1(t, ['--config', project, '--daemon-config', daemon]);
    const long = 'x'.repeat(20_000);
    const answer = textOf(await client.callTool({ name: 'mcp_everything_echo', arguments: { message: long } }));
    assert.ok(answer.length < 5_000, `capped: ${answer.length} characters`);
    assert.doesNotMatch(answer, new RegExp(long));
  });

  test('G1: progress from upstream reaches the client under its own token', async (t) => {
    const { client } = await sdkV1(t, ['--config', writeProject(t, [everythingUpstream()])]);
    const progress: number[] = [];
    const done = await client.callTool({ name: 'mcp_everything_trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: (p) => progress.push(p.progress) });
    assert.match(textOf(done), /completed/);
    // SDK v1 hands notifications to their handler a microtask late but settles a response at once: when the last
    // progress and the answer arrive in one read (likely under load), the answer removes the handler first and the
    // SDK drops that progress. It would do the same talking to server-everything directly, so only the ones before can be required.
    await until(() => progress.length >= 2, 'the progress notifications before the answer');
    assert.deepEqual(progress, [1, 2, 3].slice(0, progress.length));
  });

  test('G1: tools/list_changed from upstream is forwarded, and the new tool is served', async (t) => {
    const { client } = await sdkV1(t, ['--config', writeProject(t, [fixtureUpstream('fx', { TS_TOOLS: 'echo,add-tool' })])]);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'mcp_fx_add-tool'));
    const before = changed;
    assert.equal(textOf(await client.callTool({ name: 'mcp_fx_add-tool', arguments: { name: 'late' } })), 'added');
    await until(() => changed > before, 'a tools/list_changed after add-tool');
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'mcp_fx_late'), 'mcp_fx_late is listed once the change was told');
    assert.equal(textOf(await client.callTool({ name: 'mcp_fx_late', arguments: { text: 'new' } })), 'new');
  });

  test('G1: upstream sampling reaches a client that declared sampling, and is refused -32601 for one that did not', async (t) => {
    const project = writeProject(t, [fixtureUpstream('fx', { TS_TOOLS: 'sample' })]);
    const asked: unknown[] = [];
    const able = await sdkV1(t, ['--config', project], { sampling: {} });
    able.client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      asked.push(request.params.messages);
      return { role: 'assistant', content: { type: 'text', text: 'sampled by the downstream client' }, model: 'g1-model' };
    });
    const answered = textOf(await able.client.callTool({ name: 'mcp_fx_sample', arguments: {} }));
    assert.match(answered, /sampled by the downstream client/);
    assert.equal(asked.length, 1);

    const unable = await sdkV1(t, ['--config', project]);
    const refused = JSON.parse(textOf(await unable.client.callTool({ name: 'mcp_fx_sample', arguments: {} }))) as { error?: { code: number } }[];
    assert.equal(refused[0]?.error?.code, -32601);
  });

  test('G1: resources and prompts of two servers are namespaced by server key and read back', async (t) => {
    const extras = { TS_TOOLS: 'echo', TS_EXTRAS: 'resources,prompts' };
    const { client } = await sdkV1(t, ['--config', writeProject(t, [fixtureUpstream('alpha', extras), fixtureUpstream('beta', extras)])]);
    const uris = (await client.listResources()).resources.map((r) => r.uri).sort();
    assert.deepEqual(uris, ['mcpwire:alpha:memo://one', 'mcpwire:beta:memo://one']);
    const read = await client.readResource({ uri: 'mcpwire:beta:memo://one' });
    assert.deepEqual(read.contents, [{ uri: 'mcpwire:beta:memo://one', mimeType: 'text/plain', text: 'contents of memo://one' }]);
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name).sort();
    assert.deepEqual(prompts, ['alpha.greet', 'beta.greet']);
    const got = await client.getPrompt({ name: 'alpha.greet', arguments: { who: 'Ada' } });
    assert.deepEqual(got.messages, [{ role: 'user', content: { type: 'text', text: 'hello Ada' } }]);
    await assert.rejects(client.readResource({ uri: 'memo://one' }), /mcpwire:<server>:<uri>/);
  });
});

describe('G1 serve --stdio: cancellation reaches the upstream', () => {
  test('G1: a call the SDK v1 client aborts is cancelled upstream, and serve goes on answering', async (t) => {
    const log = tempLog(t, 'g1-cancel');
    const { client } = await sdkV1(t, ['--config', writeProject(t, [slowUpstream('slow', log)])]);
    const aborter = new AbortController();
    const call = client.callTool({ name: 'mcp_slow_wait', arguments: {} }, undefined, { signal: aborter.signal });
    await until(() => logLines(log).some((l) => l.startsWith('call ')), 'the call reached the upstream');
    aborter.abort();
    await assert.rejects(call);
    await until(() => logLines(log).some((l) => l.startsWith('cancelled ')), 'notifications/cancelled reached the upstream');
    const callId = logLines(log).find((l) => l.startsWith('call '))!.slice(5);
    assert.ok(logLines(log).includes(`cancelled ${callId}`), `the cancellation names the upstream call ${callId}: ${logLines(log).join(' | ')}`);
    assert.equal(textOf(await client.callTool({ name: 'mcp_slow_wait', arguments: { ms: 1 } })), 'waited 1 ms');
  });

  test('G1: a client that goes away mid-call cancels the upstream call, and serve stops its upstream', async (t) => {
    const log = tempLog(t, 'g1-gone');
    const { client, transport } = await sdkV1(t, ['--config', writeProject(t, [slowUpstream('slow', log)])]);
    const servePid = transport.pid!;
    void client.callTool({ name: 'mcp_slow_wait', arguments: {} }).catch(() => {});
    await until(() => logLines(log).some((l) => l.startsWith('call ')), 'the call reached the upstream');
    const upstreamPid = Number(logLines(log).find((l) => l.startsWith('start '))!.slice(6));
    await client.close();
    await until(() => logLines(log).some((l) => l.startsWith('cancelled ')), 'notifications/cancelled reached the upstream');
    assert.ok(await waitGone(servePid, 10_000), 'serve exits once its client has gone');
    assert.ok(await waitGone(upstreamPid, 10_000), 'the upstream server is stopped with it');
  });
});

describe('G1 serve --stdio: mcpwire itself as the downstream client, both eras', () => {
  for (const era of ['legacy', 'modern', 'auto'] as const) {
    test(`G1/E1: mcpwire (${era}) lists and calls server-everything's tools through serve`, async (t) => {
      const client = await mcpwireThroughServe(t, ['--config', writeProject(t, [everythingUpstream()])], era);
      assert.equal(client.era, era === 'legacy' ? 'legacy' : 'modern');
      const tools = await client.listTools();
      assert.ok(tools.tools.some((tool) => tool.name === 'mcp_everything_echo'));
      const answer = await client.callTool('mcp_everything_echo', { message: `mcpwire ${era}` });
      assert.equal(textOf(answer), `Echo: mcpwire ${era}`);
    });
  }
});

describe('G1 serve --names short', () => {
  test('G1: a tool only one server has keeps its own name; names two servers share stay aliases; prompts and resources alike', async (t) => {
    const project = writeProject(t, [fixtureUpstream('alpha', { TS_TOOLS: 'echo,only-here', TS_EXTRAS: 'resources,prompts' }), fixtureUpstream('beta', { TS_TOOLS: 'echo', TS_EXTRAS: 'resources,prompts' })]);
    const { client } = await sdkV1(t, ['--config', project, '--names', 'short']);
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    assert.deepEqual(names, ['mcp_alpha_echo', 'mcp_beta_echo', 'only-here']);
    assert.equal(textOf(await client.callTool({ name: 'only-here', arguments: { text: 'bare' } })), 'bare');
    assert.equal(textOf(await client.callTool({ name: 'mcp_beta_echo', arguments: { text: 'aliased' } })), 'aliased');
    // Both servers have a prompt "greet" and a resource memo://one: they stay apart.
    assert.deepEqual((await client.listPrompts()).prompts.map((p) => p.name).sort(), ['alpha.greet', 'beta.greet']);
    assert.deepEqual((await client.listResources()).resources.map((r) => r.uri).sort(), ['mcpwire:alpha:memo://one', 'mcpwire:beta:memo://one']);
  });

  test('G1: in front of one server, short names, prompts and resource URIs are the server\'s own, and completion reaches it', async (t) => {
    const project = writeProject(t, [fixtureUpstream('solo', { TS_TOOLS: 'echo', TS_EXTRAS: 'resources,prompts' })]);
    const { client } = await sdkV1(t, ['--config', project, '--names', 'short']);
    assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), ['echo']);
    assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'first call before any list' } })), 'first call before any list');
    assert.deepEqual((await client.listResources()).resources.map((r) => r.uri), ['memo://one']);
    assert.deepEqual((await client.readResource({ uri: 'memo://one' })).contents, [{ uri: 'memo://one', mimeType: 'text/plain', text: 'contents of memo://one' }]);
    assert.deepEqual((await client.getPrompt({ name: 'greet', arguments: { who: 'Lin' } })).messages, [{ role: 'user', content: { type: 'text', text: 'hello Lin' } }]);
  });
});
