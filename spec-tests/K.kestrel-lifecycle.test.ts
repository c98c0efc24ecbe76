// Kestrel's layer after startup (issue #16 items 5, 13, 22, 27), against
// real child processes: servers that come up late are published and
// announced; the host gets the tool source's events, enable, disable and
// restart in Kestrel's names; a transport failure or timeout is a result the
// model reads; and a server's sampling requests are charged only to the
// call in flight when they arrive.

import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test, type TestContext } from 'node:test';
import { ClosedError, ConfigError, McpClientError, TimeoutError, UnknownToolError } from '../src/errors.js';
import { openKestrelMcp, type KestrelLogger, type KestrelMcp, type KestrelMcpOptions, type KestrelToolsChange } from '../src/toolsource/kestrel/plugin.js';
import type { SamplingRequest } from '../src/toolsource/kestrel/sampling.js';
import type { ServerStatus } from '../src/toolsource/supervisor.js';
import { until } from '../src/testing/http-fixture.js';
import { everythingServerPath } from './helpers/interop.js';
import { TOOLSOURCE_FIXTURE } from './helpers/toolsource.js';
import { tempDir, tempLog } from './helpers/temp.js';
import { readFileSync } from 'node:fs';

const FIXTURES = path.dirname(fileURLToPath(new URL('./fixtures/kestrel-late-sampler.mjs', import.meta.url)));
const LATE_SAMPLER = path.join(FIXTURES, 'kestrel-late-sampler.mjs');
const FLAKY_START = path.join(FIXTURES, 'kestrel-flaky-start.mjs');

type Logged = { level: string; message: string; data: Record<string, unknown> | undefined };

async function open(t: TestContext, plugin: unknown, extra: Partial<KestrelMcpOptions> = {}): Promise<{ mcp: KestrelMcp; lines: Logged[] }> {
  const lines: Logged[] = [];
  const at = (level: string) => (message: string, data?: Record<string, unknown>) => lines.push({ level, message, data });
  const logger: KestrelLogger = { info: at('info'), warn: at('warn'), error: at('error') };
  const mcp = await openKestrelMcp({ config: { plugin }, logger, ...extra });
  t.after(() => mcp.close());
  return { mcp, lines };
}

const fixture = (env: Record<string, string> = {}) => ({ command: process.execPath, args: [TOOLSOURCE_FIXTURE], env });
const names = (mcp: KestrelMcp) => mcp.agentTools().map((tool) => tool.name);
const tool = (mcp: KestrelMcp, name: string) => {
  const found = mcp.agentTools().find((candidate) => candidate.name === name);
  assert.ok(found, `${name} among ${names(mcp).join(', ')}`);
  return found;
};

/** The next tools-changed event that satisfies `wanted`. */
function nextChange(mcp: KestrelMcp, wanted: (change: KestrelToolsChange) => boolean): Promise<KestrelToolsChange> {
  return new Promise((resolve) => {
    const off = mcp.on('tools-changed', (change) => {
      if (!wanted(change)) return;
      off();
      resolve(change);
    });
  });
}

describe('#16 item 27: sampling is charged to the call in flight when the request arrives', () => {
  // A server answers call A, then at once sends 8 sampling requests; the
  // host calls B (which samples 8 times itself) as soon as A is answered.
  // Before the fix, B lost 2–8 of its 8 to A's late requests in every trial.
  const TRIALS = 10;
  const LATE = 8;

  for (const order of ['B after A answered', 'B queued behind A'] as const) {
    test(`27: ${order}: B keeps its whole budget, and A's late requests are refused, in ${TRIALS} of ${TRIALS} trials`, async (t) => {
      const seen: string[] = [];
      const { mcp } = await open(
        t,
        { sampling: { enabled: true, model: 'm' }, servers: { bg: { command: process.execPath, args: [LATE_SAMPLER] } } },
        {
          sampler: async (request: SamplingRequest) => {
            const content = request.messages[0]!.content;
            seen.push(content.type === 'text' ? content.text : content.type);
            return { content: { type: 'text', text: 'ok' } };
          },
        },
      );
      const outcomes: { own: number; late: number; lateRefused: number }[] = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        seen.length = 0;
        let b: ReturnType<KestrelMcp['call']>;
        if (order === 'B after A answered') {
          await mcp.call('bg', 'late-sample', { count: LATE });
          b = mcp.call('bg', 'sample', { count: 8 });
        } else {
          const a = mcp.call('bg', 'late-sample', { count: LATE });
          b = mcp.call('bg', 'sample', { count: 8 });
          await a;
        }
        const own = JSON.parse(String((await b).content[0]!.text)) as { result?: unknown; error?: unknown }[];
        const late = JSON.parse(String((await mcp.call('bg', 'late-results')).content[0]!.text)) as { result?: unknown; error?: { message: string } }[];
        const lateThisTrial = late.slice(trial * LATE);
        outcomes.push({
          own: own.filter((r) => r.result).length,
          late: seen.filter((text) => text.startsWith('late')).length,
          lateRefused: lateThisTrial.filter((r) => /only during a tool call/.test(r.error?.message ?? '')).length,
        });
      }
      t.diagnostic(`B's own answered per trial: ${outcomes.map((o) => o.own).join(' ')}; late requests sampled: ${outcomes.map((o) => o.late).join(' ')}`);
      assert.deepEqual(
        outcomes,
        outcomes.map(() => ({ own: 8, late: 0, lateRefused: LATE })),
        'B answered all 8 of its own; none of A\'s late requests reached the sampler; each was refused as outside a tool call',
      );
    });
  }

  test('27: with sampling off there is no barrier: a call costs no ping', async (t) => {
    const { mcp } = await open(t, { servers: { plain: fixture() } });
    const before = mcp.status()[0]!.calls;
    await mcp.call('plain', 'echo', { text: 'one' });
    await mcp.call('plain', 'echo', { text: 'two' });
    assert.equal(mcp.status()[0]!.calls - before, 2, 'two calls and nothing else on the connection');
  });
});

describe('#16 item 5: a server that failed at startup and comes up later is published and announced', () => {
  test('5: its tools and bridges join agentTools() and tools(), tools-changed names them, server-state says ready, and "mcp server connected" is logged', async (t) => {
    const marker = path.join(tempDir(t, 'kestrel-flaky'), 'started-once');
    const { mcp, lines } = await open(
      t,
      {
        servers: {
          steady: fixture({ TS_TOOLS: 'echo' }),
          late: { command: process.execPath, args: [FLAKY_START], env: { KS_MARKER: marker, TS_TOOLS: 'echo', TS_EXTRAS: 'resources,prompts' } },
        },
      },
      { restart: { initialMs: 50 } },
    );
    // At open: only what connected is published, and the failure is logged.
    assert.deepEqual(mcp.servers(), ['steady']);
    assert.ok(!names(mcp).some((name) => name.startsWith('mcp__late__')), names(mcp).join(', '));
    assert.ok(lines.some((l) => l.message === 'mcp server failed' && l.data?.server === 'late'));

    const events: string[] = [];
    mcp.on('server-state', (status: ServerStatus) => {
      if (status.key === 'late') events.push(`state ${status.state}`);
    });
    mcp.on('tools-changed', () => events.push('tools-changed'));
    const change = await nextChange(mcp, (c) => c.added.some((name) => name.startsWith('mcp__late__')));
    assert.deepEqual(change.added.sort(), ['mcp__late__echo', 'mcp__late__get_prompt', 'mcp__late__list_prompts', 'mcp__late__list_resources', 'mcp__late__read_resource']);
    assert.deepEqual(change.removed, []);
    await until(() => events.includes('state ready'), 'the ready state after the tools were published');
    assert.ok(events.indexOf('tools-changed') < events.indexOf('state ready'), `a host that hears "ready" finds the tools published: ${events.join(', ')}`);

    assert.deepEqual(mcp.servers().sort(), ['late', 'steady']);
    assert.deepEqual(mcp.tools(), [{ server: 'late', tool: 'echo' }, { server: 'steady', tool: 'echo' }]);
    assert.deepEqual(mcp.resources().map((r) => [r.server, r.uri]), [['late', 'memo://one']]);
    assert.deepEqual(mcp.prompts().map((p) => [p.server, p.name]), [['late', 'greet']]);
    assert.deepEqual(await tool(mcp, 'mcp__late__echo').execute({ text: 'late but here' }), { content: 'late but here', isError: false });
    assert.equal((await tool(mcp, 'mcp__late__read_resource').execute({ uri: 'memo://one' })).content, 'contents of memo://one');
    const connected = lines.filter((l) => l.message === 'mcp server connected');
    assert.deepEqual(
      connected.map((l) => [l.level, l.data?.server]),
      [
        ['info', 'steady'],
        ['info', 'late'],
      ],
    );
    assert.equal(connected[1]!.data?.tools, 5);
  });
  test('5: the issue as filed: once servers() lists the late server, agentTools() and tools() include it', async (t) => {
    const marker = path.join(tempDir(t, 'kestrel-flaky'), 'started-once');
    const { mcp } = await open(t, { servers: { late: { command: process.execPath, args: [FLAKY_START], env: { KS_MARKER: marker, TS_TOOLS: 'echo' } } } }, { restart: { initialMs: 50 } });
    assert.deepEqual(mcp.servers(), []);
    await until(() => mcp.servers().includes('late'), 'the late server to connect');
    assert.deepEqual((await mcp.call('late', 'echo', { text: 'x' })).content, [{ type: 'text', text: 'x' }]);
    await until(() => names(mcp).includes('mcp__late__echo'), `mcp__late__echo among the agent tools (${names(mcp).join(', ')})`);
    assert.deepEqual(mcp.tools(), [{ server: 'late', tool: 'echo' }]);
  });
});

describe('#16 item 13: the host\'s lifecycle API and events, in Kestrel\'s names', () => {
  test('13: disable(key) withdraws the server\'s tools and bridges with a tools-changed; enable(key) connects it again and they return; restart(key) starts a new process', async (t) => {
    const { mcp } = await open(t, { servers: { docs: fixture({ TS_TOOLS: 'echo,mixed', TS_EXTRAS: 'resources' }), other: fixture({ TS_TOOLS: 'echo' }) } });
    const docsTools = ['mcp__docs__echo', 'mcp__docs__list_resources', 'mcp__docs__mixed', 'mcp__docs__read_resource'];
    const states: string[] = [];
    mcp.on('server-state', (status) => {
      if (status.key === 'docs') states.push(status.state);
    });
    const changes: KestrelToolsChange[] = [];
    mcp.on('tools-changed', (change) => changes.push(change));

    await mcp.disable('docs');
    assert.deepEqual(changes, [{ added: [], removed: docsTools }]);
    assert.deepEqual(names(mcp), ['mcp__other__echo']);
    assert.deepEqual(mcp.servers(), ['other']);
    assert.deepEqual(mcp.resources(), []);
    assert.equal(mcp.status().find((s) => s.key === 'docs')!.state, 'disabled');

    await mcp.enable('docs');
    assert.deepEqual(changes[1], { added: docsTools, removed: [] }, 'enable() resolves once the tools are published again');
    assert.deepEqual(mcp.servers(), ['docs', 'other']);
    assert.equal((await tool(mcp, 'mcp__docs__echo').execute({ text: 'back' })).content, 'back');

    const pid = mcp.status().find((s) => s.key === 'docs')!.pid;
    await mcp.restart('docs');
    const after = mcp.status().find((s) => s.key === 'docs')!;
    assert.equal(after.state, 'ready');
    assert.notEqual(after.pid, pid, 'a new process');
    assert.equal((await tool(mcp, 'mcp__docs__echo').execute({ text: 'restarted' })).content, 'restarted');
    assert.deepEqual(names(mcp).filter((name) => name.startsWith('mcp__docs__')), docsTools);
    assert.ok(states.includes('disabled') && states.filter((s) => s === 'ready').length >= 2, states.join(', '));
    for (const change of changes) assert.ok(change.added.length + change.removed.length > 0, 'tools-changed fires only on a real change');
  });

  test('13: enable, disable and restart of a server not in the config is an UnknownToolError naming the servers there are', async (t) => {
    const { mcp } = await open(t, { servers: { docs: fixture() } });
    await assert.rejects(mcp.enable('nope'), (error: unknown) => error instanceof UnknownToolError && error.missing === 'server' && /no server named "nope".*configured: docs/.test(error.message));
    await assert.rejects(mcp.disable('nope'), UnknownToolError);
    await assert.rejects(mcp.restart('nope'), UnknownToolError);
  });

  test("18: the service's call() of a misspelt tool names it and its nearest in Kestrel's own names", async (t) => {
    const { mcp } = await open(t, { servers: { docs: fixture({ TS_TOOLS: 'echo,mixed' }), other: fixture({ TS_TOOLS: 'echo' }) } });
    const error = await mcp.call('docs', 'ech').catch((e: unknown) => e);
    assert.ok(error instanceof UnknownToolError, String(error));
    assert.equal(error.tool, 'mcp__docs__ech');
    assert.deepEqual(error.suggestions, ['mcp__docs__echo']);
    assert.doesNotMatch(error.message, /mcp\.docs|mcp__other__/, 'one naming scheme, and only the server it named');
  });
});

describe('#16 item 13: execute() answers transport failures and timeouts as a result the model reads', () => {
  test('13: a server that dies mid-call: isError, the reason as content, the typed ClosedError on the result; the next call while it restarts says it is unavailable', async (t) => {
    const { mcp } = await open(t, { servers: { fragile: fixture({ TS_TOOLS: 'echo,exit' }) } }, { restart: { initialMs: 60_000 } });
    const echo = tool(mcp, 'mcp__fragile__echo'); // kept by the host across the crash
    const died = await tool(mcp, 'mcp__fragile__exit').execute({ code: 7 });
    assert.equal(died.isError, true);
    assert.ok(died.error instanceof ClosedError, String(died.error));
    assert.match(died.content, /exited with code 7/);
    assert.match(died.content, /^The MCP server "fragile" did not complete the call/);
    assert.deepEqual(names(mcp), [], 'a restarting server offers nothing');
    const next = await echo.execute({ text: 'anyone?' });
    assert.equal(next.isError, true);
    assert.ok(next.error instanceof McpClientError);
    assert.match(next.content, /not available/);
  });

  test('13: server-everything, a call past the server\'s timeoutMs: isError with the timeout, TimeoutError on the result', async (t) => {
    const { mcp } = await open(t, { servers: { everything: { command: process.execPath, args: [everythingServerPath(), 'stdio'], timeoutMs: 5_000 } } });
    const slow = await tool(mcp, 'mcp__everything__trigger-long-running-operation').execute({ duration: 30, steps: 1 });
    assert.equal(slow.isError, true);
    assert.ok(slow.error instanceof TimeoutError, String(slow.error));
    assert.match(slow.content, /no answer within 5000 ms/);
    assert.deepEqual(await tool(mcp, 'mcp__everything__echo').execute({ message: 'still here' }), { content: 'Echo: still here', isError: false });
  });

  test('13: a bridge whose server fails answers isError too; an abort by the host\'s own signal still rejects, with the signal\'s reason', async (t) => {
    const log = tempLog(t, 'kestrel-abort');
    const { mcp } = await open(t, { servers: { docs: fixture({ TS_TOOLS: 'hang,exit', TS_EXTRAS: 'resources', TS_LOG: log }) } }, { restart: { initialMs: 60_000 } });
    const controller = new AbortController();
    const hung = tool(mcp, 'mcp__docs__hang').execute({}, { signal: controller.signal });
    await until(() => readFileSync(log, 'utf8').includes('call hang'), 'the hang call to reach the server');
    controller.abort(new Error('turn cancelled'));
    await assert.rejects(hung, /turn cancelled/);
    const read = tool(mcp, 'mcp__docs__read_resource');
    await tool(mcp, 'mcp__docs__exit').execute({ code: 1 });
    const failed = await read.execute({ uri: 'memo://one' });
    assert.equal(failed.isError, true);
    assert.ok(failed.error instanceof ClosedError);
  });
});

describe('#16 item 22: one queue per server, the tool source\'s', () => {
  test('22: a tool call, a resource read and a prompt to one server run one at a time, in the order asked', async (t) => {
    const log = tempLog(t, 'kestrel-queue');
    const { mcp } = await open(t, { servers: { docs: fixture({ TS_TOOLS: 'echo,big', TS_EXTRAS: 'resources,prompts', TS_LOG: log }) } });
    const order: string[] = [];
    await Promise.all([
      mcp.call('docs', 'big', { bytes: 200_000 }).then(() => order.push('big')),
      mcp.readResource('docs', 'memo://one').then(() => order.push('read')),
      mcp.call('docs', 'echo', { text: 'x' }).then(() => order.push('echo')),
      mcp.getPrompt('docs', 'greet', { who: 'A' }).then(() => order.push('prompt')),
    ]);
    assert.deepEqual(order, ['big', 'read', 'echo', 'prompt']);
  });
});
