// #17 items 3 and 4 against the real SDK v2 server (fixtures/v2-server.mjs,
// @modelcontextprotocol/server 2.4.0) in modern mode, over stdio and
// Streamable HTTP: the `ask` tool's input_required result answered by the
// client's elicitation handler and retried (new id, requestState echoed), the
// typed refusal without a handler, and list_changed through
// subscriptions/listen after `add-tool`, ended by close().

import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { connect, type ServerParams } from '../src/client/connect.js';
import type { ListChangedKind, McpClient, McpClientOptions } from '../src/client/client.js';
import { createMemoryEraCache } from '../src/client/era-cache.js';
import { MissingClientCapabilityError } from '../src/errors.js';
import type { WireEntry } from '../src/transport/tap.js';
import type { ToolsChange } from '../src/toolsource/registry.js';
import type { ToolCallEvent } from '../src/toolsource/tool-source.js';
import { configOf, fixtureServer, openForTest } from './helpers/toolsource.js';
import { startV2Http, v2StdioCommand, V2_CWD, type V2Transport } from './helpers/v2-peers.js';

type Message = Record<string, unknown> & { id?: unknown; method?: string; params?: Record<string, unknown> };

async function open(t: TestContext, transport: V2Transport, extra: McpClientOptions = {}): Promise<{ client: McpClient; sent: Message[]; received: Message[] }> {
  let params: ServerParams;
  if (transport === 'stdio') {
    const [command, ...args] = v2StdioCommand('modern');
    params = { transport: 'stdio', command: command!, args, cwd: V2_CWD, protocolEra: 'modern' };
  } else {
    const peer = await startV2Http(t, 'modern');
    params = { transport: 'streamable-http', url: peer.url, protocolEra: 'modern' };
  }
  const sent: Message[] = [];
  const received: Message[] = [];
  const client = await connect(params, {
    eraCache: createMemoryEraCache(),
    ...extra,
    onWire: (entry: WireEntry) => (entry.direction === 'send' ? sent : received).push(entry.message as Message),
  });
  t.after(() => client.close());
  return { client, sent, received };
}

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

for (const transport of ['stdio', 'http'] as const) {
  describe(`#17 item 3 (MRTR) against the SDK v2 server, modern, ${transport}`, () => {
    test('ask: the elicitation handler answers the input request; the retry has a new id, inputResponses and requestState as sent', async (t) => {
      const asked: unknown[] = [];
      const { client, sent } = await open(t, transport, {
        handlers: {
          elicitation: (params) => {
            asked.push(params);
            return { action: 'accept', content: { answer: 'blue' } };
          },
        },
      });
      const result = await client.callTool('ask', { question: 'Favourite colour?' });
      assert.equal(text(result), 'answer=blue state=ask-round-1');
      assert.equal(asked.length, 1);
      assert.equal((asked[0] as { message: string }).message, 'Favourite colour?');

      const calls = sent.filter((m) => m.method === 'tools/call');
      assert.equal(calls.length, 2, 'the first call and one retry');
      assert.notEqual(calls[0]!.id, calls[1]!.id, 'each round is a new JSON-RPC request');
      assert.equal(calls[0]!.params!.requestState, undefined);
      assert.equal(calls[0]!.params!.inputResponses, undefined);
      assert.deepEqual(calls[1]!.params!.inputResponses, { answer: { action: 'accept', content: { answer: 'blue' } } });
      assert.equal(calls[1]!.params!.requestState, 'ask-round-1');
      assert.deepEqual(calls[1]!.params!.arguments, { question: 'Favourite colour?' });

      // Nothing of that call reaches the next one.
      const again = await client.callTool('echo', { text: 'x' });
      assert.equal(text(again), 'x');
      const echo = sent.filter((m) => m.method === 'tools/call').at(-1)!;
      assert.equal(echo.params!.requestState, undefined);
      assert.equal(echo.params!.inputResponses, undefined);
    });

    test('ask, declined by the handler: the server gets the decline and answers "declined"', async (t) => {
      const { client } = await open(t, transport, { handlers: { elicitation: () => ({ action: 'decline' }) } });
      assert.equal(text(await client.callTool('ask', { question: 'q?' })), 'declined');
    });

    test('ask without an elicitation handler: the client declares no elicitation, so the server refuses with -32021, typed, naming it; no retry goes out', async (t) => {
      // A conformant server never asks for what the request did not declare; a server that does meets
      // UnhandledInputRequestError instead (src/client/input-required.test.ts).
      const { client, sent } = await open(t, transport);
      const error = await client.callTool('ask', { question: 'q?' }).then(
        () => assert.fail('the call should have failed'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof MissingClientCapabilityError, String(error));
      assert.equal(error.capability, 'elicitation');
      assert.equal(error.method, 'tools/call');
      const calls = sent.filter((m) => m.method === 'tools/call');
      assert.equal(calls.length, 1);
      const declared = (calls[0]!.params!._meta as Record<string, unknown>)['io.modelcontextprotocol/clientCapabilities'] as Record<string, unknown>;
      assert.equal(declared.elicitation, undefined);
    });
  });

  describe(`#17 item 4 (listen) against the SDK v2 server, modern, ${transport}`, () => {
    test('with onListChanged: subscriptions/listen is open after connect, add-tool is heard as "tools", and close() ends the stream', async (t) => {
      const changes: ListChangedKind[] = [];
      let heard!: () => void;
      const toolsChanged = new Promise<void>((resolve) => (heard = resolve));
      const { client, sent, received } = await open(t, transport, {
        onListChanged: (kind) => {
          changes.push(kind);
          if (kind === 'tools') heard();
        },
      });
      const listens = sent.filter((m) => m.method === 'subscriptions/listen');
      assert.equal(listens.length, 1);
      assert.equal((listens[0]!.params!.notifications as Record<string, unknown>).toolsListChanged, true);
      assert.ok(received.some((m) => m.method === 'notifications/subscriptions/acknowledged'), 'connect() waited for the acknowledgement');

      assert.equal(text(await client.callTool('add-tool', { name: `added-${transport}` })), `added added-${transport}`);
      await toolsChanged;
      assert.deepEqual(changes, ['tools']);
      const notification = received.find((m) => m.method === 'notifications/tools/list_changed')!;
      assert.ok((notification.params!._meta as Record<string, unknown>)['io.modelcontextprotocol/subscriptionId'] !== undefined);
      const tools = await client.listTools();
      assert.ok(tools.tools.some((tool) => tool.name === `added-${transport}`));

      await client.close();
      if (transport === 'stdio') {
        const cancelled = sent.find((m) => m.method === 'notifications/cancelled');
        assert.equal(cancelled?.params?.requestId, listens[0]!.id, 'the listen request was cancelled before the server was stopped');
      }
    });

    test('without onListChanged no listen stream is opened', async (t) => {
      const { client, sent } = await open(t, transport);
      await client.callTool('echo', { text: 'x' });
      assert.equal(sent.filter((m) => m.method === 'subscriptions/listen').length, 0);
    });
  });
}

describe('#17 item 4: the tool source re-discovers through listen over a modern server', () => {
  test('add-tool on a modern SDK v2 server over stdio: tools-changed lists the new tool', async (t) => {
    const server = fixtureServer('v2', {}, {});
    server.params = { transport: 'stdio', command: v2StdioCommand('modern'), cwd: V2_CWD, server: 'v2', protocolEra: 'modern' } as typeof server.params;
    const calls: ToolCallEvent[] = [];
    const source = await openForTest(t, { config: configOf([server]), start: 'startup', onCall: (event) => calls.push(event) });
    // #17 item 1: status() says which era each server speaks.
    assert.deepEqual([source.status()[0]!.era, source.status()[0]!.protocolVersion], ['modern', '2026-07-28']);
    const changed = new Promise<ToolsChange>((resolve) => {
      const off = source.on('tools-changed', (change) => {
        if (change.added.some((name) => name.endsWith('.late'))) {
          off();
          resolve(change);
        }
      });
    });
    const addTool = source.registered().find((tool) => tool.name.endsWith('.add-tool'));
    assert.ok(addTool, `add-tool is registered: ${source.registered().map((tool) => tool.name).join(', ')}`);
    await source.call(addTool.name, { name: 'late' });
    const change = await changed;
    assert.ok(change.added.includes('mcp.v2.late'), JSON.stringify(change));
    // onCall says the era and the protocol version apart.
    assert.deepEqual(calls.map((c) => [c.era, c.protocolVersion]), [['modern', '2026-07-28']]);
  });
});

describe('#17 item 3: one elicitation handler for both eras', () => {
  test('ask on a dual-era SDK v2 server spoken to in the legacy era: the same handler answers its elicitation/create server request', async (t) => {
    const [command, ...args] = v2StdioCommand('dual');
    const client = await connect(
      { transport: 'stdio', command: command!, args, cwd: V2_CWD, protocolEra: 'legacy' },
      { handlers: { elicitation: () => ({ action: 'accept', content: { answer: 'green' } }) } },
    );
    t.after(() => client.close());
    assert.equal(client.era, 'legacy');
    assert.match(text(await client.callTool('ask', { question: 'q?' })), /^answer=green/);
  });
});
