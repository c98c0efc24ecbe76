// #18 item 11, through the compiled CLI: a Kestrel config given to `tools`
// lists the tools as that host's agent sees them, checked against the
// plugin itself (openKestrelMcp over the same file, in this process: same
// names, descriptions, permissions and bridges); `call` takes those names,
// a bridge's too; `--names kaged|kestrel|raw` works for any config.

import { runCli, type CliRun } from './helpers/cli.js';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openKestrelMcp } from '../src/toolsource/kestrel/plugin.js';
import { everythingServerPath } from './helpers/interop.js';
import { tempDir } from './helpers/temp.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const echoScript = path.join(root, 'examples', 'echo-server.mjs');


function mcpwire(args: string[], cwd: string): Promise<CliRun> {
  return runCli(args, { cwd, env: { MCPWIRE_USER_CONFIG: path.join(cwd, 'no-user-file.json') } });
}

function ok(run: CliRun, what: string): void {
  assert.equal(run.status, 0, `${what}: exit ${run.status}; stderr: ${run.stderr}`);
}

/** A Kestrel config with server-everything under a key the agent's names must sanitize, approval auto, and the echo server (approval ask by default). */
function kestrelConfig(dir: string): string {
  const file = path.join(dir, 'kestrel.config.json');
  const servers = {
    'every.thing': { command: process.execPath, args: [everythingServerPath(), 'stdio'], approval: 'auto' },
    echo: { command: process.execPath, args: [echoScript] },
  };
  writeFileSync(file, JSON.stringify({ plugins: { config: { '@kestrel/plugin-mcp': { servers } } } }));
  return file;
}

test('U1/K1/R4: tools --config kestrel.config.json shows what the plugin\'s agent sees: the same names, descriptions, permissions and bridges', async (t) => {
  const dir = tempDir(t, 'u3-kestrel');
  const file = kestrelConfig(dir);
  const quiet = { info() {}, warn() {}, error() {} };
  const [json, text, plugin] = await Promise.all([mcpwire(['tools', '--config', file, '--json'], dir), mcpwire(['tools', '--config', file], dir), openKestrelMcp({ config: { file }, logger: quiet })]);
  t.after(() => plugin.close());
  ok(json, 'tools --json');
  const shown = (JSON.parse(json.stdout) as { name: string; description: string; permission: string; bridge?: string; server: string }[]).map((x) => [x.name, x.description, x.permission, x.bridge ?? null, x.server]);
  const expected = plugin.agentTools().map((x) => [x.name, x.description, x.permission, x.bridge ?? null, x.server]);
  // The CLI groups by server in the config's order; the plugin sorts all by name.
  const byName = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
  assert.deepEqual([...shown].sort(byName), [...expected].sort(byName));
  assert.ok(expected.some(([name]) => name === 'mcp__every_thing__read_resource'), 'the bridges are there');
  ok(text, 'tools');
  assert.match(text.stdout, /^ {2}mcp__every_thing__echo\(message: string\) +auto {2}\[MCP:every\.thing\] Echoes back the input string$/m);
  assert.match(text.stdout, /^ {2}mcp__echo__echo\(message: string\) +ask {3}\[MCP:echo\] Echoes back/m);
  assert.doesNotMatch(text.stdout, /mcp\.every\.thing\.echo/, 'not kaged\'s names');
});

test('U1: call takes a Kestrel name, a bridge\'s too; an unknown one is exit 3 with the nearest Kestrel names', async (t) => {
  const dir = tempDir(t, 'u3-kestrel-call');
  const file = kestrelConfig(dir);
  const [echo, read, prompts, unknown, view] = await Promise.all([
    mcpwire(['call', 'mcp__every_thing__echo', 'message=from kestrel', '--config', file], dir),
    mcpwire(['call', 'mcp__every_thing__read_resource', 'uri=demo://resource/static/document/architecture.md', '--config', file], dir),
    mcpwire(['call', 'mcp__every_thing__list_prompts', '--config', file], dir),
    mcpwire(['call', 'mcp__every_thing__ecko', '--config', file], dir),
    mcpwire(['tools', 'mcp__echo__echo', '--config', file], dir),
  ]);
  ok(echo, 'call mcp__every_thing__echo');
  assert.equal(echo.stdout, 'Echo: from kestrel\n');
  ok(read, 'call the read_resource bridge');
  assert.match(read.stdout, /Architecture/);
  ok(prompts, 'call the list_prompts bridge');
  assert.match(prompts.stdout, /^args-prompt\(city, state\?\) — /m);
  assert.equal(unknown.status, 3, unknown.stderr);
  assert.match(unknown.stderr, /no tool named "mcp__every_thing__ecko"; did you mean mcp__every_thing__echo\?/);
  ok(view, 'tools mcp__echo__echo');
  assert.match(view.stdout, /^mcp__echo__echo: as a Kestrel agent sees it, permission ask/);
  assert.match(view.stdout, /mcpwire call mcp__echo__echo message=text --config /);
});

test('U1: --names kaged|kestrel|raw for any config; another word is a usage error', async (t) => {
  const dir = tempDir(t, 'u3-names');
  const echo = ['--', process.execPath, echoScript];
  const [kaged, kestrel, raw, bad, call] = await Promise.all([
    mcpwire(['tools', '--names', 'kaged', ...echo], dir),
    mcpwire(['tools', '--names', 'kestrel', '--json', ...echo], dir),
    mcpwire(['tools', '--names', 'raw', ...echo], dir),
    mcpwire(['tools', '--names', 'claude', ...echo], dir),
    mcpwire(['call', 'mcp__echo-server__add', 'a=1', 'b=2', ...echo], dir),
  ]);
  ok(kaged, '--names kaged');
  assert.match(kaged.stdout, /^ {2}mcp\.echo-server\.echo\(message: string\)/m);
  ok(kestrel, '--names kestrel');
  assert.deepEqual((JSON.parse(kestrel.stdout) as { name: string; permission: string }[]).map((x) => [x.name, x.permission]), [['mcp__echo-server__add', 'ask'], ['mcp__echo-server__echo', 'ask']]);
  ok(raw, '--names raw');
  assert.match(raw.stdout, /^ {2}echo\(message: string\)/m);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--names takes kaged, kestrel or raw/);
  ok(call, 'call by a Kestrel name from an ad-hoc server');
  assert.equal(call.stdout, '1 + 2 = 3\n');
});
