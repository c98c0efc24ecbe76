// T4 and #18 item 18 through the compiled CLI (bin/mcpwire.js, built by
// `npm test` first): one rule for secret-looking names, so `config show`
// masks and `doctor` warns of the same variables, names that end in neither
// _KEY, _TOKEN nor _SECRET included (DB_PASSWD, GITHUB_PAT, X_ACCESS_KEY_ID).
// Canaries stand for the values; none may be printed.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers/temp.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'bin', 'mcpwire.js');
const echoServer = path.join(root, 'examples', 'echo-server.mjs');
const NAMES = ['MCPWIRE_T4_DB_PASSWD', 'MCPWIRE_T4_GITHUB_PAT', 'MCPWIRE_T4_ACCESS_KEY_ID'];
const CANARY = (name: string) => `sk-canary-${name.toLowerCase()}-4e1f`;

function mcpwire(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', timeout: 90_000, env: { ...process.env, ...env } });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

test('T4: doctor warns of every secret-looking host variable a stdio server would inherit, by name only', (t) => {
  const dir = tempDir(t, 'secret-names');
  const config = path.join(dir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [echoServer] } } }));
  const run = mcpwire(['doctor', '--config', config, '--json'], Object.fromEntries(NAMES.map((name) => [name, CANARY(name)])));
  const report = JSON.parse(run.stdout) as { warnings: string[] };
  for (const name of NAMES) assert.ok(report.warnings.some((w) => w.includes(name)), `${name} in ${report.warnings.join('\n')}`);
  for (const name of NAMES) assert.ok(!run.stdout.includes(CANARY(name)) && !run.stderr.includes(CANARY(name)), `${name}'s value was printed`);
});

test('T4: config show masks the same names in a config\'s env, and shows the rest', (t) => {
  const dir = tempDir(t, 'secret-names');
  const config = path.join(dir, 'mcp.json');
  const env = { ...Object.fromEntries(NAMES.map((name) => [name, CANARY(name)])), LOG_LEVEL: 'debug' };
  writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [echoServer], env } } }));
  const run = mcpwire(['config', 'show', '--config', config, '--json']);
  assert.equal(run.status, 0, run.stderr);
  const shown = JSON.parse(run.stdout) as { servers: { env?: Record<string, string> }[] };
  assert.deepEqual(shown.servers[0]!.env, { ...Object.fromEntries(NAMES.map((name) => [name, '***'])), LOG_LEVEL: 'debug' });
  for (const name of NAMES) assert.ok(!run.stdout.includes(CANARY(name)), `${name}'s value was printed`);
});
