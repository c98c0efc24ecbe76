// E2 (#17, "Tests and figures"): mcpwire against real modern servers, the
// official SDK v2 server (fixtures/v2-server.mjs), modern-only and dual-era,
// over stdio and Streamable HTTP: the checks E2.v2-peers-sdk makes with the
// SDK v2 client, made with mcpwire.
//
// - The 2025 suites (protocolEra 'legacy' against the dual-era server, and a
//   legacy connect refused by the modern-only one) run today.
// - The 2026-07-28 suites (protocolEra 'modern' and 'auto') wait for the era
//   negotiation: they are skipped while a connected McpClient has no `era`
//   (#17 item 7, "McpClient exposes the era and version"; the ConnectedEra
//   type already exists). Found out once, at load, from a real legacy
//   connection, so a getter and a field count alike; the moment `era` exists
//   they run, and from then on fail on any regression instead of skipping.
//   MCPWIRE_E2_MODERN=1 runs them regardless (for the era work in progress).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect, McpClient, type ListChangedKind, type McpClientOptions, type ProtocolEra, type ServerParams } from '../src/index.js';
import { until } from '../src/testing/http-fixture.js';
import { assertAskAnswered, firstText, LEGACY_VERSION, MODERN_VERSION, V2_CWD, V2_ERAS, startV2Http, suiteCleanup, v2StdioCommand, type Cleanup, type V2Era, type V2Transport } from './helpers/v2-peers.js';

type Era = Exclude<ProtocolEra, { version: string }>;

/** The era the client says it speaks; undefined before the era work (#17 item 7). */
function eraOf(client: McpClient): unknown {
  return (client as unknown as { era?: unknown }).era;
}

/** Why the modern suites are skipped, or false once McpClient reports its era. */
async function eraPending(): Promise<string | false> {
  if (process.env.MCPWIRE_E2_MODERN) return false;
  const client = await connect({ transport: 'stdio', command: v2StdioCommand('dual'), cwd: V2_CWD, protocolEra: 'legacy' });
  try {
    return typeof eraOf(client) === 'string' ? false : 'the era negotiation (#17) is not merged yet: McpClient has no `era`';
  } finally {
    await client.close();
  }
}
const ERA_PENDING = await eraPending();

interface Connected {
  client: McpClient;
  listChanged: ListChangedKind[];
  asked: string[];
}

async function params(t: Cleanup, era: V2Era, transport: V2Transport, protocolEra: Era): Promise<ServerParams> {
  if (transport === 'stdio') return { transport: 'stdio', command: v2StdioCommand(era), cwd: V2_CWD, protocolEra };
  const peer = await startV2Http(t, era);
  return { transport: 'streamable-http', url: peer.url, protocolEra };
}

async function connectMcpwire(t: Cleanup, era: V2Era, transport: V2Transport, protocolEra: Era): Promise<Connected> {
  const listChanged: ListChangedKind[] = [];
  const asked: string[] = [];
  const options: McpClientOptions = {
    handlers: {
      elicitation: (request) => {
        asked.push(String(request?.message));
        return { action: 'accept', content: { answer: '42' } };
      },
    },
    onListChanged: (kind) => listChanged.push(kind),
  };
  // Before the HTTP server starts: t.after hooks run in the order they were added, and the client goes first.
  let client: McpClient | undefined;
  t.after(() => client?.close());
  client = await connect(await params(t, era, transport, protocolEra), options);
  return { client, listChanged, asked };
}

/** Every tool, the resource and the prompt, as the SDK v2 client uses them in E2.v2-peers-sdk. */
/**
 * What the modern suites need that has not landed yet (#17 items 3 and 4): until it does, those
 * checks run as todo (they run, and say how they fail, without failing the suite).
 */
const MRTR_PENDING: string | false = false;
const LISTEN_PENDING: string | false = false;

async function usesEverything(connected: Connected, era: V2Era, transport: V2Transport, version: string, options: { ask?: boolean } = {}): Promise<void> {
  const { client } = connected;
  assert.equal(client.profile?.protocolVersion, version);
  if (!ERA_PENDING) assert.equal(eraOf(client), version === MODERN_VERSION ? 'modern' : 'legacy');
  assert.equal(client.serverInfo?.name, `v2-${era}-${transport}`);
  assert.ok(client.profile?.capabilities.tools, 'the profile carries the server capabilities');

  const { tools } = await client.listTools();
  // slow-task: the fixture's hand-served task tool, on 2025-era connections only (the SDK has no task runtime).
  const names = ['add', 'add-tool', 'ask', 'count', 'echo', 'log', ...(version === LEGACY_VERSION ? ['slow-task'] : [])];
  assert.deepEqual(tools.map((tool) => tool.name).sort(), names);
  assert.deepEqual((tools.find((tool) => tool.name === 'add')?.outputSchema as { properties?: unknown } | undefined)?.properties, { sum: { type: 'number' } });

  assert.equal(firstText(await client.callTool('echo', { text: 'hi there' })), 'hi there');

  const added = await client.callTool('add', { a: 2, b: 3 });
  assert.deepEqual(added.structuredContent, { sum: 5 });

  // Unpaced, unlike the SDK v2 client's check: the three notifications come just before the result.
  const progress: number[] = [];
  const counted = await client.callTool('count', { steps: 3 }, { onProgress: (update) => progress.push(update.progress) });
  assert.equal(firstText(counted), 'counted 3');
  assert.deepEqual(progress, [1, 2, 3]);

  if (options.ask !== false) await answersAsk(connected, transport, version);

  const read = await client.readResource('v2://greeting');
  assert.deepEqual(read.contents, [{ uri: 'v2://greeting', mimeType: 'text/plain', text: 'hello from the v2 server' }]);

  const prompt = await client.getPrompt('greet', { name: 'Ada' });
  assert.deepEqual(prompt.messages, [{ role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } }]);
}

/** The ask tool: an elicitation, by a server request (legacy stdio) or an input_required round (modern). */
async function answersAsk({ client, asked }: Connected, transport: V2Transport, version: string): Promise<void> {
  assertAskAnswered(await client.callTool('ask', { question: 'What is the answer?' }), asked, transport, version);
}

/** add-tool, then notifications/tools/list_changed (modern: through subscriptions/listen), then the new tool. */
async function hearsListChanged({ client, listChanged }: Connected, transport: V2Transport, protocolEra: Era, version: string): Promise<void> {
  assert.equal(client.profile?.protocolVersion, version);
  const name = `added-${transport}-${protocolEra}`;
  assert.equal(firstText(await client.callTool('add-tool', { name })), `added ${name}`);
  await until(() => listChanged.includes('tools'), 'notifications/tools/list_changed');
  const { tools } = await client.listTools();
  assert.ok(tools.some((tool) => tool.name === name), `${name} is listed after list_changed`);
  assert.equal(firstText(await client.callTool(name, { text: 'new' })), 'new');
}

/** One connection for the suite: the features first, then add-tool (which changes the tool list). */
function connectedSuite(era: V2Era, transport: V2Transport, protocolEra: Era): () => Connected {
  const cleanup = suiteCleanup();
  let connected: Connected | undefined;
  before(async () => {
    connected = await connectMcpwire(cleanup, era, transport, protocolEra);
  });
  after(() => cleanup.run());
  return () => connected!;
}

for (const transport of ['stdio', 'http'] as const) {
  describe(`mcpwire (legacy) against the v2 dual-era server over ${transport}`, () => {
    const connected = connectedSuite('dual', transport, 'legacy');
    it(`agrees on ${LEGACY_VERSION} and uses every tool, the resource and the prompt`, () => usesEverything(connected(), 'dual', transport, LEGACY_VERSION));

    // The 2025 stateless HTTP serving has no session and no GET stream: nothing can carry a notification there.
    it('hears tools/list_changed after add-tool and sees the new tool', { skip: transport === 'http' && 'stateless 2025 HTTP has no stream for notifications' }, () =>
      hearsListChanged(connected(), transport, 'legacy', LEGACY_VERSION),
    );
  });

  describe(`mcpwire (legacy) and the task-required tool of the v2 dual-era server over ${transport}`, () => {
    const connected = connectedSuite('dual', transport, 'legacy');

    it('sees it listed as required, and the fixture serves tasks/* as 2025-11-25 says (through request())', async () => {
      const { client } = connected();
      assert.deepEqual(client.profile?.capabilities.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
      const { tools } = await client.listTools();
      assert.deepEqual(tools.find((tool) => tool.name === 'slow-task')?.execution, { taskSupport: 'required' });

      const created = (await client.request('tools/call', { name: 'slow-task', arguments: { ms: 100 }, task: {} })) as { task: { taskId: string; status: string; pollInterval: number } };
      assert.equal(created.task.status, 'working');
      assert.equal(created.task.pollInterval, 50);
      const { taskId } = created.task;
      const result = await client.request('tasks/result', { taskId });
      assert.deepEqual(result, { content: [{ type: 'text', text: 'task done after 100 ms' }], _meta: { 'io.modelcontextprotocol/related-task': { taskId } } });
      assert.equal(((await client.request('tasks/get', { taskId })) as { status: string }).status, 'completed');

      const long = (await client.request('tools/call', { name: 'slow-task', arguments: { ms: 10_000 }, task: {} })) as { task: { taskId: string } };
      assert.equal(((await client.request('tasks/cancel', { taskId: long.task.taskId })) as { status: string }).status, 'cancelled');
    });

    it('callTool on it returns the final result (#17 item 5)', async () => {
      const { client } = connected();
      assert.equal(firstText(await client.callTool('slow-task', { ms: 100 })), 'task done after 100 ms');
    });
  });

  describe(`mcpwire (legacy) against the v2 modern-only server over ${transport}`, () => {
    const cleanup = suiteCleanup();
    after(() => cleanup.run());
    it('is refused: the server answers the 2025 initialize -32022, naming 2026-07-28', async () => {
      const server = await params(cleanup, 'modern', transport, 'legacy');
      await assert.rejects(connect(server), (error: Error) => {
        assert.match(error.message, /-32022|unsupported protocol version/i);
        return true;
      });
    });

    it('with no era configured, the client follows that -32022 to 2026-07-28 (one more exchange; none against a 2025 server)', { skip: ERA_PENDING }, async () => {
      const { protocolEra: _configured, ...server } = await params(cleanup, 'modern', transport, 'legacy');
      const client = await connect(server as ServerParams);
      cleanup.after(() => client.close());
      assert.equal(eraOf(client), 'modern');
      assert.equal(client.profile?.protocolVersion, MODERN_VERSION);
      assert.equal(firstText(await client.callTool('echo', { text: 'upgraded' })), 'upgraded');
    });
  });

  for (const era of V2_ERAS) {
    for (const protocolEra of ['modern', 'auto'] as const) {
      describe(`mcpwire (${protocolEra}) against the v2 ${era} server over ${transport}`, { skip: ERA_PENDING }, () => {
        const connected = connectedSuite(era, transport, protocolEra);
        it(`negotiates ${MODERN_VERSION} and uses every tool, the resource and the prompt`, () => usesEverything(connected(), era, transport, MODERN_VERSION, { ask: false }));
        it('answers the ask tool: input_required, through the elicitation handler, requestState echoed', { todo: MRTR_PENDING }, () => answersAsk(connected(), transport, MODERN_VERSION));
        it('hears tools/list_changed through subscriptions/listen after add-tool and sees the new tool', { todo: LISTEN_PENDING }, () =>
          hearsListChanged(connected(), transport, protocolEra, MODERN_VERSION),
        );
      });
    }
  }
}
