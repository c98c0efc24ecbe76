// Tool names as servers send them and as callers mistype them: names the MCP
// spec says a tool SHOULD NOT have (2025-11-25, server/tools, "Tool names":
// 1–128 characters, unique within a server) are refused and reported, the
// first of a duplicated name kept; a rediscovery that changed nothing
// reports nothing; names outside ASCII get readable aliases; an unknown name
// is an UnknownToolError with the nearest names, in the caller's scheme.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Tool } from '../src/client/results.js';
import { ClosedError, ConfigError, McpClientError, UnknownToolError } from '../src/errors.js';
import * as api from '../src/index.js';
import { PROVIDER_SAFE_NAME } from '../src/toolsource/naming.js';
import { compileFilter, isEmptyChange, ToolRegistry, type ToolDefinition, type ToolsChange } from '../src/toolsource/registry.js';
import { unknownToolError } from '../src/toolsource/unknown-tool.js';
import { configOf, fixtureServer, openForTest } from './helpers/toolsource.js';

const ALL = compileFilter({ enabled: true, allow: undefined, deny: [] });
const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({ name, inputSchema: { type: 'object' }, ...extra });

describe('R8: names a server must not send', () => {
  test('MCP 2025-11-25 "Tool names SHOULD be unique within a server": a duplicate is reported and the first kept; status() counts what is registered', async (t) => {
    const listed = [
      { name: 'echo', description: 'the first echo', inputSchema: { type: 'object' } },
      { name: 'echo', description: 'the second echo', inputSchema: { type: 'object' } },
      'other',
      '',
      'nul\u0000byte',
      'x'.repeat(129),
    ];
    const source = await openForTest(t, { config: configOf([fixtureServer('dup', { TS_TOOLS_JSON: JSON.stringify(listed) })]) });
    const changes: ToolsChange[] = [];
    source.on('tools-changed', (change) => changes.push(change));
    const tools = await source.tools();
    assert.deepEqual(tools.map((d) => d.mcp_tool_name), ['echo', 'other']);
    assert.equal(tools[0]!.description, 'the first echo', 'the first of a duplicated name is kept');
    assert.equal(source.status()[0]!.tools, 2, 'status() says what was registered, not what was listed');
    assert.deepEqual(changes[0]!.rejected, [
      { tool: 'echo', why: 'duplicate' },
      { tool: '', why: 'empty' },
      { tool: 'nul\u0000byte', why: 'control-character' },
      { tool: 'x'.repeat(129), why: 'too-long' },
    ]);
    assert.deepEqual(changes[0]!.added, ['mcp.dup.echo', 'mcp.dup.other']);
  });

  test('a name at the bound (128 characters) and names outside the recommended set are registered, with provider-safe aliases', () => {
    const registry = new ToolRegistry();
    const change = registry.setServerTools('s', [tool('x'.repeat(128)), tool('with space'), tool('slash/name')], ALL);
    assert.deepEqual(change.rejected, []);
    assert.equal(registry.countFor('s'), 3);
    for (const d of registry.list()) assert.match(d.alias, PROVIDER_SAFE_NAME);
  });

  test('a megabyte-long name is refused, and the report of it stays short', () => {
    const registry = new ToolRegistry();
    const change = registry.setServerTools('s', [tool('n'.repeat(1 << 20))], ALL);
    assert.equal(change.rejected[0]!.why, 'too-long');
    assert.ok(change.rejected[0]!.tool.length < 300, `${change.rejected[0]!.tool.length} characters`);
    assert.equal(registry.countFor('s'), 0);
  });
});

describe('R8: a change reports only what changed (issue #16 item 20)', () => {
  test('a restart that rediscovers the same tools gives no change: no added, removed, changed or adjusted aliases', async (t) => {
    const source = await openForTest(t, { config: configOf([fixtureServer('w', { TS_TOOLS: 'issue.create,issue_create,exit' })]) });
    const changes: ToolsChange[] = [];
    source.on('tools-changed', (change) => changes.push(change));
    await source.tools();
    assert.equal(changes.length, 1);
    assert.equal(changes[0]!.added.length, 3);
    assert.equal(changes[0]!.adjusted.length, 2, 'the first discovery reports the two hashed aliases');
    assert.equal(isEmptyChange(changes[0]!), false);
    const pid = source.status()[0]!.pid;
    for (let restart = 1; restart <= 2; restart++) await source.restart('w');
    assert.notEqual(source.status()[0]!.pid, pid, 'restarted: a new process');
    // (A crash withdraws a server's tools and its recovery brings them back: two real changes, see S6. A restart the host asks for withdraws nothing.)
    assert.deepEqual(changes.slice(1), [], 'no event for a rediscovery that found the same tools');
  });

  test('a changed description or schema is a change; the same schema with its keys in another order is not', () => {
    const registry = new ToolRegistry();
    registry.setServerTools('s', [tool('a', { description: 'one', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } }), tool('b')], ALL);
    const reordered = registry.setServerTools('s', [tool('a', { description: 'one', inputSchema: { properties: { x: { type: 'string' } }, type: 'object' } }), tool('b')], ALL);
    assert.ok(isEmptyChange(reordered), JSON.stringify(reordered));
    const described = registry.setServerTools('s', [tool('a', { description: 'two', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } }), tool('b')], ALL);
    assert.deepEqual(described.changed, ['mcp.s.a']);
    const schema = registry.setServerTools('s', [tool('a', { description: 'two', inputSchema: { type: 'object', properties: { x: { type: 'number' } } } }), tool('b', { outputSchema: { type: 'object' } })], ALL);
    assert.deepEqual(schema.changed, ['mcp.s.a', 'mcp.s.b']);
    assert.deepEqual([schema.added, schema.removed], [[], []]);
  });

  test('an alias that changes because another server joined is reported once, on the change that caused it', () => {
    const registry = new ToolRegistry();
    registry.setServerTools('a', [tool('x_y')], ALL);
    // mcp.a_x.y sanitises to mcp_a_x_y as mcp.a.x_y does: both take a hash suffix.
    const joined = registry.setServerTools('a_x', [tool('y')], ALL);
    assert.deepEqual(joined.added, ['mcp.a_x.y']);
    assert.deepEqual(joined.changed, ['mcp.a.x_y'], "the other server's tool got a new alias");
    assert.deepEqual(joined.adjusted.map((a) => a.canonical).sort(), ['mcp.a.x_y', 'mcp.a_x.y']);
    const again = registry.setServerTools('a_x', [tool('y')], ALL);
    assert.ok(isEmptyChange(again), 'the same aliases are not reported twice');
    const left = registry.setServerTools('a_x', [], ALL);
    assert.deepEqual(left.removed, ['mcp.a_x.y']);
    assert.deepEqual(left.changed, ['mcp.a.x_y'], 'its alias is readable again');
    assert.equal(registry.resolve('mcp_a_x_y')?.name, 'mcp.a.x_y');
  });
});

describe('R8: Unicode tool names (issue #16 item 21)', () => {
  test('R4 [+]: ünïcode.名前 gets a readable, hash-suffixed alias that resolves and calls', async (t) => {
    const source = await openForTest(t, { config: configOf([fixtureServer('odd', { TS_TOOLS_JSON: JSON.stringify(['ünïcode.名前', 'ünïcode.日本', 'café']) })]) });
    const tools = await source.tools();
    const byName = new Map(tools.map((d) => [d.mcp_tool_name, d.alias]));
    assert.match(byName.get('ünïcode.名前')!, /^mcp_odd_unicode_[0-9a-f]{8}$/);
    assert.match(byName.get('ünïcode.日本')!, /^mcp_odd_unicode_[0-9a-f]{8}$/);
    assert.notEqual(byName.get('ünïcode.名前'), byName.get('ünïcode.日本'));
    assert.equal(byName.get('café'), 'mcp_odd_cafe');
    const result = await source.call(byName.get('ünïcode.名前')!, { text: 'by alias' });
    assert.deepEqual(result.result.content, [{ type: 'text', text: 'by alias' }]);
  });
});

const defs = (entries: [server: string, tool: string][]): ToolDefinition[] => {
  const registry = new ToolRegistry();
  const byServer = new Map<string, string[]>();
  for (const [server, name] of entries) byServer.set(server, [...(byServer.get(server) ?? []), name]);
  for (const [server, names] of byServer) registry.setServerTools(server, names.map((n) => tool(n)), ALL);
  return registry.list();
};

describe('R8: an unknown name is an UnknownToolError (issue #16 item 18)', () => {
  const registered = defs([
    ['github', 'issue.create'],
    ['github', 'issue.list'],
    ['fs', 'read_file'],
    ['fs', 'echo'],
  ]);

  test('its own type and code, with the nearest names, the server the name points into, and the servers that are down', () => {
    const error = unknownToolError('mcp.github.isue.create', registered, { unavailable: ['db'], servers: ['github', 'fs', 'db'] });
    assert.ok(error instanceof UnknownToolError && error instanceof McpClientError);
    assert.ok(!(error instanceof ConfigError));
    assert.equal(error.code, 'unknown-tool');
    assert.equal(error.name, 'UnknownToolError');
    assert.equal(error.tool, 'mcp.github.isue.create');
    assert.equal(error.server, 'github');
    assert.equal(error.missing, 'tool');
    assert.deepEqual(error.suggestions, ['mcp.github.issue.create']);
    assert.deepEqual(error.unavailable, ['db']);
    assert.match(error.message, /no tool named "mcp\.github\.isue\.create"; did you mean mcp\.github\.issue\.create\?; servers not available: db$/);
  });

  test('suggestions come in the naming scheme of the host that asked (a Kestrel host: mcp__<server>__<tool>)', () => {
    const kestrel = (d: ToolDefinition) => `mcp__${d.mcp_server}__${d.mcp_tool_name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    const error = unknownToolError('mcp__fs__raed_file', registered, { naming: kestrel, servers: ['github', 'fs'] });
    assert.deepEqual(error.suggestions, ['mcp__fs__read_file']);
    assert.equal(error.server, 'fs');
    const bare = unknownToolError('ecko', registered);
    assert.deepEqual(bare.suggestions, ['mcp.fs.echo'], "a typo in a tool's own name is found though the canonical names are long");
  });

  test('a name pointing into no configured server says the server is unknown, with the nearest keys', () => {
    const error = unknownToolError('mcp.gihtub.issue.create', registered, { servers: ['github', 'fs'] });
    assert.equal(error.missing, 'server');
    assert.deepEqual(error.suggestions, ['github']);
    assert.match(error.message, /^no server named "gihtub"; did you mean github\?; configured: github, fs$/);
  });

  test('with nothing near, the message lists the registered names; with nothing registered, it says so', () => {
    assert.match(unknownToolError('zzzzzzzz', registered).message, /^no tool named "zzzzzzzz"; tools: mcp\.fs\.echo, mcp\.fs\.read_file, mcp\.github\.issue\.create, mcp\.github\.issue\.list$/);
    assert.equal(unknownToolError('x', []).message, 'no tool named "x"; no tools are registered');
    assert.equal(unknownToolError('x', [], { unavailable: ['a'] }).message, 'no tool named "x"; servers not available: a');
  });

  test('U1: the CLI throws the same error: exit 3, and code "unknown-tool" in the --json envelope', (t) => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const echo = ['--', process.execPath, path.join(root, 'examples', 'echo-server.mjs')];
    const run = spawnSync(process.execPath, [path.join(root, 'bin', 'mcpwire.js'), 'call', 'ecko', 'message=x', '--json', ...echo], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    if (run.error) t.skip(`the CLI did not run: ${run.error.message}`);
    assert.equal(run.status, 3, run.stderr);
    const envelope = JSON.parse(run.stderr.trim().split('\n').at(-1)!) as { error: { code: string; message: string } };
    assert.equal(envelope.error.code, 'unknown-tool');
    assert.match(envelope.error.message, /no tool named "ecko"; did you mean echo\? \(mcpwire tools lists them\)/);
  });
});

describe('issue #16 item 14: what a host needs to build configs and check results is exported', () => {
  test('compileFilter, enabledForAgent, capResult and isEmptyChange come from the package entry', () => {
    for (const name of ['compileFilter', 'enabledForAgent', 'capResult', 'isEmptyChange', 'UnknownToolError'] as const) assert.equal(typeof api[name], 'function', name);
    const filter = api.compileFilter({ enabled: true, allow: ['issue.*'], deny: ['issue.delete'] });
    assert.deepEqual([filter.accepts('issue.list'), filter.accepts('issue.delete'), filter.accepts('repo.get')], [true, false, false]);
    const capped = api.capResult({ content: [{ type: 'text', text: 'é'.repeat(10) }] }, 5);
    assert.equal(capped.truncated, true);
    assert.equal(capped.sizeBytes, 20);
  });
});
