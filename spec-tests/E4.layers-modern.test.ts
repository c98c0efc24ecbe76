// #17 item 7: the layers above the client work unchanged over a modern
// (2026-07-28) server. A kaged project and a Kestrel config, each naming the
// official SDK v2 server (fixtures/v2-server.mjs) modern-only over stdio and
// over Streamable HTTP, with and without an era configured, beside a 2025
// server (server-everything) in the same file: the tools are listed under
// the host's names, calls answer, status() says which era each connection
// speaks, an elicitation the server asks for through an input-required result
// reaches Kestrel's handler, the resource and prompt bridges work, and a
// list change heard through subscriptions/listen re-discovers the tools.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { openToolSource, type ToolSource } from '../src/toolsource/tool-source.js';
import { openKestrelMcp, type KestrelMcp } from '../src/toolsource/kestrel/plugin.js';
import { until } from '../src/testing/http-fixture.js';
import { everythingServerPath } from './helpers/interop.js';
import { tempDir } from './helpers/temp.js';
import { MODERN_VERSION, V2_SERVER, startV2Http, type V2Transport } from './helpers/v2-peers.js';

const TRANSPORTS: readonly V2Transport[] = ['stdio', 'http'];
/** An era a config may name, or none (the client then speaks legacy and follows the server's -32022). */
const CONFIGURED = [undefined, 'modern', 'auto'] as const;

function textOf(result: { content: readonly { type: string; text?: string }[] }): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('');
}

/** A kaged project (YAML, ADR-0043) with the v2 modern-only server as `v2` and server-everything as `everything`. */
async function kagedProject(t: TestContext, transport: V2Transport, era: (typeof CONFIGURED)[number]): Promise<string> {
  const dir = tempDir(t, 'e4');
  const eraLine = era === undefined ? '' : `    protocol_era: ${era}\n`;
  const v2 =
    transport === 'stdio'
      ? `  v2:\n    transport: stdio\n    command: ${JSON.stringify([process.execPath, V2_SERVER, '--transport', 'stdio', '--era', 'modern'])}\n${eraLine}`
      : `  v2:\n    transport: streamable-http\n    url: ${(await startV2Http(t, 'modern')).url}\n${eraLine}`;
  const everything = `  everything:\n    transport: stdio\n    command: ${JSON.stringify([process.execPath, everythingServerPath(), 'stdio'])}\n    protocol_era: auto\n`;
  const file = path.join(dir, 'kaged.yaml');
  writeFileSync(file, `mcp:\n${v2}${everything}`);
  return file;
}

async function openSource(t: TestContext, project: string): Promise<ToolSource> {
  const source = await openToolSource({ project, start: 'startup', operatorConfigDir: path.join(path.dirname(project), 'no-operator-dir') });
  t.after(() => source.close());
  return source;
}

describe('E4/R1: a kaged project with a modern-only v2 server beside a 2025 server', () => {
  for (const transport of TRANSPORTS) {
    for (const era of CONFIGURED) {
      test(`over ${transport}, protocol_era ${era ?? 'unset'}: mcp.v2.* are listed and answer, and status() says modern for v2 and legacy for everything`, async (t) => {
        const source = await openSource(t, await kagedProject(t, transport, era));
        const names = (await source.tools()).map((tool) => tool.name);
        for (const name of ['mcp.v2.echo', 'mcp.v2.add', 'mcp.v2.ask', 'mcp.everything.echo']) assert.ok(names.includes(name), `${name} is listed; got ${names.join(', ')}`);

        const echoed = await source.call('mcp.v2.echo', { text: `kaged over ${transport}` });
        assert.equal(textOf(echoed.result), `kaged over ${transport}`);
        const added = await source.call('mcp.v2.add', { a: 2, b: 40 });
        assert.deepEqual(added.result.structuredContent, { sum: 42 });
        const everything = await source.call('mcp.everything.echo', { message: 'legacy beside it' });
        assert.match(textOf(everything.result), /legacy beside it/);

        const byKey = new Map(source.status().map((s) => [s.key, s]));
        assert.equal(byKey.get('v2')?.state, 'ready');
        assert.equal(byKey.get('v2')?.era, 'modern');
        assert.equal(byKey.get('v2')?.protocolVersion, MODERN_VERSION);
        assert.equal(byKey.get('everything')?.era, 'legacy');
      });
    }

    test(`over ${transport}: a tool the modern server adds is heard through subscriptions/listen and re-discovered (R7)`, async (t) => {
      const source = await openSource(t, await kagedProject(t, transport, 'modern'));
      await source.tools();
      const answer = await source.call('mcp.v2.add-tool', { name: 'late-arrival' });
      assert.equal(textOf(answer.result), 'added late-arrival');
      await until(() => source.registered().some((tool) => tool.name === 'mcp.v2.late-arrival'), 'the added tool is re-discovered', 15_000);
      const late = await source.call('mcp.v2.late-arrival', { text: 'here' });
      assert.equal(textOf(late.result), 'here');
    });

    test(`over ${transport}: with no handler installed, the server's -32021 for elicitation is a typed error that names the capability and what to do`, async (t) => {
      const source = await openSource(t, await kagedProject(t, transport, 'modern'));
      // The tool source advertises no elicitation capability (ADR-0043 §5), so
      // the SDK server answers the input-required tool with -32021 rather than
      // asking; the call settles at once with that, never a hang.
      await assert.rejects(source.call('mcp.v2.ask', { question: 'colour?' }), (error: Error) => {
        assert.equal(error.name, 'RpcError');
        assert.match(error.message, /requires the client capability "elicitation".*install its handler/);
        return true;
      });
      // The server stays usable for the next call.
      assert.equal(textOf((await source.call('mcp.v2.echo', { text: 'after' })).result), 'after');
    });
  }
});

async function openKestrel(t: TestContext, transport: V2Transport, answers: string[]): Promise<KestrelMcp> {
  const v2 =
    transport === 'stdio'
      ? { command: process.execPath, args: [V2_SERVER, '--transport', 'stdio', '--era', 'modern'], approval: 'auto' }
      : { url: (await startV2Http(t, 'modern')).url, approval: 'auto' };
  const mcp = await openKestrelMcp({
    config: { plugin: { servers: { v2, everything: { command: process.execPath, args: [everythingServerPath(), 'stdio'], protocolEra: 'auto' } } } },
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    beyond: {
      rediscover: true,
      elicitation: async (params) => {
        answers.push(String(params?.message ?? ''));
        return { action: 'accept', content: { answer: 'teal' } };
      },
    },
  });
  t.after(() => mcp.close());
  return mcp;
}

describe('E4/K1–K3: a Kestrel config with a modern-only v2 server', () => {
  for (const transport of TRANSPORTS) {
    test(`over ${transport}: mcp__v2__* tools execute, the ask tool's elicitation (input-required) reaches beyond.elicitation, bridges read the resource and the prompt`, async (t) => {
      const asked: string[] = [];
      const mcp = await openKestrel(t, transport, asked);
      const tools = new Map(mcp.agentTools().map((tool) => [tool.name, tool]));
      for (const name of ['mcp__v2__echo', 'mcp__v2__ask', 'mcp__v2__read_resource', 'mcp__v2__get_prompt', 'mcp__everything__echo']) {
        assert.ok(tools.has(name), `${name} is offered; got ${[...tools.keys()].join(', ')}`);
      }

      const echoed = await tools.get('mcp__v2__echo')!.execute({ text: 'kestrel modern' });
      assert.deepEqual([echoed.isError, echoed.content], [false, 'kestrel modern']);

      const answered = await tools.get('mcp__v2__ask')!.execute({ question: 'favourite colour?' });
      assert.equal(answered.isError, false, answered.content);
      assert.match(answered.content, /^answer=teal state=ask-round-1$/);
      assert.equal(asked.length, 1, 'one elicitation, through the handler the host installed');
      assert.match(asked[0]!, /favourite colour\?/, 'the handler saw the server\'s question');

      const resource = await tools.get('mcp__v2__read_resource')!.execute({ uri: 'v2://greeting' });
      assert.match(resource.content, /hello from the v2 server/);
      const prompt = await tools.get('mcp__v2__get_prompt')!.execute({ name: 'greet', arguments: { name: 'Ada' } });
      assert.match(prompt.content, /Say hello to Ada\./);

      const byKey = new Map(mcp.status().map((s) => [s.key, s]));
      assert.deepEqual([byKey.get('v2')?.era, byKey.get('v2')?.protocolVersion], ['modern', MODERN_VERSION]);
      assert.equal(byKey.get('everything')?.era, 'legacy');
    });

    test(`over ${transport}: a tool the server adds fires tools-changed with its mcp__ name (beyond.rediscover over listen)`, async (t) => {
      const mcp = await openKestrel(t, transport, []);
      const changes: string[][] = [];
      mcp.on('tools-changed', (change) => changes.push(change.added));
      const added = await mcp.agentTools().find((tool) => tool.name === 'mcp__v2__add-tool')!.execute({ name: 'fresh' });
      assert.equal(added.content, 'added fresh');
      await until(() => changes.some((names) => names.includes('mcp__v2__fresh')), 'tools-changed names the new tool', 15_000);
    });
  }
});
