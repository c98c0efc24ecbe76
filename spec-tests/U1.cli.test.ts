// U1: the `mcpwire` command over the library, driven as a person would: the
// real binary in a child process, against the example server that ships with
// the package (examples/echo-server.mjs) and the real server-everything.

import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { expandBundles } from './helpers/built-modules.js';
import { startEverythingHttp } from './helpers/interop.js';
import { tempDir } from './helpers/temp.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'bin', 'mcpwire.js');
/** The folder of the bundled example: its mcpwire.json is the config a command run there finds. */
const examples = path.join(root, 'examples');

function mcpwire(...args: string[]) {
  const run = spawnSync(process.execPath, [bin, ...args], { cwd: examples, encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const recordLoads = path.join(root, 'spec-tests', 'fixtures', 'record-module-loads.mjs');

/** Runs the CLI with a loader hook that records every module it resolves; returns the run and those module URLs. */
function mcpwireRecordingLoads(t: { after(fn: () => void): void }, ...args: string[]) {
  const dir = tempDir(t, 'loads');
  const log = path.join(dir, 'modules.log');
  writeFileSync(log, '');
  const run = spawnSync(process.execPath, ['--import', recordLoads, bin, ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, MCPWIRE_MODULE_LOG: log },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, modules: expandBundles(readFileSync(log, 'utf8').split('\n').filter(Boolean)) };
}

const CONFORMANCE_MODULE = /\/(src|dist)\/conformance\//;

function mcpwireAsync(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

test('U1: demo lists the real tools of the bundled example server and calls echo', () => {
  const run = mcpwire('demo', '--json');
  assert.equal(run.status, 0, run.stderr);
  const [report] = JSON.parse(run.stdout) as { server: string; tools: string[]; echo: { content: { text: string }[] } }[];
  assert.equal(report!.server, 'example');
  assert.deepEqual(report!.tools, ['echo', 'add']);
  assert.equal(report!.echo.content[0]!.text, 'Echo: hello from mcpwire');
});

test('U1: call prints the tool result and exits 0; --json prints the tool\'s name, whether it was truncated and the server\'s result object', () => {
  const human = mcpwire('call', 'example', 'add', '{"a":40,"b":2}');
  assert.equal(human.status, 0, human.stderr);
  assert.match(human.stdout, /40 \+ 2 = 42/);
  const json = mcpwire('call', 'example', 'echo', '{"message":"x"}', '--json');
  assert.deepEqual(JSON.parse(json.stdout), { name: 'mcp.example.echo', truncated: false, result: { content: [{ type: 'text', text: 'Echo: x' }] } });
});

test('U1: usage errors exit 2 and say what to do', () => {
  const bad = mcpwire('call', 'example', 'echo', '{not json');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /the JSON argument is not valid JSON \(at 1:2: .*\); put the whole object in single quotes/);
  const unknown = mcpwire('frobnicate');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /mcpwire help/);
});

test('U1: --version prints the package version', () => {
  const version = mcpwire('--version');
  assert.equal(version.status, 0, version.stderr);
  assert.equal(version.stdout.trim(), (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version);
});

test('U1: config errors exit 3 and name the file and the path', (t) => {
  const dir = tempDir(t, 'cli');
  const file = path.join(dir, 'broken.json');
  writeFileSync(file, JSON.stringify({ mcpServers: { db: { command: 42 } } }));
  const run = mcpwire('tools', '--config', file);
  assert.equal(run.status, 3);
  assert.ok(run.stderr.includes(file) && run.stderr.includes('mcpServers.db.command'), run.stderr);
  const missing = mcpwire('call', 'nope', 'echo');
  assert.equal(missing.status, 3);
  assert.match(missing.stderr, /no server named "nope"; configured: example/);
});

test('U1: a server that cannot start exits 4 (closed) with the reason', (t) => {
  const dir = tempDir(t, 'cli');
  const file = path.join(dir, 'ghost.json');
  writeFileSync(file, JSON.stringify({ mcpServers: { ghost: { command: 'mcpwire-no-such-program-xyz' } } }));
  const run = mcpwire('call', 'ghost', 'echo', '--config', file);
  assert.equal(run.status, 4, run.stderr);
  assert.match(run.stderr, /could not be started.*check the command/);
});

test('U1/T3: a config entry with a url and no type reaches a legacy HTTP+SSE server, and the CLI says it fell back', async (t) => {
  const { port } = await startEverythingHttp(t, 'sse');
  const dir = tempDir(t, 'cli');
  const file = path.join(dir, 'remote.json');
  writeFileSync(file, JSON.stringify({ mcpServers: { legacy: { url: `http://127.0.0.1:${port}/sse` } } }));
  // Asynchronous: the server is a child of this process and must keep being served while the CLI runs.
  const run = await mcpwireAsync('call', 'legacy', 'echo', '{"message":"by url alone"}', '--config', file, '--json');
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), { name: 'mcp.legacy.echo', truncated: false, result: { content: [{ type: 'text', text: 'Echo: by url alone' }] } });
  assert.match(run.stderr, /note: legacy refused Streamable HTTP \(HTTP 4\d\d\); trying the legacy HTTP\+SSE transport/);
});

test('U1: every documented flag is accepted: tools --verbose exits 0 and prints the server\'s diagnostics on stderr', () => {
  const run = mcpwire('tools', '--verbose');
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^example \(\d+ tools;/m);
  // The bundled server announces itself on stderr: with --verbose that chunk reaches the person, named by server.
  assert.match(run.stderr, /^example: stderr "example echo server: ready/m, run.stderr);
  const quiet = mcpwire('tools');
  assert.equal(quiet.status, 0, quiet.stderr);
  assert.doesNotMatch(quiet.stderr, /stderr "/);
  for (const args of [['demo', '-v', '--json'], ['call', 'example', 'echo', '{"message":"v"}', '--verbose', '--json']]) {
    const verbose = mcpwire(...args);
    assert.equal(verbose.status, 0, `${args.join(' ')}: ${verbose.stderr}`);
  }
});

test('U1: --help lists every command, the options and the exit table; COMMAND --help prints that command\'s options and an example', () => {
  const run = mcpwire('--help');
  assert.equal(run.status, 0, run.stderr);
  for (const command of ['servers', 'tools', 'call', 'resources', 'templates', 'read', 'prompts', 'prompt', 'ping', 'doctor', 'conformance', 'demo']) {
    assert.match(run.stdout, new RegExp(`^  ${command}\\b`, 'm'), `the usage lists ${command}`);
  }
  assert.match(run.stdout, /-v, --verbose/);
  assert.match(run.stdout, /4 closed: a server would not start/);
  const tools = mcpwire('tools', '--help');
  assert.equal(tools.status, 0, tools.stderr);
  assert.match(tools.stdout, /^mcpwire tools /);
  assert.match(tools.stdout, /--verbose/);
  assert.match(tools.stdout, /Example:\n  \$ mcpwire tools/);
});

test('U1: --version loads nothing of the library; help and tools do not load the conformance runner; conformance does', (t) => {
  const version = mcpwireRecordingLoads(t, '--version');
  assert.equal(version.status, 0, version.stderr);
  assert.ok(version.modules.some((url) => url.endsWith('/bin/mcpwire.js')), version.modules.join('\n'));
  assert.deepEqual(version.modules.filter((url) => /\/(src|dist)\//.test(url)), [], 'bin answers --version from package.json alone');
  for (const args of [['help'], ['tools', '--json', '--config', 'examples/mcpwire.json']]) {
    const run = mcpwireRecordingLoads(t, ...args);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(run.modules.some((url) => /\/(src\/cli\.ts|dist\/cli\.js)$/.test(url)), `the hook saw the CLI load (${args.join(' ')})`);
    assert.deepEqual(run.modules.filter((url) => CONFORMANCE_MODULE.test(url)), [], `mcpwire ${args.join(' ')} loaded conformance modules`);
  }
  // The same record for a command that needs the runner: the hook does see it when it loads.
  const conformance = mcpwireRecordingLoads(t, 'conformance', '--help');
  assert.equal(conformance.status, 0, conformance.stderr);
  assert.ok(conformance.modules.some((url) => /\/(src\/conformance\/command\.ts|dist\/conformance\/command\.js)$/.test(url)), conformance.modules.join('\n'));
});
