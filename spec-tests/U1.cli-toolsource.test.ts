// U1 over the tool source: `tools`, `call`, `servers` and `doctor` on the
// kaged example project (examples/kaged-host: real server-everything,
// server-filesystem and server-memory) and on small projects written per
// test, driven as a person would: the real binary, stdout, stderr, exit code.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers/temp.js';
import { TOOLSOURCE_FIXTURE } from './helpers/toolsource.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'bin', 'mcpwire.js');
const KAGED = path.join(root, 'examples', 'kaged-host', 'kaged.yaml');

function mcpwire(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', timeout: 90_000, env: { ...process.env, ...env } });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function project(t: { after(fn: () => void): void }, files: Record<string, string>): string {
  const dir = tempDir(t, 'kaged');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return path.join(dir, 'kaged.yaml');
}

test('U1/C1: tools --config on a kaged project lists mcp.<key>.<tool> names with aliases; filtered tools and disabled servers are shown as such', () => {
  const run = mcpwire(['tools', '--config', KAGED]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^everything \(3 tools; call as mcp\.everything\.<tool>\)$/m, 'allow echo and get-*, deny get-env');
  assert.match(run.stdout, /^  echo\(message: string\) +Echoes back/m);
  assert.match(mcpwire(['tools', '--config', KAGED, '--server', 'everything', '--verbose']).stdout, /mcp\.everything\.echo {2}alias mcp_everything_echo/);
  assert.doesNotMatch(run.stdout, /get-env/);
  assert.match(run.stdout, /^docs \(disabled: disabled in the operator config\)$/m);
});

test('U1/R3: tools --agent --json prints the ToolDefinitions an agent may use, as a host would load them', () => {
  const run = mcpwire(['tools', '--config', KAGED, '--agent', 'researcher', '--json']);
  assert.equal(run.status, 0, run.stderr);
  const tools = JSON.parse(run.stdout) as { name: string; alias: string; source: string; namespace: string; mcp_server: string }[];
  assert.ok(tools.length > 0);
  for (const tool of tools) {
    assert.equal(tool.mcp_server, 'files', 'researcher gets files read_* and list_directory only (docs is disabled)');
    assert.match(tool.name, /^mcp\.files\.(read_|list_directory$)/);
    assert.equal(tool.source, 'mcp');
    assert.equal(tool.namespace, 'mcp');
  }
  const unknown = mcpwire(['tools', '--config', KAGED, '--agent', 'nobody']);
  assert.equal(unknown.status, 3, unknown.stderr);
  assert.match(unknown.stderr, /agents with one: primary, researcher/);
});

test('U1/R5: call by alias prints the result and says when it was truncated (the example caps results at 120 bytes)', () => {
  const readme = path.join(root, 'examples', 'kaged-host', 'workspace', 'README.md');
  const run = mcpwire(['call', 'mcp_files_read_text_file', JSON.stringify({ path: readme }), '--config', KAGED]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /\[\.\.\. truncated at 120 bytes\]/);
  assert.match(run.stdout, /^\(truncated: the result was \d+ bytes\)$/m);
  const json = mcpwire(['call', 'mcp.everything.echo', '{"message":"hi"}', '--config', KAGED, '--json']);
  assert.equal(json.status, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout), { name: 'mcp.everything.echo', truncated: false, result: { content: [{ type: 'text', text: 'Echo: hi' }] } });
  const missing = mcpwire(['call', 'mcp.everything.get-env', '--config', KAGED]);
  assert.equal(missing.status, 3, 'a denied tool is not there');
  assert.match(missing.stderr, /no tool named "mcp\.everything\.get-env"/);
});

test('U1/S5: servers shows each server\'s state; a server that cannot start fails the command with its reason and exit 4', (t) => {
  const ok = mcpwire(['servers', '--config', KAGED, '--json']);
  assert.equal(ok.status, 0, ok.stderr);
  const states = JSON.parse(ok.stdout) as { key: string; state: string; tools: number }[];
  assert.deepEqual(states.map((s) => [s.key, s.state]), [['everything', 'ready'], ['files', 'ready'], ['memory', 'ready'], ['docs', 'disabled']]);
  const file = project(t, {
    'kaged.yaml': `mcp:\n  broken:\n    transport: stdio\n    command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(TOOLSOURCE_FIXTURE)}]\n    env: { TS_CRASH_AT_START: "1" }\n  fine:\n    transport: stdio\n    command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(TOOLSOURCE_FIXTURE)}]\n`,
  });
  const bad = mcpwire(['servers', '--config', file]);
  assert.equal(bad.status, 4, 'a server that will not start: 4, as from every command');
  assert.match(bad.stdout, /^broken +stdio +failed +.*exited with code 3/m);
  assert.match(bad.stdout, /^fine +stdio +ready +1 tools/m);
});

test('U1/T4: doctor lists every problem (a missing secret) and warns of secret-looking host variables the env merge would pass on', (t) => {
  const clean = mcpwire(['doctor', '--config', KAGED], { MCPWIRE_TEST_TOKEN: '' });
  assert.equal(clean.status, 0, clean.stdout + clean.stderr);
  assert.match(clean.stdout, /no problems found/);
  const warned = mcpwire(['doctor', '--config', KAGED, '--json'], { MCPWIRE_TEST_TOKEN: 'sk-canary-doctor' });
  const report = JSON.parse(warned.stdout) as { ok: boolean; warnings: string[] };
  assert.equal(report.ok, true);
  assert.ok(report.warnings.some((w) => w.includes('MCPWIRE_TEST_TOKEN') && w.includes('everything, files, memory')), report.warnings.join('\n'));
  assert.doesNotMatch(warned.stdout, /sk-canary-doctor/, 'names, never values');
  const file = project(t, {
    'kaged.yaml': 'mcp:\n  api:\n    transport: sse\n    url: http://127.0.0.1:9/sse\n    auth: { type: bearer, secret_ref: api_keys.missing }\n',
  });
  const broken = mcpwire(['doctor', '--config', file]);
  assert.equal(broken.status, 3, `a missing secret is a config problem: 3, as from every command; ${broken.stdout}${broken.stderr}`);
  assert.match(broken.stdout, /problem: .*api_keys\.missing/);
});
