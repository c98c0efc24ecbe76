// C5: "the mcpServers JSON that MCP hosts commonly use (Claude Desktop,
// Cursor, VS Code style) can be read too, so people can point mcpwire at the
// config they already have" — every client form against its fixture
// (spec-tests/fixtures/configs/<name> → <name>.expected.json), then the CLI
// as a person drives it: config sources, config show, --config <client>.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../src/errors.js';
import { findConfigSources } from '../src/toolsource/config/client-locations.js';
import { loadToolSourceConfig } from '../src/toolsource/config/load.js';
import { tempDir } from './helpers/temp.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'bin', 'mcpwire.js');
const FIXTURES = fileURLToPath(new URL('./fixtures/configs/', import.meta.url)).replace(/\/$/, '');
const ECHO_SERVER = path.join(root, 'examples', 'echo-server.mjs');
/** A secret that must never be printed: any appearance in output or an error fails the test. */
const CANARY = `sk-canary-${randomBytes(8).toString('hex')}`;
const ENV = { GITHUB_TOKEN: CANARY, ORG_ID: 'org-42' };

function put(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** The CLI with HOME pointed at `home` and none of the host's client locations leaking in. */
function mcpwire(args: string[], options: { cwd?: string; home?: string; env?: Record<string, string> } = {}) {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  for (const name of ['XDG_CONFIG_HOME', 'CODEX_HOME', 'APPDATA', 'MCPWIRE_CONFIG']) delete env[name];
  if (options.home) env.HOME = options.home;
  const run = spawnSync(process.execPath, [bin, ...args], { cwd: options.cwd ?? root, encoding: 'utf8', timeout: 60_000, env });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const formats = readdirSync(FIXTURES).filter((name) => !name.includes('.expected.'));

for (const name of formats) {
  test(`C5: ${name} reads as its expected normalized servers`, () => {
    const config = loadToolSourceConfig({ config: path.join(FIXTURES, name), env: ENV, home: '/home/someone', projectDir: '/work/some-project' });
    const expected = readFileSync(path.join(FIXTURES, name.replace(/\.(json|toml)$/, '.expected.json')), 'utf8');
    const actual = JSON.stringify({ format: config.format, servers: config.servers, secrets: config.secrets }, null, 2);
    assert.deepEqual(JSON.parse(actual.split(FIXTURES).join('<fixtures>').split(CANARY).join('<GITHUB_TOKEN>')), JSON.parse(expected));
  });
}

test('C5: JSON with comments and trailing commas (VS Code, Cursor): "//" and "/*" inside strings survive; a syntax error names file, line and column', (t) => {
  const cursor = loadToolSourceConfig({ config: path.join(FIXTURES, 'cursor.mcp.json'), env: ENV });
  const args = (cursor.servers[1]!.params as { args?: readonly string[] }).args!;
  assert.deepEqual(args.slice(1), ['--glob', 'src/**/*.ts', 'http://not-a-comment.test//x']);
  const broken = put(path.join(tempDir(t, 'c5'), '.vscode', 'mcp.json'), `{\n  // fine\n  "servers": {\n    "a": { "command": "x", "env": { "K": "${CANARY}" } }\n    "b": {}\n  }\n}\n`);
  assert.throws(() => loadToolSourceConfig({ config: broken }), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.message, `${broken}:5:5: not valid JSON: expected , or } after the value`);
    return true;
  });
});

test('C5: ${input:…} marks that server unsupported, saying why and what to write instead; the other servers load', () => {
  const config = loadToolSourceConfig({ config: path.join(FIXTURES, 'vscode.mcp.json'), env: ENV });
  const [perplexity, ...rest] = config.servers;
  assert.match(perplexity!.unsupported!, /^server "perplexity": "\$\{input:perplexity-key\}" is a VS Code input, which the editor prompts for; mcpwire cannot ask for it: .*\$\{env:NAME\}/);
  assert.ok(rest.every((s) => s.unsupported === undefined));
});

test('C5/#18 item 3: an unset variable without a default fails only its own server, naming the variable, the server and where it is; the rest load; a default applies when unset', () => {
  const cases: [string, string, RegExp][] = [
    ['claude_desktop_config.json', 'github', /claude_desktop_config\.json:10:16 at mcpServers\.github\.env\.GITHUB_PERSONAL_ACCESS_TOKEN: the environment variable GITHUB_TOKEN is not set/],
    ['vscode.mcp.json', 'github', /vscode\.mcp\.json:\d+:\d+ at servers\.github\.headers\.Authorization: the environment variable GITHUB_TOKEN is not set/],
    ['codex.config.toml', 'figma', /codex\.config\.toml:\d+:\d+ at mcp_servers\.figma\.bearer_token_env_var: the environment variable GITHUB_TOKEN \(the bearer token\) is not set/],
  ];
  for (const [name, server, expected] of cases) {
    const config = loadToolSourceConfig({ config: path.join(FIXTURES, name), env: { ORG_ID: 'x' } });
    const broken = config.servers.find((s) => s.key === server)!;
    assert.match(broken.unsupported ?? '', new RegExp(`^server "${server}": .*${expected.source}`), name);
    const others = config.servers.filter((s) => s.key !== server && !(name === 'vscode.mcp.json' && s.key === 'perplexity'));
    assert.ok(others.length > 0 && others.every((s) => s.unsupported === undefined), `${name}: the other servers load`);
  }
  const withDefault = loadToolSourceConfig({ config: path.join(FIXTURES, 'claude-code.mcp.json'), env: { GITHUB_TOKEN: CANARY, API_BASE_URL: 'https://staging.example.test' } });
  assert.equal((withDefault.servers[0]!.params as { url: string }).url, 'https://staging.example.test/mcp');
});

test('C5: config show prints every fixture with the canary secret masked as ***, human and --json', () => {
  for (const name of formats) {
    for (const json of [false, true]) {
      const run = mcpwire(['config', 'show', '--config', path.join(FIXTURES, name), ...(json ? ['--json'] : [])], { env: ENV });
      assert.equal(run.status, 0, `${name}: ${run.stderr}`);
      assert.ok(!run.stdout.includes(CANARY) && !run.stderr.includes(CANARY), `${name}: the canary was printed`);
      if (json) JSON.parse(run.stdout);
    }
  }
  const codex = JSON.parse(mcpwire(['config', 'show', '--config', path.join(FIXTURES, 'codex.config.toml'), '--json'], { env: ENV }).stdout);
  const [context7, figma] = codex.servers;
  assert.deepEqual(context7.env, { CONTEXT7_API_KEY: '***', DEBUG: '0' }, 'a credential-named variable is masked, others shown');
  assert.deepEqual(figma.auth, { type: 'bearer', value: '***' });
  assert.deepEqual(figma.headers, { 'X-Figma-Region': 'us-east-1', 'X-Org-Id': '***' }, 'a value from the environment is masked');
  const claude = mcpwire(['config', 'show', '--config', path.join(FIXTURES, 'claude-code.mcp.json')], { env: ENV });
  assert.match(claude.stdout, /headers: Authorization=\*\*\*, X-Team=tools/);
});

test('C5: the canary never appears in an error message: broken JSON next to it, an unreadable Codex file holding it', (t) => {
  const dir = tempDir(t, 'c5');
  const json = put(path.join(dir, 'mcp.json'), `{"mcpServers": {"a": {"command": "x", "env": {"TOKEN": "${CANARY}"} "oops": 1}}}`);
  const toml = put(path.join(dir, 'config.toml'), `[mcp_servers.a]\ncommand = "x"\nenv = { "TOKEN" = "${CANARY}" \n`);
  for (const file of [json, toml]) {
    const run = mcpwire(['config', 'show', '--config', file]);
    assert.equal(run.status, 3, run.stderr);
    assert.match(run.stderr, new RegExp(`${path.basename(file)}:\\d+:\\d+`));
    assert.ok(!run.stderr.includes(CANARY) && !run.stdout.includes(CANARY), run.stderr);
  }
});

test('C5: config sources lists each client\'s project and user files under a fake home and project: found or not, server counts (--json too)', (t) => {
  const home = tempDir(t, 'c5');
  const project = tempDir(t, 'c5');
  put(path.join(project, '.mcp.json'), '{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}');
  put(path.join(project, '.vscode', 'mcp.json'), '{ // comment\n "servers": {"v": {"type": "stdio", "command": "x"},},\n}');
  put(path.join(home, '.cursor', 'mcp.json'), '{"mcpServers": {"c": {"url": "https://c.example.test/mcp"}}}');
  put(path.join(home, '.codex', 'config.toml'), '[mcp_servers.one]\ncommand = "x"\n[mcp_servers.two]\nurl = "https://t.example.test/mcp"\n');
  put(path.join(home, '.codeium', 'windsurf', 'mcp_config.json'), '{"mcpServers": {"w": {"serverUrl": "https://w.example.test/mcp"}}, broken');

  const sources = findConfigSources({ home, project, platform: 'linux', env: {} });
  const summary = sources.map((s) => [s.client, s.scope, path.relative(s.scope === 'project' ? project : home, s.path), s.found, s.servers]);
  assert.deepEqual(summary, [
    ['Claude Code', 'project', '.mcp.json', true, 2],
    ['Claude Code', 'user', '.claude.json', false, undefined],
    ['Claude Desktop', 'user', path.join('.config', 'Claude', 'claude_desktop_config.json'), false, undefined],
    ['Cursor', 'project', path.join('.cursor', 'mcp.json'), false, undefined],
    ['Cursor', 'user', path.join('.cursor', 'mcp.json'), true, 1],
    ['VS Code', 'project', path.join('.vscode', 'mcp.json'), true, 1],
    ['VS Code', 'user', path.join('.config', 'Code', 'User', 'mcp.json'), false, undefined],
    ['Windsurf', 'user', path.join('.codeium', 'windsurf', 'mcp_config.json'), true, undefined],
    ['Codex', 'user', path.join('.codex', 'config.toml'), true, 2],
  ]);
  assert.match(sources[7]!.error!, /mcp_config\.json:1:\d+: not valid JSON/);

  const run = mcpwire(['config', 'sources'], { cwd: project, home });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, new RegExp(`^Claude Code +project +${project}/\\.mcp\\.json  2 servers$`, 'm'));
  assert.match(run.stdout, /^Cursor +project +.*not found$/m);
  assert.match(run.stdout, /^Windsurf +user +.*unreadable: .*not valid JSON/m);
  const json = JSON.parse(mcpwire(['config', 'sources', '--json'], { cwd: project, home }).stdout) as { client: string; found: boolean; servers?: number }[];
  assert.equal(json.find((s) => s.client === 'Codex')!.servers, 2);
});

test('C5: the other platforms\' user locations: macOS Application Support, Windows %APPDATA%, CODEX_HOME', () => {
  const mac = findConfigSources({ home: '/Users/me', project: '/p', platform: 'darwin', env: {} });
  assert.equal(mac.find((s) => s.client === 'Claude Desktop')!.path, '/Users/me/Library/Application Support/Claude/claude_desktop_config.json');
  assert.equal(mac.find((s) => s.client === 'VS Code' && s.scope === 'user')!.path, '/Users/me/Library/Application Support/Code/User/mcp.json');
  const win = findConfigSources({ home: 'C:\\Users\\me', project: 'C:\\p', platform: 'win32', env: { APPDATA: 'C:\\Users\\me\\AppData\\Roaming', CODEX_HOME: 'D:\\codex' } });
  assert.equal(win.find((s) => s.client === 'Claude Desktop')!.path, 'C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
  assert.equal(win.find((s) => s.client === 'Codex')!.path, 'D:\\codex\\config.toml');
});

test('C5: --config cursor uses the project\'s .cursor/mcp.json before ~/.cursor/mcp.json; a client with no file says where it looked', (t) => {
  const home = tempDir(t, 'c5');
  const project = tempDir(t, 'c5');
  put(path.join(home, '.cursor', 'mcp.json'), '{"mcpServers": {"user-server": {"command": "x"}}}');
  const projectFile = put(path.join(project, '.cursor', 'mcp.json'), '{"mcpServers": {"project-server": {"command": "x"}}}');
  const run = mcpwire(['config', 'show', '--config', 'cursor', '--json'], { cwd: project, home });
  assert.equal(run.status, 0, run.stderr);
  const shown = JSON.parse(run.stdout) as { file: string; servers: { key: string }[] };
  assert.equal(shown.file, projectFile);
  assert.deepEqual(shown.servers.map((s) => s.key), ['project-server']);
  const none = mcpwire(['config', 'show', '--config', 'windsurf'], { cwd: project, home });
  assert.equal(none.status, 3);
  assert.match(none.stderr, /no windsurf config found; looked in .*mcp_config\.json/);
});

test('C5/U1: tools --config on a VS Code mcp.json with comments runs the example echo server', (t) => {
  const project = tempDir(t, 'c5');
  const file = put(
    path.join(project, '.vscode', 'mcp.json'),
    `{\n  // the repository's example server\n  "servers": {\n    "echo": {\n      "type": "stdio", /* VS Code requires it */\n      "command": "node",\n      "args": [${JSON.stringify(ECHO_SERVER)}],\n    },\n  },\n}\n`,
  );
  const run = mcpwire(['tools', '--config', file]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^echo \(\d+ tools?;/m);
  assert.match(run.stdout, /^  echo\(message: string\) +Echoes back/m);
});
