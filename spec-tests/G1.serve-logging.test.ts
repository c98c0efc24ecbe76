// G1 (#21 item 1.1 and 1.3): what an upstream server sends that is not an
// answer, relayed by `mcpwire serve --stdio` (the compiled CLI, a real
// child) to the SDK v1 client downstream, in front of the notify fixture
// (a real SDK v1 server child): a call's log lines, at the level the client
// set (and logging/setLevel passed on upstream); resources/subscribe and
// unsubscribe passed to the server that owns the namespaced URI, and its
// notifications/resources/updated mapped back to that URI; list_changed
// only once the client has listed (not for the servers' first listing at
// start-up). Nothing here is timed: "not sent" is shown by a later message
// that is sent arriving first on the same ordered stream.

import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, test, type TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EmptyResultSchema, LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { until } from '../src/testing/http-fixture.js';
import { waitGone } from './helpers/fault-harness.js';
import { ROOT } from './helpers/cli.js';
import { logLines, serveArgv, writeProject, type Upstream } from './helpers/serve.js';
import { tempLog } from './helpers/temp.js';

const NOTIFY_UPSTREAM = fileURLToPath(new URL('./fixtures/G1-notify-upstream.mjs', import.meta.url));

function notifyUpstream(key: string, log: string, env: Record<string, string> = {}): Upstream {
  const entries = Object.entries({ G1_LOG: log, ...env }).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`);
  return { key, lines: ['transport: stdio', `command: ${JSON.stringify([process.execPath, NOTIFY_UPSTREAM])}`, 'env:', ...entries] };
}

interface Heard {
  logs: { level: string; data: unknown }[];
  updated: string[];
  toolsChanged: number;
}

/** The SDK v1 client on `mcpwire serve ARGS` over stdio, recording what it is told; closed (the child gone) after the test. */
async function connect(t: TestContext, args: string[]): Promise<{ client: Client; heard: Heard }> {
  const [command, ...rest] = serveArgv(args);
  const transport = new StdioClientTransport({ command: command!, args: rest, cwd: ROOT, stderr: 'pipe' });
  const client = new Client({ name: 'g1-logging', version: '1.0.0' }, { capabilities: {} });
  const heard: Heard = { logs: [], updated: [], toolsChanged: 0 };
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard.logs.push({ level: n.params.level, data: n.params.data }));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void heard.updated.push(n.params.uri));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.toolsChanged++);
  t.after(async () => {
    const pid = transport.pid;
    await client.close().catch(() => {});
    if (pid !== null && pid !== undefined && !(await waitGone(pid, 5_000))) process.kill(pid, 'SIGKILL');
  });
  await client.connect(transport);
  return { client, heard };
}

describe('G1 serve: log lines, resource subscriptions and list_changed relayed from the upstreams', () => {
  test('G1 #21.1.1: logging/setLevel reaches the upstream; a call\'s log lines at or above the level come back, the others and those outside any call do not', async (t) => {
    const log = tempLog(t, 'g1-logging');
    const project = writeProject(t, [notifyUpstream('up', log)]);
    const { client, heard } = await connect(t, ['--config', project]);
    assert.equal(client.getServerCapabilities()?.logging !== undefined, true, 'serve declares logging');
    await client.setLoggingLevel('info');
    assert.deepEqual(logLines(log), ['setLevel info'], 'the level went to the upstream server');
    const result = await client.callTool({ name: 'mcp_up_log_lines', arguments: {} });
    assert.equal((result.content as { text: string }[])[0]!.text, 'logged');
    // The upstream sent debug, info, warning, error in that order before its answer, on one ordered stream.
    assert.deepEqual(
      heard.logs.map((l) => `${l.level}:${String(l.data)}`),
      ['info:line-info', 'warning:line-warning', 'error:line-error'],
      'the lines of the call at info and above, in order; the debug line is filtered; the start-up line (outside any call) is not relayed',
    );

    await client.setLoggingLevel('error');
    assert.deepEqual(logLines(log), ['setLevel info', 'setLevel error']);
    heard.logs.length = 0;
    await client.callTool({ name: 'mcp_up_log_lines', arguments: {} });
    assert.deepEqual(heard.logs.map((l) => l.data), ['line-error']);
  });

  test('G1 #21.1.1: a bad level is refused -32602, naming the levels', async (t) => {
    const log = tempLog(t, 'g1-logging-bad');
    const { client } = await connect(t, ['--config', writeProject(t, [notifyUpstream('up', log)])]);
    await assert.rejects(client.request({ method: 'logging/setLevel', params: { level: 'loud' } }, EmptyResultSchema), (error: Error & { code?: number }) => {
      assert.equal(error.code, -32602);
      assert.match(error.message, /debug, info, notice, warning, error/);
      return true;
    });
    assert.deepEqual(logLines(log), [], 'nothing was sent upstream');
  });

  test('G1 #21.1.1: resources/subscribe goes to the server owning the namespaced URI; its updates come back under that URI, to subscribers only; unsubscribe ends it upstream', async (t) => {
    const logOne = tempLog(t, 'g1-sub-one');
    const logTwo = tempLog(t, 'g1-sub-two');
    const project = writeProject(t, [notifyUpstream('one', logOne), notifyUpstream('two', logTwo)]);
    const { client, heard } = await connect(t, ['--config', project]);
    assert.equal(client.getServerCapabilities()?.resources?.subscribe, true, 'serve offers subscriptions');
    const uris = (await client.listResources()).resources.map((r) => r.uri).sort();
    assert.deepEqual(uris, ['mcpwire:one:note://a', 'mcpwire:one:note://b', 'mcpwire:two:note://a', 'mcpwire:two:note://b']);

    await client.subscribeResource({ uri: 'mcpwire:one:note://a' });
    assert.deepEqual(logLines(logOne), ['subscribe note://a'], 'the owner got the subscription, in its own URI');
    assert.deepEqual(logLines(logTwo), [], 'the other server got nothing');
    // Subscribing twice holds one upstream subscription.
    await client.subscribeResource({ uri: 'mcpwire:one:note://a' });
    assert.deepEqual(logLines(logOne), ['subscribe note://a']);

    // note://b is not subscribed: its update is not relayed; a's, sent after it on the same stream, is.
    await client.callTool({ name: 'mcp_one_touch', arguments: { uri: 'note://b' } });
    await client.callTool({ name: 'mcp_one_touch', arguments: { uri: 'note://a' } });
    await until(() => heard.updated.length > 0, 'a resource update');
    assert.deepEqual(heard.updated, ['mcpwire:one:note://a'], 'only the subscribed resource, under its served URI');

    await client.unsubscribeResource({ uri: 'mcpwire:one:note://a' });
    assert.deepEqual(logLines(logOne), ['subscribe note://a', 'unsubscribe note://a']);
    await client.subscribeResource({ uri: 'mcpwire:one:note://b' });
    await client.callTool({ name: 'mcp_one_touch', arguments: { uri: 'note://a' } });
    await client.callTool({ name: 'mcp_one_touch', arguments: { uri: 'note://b' } });
    await until(() => heard.updated.length > 1, 'a second resource update');
    assert.deepEqual(heard.updated, ['mcpwire:one:note://a', 'mcpwire:one:note://b'], 'after unsubscribe, a is no longer relayed; b is');
  });

  test('G1 #21.1.1: a URI that is not served is refused -32602, and nothing goes upstream', async (t) => {
    const log = tempLog(t, 'g1-sub-bad');
    const { client } = await connect(t, ['--config', writeProject(t, [notifyUpstream('up', log)])]);
    await assert.rejects(client.subscribeResource({ uri: 'note://a' }), (error: Error & { code?: number }) => {
      assert.equal(error.code, -32602);
      assert.match(error.message, /mcpwire:<server>:<uri>/);
      return true;
    });
    assert.deepEqual(logLines(log), []);
  });

  test('G1 #21.1.3: no tools list_changed for the upstreams\' first listing at start-up; one for a change after the client listed', async (t) => {
    const log = tempLog(t, 'g1-startup');
    // The upstream is slow to start, so its first listing comes after the client's initialize.
    const project = writeProject(t, [notifyUpstream('up', log, { G1_START_DELAY_MS: '400' })]);
    const { client, heard } = await connect(t, ['--config', project]);
    // resources/list waits for the servers to start (and so for their first tools listing), without listing tools.
    await client.listResources();
    await client.ping();
    assert.equal(heard.toolsChanged, 0, 'no list_changed before the client has listed tools');
    const before = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(before.includes('mcp_up_grow'));
    await client.callTool({ name: 'mcp_up_grow', arguments: {} });
    await until(() => heard.toolsChanged > 0, 'tools list_changed');
    assert.equal(heard.toolsChanged, 1);
    assert.ok((await client.listTools()).tools.some((tool) => tool.name.startsWith('mcp_up_grown_')));
  });
});
