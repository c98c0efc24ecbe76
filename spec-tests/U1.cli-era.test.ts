// U1, #17 item 1: the CLI's --era flag (checked before anything starts, a
// did-you-mean for a near miss, passed into every server's params over what
// the config says) and the protocol each server speaks, shown by tools,
// servers and doctor, as text and as JSON, against the bundled example
// server (examples/echo-server.mjs, a 2025-11-25 server).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseCommandLine } from '../src/cli/options.js';
import { resolveConfig } from '../src/cli/target.js';
import { UsageError } from '../src/cli/usage.js';
import { tempDir } from './helpers/temp.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'bin', 'mcpwire.js');
const ECHO = ['--', process.execPath, path.join(root, 'examples', 'echo-server.mjs')];

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function mcpwire(args: string[]): Promise<Run> {
  const env = { ...process.env };
  delete env.MCPWIRE_CONFIG;
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => {
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

test('U1/#17: tools, servers and doctor show the protocol version and era each server speaks, as text and as JSON', async () => {
  const [tools, toolsJson, servers, serversJson, doctor, pinned] = await Promise.all([
    mcpwire(['tools', ...ECHO]),
    mcpwire(['tools', '--json', ...ECHO]),
    mcpwire(['servers', ...ECHO]),
    mcpwire(['servers', '--json', ...ECHO]),
    mcpwire(['doctor', ...ECHO]),
    mcpwire(['tools', '--era', 'legacy', ...ECHO]),
  ]);
  for (const [run, what] of [[tools, 'tools'], [toolsJson, 'tools --json'], [servers, 'servers'], [serversJson, 'servers --json'], [doctor, 'doctor'], [pinned, 'tools --era legacy']] as const) {
    assert.equal(run.status, 0, `${what}: ${run.stderr}`);
  }
  assert.match(tools.stdout, /^server echo-server: protocol 2025-11-25 \(legacy\)\necho-server \(2 tools; call by the tool's name\)\n/);
  const definitions = JSON.parse(toolsJson.stdout) as { name: string; protocolVersion: string; era: string }[];
  assert.deepEqual(
    definitions.map((d) => [d.name, d.protocolVersion, d.era]).sort(),
    [
      ['mcp.echo-server.add', '2025-11-25', 'legacy'],
      ['mcp.echo-server.echo', '2025-11-25', 'legacy'],
    ],
  );
  assert.match(servers.stdout, /^echo-server +stdio +ready +2 tools, pid \d+, protocol 2025-11-25 \(legacy\)$/m);
  const [status] = JSON.parse(serversJson.stdout) as { key: string; protocolVersion: string; era: string }[];
  assert.equal(status!.protocolVersion, '2025-11-25');
  assert.equal(status!.era, 'legacy');
  assert.match(doctor.stdout, /^ok {3}echo-server \(ready, 2 tools, protocol 2025-11-25 \(legacy\)\)$/m);
  assert.match(pinned.stdout, /^server echo-server: protocol 2025-11-25 \(legacy\)$/m, '--era legacy speaks the 2025 handshake');
});

test('U1/#17: --era is checked before any server starts: a near miss gets the nearest value, a date that is not one is refused, exit 2', async () => {
  const [typo, badDate, word, onConfig] = await Promise.all([
    mcpwire(['tools', '--era', 'modrn', ...ECHO]),
    mcpwire(['call', 'echo', 'message=x', '--era', '2025-11-31', ...ECHO]),
    mcpwire(['ping', '--era', 'newest', ...ECHO]),
    mcpwire(['config', 'show', '--era', 'legacy', '--config', path.join(root, 'examples', 'mcpwire.json')]),
  ]);
  for (const run of [typo, badDate, word, onConfig]) {
    assert.equal(run.status, 2, run.stderr);
    assert.equal(run.stdout, '');
  }
  assert.match(typo.stderr, /--era: expected auto, legacy, modern, or a protocol version such as 2025-11-25, got "modrn" \(did you mean "modern"\?\)/);
  assert.match(badDate.stderr, /--era: "2025-11-31" is not a real date; a protocol version is a revision date YYYY-MM-DD/);
  assert.match(word.stderr, /--era: expected auto, legacy, modern, .*got "newest"/);
  assert.match(onConfig.stderr, /--era applies to the commands that talk to servers/);
});

test('U1/#17: --era goes into every server\'s params, over the era the config sets; without it the config\'s stands', async (t) => {
  const dir = tempDir(t, 'cli-era');
  const file = path.join(dir, 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: { a: { command: 'node', protocolEra: 'modern' }, b: { command: 'node' } } }));
  const eras = async (args: string[]) => (await resolveConfig('tools', parseCommandLine('tools', args))).servers.map((s) => s.params.protocolEra);
  assert.deepEqual(await eras(['--config', file]), ['modern', undefined]);
  assert.deepEqual(await eras(['--config', file, '--era', 'legacy']), ['legacy', 'legacy']);
  assert.deepEqual(await eras(['--era', '2026-07-28', ...ECHO]), [{ version: '2026-07-28' }]);
  assert.deepEqual(await eras(['--era', 'auto', '--url', 'https://a.test/mcp']), ['auto']);
  assert.throws(() => parseCommandLine('tools', ['--era', 'legasy']), (error) => error instanceof UsageError && /did you mean "legacy"/.test(error.message));
});

test('U1/#17 done means: `mcpwire tools` against a modern-only SDK v2 server, with no era given, speaks 2026-07-28 and says so; --era legacy is refused by it; --era auto agrees', async () => {
  const MODERN = ['--', process.execPath, path.join(root, 'spec-tests', 'fixtures', 'v2-server.mjs'), '--transport', 'stdio', '--era', 'modern'];
  const [plain, auto, legacy] = await Promise.all([mcpwire(['tools', ...MODERN]), mcpwire(['tools', '--era', 'auto', ...MODERN]), mcpwire(['tools', '--era', 'legacy', ...MODERN])]);
  assert.equal(plain.status, 0, plain.stderr);
  assert.match(plain.stdout, /^server v2-server: protocol 2026-07-28 \(modern\)\n/);
  assert.match(plain.stdout, /^ {2}echo\(text: string\)/m);
  assert.equal(auto.status, 0, auto.stderr);
  assert.match(auto.stdout, /protocol 2026-07-28 \(modern\)/);
  assert.notEqual(legacy.status, 0, 'an era the user pinned is kept to');
  assert.match(legacy.stderr, /-32022|protocol version/i);
});
