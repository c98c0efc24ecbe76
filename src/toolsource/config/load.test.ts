// C1, C5: loadToolSourceConfig tells the formats apart and returns the one
// ToolSourceConfig shape; the shipped kaged example loads as documented.

import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../../errors.js';
import { loadToolSourceConfig } from './load.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/kaged-host/', import.meta.url));
const ACCEPTED =
  'expected a kaged project (YAML with a top-level mcp: mapping, usually .yaml or .yml), an MCP client\'s JSON ({"mcpServers": {...}} or {"servers": {...}}), a Kestrel config ({"plugins": {"config": {"@kestrel/plugin-mcp": {...}}}}) or Codex\'s config.toml ([mcp_servers.NAME])';

function withFile(t: { after(fn: () => void): void }, name: string, text: string): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcpwire-load-')));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
}

test('C1 (ADR-0043 §1-§7): examples/kaged-host loads: three local servers, a disabled remote one, overlay applied, agents kept', () => {
  const config = loadToolSourceConfig({ config: path.join(EXAMPLE, 'kaged.yaml') });
  const root = realpathSync(EXAMPLE);
  assert.equal(config.format, 'kaged');
  assert.equal(config.projectRoot, root);
  assert.deepEqual(config.servers.map((s) => [s.key, s.params.transport, s.disabled]), [
    ['everything', 'stdio', false],
    ['files', 'stdio', false],
    ['memory', 'stdio', false],
    ['docs', 'streamable-http', true],
  ]);
  const [everything, files, memory, docs] = config.servers;
  assert.deepEqual(everything!.tools, { enabled: true, allow: ['echo', 'get-sum', 'get-tiny-image'], deny: ['get-env'] }, 'the overlay replaced allow, kept deny');
  assert.deepEqual(everything!.params, {
    transport: 'stdio',
    server: 'everything',
    command: ['node', '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'],
    cwd: root,
  });
  assert.equal(files!.timeoutMs, 10_000);
  assert.equal((files!.params as { cwd?: string }).cwd, root);
  assert.equal(memory!.unsupported, undefined);
  assert.deepEqual((docs!.params as { auth?: unknown }).auth, { type: 'bearer', value: 'placeholder-not-a-real-token' });
  assert.deepEqual(config.secrets, ['placeholder-not-a-real-token']);
  assert.deepEqual(Object.keys(config.agents), ['primary', 'researcher']);
  assert.deepEqual(config.agents.researcher![0], ['mcp.files.read_*', { enabled: true }]);
  // The command paths point at real files, so the example runs as written.
  for (const server of config.servers.slice(0, 3)) {
    const [, script] = (server.params as { command?: readonly string[] }).command ?? [];
    assert.ok(realpathSync(path.resolve(root, script!)), `${server.key}: ${script} exists`);
  }
});

test('C5: an mcpServers JSON is wrapped: all tools enabled, no agents, default cap and timeout, root = its folder; ${VAR} resolved at load and kept as a secret', (t) => {
  const file = withFile(t, 'mcp.json', JSON.stringify({ mcpServers: { fs: { command: 'node', args: ['s.js'] }, web: { url: 'https://a.example/mcp', type: 'http', headers: { Authorization: 'Bearer ${TOKEN}' } } } }));
  const config = loadToolSourceConfig({ config: file, env: { TOKEN: 'token-from-env' } });
  assert.deepEqual(config, {
    file,
    format: 'mcp-servers',
    projectRoot: path.dirname(file),
    servers: [
      { key: 'fs', params: { transport: 'stdio', command: 'node', args: ['s.js'], env: {}, server: 'fs' }, tools: { enabled: true, allow: undefined, deny: [] }, disabled: false, timeoutMs: undefined, unsupported: undefined },
      { key: 'web', params: { transport: 'streamable-http', url: 'https://a.example/mcp', headers: { Authorization: 'Bearer token-from-env' }, server: 'web' }, tools: { enabled: true, allow: undefined, deny: [] }, disabled: false, timeoutMs: undefined, unsupported: undefined },
    ],
    resultCapBytes: 65_536,
    defaultTimeoutMs: 30_000,
    agents: {},
    secrets: ['token-from-env', 'Bearer token-from-env'],
  });
});

test('C1, C5: detection by content: a .conf with a top-level mcp: mapping is kaged; one with "servers" is VS Code\'s, with "mcpServers" the common JSON', (t) => {
  const yaml = withFile(t, 'project.conf', 'mcp:\n  a1:\n    transport: stdio\n    command: [x]\n');
  assert.equal(loadToolSourceConfig({ config: yaml }).format, 'kaged');
  const vscode = withFile(t, 'mcp.conf', '{"servers": {"a": {"command": "x"}}}');
  assert.equal(loadToolSourceConfig({ config: vscode }).format, 'vscode');
  const json = withFile(t, 'other.conf', '{"mcpServers": {"a": {"command": "x"}}} // a comment');
  assert.equal(loadToolSourceConfig({ config: json }).format, 'mcp-servers');
  const kagedJson = withFile(t, 'kaged.json', '{"mcp": {"servers": {"transport": "stdio", "command": ["x"]}}}');
  assert.equal(loadToolSourceConfig({ config: kagedJson }).format, 'kaged', 'a kaged server keyed "servers" is not VS Code settings');
});

test('C1, C5: an unrecognised file says which formats are accepted', (t) => {
  for (const [name, text] of [['x.json', '{"other": {}}'], ['x.conf', 'name: demo\n'], ['x.txt', 'key: [unclosed\n']] as const) {
    const file = withFile(t, name, text);
    const expected = name === 'x.txt' ? `${file}: neither JSON nor YAML; ${ACCEPTED}` : `${file}: unrecognised config format; ${ACCEPTED}`;
    assert.throws(() => loadToolSourceConfig({ config: file }), (e: Error) => e instanceof ConfigError && e.message === expected);
  }
});

test('C5: a broken .json is reported by the mcpServers reader; kaged-only options are refused for it', (t) => {
  const broken = withFile(t, 'broken.json', '{not json');
  assert.throws(() => loadToolSourceConfig({ config: broken }), (e: Error) => e instanceof ConfigError && e.message.startsWith(`${broken}:1:2: not valid JSON`));
  const file = withFile(t, 'mcp.json', '{"mcpServers": {}}');
  assert.throws(
    () => loadToolSourceConfig({ config: file, local: 'local.toml' }),
    (e: Error) => e instanceof ConfigError && e.message === `${file}: the option local applies to a kaged project only; this file is an MCP client\'s JSON`,
  );
});
