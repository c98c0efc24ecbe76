// U1: every command of `mcpwire`, driven as a person would (the compiled
// binary in a child process; stdout, stderr and exit status checked), on
// servers given without a config: the bundled example server and the real
// server-everything over stdio (`-- node …`) and over HTTP (`--url`). Runs
// that do not depend on each other go concurrently, to keep the file short.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { everythingServerPath, startEverythingHttp } from './helpers/interop.js';
import { tempDir } from './helpers/temp.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'bin', 'mcpwire.js');
const ECHO = ['--', process.execPath, path.join(root, 'examples', 'echo-server.mjs')];
const EVERYTHING = ['--', process.execPath, everythingServerPath(), 'stdio'];
const SILENT = ['--', process.execPath, path.join(root, 'spec-tests', 'fixtures', 'silent-server.mjs')];
const WRONG_VERSION = ['--', process.execPath, path.join(root, 'spec-tests', 'fixtures', 'wrong-version-server.mjs')];
const GHOST = ['--', 'mcpwire-no-such-program-xyz'];
/** What a crash looks like on stderr: a stack frame, or Node's report of an uncaught error. */
const STACK = /\n\s+at |Unhandled|EPIPE|node:internal/;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI asynchronously (the HTTP server under test is a child of this process and must keep being served). */
function mcpwire(args: string[], options: { cwd?: string; stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  const env = { ...process.env, ...options.env };
  delete env.MCPWIRE_CONFIG;
  const child = spawn(process.execPath, [bin, ...args], { cwd: options.cwd ?? root, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(options.stdin ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => {
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function ok(run: Run, what: string): void {
  assert.equal(run.status, 0, `${what}: exit ${run.status}; stderr: ${run.stderr}`);
  assert.doesNotMatch(run.stderr, STACK, what);
}

test('U1: bare mcpwire prints the usage on stderr and exits 2; without a config or a server a command says how to give one (exit 2)', async (t) => {
  const empty = tempDir(t, 'noconfig');
  const [bare, tools, call] = await Promise.all([mcpwire([]), mcpwire(['tools'], { cwd: empty }), mcpwire(['call', 'echo'], { cwd: empty })]);
  assert.equal(bare.status, 2);
  assert.equal(bare.stdout, '');
  assert.match(bare.stderr, /^mcpwire — an MCP client/);
  for (const run of [tools, call]) {
    assert.equal(run.status, 2, run.stderr);
    assert.equal(run.stdout, '', 'nothing listed: the bundled example is not anyone\'s config');
    assert.match(run.stderr, /no server to talk to: no --config, no \$MCPWIRE_CONFIG and no mcpwire\.json in .*\n.*-- npx -y/);
  }
});

test('U1: an ad-hoc stdio server (-- node examples/echo-server.mjs): tools as signatures, call with k=v, structuredContent once, --json pure, ping, servers, did-you-mean', async () => {
  const [tools, toolsJson, add, addVerbose, addJson, ping, servers, typo, badNumber, prompts] = await Promise.all([
    mcpwire(['tools', ...ECHO]),
    mcpwire(['tools', '--json', ...ECHO]),
    mcpwire(['call', 'add', 'a=40', 'b:2', ...ECHO]),
    mcpwire(['call', 'add', 'a=40', 'b=2', '--verbose', ...ECHO]),
    mcpwire(['call', 'mcp.echo-server.add', '{"a": 1, "b": 2}', '--json', ...ECHO]),
    mcpwire(['ping', ...ECHO]),
    mcpwire(['servers', ...ECHO]),
    mcpwire(['call', 'ecko', 'message=x', ...ECHO]),
    mcpwire(['call', 'add', 'a=forty', 'b=2', ...ECHO]),
    mcpwire(['prompts', ...ECHO]),
  ]);
  ok(tools, 'tools');
  assert.match(tools.stdout, /^echo-server \(2 tools; call by the tool's name\)$/m, 'the key is derived from the script name');
  assert.match(tools.stdout, /^  echo\(message: string\) +Echoes back the message it is given\.$/m);
  assert.match(tools.stdout, /^  add\(a: number, b: number\) +Adds two numbers\.$/m);
  ok(toolsJson, 'tools --json');
  assert.deepEqual((JSON.parse(toolsJson.stdout) as { name: string }[]).map((d) => d.name).sort(), ['mcp.echo-server.add', 'mcp.echo-server.echo']);
  ok(add, 'call add');
  assert.equal(add.stdout, '40 + 2 = 42\n', 'the content, and not the structuredContent saying the same');
  ok(addVerbose, 'call add --verbose');
  assert.match(addVerbose.stdout, /40 \+ 2 = 42\nstructuredContent: \{\n {2}"sum": 42\n\}/);
  assert.match(addVerbose.stderr, /^echo-server → \{"jsonrpc":"2\.0","id":\d+,"method":"tools\/call","params":\{"name":"add","arguments":\{"a":40,"b":2\},"_meta":\{"progressToken":[^}]+\}\}\}$/m, 'the wire, both ways (call always asks for progress: #18 item 1)');
  assert.match(addVerbose.stderr, /^echo-server ← \{.*"structuredContent":\{"sum":42\}/m);
  ok(addJson, 'call --json');
  assert.deepEqual(JSON.parse(addJson.stdout), { name: 'mcp.echo-server.add', truncated: false, result: { content: [{ type: 'text', text: '1 + 2 = 3' }], structuredContent: { sum: 3 } } });
  ok(ping, 'ping');
  assert.match(ping.stdout, /^echo-server {2}ok {2}[\d.]+ ms$/m);
  ok(servers, 'servers');
  assert.match(servers.stdout, /^echo-server +stdio +ready +2 tools, pid \d+, protocol 2025-11-25 \(legacy\)$/m);
  assert.equal(typo.status, 3, typo.stderr);
  assert.match(typo.stderr, /no tool named "ecko"; did you mean echo\?/);
  assert.equal(badNumber.status, 2, badNumber.stderr);
  assert.match(badNumber.stderr, /a=forty: a takes a number \(add\(a: number, b: number\)\)/);
  ok(prompts, 'prompts');
  assert.match(prompts.stdout, /^echo-server \(offers no prompts\)$/m);
});

test('U1: k=v coerced by server-everything\'s real schemas; resources, templates, read, prompts, prompt; a JSON-RPC error exits 7; -e values masked in --verbose', async () => {
  const canary = 'sk-canary-env-7f3a9c';
  const [sum, resources, templates, read, prompts, prompt, missing, env] = await Promise.all([
    mcpwire(['call', 'get-sum', 'a=1.5', 'b=2', ...EVERYTHING]),
    mcpwire(['resources', ...EVERYTHING]),
    mcpwire(['templates', '--json', ...EVERYTHING]),
    mcpwire(['read', 'demo://resource/dynamic/text/1', ...EVERYTHING]),
    mcpwire(['prompts', ...EVERYTHING]),
    mcpwire(['prompt', 'args-prompt', 'city=Paris', ...EVERYTHING]),
    mcpwire(['prompt', 'no-such-prompt', '--json', ...EVERYTHING]),
    // The server echoes the value back: the answer on the wire carries it.
    mcpwire(['call', 'echo', `message=${canary}`, '-e', `MCPWIRE_CANARY=${canary}`, '--verbose', ...EVERYTHING]),
  ]);
  ok(sum, 'get-sum');
  // server-everything validates its arguments: strings for a and b would be refused.
  assert.match(sum.stdout, /The sum of 1\.5 and 2 is 3\.5/);
  ok(resources, 'resources');
  assert.match(resources.stdout, /^server-everything \(\d+ resources\)$/m);
  assert.match(resources.stdout, /^  demo:\/\/resource\/static\/document\/architecture\.md +architecture\.md +text\/markdown$/m);
  ok(templates, 'templates --json');
  assert.ok((JSON.parse(templates.stdout) as { resourceTemplates: { uriTemplate: string }[] }[])[0]!.resourceTemplates.some((r) => r.uriTemplate === 'demo://resource/dynamic/text/{resourceId}'));
  ok(read, 'read');
  assert.match(read.stdout, /^Resource 1: This is a plaintext resource/);
  ok(prompts, 'prompts');
  assert.match(prompts.stdout, /^  args-prompt\(city: string, state\?: string\) +A prompt with two arguments/m);
  ok(prompt, 'prompt');
  assert.match(prompt.stdout, /^\[user\] What's weather in Paris\?/m);
  assert.equal(missing.status, 7, missing.stderr);
  assert.equal(missing.stdout, '', '--json: nothing on stdout when the command failed');
  const envelope = JSON.parse(missing.stderr.trim().split('\n').at(-1)!) as { error: { code: string; message: string; server: string } };
  assert.equal(envelope.error.code, 'rpc');
  assert.equal(envelope.error.server, 'server-everything');
  ok(env, 'echo --verbose');
  assert.equal(env.stdout, `Echo: ${canary}\n`, 'the result the person asked for');
  assert.match(env.stderr, /^server-everything ← \{"result":\{"content":\[\{"type":"text","text":"Echo: \[redacted\]"/m, 'the wire shows the answer, the value masked');
  assert.ok(!env.stderr.includes(canary), 'an env value given with -e never reaches stderr');
});

test('U1: --url reaches server-everything over Streamable HTTP; a --header value never printed, even with --verbose', async (t) => {
  const { port } = await startEverythingHttp(t, 'streamableHttp');
  const url = `http://127.0.0.1:${port}/mcp`;
  const canary = 'sk-canary-header-51d2e8';
  const [call, tools] = await Promise.all([
    mcpwire(['call', 'echo', 'message=over http', '--url', url, '--header', `Authorization: Bearer ${canary}`, '--verbose']),
    mcpwire(['tools', '--url', url, '--transport', 'http', '--json']),
  ]);
  ok(call, 'call --url');
  assert.equal(call.stdout, 'Echo: over http\n');
  assert.match(call.stderr, /^127-0-0-1 → .*"method":"initialize"/m, 'the key is the host');
  assert.ok(!call.stdout.includes(canary) && !call.stderr.includes(canary), 'the header value is never printed');
  ok(tools, 'tools --url --transport http');
  assert.ok((JSON.parse(tools.stdout) as { name: string }[]).some((d) => d.name === 'mcp.127-0-0-1.get-sum'));
});

test('U1: one exit table: a server that will not start is 4 from every command; a handshake that breaks the protocol 6; --timeout bounds a handshake never answered (5)', async () => {
  const commands = [['tools'], ['servers'], ['call', 'echo', 'message=x'], ['ping'], ['resources'], ['read', 'x://y'], ['prompt', 'p'], ['doctor']];
  const ghosts = await Promise.all(commands.map((args) => mcpwire([...args, ...GHOST])));
  ghosts.forEach((run, k) => {
    assert.equal(run.status, 4, `${commands[k]!.join(' ')}: ${run.stderr}`);
    assert.match(run.stdout + run.stderr, /could not be started: mcpwire-no-such-program-xyz was not found/);
    assert.doesNotMatch(run.stderr, STACK);
  });
  const [wrong, silent, silentJson] = await Promise.all([
    mcpwire(['tools', ...WRONG_VERSION]),
    mcpwire(['call', 'x', '--timeout', '1000', ...SILENT]),
    mcpwire(['tools', '--timeout', '1000', '--json', ...SILENT]),
  ]);
  assert.equal(wrong.status, 6, wrong.stderr);
  assert.match(wrong.stderr, /1999-01-01/);
  assert.equal(silent.status, 5, silent.stderr);
  assert.match(silent.stderr, /^mcpwire: TimeoutError: server "silent-server": no answer within 1000 ms/m);
  assert.equal(silentJson.status, 5, silentJson.stderr);
  assert.equal(silentJson.stdout, '');
  assert.equal((JSON.parse(silentJson.stderr.trim().split('\n').at(-1)!) as { error: { code: string } }).error.code, 'timeout');
});

test('U1: a reader that goes away after the first line (| head -1) ends the command quietly with its usual status', async (t) => {
  // Arguments from stdin (-): an echo of 20 000 lines, far more than a pipe holds, so the CLI is still writing when the reader leaves.
  const message = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n');
  const child = spawn(process.execPath, [bin, 'call', 'echo', '-', ...ECHO], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  // A CLI that hangs once its reader is gone is killed, so the test fails on its status instead of timing out.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  child.stdin.end(JSON.stringify({ message }));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let first = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    first += chunk;
    if (first.includes('\n')) child.stdout.destroy();
  });
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  assert.match(first, /^Echo: line 0\n/);
  assert.equal(status, 0, stderr);
  assert.equal(stderr, '', 'no EPIPE, no stack');
});
