// #18 items 13 and 15 through the compiled CLI (bin/mcpwire.js): a real
// session daemon in a temp runtime folder ($MCPWIRE_RUNTIME_DIR) keeping
// real servers (examples/echo-server.mjs, server-everything) running;
// commands run in it, a stale socket is cleaned up, the daemon exits on
// idle, `session stop` and SIGTERM with no process left behind, and a
// changed config is reloaded. Completion scripts are sourced in a real bash.
// Every test stops what it started; bounds are generous (a loaded machine).

import { BIN as bin, runCli, type CliRun } from './helpers/cli.js';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { userConfigPath } from '../src/cli/saved.js';
import sessionClient from '../src/cli/session-client.cjs';
import { until } from '../src/testing/http-fixture.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const echoServer = path.join(root, 'examples', 'echo-server.mjs');
const everything = path.join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const faultServer = path.join(root, 'spec-tests', 'fixtures', 'fault-server.mjs');
const CANARY = 'sk-live-CANARY-u4-51e2';


interface SessionStatus {
  pid: number;
  config: string;
  runs: number;
  servers: { key: string; state: string; pid: number | null; tools: number }[];
}

let work: string;
let runtime: string;
let project: string;
/** Every pid a test saw (daemons and servers): each must be gone when it ends. */
let seen: number[];

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { MCPWIRE_CONFIG: _c, MCPWIRE_NO_SESSION: _n, ...rest } = process.env;
  // The user's saved servers of this test alone (none unless a test writes them).
  return { ...rest, MCPWIRE_RUNTIME_DIR: runtime, MCPWIRE_USER_CONFIG: path.join(work, 'user', 'mcpwire.json'), ...extra };
}

function mcpwire(args: string[], extra: Record<string, string> = {}): Promise<CliRun> {
  return runCli(args, { cwd: project, env: env(extra), timeoutMs: 120_000 });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The processes whose command line has `word` (Linux /proc): a server this test started, found by a marker argument. */
function withArgument(word: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').includes(word);
      } catch {
        return false;
      }
    })
    .map(Number);
}

function writeConfig(servers: Record<string, unknown>): void {
  writeFileSync(path.join(project, 'mcpwire.json'), JSON.stringify({ mcpServers: servers }));
}

const echoEntry = (extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [echoServer], ...extra });

async function status(): Promise<SessionStatus> {
  const run = await mcpwire(['session', 'status', '--json']);
  assert.equal(run.status, 0, run.stderr);
  const parsed = JSON.parse(run.stdout) as SessionStatus;
  seen.push(parsed.pid, ...parsed.servers.flatMap((s) => (s.pid === null ? [] : [s.pid])));
  return parsed;
}

async function start(args: string[] = []): Promise<SessionStatus> {
  const run = await mcpwire(['session', 'start', ...args]);
  assert.equal(run.status, 0, `session start: ${run.stderr}`);
  assert.match(run.stdout, /session started for .*mcpwire\.json: pid \d+/);
  return status();
}

async function allGone(pids: readonly number[], what: string): Promise<void> {
  await until(() => pids.every((pid) => !alive(pid)), what, 30_000);
}

beforeEach(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'u4-'));
  runtime = path.join(work, 'rt');
  project = path.join(work, 'proj');
  mkdirSync(runtime, { mode: 0o700 });
  mkdirSync(project);
  seen = [];
});

afterEach(async () => {
  await mcpwire(['session', 'stop', '--all']);
  // Whatever a failed assertion left: ended here, by the pids this test saw.
  for (const pid of seen) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await allGone(seen, 'every process the test started to be gone');
  rmSync(work, { recursive: true, force: true });
});

describe('#18 item 13: mcpwire session keeps a config\'s servers running', () => {
  test('U1: start → commands run in the session (-v says so) with no server started; stop ends the daemon and its servers', async () => {
    writeConfig({ echo: echoEntry({ env: { API_TOKEN: CANARY } }) });
    const first = await start();
    assert.equal(first.servers.length, 1);
    assert.equal(first.servers[0]!.state, 'ready');
    const serverPid = first.servers[0]!.pid!;
    assert.ok(alive(first.pid) && alive(serverPid));

    // The socket only its owner can open, in a folder only its owner can enter.
    const sockets = readdirSync(runtime).filter((n) => n.endsWith('.sock'));
    assert.equal(sockets.length, 1);
    assert.equal(statSync(path.join(runtime, sockets[0]!)).mode & 0o777, 0o600);
    assert.equal(statSync(runtime).mode & 0o777, 0o700);

    const call = await mcpwire(['call', 'echo', 'message=hi', '-v']);
    assert.equal(call.status, 0, call.stderr);
    assert.equal(call.stdout, 'Echo: hi\n');
    assert.match(call.stderr, /using the session of .*mcpwire\.json \(pid \d+/);
    // -v shows the wire from the daemon too, with the configured value masked.
    assert.match(call.stderr, /echo → .*"tools\/call"/);
    const tools = await mcpwire(['tools', '--json']);
    assert.equal(tools.status, 0, tools.stderr);
    assert.deepEqual((JSON.parse(tools.stdout) as { mcp_tool_name: string }[]).map((t) => t.mcp_tool_name).sort(), ['add', 'echo']);
    const ping = await mcpwire(['ping']);
    assert.equal(ping.status, 0, ping.stderr);
    // Errors come back with their own exit status: an unknown tool is 3 in a session as without.
    const unknown = await mcpwire(['call', 'nope']);
    assert.equal(unknown.status, 3, unknown.stderr);
    assert.match(unknown.stderr, /nope/);

    const after = await status();
    assert.equal(after.pid, first.pid);
    assert.equal(after.servers[0]!.pid, serverPid, 'the same server process answered every command');
    assert.equal(after.runs, 4);
    // Nothing the session wrote holds the configured secret.
    for (const name of readdirSync(runtime).filter((n) => n.endsWith('.json'))) assert.ok(!readFileSync(path.join(runtime, name), 'utf8').includes(CANARY));
    assert.ok(!(await mcpwire(['session', 'status', '--json'])).stdout.includes(CANARY));

    const stop = await mcpwire(['session', 'stop']);
    assert.equal(stop.status, 0, stop.stderr);
    assert.match(stop.stdout, /stopped \(pid \d+\)/);
    await allGone([first.pid, serverPid], 'the daemon and its server to exit');
    assert.deepEqual(readdirSync(runtime), [], 'the socket and its meta file are removed');
    const none = await mcpwire(['session', 'status']);
    assert.equal(none.status, 1);
    // Without a session the command starts its own server again.
    const cold = await mcpwire(['call', 'echo', 'message=cold', '-v']);
    assert.equal(cold.status, 0, cold.stderr);
    assert.equal(cold.stdout, 'Echo: cold\n');
    assert.doesNotMatch(cold.stderr, /using the session/);
  });

  test('U1: server-everything through a session: tools and call; a second start says it already runs', async () => {
    writeConfig({ every: { command: process.execPath, args: [everything, 'stdio'] } });
    const first = await start();
    assert.ok(first.servers[0]!.tools > 5, JSON.stringify(first));
    const again = await mcpwire(['session', 'start']);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /already runs/);
    const sum = await mcpwire(['call', 'get-sum', 'a=40', 'b=2', '-v']);
    assert.equal(sum.status, 0, sum.stderr);
    assert.match(sum.stdout, /42/);
    assert.match(sum.stderr, /using the session/);
    const tools = await mcpwire(['tools']);
    assert.equal(tools.status, 0, tools.stderr);
    assert.match(tools.stdout, /get-sum\(a: number, b: number\)/);
    assert.equal((await status()).servers[0]!.pid, first.servers[0]!.pid);
  });

  test('U1: a stale socket (the daemon was SIGKILLed) is removed and the command starts its servers itself', async () => {
    writeConfig({ echo: echoEntry() });
    const first = await start();
    process.kill(first.pid, 'SIGKILL');
    await allGone([first.pid], 'the killed daemon to be gone');
    assert.ok(readdirSync(runtime).some((n) => n.endsWith('.sock')), 'the socket is left behind');
    const call = await mcpwire(['call', 'echo', 'message=after', '-v']);
    assert.equal(call.status, 0, call.stderr);
    assert.equal(call.stdout, 'Echo: after\n');
    assert.match(call.stderr, /removed a stale session/);
    assert.deepEqual(readdirSync(runtime), []);
    // Its server saw its stdin close and left.
    await allGone(seen, 'the dead daemon\'s server to exit');
  });

  test('U1: a stopped daemon (SIGSTOP) holds its socket but says nothing: status says so (exit 5), a command runs without it and says why, start refuses, stop ends it', async () => {
    writeConfig({ echo: echoEntry() });
    const first = await start();
    const serverPid = first.servers[0]!.pid!;
    process.kill(first.pid, 'SIGSTOP');
    try {
      const look = await mcpwire(['session', 'status']);
      assert.equal(look.status, 5, look.stderr);
      assert.match(look.stderr, new RegExp(`\\(pid ${first.pid}\\) does not answer within ${sessionClient.ANSWER_WAIT_MS / 1000} s: it is stopped or stuck; mcpwire session stop ends it`));
      const json = await mcpwire(['session', 'status', '--json']);
      assert.equal(json.status, 5, json.stderr);
      assert.deepEqual(JSON.parse(json.stdout), { unanswering: true, pid: first.pid, config: path.join(project, 'mcpwire.json') });
      const call = await mcpwire(['call', 'echo', 'message=around']);
      assert.equal(call.status, 0, call.stderr);
      assert.equal(call.stdout, 'Echo: around\n');
      assert.match(call.stderr, new RegExp(`session for this config \\(pid ${first.pid}\\) did not answer .*running the command without it`));
      const again = await mcpwire(['session', 'start']);
      assert.equal(again.status, 1, again.stderr);
      assert.match(again.stderr, /does not answer .*then start it again/);
      assert.ok(readdirSync(runtime).some((n) => n.endsWith('.sock')), 'a live daemon\'s socket is not removed as stale');
      const stop = await mcpwire(['session', 'stop']);
      assert.equal(stop.status, 0, stop.stderr);
      assert.match(stop.stdout, new RegExp(`stopped \\(pid ${first.pid}\\)`));
      await allGone([first.pid, serverPid], 'the stopped daemon and its server to be gone');
      assert.deepEqual(readdirSync(runtime), []);
    } finally {
      if (alive(first.pid)) process.kill(first.pid, 'SIGCONT');
    }
  });

  test('U1: the daemon exits after --idle ms without a command, and on SIGTERM, closing its servers', async () => {
    writeConfig({ echo: echoEntry() });
    const idle = await start(['--idle', '1500']);
    await allGone([idle.pid, idle.servers[0]!.pid!], 'the idle session to stop');
    assert.deepEqual(readdirSync(runtime), []);

    const second = await start();
    process.kill(second.pid, 'SIGTERM');
    await allGone([second.pid, second.servers[0]!.pid!], 'the daemon to exit on SIGTERM');
    assert.deepEqual(readdirSync(runtime), []);
  });

  test('U1: SIGTERM during a long call ends the daemon and server-everything without waiting for the call; the client says so', async () => {
    writeConfig({ every: { command: process.execPath, args: [everything, 'stdio'] } });
    const first = await start();
    const began = Date.now();
    const pending = mcpwire(['call', 'trigger-long-running-operation', 'duration=60', 'steps=60', '--progress']);
    // The call is running once its progress comes back: then the daemon is told to stop.
    await until(() => alive(first.pid) && Date.now() - began > 1_500, 'the call to be under way', 30_000);
    process.kill(first.pid, 'SIGTERM');
    const run = await pending;
    assert.equal(run.status, 4, run.stderr);
    // The call fails as closed, whether the daemon's last words reached the client or not.
    assert.match(run.stderr, /ClosedError: server "every", tools\/call|the session ended before the command finished/);
    await allGone([first.pid, first.servers[0]!.pid!], 'the daemon and server-everything to exit');
    // Well before the 60 s operation would have ended.
    assert.ok(Date.now() - began < 45_000, `took ${Date.now() - began} ms`);
    assert.deepEqual(readdirSync(runtime), []);
  });

  /** fault-server (its `hang` tool is never answered) logging every line it reads to `log`. */
  function hangingServer(log: string): Record<string, unknown> {
    return { faulty: { command: process.execPath, args: [faultServer], env: { FAULT_LOG: log } } };
  }
  /** The JSON-RPC lines the server read, from its log. */
  function received(log: string): { id?: number; method?: string; params?: Record<string, unknown> }[] {
    if (!existsSync(log)) return [];
    return readFileSync(log, 'utf8').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { id?: number; method?: string });
  }
  const hangCall = (log: string) => received(log).find((m) => m.method === 'tools/call' && m.params?.name === 'hang');
  const cancelledIds = (log: string) => received(log).filter((m) => m.method === 'notifications/cancelled').map((m) => m.params?.requestId);

  test('W7/U1: Ctrl-C on a client cancels its command in the daemon: the server is sent notifications/cancelled, the session serves the next command', async () => {
    const log = path.join(work, 'fault.log');
    writeConfig(hangingServer(log));
    const first = await start();
    // Spawned here rather than through runCli: the test sends the client its SIGINT, as a terminal's Ctrl-C does.
    // --timeout far beyond the test: without it the request's default timeout (30 s) would cancel the call too, and
    // the test would pass without the Ctrl-C cancelling anything.
    const child = spawn(process.execPath, [bin, 'call', 'hang', '--timeout', '600000', '-v'], { cwd: project, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.resume();
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    try {
      await until(() => hangCall(log) !== undefined, 'the hang call to reach the server', 60_000);
      assert.match(stderr, /using the session/);
      child.kill('SIGINT');
      const { code } = await exited;
      assert.equal(code, 130, stderr);
      assert.match(stderr, /interrupted by SIGINT; the session cancelled the command/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const id = hangCall(log)!.id;
    await until(() => cancelledIds(log).includes(id), `notifications/cancelled for request ${id}`, 30_000);
    // The daemon is free again, with the same server: the cancelled call no longer holds the queue.
    const next = await mcpwire(['call', 'echo', 'text=after', '-v']);
    assert.equal(next.status, 0, next.stderr);
    assert.match(next.stdout, /after/);
    assert.match(next.stderr, /using the session/);
    const now = await status();
    assert.equal(now.pid, first.pid);
    assert.equal(now.servers[0]!.pid, first.servers[0]!.pid, 'the server outlived the cancelled command');
  });

  test('W7/U1: --timeout through a session: exit 5 with a TimeoutError, the request cancelled at the server, the session serves the next command', async () => {
    const log = path.join(work, 'fault.log');
    writeConfig(hangingServer(log));
    const first = await start();
    const run = await mcpwire(['call', 'hang', '--timeout', '1500', '-v']);
    assert.equal(run.status, 5, run.stderr);
    assert.match(run.stderr, /using the session/);
    assert.match(run.stderr, /TimeoutError/);
    const id = hangCall(log)!.id;
    await until(() => cancelledIds(log).includes(id), `notifications/cancelled for request ${id}`, 30_000);
    const next = await mcpwire(['call', 'echo', 'text=after', '--timeout', '60000']);
    assert.equal(next.status, 0, next.stderr);
    assert.match(next.stdout, /after/);
    assert.equal((await status()).servers[0]!.pid, first.servers[0]!.pid);
  });

  test('U1: a changed config is reloaded: the next command sees the new servers and the old ones are stopped', async () => {
    writeConfig({ echo: echoEntry() });
    const first = await start();
    const oldServer = first.servers[0]!.pid!;
    writeConfig({ renamed: echoEntry() });
    const tools = await mcpwire(['tools']);
    assert.equal(tools.status, 0, tools.stderr);
    assert.match(tools.stdout, /^renamed \(2 tools/m);
    const now = await status();
    assert.equal(now.pid, first.pid, 'the same daemon, reloaded');
    assert.deepEqual(now.servers.map((s) => s.key), ['renamed']);
    await allGone([oldServer], 'the old config\'s server to stop');
    // A config that no longer loads ends the session; the command reports the config's error itself.
    writeFileSync(path.join(project, 'mcpwire.json'), '{ not json');
    const broken = await mcpwire(['tools']);
    assert.equal(broken.status, 3, broken.stderr);
    await allGone(seen, 'the session of a broken config to stop');
  });

  test('U1: MCPWIRE_NO_SESSION, -- COMMAND and another --config do not use the session; usage errors', async () => {
    writeConfig({ echo: echoEntry() });
    await start();
    for (const [args, extra] of [
      [['call', 'echo', 'message=x', '-v'], { MCPWIRE_NO_SESSION: '1' }],
      [['call', 'echo', 'message=x', '-v', '--', process.execPath, echoServer], {}],
    ] as const) {
      const run = await mcpwire([...args], extra);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, 'Echo: x\n');
      assert.doesNotMatch(run.stderr, /using the session/);
    }
    const other = path.join(work, 'other.json');
    writeFileSync(other, JSON.stringify({ mcpServers: { other: echoEntry() } }));
    const run = await mcpwire(['tools', '--config', other, '-v']);
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /using the session/);
    assert.match(run.stdout, /^other \(2 tools/m);
    assert.equal((await mcpwire(['session'])).status, 2);
    assert.equal((await mcpwire(['session', 'start', '--idle', 'soon'])).status, 2);
    assert.equal((await mcpwire(['session', 'restart'])).status, 2);
  });

  test('U1: two starts at once leave one session; the loser closes the servers it started', async () => {
    const marker = `u4-marker-${process.pid}-${Date.now()}`;
    writeConfig({ echo: { command: process.execPath, args: [echoServer, marker] } });
    const [a, b] = await Promise.all([mcpwire(['session', 'start']), mcpwire(['session', 'start'])]);
    assert.equal(a.status, 0, a.stderr);
    assert.equal(b.status, 0, b.stderr);
    assert.equal([a, b].filter((r) => /already runs/.test(r.stdout)).length, 1, a.stdout + b.stdout);
    const running = await status();
    await until(() => withArgument(marker).length === 1, 'one server left, the session\'s', 30_000);
    assert.deepEqual(withArgument(marker), [running.servers[0]!.pid]);
    assert.equal((await mcpwire(['session', 'stop'])).status, 0);
    await until(() => withArgument(marker).length === 0, 'no server left after stop', 30_000);
  });

  test('U1: the user\'s saved servers: a session of them alone, and of a folder\'s file with them, reloaded when the user file changes', async () => {
    const user = path.join(work, 'user', 'mcpwire.json');
    mkdirSync(path.dirname(user), { recursive: true });
    writeFileSync(user, JSON.stringify({ mcpServers: { saved: echoEntry() } }));
    // No file in the folder: the user's servers are the config.
    const alone = await start();
    assert.deepEqual(alone.servers.map((s) => s.key), ['saved']);
    const call = await mcpwire(['call', 'saved.echo', 'message=u', '-v']);
    assert.equal(call.status, 0, call.stderr);
    assert.equal(call.stdout, 'Echo: u\n');
    assert.match(call.stderr, /using the session/);
    assert.equal((await mcpwire(['session', 'stop'])).status, 0);
    // A folder's file: the user's join it, and a change to the user's file is seen.
    writeConfig({ local: echoEntry() });
    await start();
    assert.deepEqual((await status()).servers.map((s) => s.key).sort(), ['local', 'saved']);
    writeFileSync(user, JSON.stringify({ mcpServers: { saved2: echoEntry() } }));
    const tools = await mcpwire(['tools', '-v']);
    assert.equal(tools.status, 0, tools.stderr);
    assert.match(tools.stderr, /using the session/);
    assert.match(tools.stdout, /^saved2 \(/m);
  });

  test('U1: the session client finds the user\'s file where saved.ts does', () => {
    for (const env of [{ MCPWIRE_USER_CONFIG: 'rel/x.json' }, { XDG_CONFIG_HOME: '/xdg' }, { XDG_CONFIG_HOME: 'relative' }, {}] as NodeJS.ProcessEnv[]) {
      assert.equal(sessionClient.userFile(env), userConfigPath(env), JSON.stringify(env));
    }
  });

  test('U1: a runtime folder others can enter is refused', async () => {
    writeConfig({ echo: echoEntry() });
    chmodSync(runtime, 0o755);
    const run = await mcpwire(['session', 'start']);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /only you can enter/);
    chmodSync(runtime, 0o700);
  });
});

describe('#18 item 15: mcpwire completion', () => {
  function bash(script: string): string {
    const run = spawnSync('bash', ['-c', script], { cwd: project, env: env(), encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    return run.stdout;
  }
  /** A `mcpwire` on PATH for the script's calls, as an installed one would be. */
  function shim(): string {
    const dir = path.join(work, 'bin');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'mcpwire'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`, { mode: 0o755 });
    return `PATH="${dir}:$PATH"`;
  }

  test('U1: bash: the script registers _mcpwire; commands, flags and --server keys complete', () => {
    writeConfig({ echo: echoEntry(), other: echoEntry() });
    assert.match(bash(`source <("${process.execPath}" "${bin}" completion bash); complete -p mcpwire`), /complete -F _mcpwire mcpwire/);
    const words = (line: string) => bash(`${shim()}; source <(mcpwire completion bash); COMP_WORDS=(${line}); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); _mcpwire; printf '%s\\n' "\${COMPREPLY[@]}"`).split('\n').filter(Boolean);
    assert.deepEqual(words("mcpwire se").sort(), ['servers', 'serve', 'session'].sort());
    assert.ok(words("mcpwire tools --ti").includes('--timeout'));
    assert.deepEqual(words("mcpwire session ''"), ['start', 'stop', 'status']);
    assert.deepEqual(words("mcpwire tools --server ''").sort(), ['echo', 'other']);
    // No session: no tool names (completing must not start servers).
    assert.deepEqual(words("mcpwire call ''"), []);
  });

  test('U1: bash: after `call ` the running session\'s tool names are offered', async () => {
    writeConfig({ echo: echoEntry() });
    await start();
    const offered = bash(`${shim()}; source <(mcpwire completion bash); COMP_WORDS=(mcpwire call ''); COMP_CWORD=2; _mcpwire; printf '%s\\n' "\${COMPREPLY[@]}"`).split('\n').filter(Boolean);
    for (const name of ['add', 'echo', 'mcp.echo.add', 'mcp.echo.echo']) assert.ok(offered.includes(name), `${name} in ${offered.join(' ')}`);
    const prefixed = bash(`${shim()}; source <(mcpwire completion bash); COMP_WORDS=(mcpwire call --json ec); COMP_CWORD=3; _mcpwire; printf '%s\\n' "\${COMPREPLY[@]}"`).split('\n').filter(Boolean);
    assert.deepEqual(prefixed, ['echo']);
  });

  test('U1: zsh and fish scripts name the commands and ask for tools; an unknown shell is a usage error', async () => {
    const zsh = await mcpwire(['completion', 'zsh']);
    assert.equal(zsh.status, 0);
    assert.match(zsh.stdout, /^#compdef mcpwire/);
    assert.match(zsh.stdout, /completion __list tools/);
    const fish = await mcpwire(['completion', 'fish']);
    assert.equal(fish.status, 0);
    assert.match(fish.stdout, /complete -c mcpwire -n __fish_use_subcommand -a '.*\bsession\b/);
    assert.match(fish.stdout, /completion __list tools/);
    for (const shell of ['zsh', 'fish']) {
      const found = spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
      if (found) assert.equal(spawnSync(shell, ['-n', '-c', shell === 'zsh' ? zsh.stdout : fish.stdout]).status, 0, `${shell} -n`);
    }
    assert.equal((await mcpwire(['completion', 'tcsh'])).status, 2);
    assert.ok(!existsSync(path.join(runtime, 'x')));
  });
});
