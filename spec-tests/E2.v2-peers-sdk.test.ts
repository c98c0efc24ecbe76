// E2 (#17, "Tests and figures"): the modern peers themselves, checked with the
// official SDK v2 client (@modelcontextprotocol/client 2.4.0), which speaks
// both eras. What passes here is what a v2 server offers a client that gets
// the 2026-07-28 wire right; the mcpwire suite (E2.v2-peers-mcpwire) asks
// the same of mcpwire. If this file fails, the fixture is wrong, not mcpwire.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it, type TestContext } from 'node:test';
import { Client, StreamableHTTPClientTransport, type Transport, type Tool } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { until } from '../src/testing/http-fixture.js';
import { assertAskAnswered, firstText, LEGACY_VERSION, MODERN_VERSION, V2_CWD, V2_ERAS, V2_SERVER, startV2Http, suiteCleanup, v2StdioCommand, type Cleanup, type V2Era, type V2Transport } from './helpers/v2-peers.js';

type SdkMode = 'auto' | 'legacy';

interface Connected {
  client: Client;
  /** Each tools list the client's listChanged handler received, in order. */
  toolLists: Tool[][];
  /** The questions the elicitation handler was asked. */
  asked: string[];
}

async function connectSdk(t: Cleanup, era: V2Era, transport: V2Transport, mode: SdkMode): Promise<Connected> {
  const toolLists: Tool[][] = [];
  const asked: string[] = [];
  const client = new Client(
    { name: 'e2-sdk-client', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode },
      listChanged: { tools: { debounceMs: 0, onChanged: (error, tools) => (error ? undefined : toolLists.push(tools ?? [])) } },
    },
  );
  client.setRequestHandler('elicitation/create', (request) => {
    asked.push(String(request.params.message));
    return { action: 'accept', content: { answer: '42' } };
  });
  // Before the HTTP server starts: t.after hooks run in the order they were added, and the client goes first.
  t.after(() => client.close().catch(() => {}));
  let wire: Transport;
  if (transport === 'stdio') {
    const [command, ...args] = v2StdioCommand(era);
    wire = new StdioClientTransport({ command: command!, args, cwd: V2_CWD, stderr: 'pipe' });
  } else {
    const peer = await startV2Http(t, era);
    wire = new StreamableHTTPClientTransport(new URL(peer.url));
  }
  await client.connect(wire);
  return { client, toolLists, asked };
}

const cases: Array<{ era: V2Era; transport: V2Transport; mode: SdkMode; version: string }> = [];
for (const transport of ['stdio', 'http'] as const) {
  for (const era of V2_ERAS) cases.push({ era, transport, mode: 'auto', version: MODERN_VERSION });
  cases.push({ era: 'dual', transport, mode: 'legacy', version: LEGACY_VERSION });
}

for (const { era, transport, mode, version } of cases) {
  describe(`the SDK v2 client (${mode}) against the v2 ${era} server over ${transport}`, () => {
    // One connection for the suite: the features first, then add-tool (which changes the tool list).
    const cleanup = suiteCleanup();
    let connected: Connected;
    before(async () => {
      connected = await connectSdk(cleanup, era, transport, mode);
    });
    after(() => cleanup.run());

    it(`negotiates ${version} and uses every tool, the resource and the prompt`, async () => {
      const { client, asked } = connected;
      assert.equal(client.getNegotiatedProtocolVersion(), version);
      assert.equal(client.getProtocolEra(), version === MODERN_VERSION ? 'modern' : 'legacy');
      assert.equal(client.getServerVersion()?.name, `v2-${era}-${transport}`);

      const { tools } = await client.listTools();
      // slow-task: the fixture's hand-served task tool, on 2025-era connections only (the SDK has no task runtime).
      const names = ['add', 'add-tool', 'ask', 'count', 'echo', 'log', ...(version === LEGACY_VERSION ? ['slow-task'] : [])];
      assert.deepEqual(tools.map((tool) => tool.name).sort(), names);
      if (version === LEGACY_VERSION) assert.deepEqual(tools.find((tool) => tool.name === 'slow-task')?.execution, { taskSupport: 'required' });
      assert.deepEqual(tools.find((tool) => tool.name === 'add')?.outputSchema?.properties, { sum: { type: 'number' } });

      assert.equal(firstText(await client.callTool({ name: 'echo', arguments: { text: 'hi there' } })), 'hi there');

      const added = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      assert.deepEqual(added.structuredContent, { sum: 5 });

      // Paced: the SDK client dispatches a notification later than a response that follows it closely on a pipe,
      // and drops progress that arrives after its call settled ("unknown token"): on stdio, unpaced, it loses some.
      const progress: number[] = [];
      const counted = await client.callTool({ name: 'count', arguments: { steps: 3, intervalMs: 20 } }, { onprogress: (p) => progress.push(p.progress) });
      assert.equal(firstText(counted), 'counted 3');
      assert.deepEqual(progress, [1, 2, 3]);

      const answer = await client.callTool({ name: 'ask', arguments: { question: 'What is the answer?' } });
      assertAskAnswered(answer, asked, transport, version);

      const read = await client.readResource({ uri: 'v2://greeting' });
      assert.deepEqual(read.contents, [{ uri: 'v2://greeting', mimeType: 'text/plain', text: 'hello from the v2 server' }]);

      const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
      assert.deepEqual(prompt.messages, [{ role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } }]);
    });

    // The 2025 stateless HTTP serving has no session and no GET stream: nothing can carry a notification there.
    const noChannel = transport === 'http' && version === LEGACY_VERSION;
    it('hears tools/list_changed after add-tool and sees the new tool', { skip: noChannel && 'stateless 2025 HTTP has no stream for notifications' }, async () => {
      const { client, toolLists } = connected;
      const name = `added-${transport}-${mode}`;
      assert.equal(firstText(await client.callTool({ name: 'add-tool', arguments: { name } })), `added ${name}`);
      await until(() => toolLists.some((tools) => tools.some((tool) => tool.name === name)), `a tools list with ${name}`);
      assert.equal(firstText(await client.callTool({ name, arguments: { text: 'new' } })), 'new');
    });
  });
}

/** The child's exit code or signal, once it has exited; fails if it is still running 10 s later. */
async function exitOf(child: ChildProcess): Promise<number | string> {
  if (child.exitCode === null && child.signalCode === null) {
    const signal = AbortSignal.timeout(10_000);
    await once(child, 'exit', { signal }).catch(() => assert.fail(`the fixture (pid ${child.pid}) is still running 10 s later`));
  }
  return child.exitCode ?? String(child.signalCode);
}

describe('the v2 server fixture leaves nothing behind', () => {
  for (const era of V2_ERAS) {
    it(`over stdio (${era}) exits when its stdin ends`, async (t: TestContext) => {
      const child = spawn(process.execPath, [V2_SERVER, '--transport', 'stdio', '--era', era], { cwd: V2_CWD, stdio: ['pipe', 'ignore', 'ignore'] });
      t.after(() => child.kill('SIGKILL'));
      child.stdin.end();
      assert.equal(await exitOf(child), 0);
    });

    it(`over HTTP (${era}) listens on 127.0.0.1 only and exits on SIGTERM and when its stdin ends`, async (t: TestContext) => {
      const bySignal = await startV2Http(t, era);
      assert.equal(new URL(bySignal.url).hostname, '127.0.0.1');
      bySignal.child.kill('SIGTERM');
      assert.equal(await exitOf(bySignal.child), 0);

      const byStdin = await startV2Http(t, era);
      byStdin.child.stdin!.end();
      assert.equal(await exitOf(byStdin.child), 0);
    });
  }
});
