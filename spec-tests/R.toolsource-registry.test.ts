// R1–R7 through the tool source, against real child processes: ADR-0043 §2
// ToolDefinitions and their aliases, allow/deny filters, per-agent rules,
// dispatch by name or alias with the cap (§6), concurrent discovery that
// one failure does not stop, re-discovery on list_changed, sampling refused
// (§5), one server's slowness never blocking another's calls.

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ClosedError, ConfigError, TimeoutError, UnknownToolError } from '../src/errors.js';
import { PROVIDER_SAFE_NAME } from '../src/toolsource/naming.js';
import type { ToolsChange } from '../src/toolsource/registry.js';
import { configOf, fixtureServer, openForTest, stateOf } from './helpers/toolsource.js';
import { everythingServerPath, startEverythingHttp } from './helpers/interop.js';
import { tempLog } from './helpers/temp.js';

const readLog = (file: string) => readFileSync(file, 'utf8').trim().split('\n');

describe('R1 (ADR-0043 §2): ToolDefinitions', () => {
  test('R1 (ADR-0043 §2): each tool of server-everything becomes mcp.<key>.<tool> with the ADR fields and a provider-safe alias', async (t) => {
    const source = await openForTest(t, {
      config: configOf([{ ...fixtureServer('everything'), params: { transport: 'stdio', command: [process.execPath, everythingServerPath(), 'stdio'], server: 'everything' } }]),
    });
    const tools = await source.tools();
    const echo = tools.find((d) => d.mcp_tool_name === 'echo');
    assert.ok(echo, tools.map((d) => d.name).join(', '));
    assert.equal(echo.name, 'mcp.everything.echo');
    assert.equal(echo.namespace, 'mcp');
    assert.equal(echo.source, 'mcp');
    assert.equal(echo.mcp_server, 'everything');
    assert.match(echo.description, /echo/i);
    assert.equal((echo.parameters as { type?: string }).type, 'object');
    assert.deepEqual(echo.requires, []);
    assert.ok(typeof echo.returns === 'object');
    for (const definition of tools) {
      assert.match(definition.alias, PROVIDER_SAFE_NAME);
      assert.equal(source.resolve(definition.alias)?.name, definition.name, 'the alias resolves back');
    }
    assert.equal(echo.alias, 'mcp_everything_echo');
    const result = await source.call(echo.alias, { message: 'by alias' });
    assert.deepEqual(result.result.content, [{ type: 'text', text: 'Echo: by alias' }]);
    assert.equal(result.truncated, false);
    assert.equal(result.name, 'mcp.everything.echo');
  });

  test('R1: names that collide after sanitising get hash-suffixed aliases, both resolvable', async (t) => {
    const source = await openForTest(t, { config: configOf([fixtureServer('gh', { TS_TOOLS: 'issue.create,issue_create' })]) });
    const changes: ToolsChange[] = [];
    source.on('tools-changed', (c) => changes.push(c));
    const tools = await source.tools();
    const aliases = tools.map((d) => d.alias);
    assert.equal(new Set(aliases).size, 2);
    for (const definition of tools) {
      assert.match(definition.alias, /^mcp_gh_issue_create_[0-9a-f]{8}$/);
      assert.equal(source.resolve(definition.alias)?.name, definition.name);
    }
    assert.deepEqual(changes[0]?.adjusted.map((a) => a.why), ['collision', 'collision'], 'the host is told why');
  });
});

describe('R2 (ADR-0043 §1 tools): filters at registration', () => {
  test('R2: allow globs select, deny wins over allow', async (t) => {
    const server = fixtureServer('github', { TS_TOOLS: 'repo.get,repo.delete,issue.create,issue.list,user.get' }, { tools: { enabled: true, allow: ['repo.*', 'issue.*'], deny: ['repo.delete'] } });
    const source = await openForTest(t, { config: configOf([server]) });
    assert.deepEqual((await source.tools()).map((d) => d.mcp_tool_name), ['issue.create', 'issue.list', 'repo.get']);
    await assert.rejects(source.call('mcp.github.repo.delete'), (e: unknown) => e instanceof UnknownToolError && /no tool named "mcp\.github\.repo\.delete"/.test(e.message));
  });

  test('R2: tools.enabled false registers nothing and the server is never started', async (t) => {
    const log = tempLog(t, 'ts');
    const source = await openForTest(t, { config: configOf([fixtureServer('quiet', { TS_LOG: log }, { tools: { enabled: false, allow: undefined, deny: [] } })]) });
    assert.deepEqual(await source.tools(), []);
    assert.equal(source.status()[0]!.state, 'disabled');
    assert.throws(() => readFileSync(log), /ENOENT/, 'no process was spawned');
  });
});

describe('R3 (ADR-0043 §2 per-agent enablement)', () => {
  test('R3: a server name, a glob and an exact name; later entries override earlier ones; no match means not enabled', async (t) => {
    const source = await openForTest(t, {
      config: configOf([fixtureServer('github', { TS_TOOLS: 'issue.create,issue.list,repo.get' }), fixtureServer('database', { TS_TOOLS: 'query,migrate' })], {
        agents: {
          primary: [
            ['mcp.github.issue.*', { enabled: true }],
            ['mcp.database', { enabled: true }],
            ['mcp.database.migrate', { enabled: false }],
          ],
          researcher: [['mcp.github.issue.list', { enabled: true }]],
        },
      }),
    });
    assert.deepEqual((await source.tools({ agent: 'primary' })).map((d) => d.name), ['mcp.database.query', 'mcp.github.issue.create', 'mcp.github.issue.list']);
    assert.deepEqual((await source.tools({ agent: 'researcher' })).map((d) => d.name), ['mcp.github.issue.list']);
    await assert.rejects(source.tools({ agent: 'nobody' }), (e: unknown) => e instanceof ConfigError && /agents with one: primary, researcher/.test(e.message));
  });
});

describe('R5 (ADR-0043 §6): the result cap', () => {
  test('R5: a result over the cap is cut on a UTF-8 boundary, marked, and flagged; one under it is untouched', async (t) => {
    const source = await openForTest(t, { config: configOf([fixtureServer('big', { TS_TOOLS: 'big' })], { resultCapBytes: 1000 }) });
    const over = await source.call('mcp.big.big', { bytes: 700, char: 'é' }); // 1400 bytes
    assert.equal(over.truncated, true);
    assert.equal(over.sizeBytes, 1400);
    const [block] = over.result.content;
    assert.equal(block?.type, 'text');
    const text = block.type === 'text' ? block.text : '';
    assert.ok(text.endsWith('\n[... truncated at 1000 bytes]'));
    const kept = text.slice(0, -'\n[... truncated at 1000 bytes]'.length);
    assert.equal(kept, 'é'.repeat(500), 'no half character');
    const under = await source.call('mcp.big.big', { bytes: 1000 });
    assert.equal(under.truncated, false);
  });
});

describe('R6 dispatch', () => {
  test('R6: a server that hangs does not hold up another server; its own call ends at the server timeout', async (t) => {
    const source = await openForTest(t, {
      config: configOf([fixtureServer('slow', { TS_TOOLS: 'hang' }, { timeoutMs: 300 }), fixtureServer('fast', { TS_TOOLS: 'echo' })]),
    });
    await source.tools();
    const hanging = source.call('mcp.slow.hang');
    const quick = await source.call('mcp.fast.echo', { text: 'not blocked' });
    assert.deepEqual(quick.result.content, [{ type: 'text', text: 'not blocked' }]);
    await assert.rejects(hanging, (e: unknown) => e instanceof TimeoutError && e.timeoutMs === 300);
  });

  test('R6: the caller\'s signal aborts a call with its own reason', async (t) => {
    const source = await openForTest(t, { config: configOf([fixtureServer('slow', { TS_TOOLS: 'hang' })]) });
    await source.tools();
    const controller = new AbortController();
    const call = source.call('mcp.slow.hang', {}, { signal: controller.signal });
    const reason = new Error('the agent turn was cancelled');
    controller.abort(reason);
    await assert.rejects(call, (e: unknown) => e === reason);
  });

  test('R6: with serializeCalls a server gets one call at a time, in order', async (t) => {
    const log = tempLog(t, 'ts');
    const source = await openForTest(t, { serializeCalls: true, config: configOf([fixtureServer('one', { TS_LOG: log, TS_TOOLS: 'echo,hang' }, { timeoutMs: 200 })]) });
    await source.tools();
    const first = source.call('mcp.one.hang');
    const second = source.call('mcp.one.echo', { text: 'after' });
    await assert.rejects(first, TimeoutError);
    assert.equal((await second).result.content.length, 1);
    const calls = readLog(log).filter((line) => line.startsWith('call '));
    assert.deepEqual(calls, ['call hang', 'call echo'], 'the second call went out only after the first ended');
  });
});

describe('R7 discovery', () => {
  test('R7: servers are discovered concurrently: every initialize arrives before any is answered', async (t) => {
    const log = tempLog(t, 'ts');
    const barrier = path.join(path.dirname(log), 'barrier');
    mkdirSync(barrier);
    // Each server answers initialize only once all three have received one: one after another, this would wait 10 s per server.
    const servers = ['a', 'b', 'c'].map((key) => fixtureServer(key, { TS_LOG: log, TS_BARRIER: `${barrier},3` }));
    const source = await openForTest(t, { start: 'startup', config: configOf(servers) });
    const events = readLog(log).filter((line) => line.startsWith('initialize') || line.startsWith('answered'));
    assert.deepEqual(events.map((line) => line.split(' ')[0]), ['initialize', 'initialize', 'initialize', 'answered', 'answered', 'answered'], events.join('\n'));
    assert.equal((await source.tools()).length, 3);
  });

  test('R7 (ADR-0043 §2 Registration): a server whose start fails is marked with the reason; the others register', async (t) => {
    const source = await openForTest(t, {
      start: 'startup',
      config: configOf([fixtureServer('broken', { TS_CRASH_AT_START: '1' }), fixtureServer('fine')]),
    });
    assert.deepEqual((await source.tools()).map((d) => d.name), ['mcp.fine.echo']);
    const broken = source.status().find((s) => s.key === 'broken')!;
    assert.equal(broken.state, 'restarting');
    assert.match(broken.lastError ?? '', /exited with code 3/);
    assert.match(broken.stderrTail, /fatal: cannot start/);
  });

  test('R7: notifications/tools/list_changed re-runs discovery and the host hears of the change', async (t) => {
    const source = await openForTest(t, { config: configOf([fixtureServer('live', { TS_TOOLS: 'echo,add-tool' })]) });
    await source.tools();
    const changed = new Promise<ToolsChange>((resolve) => source.on('tools-changed', resolve));
    await source.call('mcp.live.add-tool', { name: 'fresh' });
    const change = await changed;
    assert.deepEqual(change.added, ['mcp.live.fresh']);
    assert.equal(source.resolve('mcp_live_fresh')?.name, 'mcp.live.fresh');
  });
});

describe('sampling is refused (ADR-0043 §5)', () => {
  test('ADR-0043 §5: sampling/createMessage gets -32601 and the capability is never advertised', async (t) => {
    const log = tempLog(t, 'ts');
    const source = await openForTest(t, { config: configOf([fixtureServer('asker', { TS_LOG: log, TS_TOOLS: 'sample' })]) });
    const result = await source.call('mcp.asker.sample');
    const block = result.result.content[0];
    assert.equal(block?.type, 'text');
    assert.equal(JSON.parse(block.type === 'text' ? block.text : '[]')[0].error.code, -32601);
    const init = readLog(log).find((line) => line.startsWith('initialize '))!;
    assert.deepEqual(JSON.parse(init.slice('initialize '.length)), {}, 'no sampling capability on the wire');
  });
});

describe('S3 through the tool source', () => {
  test('S3: a call in flight when the server dies fails with closed and is not sent again', async (t) => {
    const log = tempLog(t, 'ts');
    const source = await openForTest(t, { config: configOf([fixtureServer('dies', { TS_LOG: log, TS_TOOLS: 'exit' })]) });
    await source.tools();
    await assert.rejects(source.call('mcp.dies.exit', { code: 7 }), (e: unknown) => e instanceof ClosedError && e.reason === 'exited' && e.exitCode === 7);
    await stateOf(source, 'dies', 'restarting');
    assert.equal(readLog(log).filter((line) => line === 'call exit').length, 1);
  });
});

describe('the environment a stdio server inherits (ADR-0043 §3)', () => {
  test('ADR-0043 §3: env is merged over the host\'s environment by default; serverEnvironment "safe" passes only the safe list and the server\'s own env', async (t) => {
    process.env.MCPWIRE_HOST_SECRET_TOKEN = 'host-only-value';
    t.after(() => delete process.env.MCPWIRE_HOST_SECRET_TOKEN);
    const server = fixtureServer('envy', { TS_TOOLS: 'env', OWN_SETTING: 'own' });
    const text = (r: { result: { content: { type: string; text?: string }[] } }) => r.result.content[0]!.text;
    const merged = await openForTest(t, { config: configOf([server]) });
    assert.equal(text(await merged.call('mcp.envy.env', { name: 'MCPWIRE_HOST_SECRET_TOKEN' })), 'host-only-value');
    assert.equal(text(await merged.call('mcp.envy.env', { name: 'OWN_SETTING' })), 'own');
    const safe = await openForTest(t, { serverEnvironment: 'safe', config: configOf([server]) });
    assert.equal(text(await safe.call('mcp.envy.env', { name: 'MCPWIRE_HOST_SECRET_TOKEN' })), '(unset)');
    assert.equal(text(await safe.call('mcp.envy.env', { name: 'OWN_SETTING' })), 'own');
    assert.equal(text(await safe.call('mcp.envy.env', { name: 'PATH' })), process.env.PATH);
  });
});

describe('remote servers through the tool source (T2, T3)', () => {
  for (const mode of ['streamableHttp', 'sse'] as const) {
    test(`R1/T${mode === 'sse' ? 2 : 3}: server-everything over ${mode === 'sse' ? 'legacy HTTP+SSE' : 'Streamable HTTP'} registers and answers like a stdio one`, async (t) => {
      const { port } = await startEverythingHttp(t, mode);
      const params = mode === 'sse'
        ? ({ transport: 'sse', url: `http://127.0.0.1:${port}/sse`, server: 'remote' } as const)
        : ({ transport: 'streamable-http', url: `http://127.0.0.1:${port}/mcp`, server: 'remote' } as const);
      const source = await openForTest(t, { config: configOf([{ ...fixtureServer('remote'), params }]) });
      const tools = await source.tools();
      assert.ok(tools.some((d) => d.name === 'mcp.remote.echo'));
      const call = await source.call('mcp_remote_echo', { message: 'over http' });
      assert.deepEqual(call.result.content, [{ type: 'text', text: 'Echo: over http' }]);
      assert.equal(source.status()[0]!.transport, mode === 'sse' ? 'sse' : 'streamable-http');
    });
  }
});
