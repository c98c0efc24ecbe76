// Two hosts written the way a host author meets mcpwire: from the README and
// the packed package's .d.ts, never its source (#16, Tests). The package is
// packed and installed into a temp project as package.consumer.test.ts does;
// spec-tests/hosts/daemon-host.ts (a kaged daemon over openToolSource) and
// spec-tests/hosts/kestrel-host.ts (openKestrelMcp) are type-checked there
// against the installed .d.ts (strict, module nodenext), compiled, and run
// against the real reference servers. Each host prints one JSON line per
// step; this file asserts on them. The daemon's remote server is the real
// server-everything over Streamable HTTP behind a recording proxy, which
// shows what the host's secret resolver put on the wire.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import { missingReason } from '../tools/node-versions/index.mjs';
import { install, installNode, pack, ROOT, run, show, TSC, TYPES_ROOT } from './helpers/consumer-package.js';
import { isAlive, killIfAlive } from './helpers/fault-harness.js';
import { startEverythingHttp } from './helpers/interop.js';
import { tempDir } from './helpers/temp.js';

const HOSTS = ['daemon-host', 'kestrel-host'] as const;
const SERVERS = path.join(ROOT, 'node_modules', '@modelcontextprotocol');
/** Each host runs in seconds; past this it is stuck, and killed. */
const HOST_TIMEOUT_MS = 45_000;
const CANARY = 'canary-h0st-s3cret-9f27';

type Step = Record<string, any>;
interface HostRun {
  code: number | null;
  stdout: string;
  stderr: string;
  steps: Map<string, Step>;
}

/** Runs a compiled host on the install's Node; its own children are checked and killed by the caller from what it printed. */
function runHost(t: TestContext, script: string, cwd: string, env: Record<string, string>): Promise<HostRun> {
  return new Promise((resolve) => {
    const child = spawn(installNode!, [script], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), HOST_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      const steps = new Map<string, Step>();
      for (const line of stdout.split('\n')) {
        if (!line.startsWith('{')) continue;
        const parsed = JSON.parse(line) as Step;
        steps.set(String(parsed.step), parsed);
      }
      // Whatever the host left running (it printed every pid it saw) goes now, and the test says so below.
      t.after(() => {
        for (const pid of (steps.get('close')?.pids ?? []) as number[]) killIfAlive(pid);
      });
      resolve({ code, stdout, stderr, steps });
    });
  });
}

/** A step's line, failing with the host's whole output when it is missing or the step hit an error. */
function stepOf(host: HostRun, name: string): Step {
  const found = host.steps.get(name);
  assert.ok(found, `the host printed no ${name} step\n--- stdout ---\n${host.stdout}\n--- stderr ---\n${host.stderr}`);
  assert.equal(found.failed, undefined, `step ${name} failed: ${JSON.stringify(found.failed)}`);
  return found;
}

/** An HTTP proxy in front of the real server that records each request's method and headers (streams piped both ways). */
async function recordingProxy(t: TestContext, upstreamPort: number): Promise<{ url: string; seen: { method: string; authorization: string | undefined; client: string | undefined }[] }> {
  const seen: { method: string; authorization: string | undefined; client: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', authorization: req.headers.authorization, client: req.headers['x-client'] as string | undefined });
    const upstream = http.request({ host: '127.0.0.1', port: upstreamPort, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/mcp`, seen };
}

const sorted = (list: readonly string[]): string[] => [...list].sort();

describe('host authors: a daemon host and a Kestrel host written from the README and the packed .d.ts', { skip: installNode === undefined ? `npm must run on Node >= 22.12 for an install without warnings, and ${missingReason(22)}` : false }, () => {
  const work = tempDir({ after }, 'hosts');
  const project = path.join(work, 'project');
  let compiled: ReturnType<typeof run> | undefined;

  before(() => {
    const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { encoding: 'utf8' });
    assert.equal(build.status, 0, show(build));
    const packed = pack(work);
    assert.equal(packed.result.status, 0, show(packed.result));
    const installing = install(project, packed.tarball!);
    assert.equal(installing.status, 0, show(installing));
    // The hosts as their author keeps them: ESM TypeScript in a folder of their own, compiled to out/.
    const hosts = path.join(project, 'hosts');
    mkdirSync(path.join(hosts, 'src'), { recursive: true });
    writeFileSync(path.join(hosts, 'package.json'), JSON.stringify({ type: 'module' }));
    for (const host of HOSTS) copyFileSync(path.join(ROOT, 'spec-tests', 'hosts', `${host}.ts`), path.join(hosts, 'src', `${host}.ts`));
    const tsconfig = {
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2023', 'esnext.disposable'],
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        // mcpwire's own .d.ts are checked too, as installed.
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [TYPES_ROOT],
        rootDir: 'src',
        outDir: 'out',
      },
      files: HOSTS.map((host) => `src/${host}.ts`),
    };
    writeFileSync(path.join(hosts, 'tsconfig.json'), JSON.stringify(tsconfig));
    compiled = run(process.execPath, [TSC, '-p', 'tsconfig.json'], hosts);
  });

  test('both hosts type-check against the installed package (strict, nodenext, exactOptionalPropertyTypes) and compile', () => {
    assert.ok(compiled, 'compiled in before()');
    assert.equal(compiled.status, 0, show(compiled));
    for (const host of HOSTS) assert.ok(existsSync(path.join(project, 'hosts', 'out', `${host}.js`)), `${host}.js was emitted`);
  });

  test('the daemon host: agents, refusals, metrics, disable/enable/restart, a reload that restarts only what changed, a host secret on the wire, close', { timeout: 90_000 }, async (t) => {
    const script = path.join(project, 'hosts', 'out', 'daemon-host.js');
    assert.ok(existsSync(script), 'compiled first');
    const everything = await startEverythingHttp(t, 'streamableHttp');
    const proxy = await recordingProxy(t, everything.port);
    const host = await runHost(t, script, path.join(project, 'hosts'), { HOST_WORK: tempDir(t, 'daemon-host'), HOST_SERVERS: SERVERS, HOST_REMOTE_URL: proxy.url, HOST_CANARY: CANARY });
    assert.equal(host.code, 0, `the host exited ${host.code}\n${host.stderr}`);

    const loaded = stepOf(host, 'loaded');
    assert.equal(loaded.format, 'kaged');
    assert.deepEqual(loaded.servers, ['everything', 'files', 'memory', 'remote', 'slow']);
    assert.equal(loaded.cap, 2048, 'config.toml [mcp] result_cap_bytes');
    assert.ok(Object.values(loaded.states).every((s) => s === 'idle'), `first use: nothing started at open (${JSON.stringify(loaded.states)})`);

    // tools({ deadlineMs }): what is ready by then, while the server that never answers is still starting.
    const deadline = stepOf(host, 'deadline');
    assert.deepEqual(deadline.servers, ['everything', 'files', 'memory', 'remote']);
    assert.equal(deadline.slow, 'starting');
    assert.deepEqual(deadline.names.filter((n: string) => n.startsWith('mcp.everything.')), ['mcp.everything.echo', 'mcp.everything.get-sum', 'mcp.everything.trigger-long-running-operation'], 'the allow filter');
    assert.deepEqual(deadline.names.filter((n: string) => n.startsWith('mcp.remote.')), ['mcp.remote.echo']);

    assert.equal(stepOf(host, 'echo').text, 'Echo: hi');
    const alias = stepOf(host, 'alias');
    assert.match(alias.alias, /^[a-zA-Z0-9_-]{1,64}$/);
    assert.equal(alias.name, 'mcp.everything.get-sum');
    assert.equal(alias.text, 'The sum of 2 and 3 is 5.');

    // The remote server's secret came from the host's resolver and went out as a bearer token, with the static header.
    assert.equal(stepOf(host, 'remote').text, 'Echo: over http');
    const posts = proxy.seen.filter((r) => r.method === 'POST');
    assert.ok(posts.length >= 3, `initialize, initialized, tools/list, tools/call went through the proxy (saw ${posts.length})`);
    assert.deepEqual([...new Set(posts.map((r) => r.authorization))], [`Bearer ${CANARY}`]);
    assert.deepEqual([...new Set(posts.map((r) => r.client))], ['host-author']);
    const secrets = stepOf(host, 'secrets');
    assert.ok(secrets.asked.length >= 1 && secrets.asked.every((a: Step) => a.ref === 'vault.remote_token' && a.server === 'remote'), JSON.stringify(secrets.asked));
    assert.equal(secrets.canaryInStatus, false);
    assert.ok(!host.stdout.includes(CANARY) && !host.stderr.includes(CANARY), 'the secret never reaches what the host printed');

    const memory = stepOf(host, 'memory');
    assert.match(memory.graph, /"name": "mcpwire"/);
    assert.equal(memory.file, true, 'the server got its env (MEMORY_FILE_PATH)');
    assert.equal(stepOf(host, 'reader').text, 'hello from the workspace\n');
    const truncated = stepOf(host, 'truncated');
    assert.equal(truncated.truncated, true);
    assert.ok(truncated.sizeBytes > 5_000, `sizeBytes is the size before the cap (${truncated.sizeBytes})`);
    assert.match(truncated.tail, /\n\[\.\.\. truncated at 2048 bytes\]$/);

    // To an agent, a tool it was not given does not exist, by the view and by the option alike; nothing is sent.
    const refused = stepOf(host, 'refused');
    for (const how of ['viaView', 'viaOption']) {
      assert.equal(refused[how].name, 'UnknownToolError', `${how}: ${JSON.stringify(refused[how])}`);
      assert.equal(refused[how].code, 'unknown-tool');
      assert.equal(refused[how].missing, 'tool');
    }
    assert.equal(refused.onCallFired, 0, 'a refused call never reached a server');
    const typo = stepOf(host, 'typo');
    assert.equal(typo.name, 'UnknownToolError');
    assert.deepEqual(typo.suggestions, ['mcp.everything.echo']);

    const timeout = stepOf(host, 'timeout');
    assert.equal(timeout.error.name, 'TimeoutError');
    assert.equal(timeout.afterwards, 'Echo: still up');

    // onCall and status() count the same calls.
    const counts = stepOf(host, 'counts');
    for (const [key, { onCall, status }] of Object.entries(counts.byServer as Record<string, { onCall: Record<string, number>; status: Record<string, number> }>)) {
      assert.ok(status, `${key} has a status`);
      assert.ok(onCall.calls! > 0, `${key} was called`);
      for (const field of ['calls', 'errors', 'bytes', 'truncated', 'timeouts']) assert.equal(status[field], onCall[field], `${key}: status ${field} vs onCall`);
      assert.ok(Math.abs(status.totalMs! - onCall.ms!) < 1, `${key}: stats.totalMs ${status.totalMs} vs onCall ms ${onCall.ms}`);
      assert.ok(status.maxMs! > 0 && status.maxMs! <= status.totalMs!, `${key}: maxMs`);
    }
    assert.equal(counts.byServer.everything.status.timeouts, 1);
    assert.equal(counts.byServer.everything.status.errors, 1);
    assert.equal(counts.byServer.files.status.truncated, 1);
    assert.deepEqual(counts.eras, ['legacy']);
    assert.deepEqual(counts.protocolVersions, ['2025-11-25']);

    const disabled = stepOf(host, 'disable');
    assert.equal(disabled.state, 'disabled');
    assert.equal(disabled.registered, 0);
    assert.equal(disabled.listedMemory, 0, 'a disabled server offers nothing');
    assert.equal(disabled.removed, 9, 'tools-changed withdrew its nine tools');
    assert.equal(disabled.call.name, 'ClosedError');
    assert.equal(disabled.call.reason, 'unavailable');
    const enabled = stepOf(host, 'enable');
    assert.equal(enabled.stateAfterEnable, 'idle', 'enable() starts it at next use');
    assert.equal(enabled.state, 'ready');
    assert.match(enabled.graph, /"name": "mcpwire"/);
    assert.equal(enabled.added, 9);

    const restarted = stepOf(host, 'restart');
    assert.notEqual(restarted.after, restarted.before, 'a new process');
    assert.equal(restarted.state, 'ready');
    assert.equal(restarted.text, 'Echo: after restart');
    assert.deepEqual(restarted.changes, [], 'the same tools: no tools-changed');

    const slow = stepOf(host, 'slow');
    assert.equal(slow.sawFailed, true, `past the host's startupTimeoutMs, and maxFailures 1: ${JSON.stringify(slow)}`);
    assert.equal(slow.state, 'failed');
    assert.equal(slow.lastErrorCode, 'timeout', slow.lastError);
    assert.equal(slow.tools, 0);
    assert.equal(slow.alive, false, 'the process that never answered was killed');

    // The project file edited: memory's env changed and slow removed; only memory restarts.
    const reload = stepOf(host, 'reload');
    assert.deepEqual({ ...reload.report, unchanged: sorted(reload.report.unchanged) }, { added: [], removed: ['slow'], restarted: ['memory'], unchanged: ['everything', 'files', 'remote'] });
    assert.equal(reload.pidsAfter.everything, reload.pidsBefore.everything, 'everything untouched');
    assert.equal(reload.pidsAfter.files, reload.pidsBefore.files, 'files untouched');
    assert.notEqual(reload.pidsAfter.memory, reload.pidsBefore.memory, 'memory restarted');
    assert.equal(reload.newFile, true, 'memory runs the new env');
    assert.deepEqual(sorted(reload.keys), ['everything', 'files', 'memory', 'remote']);
    assert.equal(reload.remoteEcho, 'Echo: after reload');

    const status = stepOf(host, 'status');
    assert.deepEqual(
      status.servers.map((s: Step) => [s.key, s.state, s.transport]).sort(),
      [
        ['everything', 'ready', 'stdio'],
        ['files', 'ready', 'stdio'],
        ['memory', 'ready', 'stdio'],
        ['remote', 'ready', 'streamable-http'],
      ],
    );

    const events = stepOf(host, 'events');
    assert.deepEqual(events.states.slow, ['starting', 'failed', 'closed'], 'slow: started, failed at its deadline, closed when the reload removed it');
    assert.ok(events.states.memory.includes('disabled'), JSON.stringify(events.states.memory));
    assert.deepEqual(
      events.changes.filter((c: Step) => c.added > 0 && c.removed === 0).map((c: Step) => c.server).slice(0, 4).sort(),
      ['everything', 'files', 'memory', 'remote'],
      'each server announced its tools once discovered',
    );

    const closed = stepOf(host, 'close');
    assert.ok(closed.closedStates.every((s: string) => s === 'closed'), JSON.stringify(closed.closedStates));
    assert.ok(closed.pids.length >= 6, `every server process the host saw (${closed.pids})`);
    assert.deepEqual(closed.alive, [], 'no server process outlives close()');
    assert.deepEqual((closed.pids as number[]).filter(isAlive), [], 'nor the host');
  });

  test('the Kestrel host: agentTools, execute, a server killed mid-call answers isError, events, disable/enable/restart, status, close', { timeout: 90_000 }, async (t) => {
    const script = path.join(project, 'hosts', 'out', 'kestrel-host.js');
    assert.ok(existsSync(script), 'compiled first');
    const host = await runHost(t, script, path.join(project, 'hosts'), { HOST_WORK: tempDir(t, 'kestrel-host'), HOST_SERVERS: SERVERS });
    assert.equal(host.code, 0, `the host exited ${host.code}\n${host.stderr}`);

    const tools = stepOf(host, 'tools');
    assert.deepEqual(tools.servers, ['everything', 'memory']);
    assert.deepEqual(tools.echo, { description: '[MCP:everything] Echoes back the input string', category: 'mcp', permission: 'auto', server: 'everything', tool: 'echo', hasSchema: true });
    assert.equal(tools.memoryPermission, 'ask', 'approval defaults to ask');
    assert.ok(tools.names.includes('mcp__everything__list_resources') && tools.names.includes('mcp__everything__get_prompt'), 'the resource and prompt bridges');
    assert.ok(tools.names.every((n: string) => /^mcp__(everything|memory)__[A-Za-z0-9_-]+$/.test(n)), 'provider-safe names');
    assert.ok(tools.service > 0 && tools.service < tools.names.filter((n: string) => n.startsWith('mcp__everything__')).length, 'the service lists tools without the bridges');
    assert.deepEqual(tools.connected, ['everything', 'memory'], '`mcp server connected` for each');

    const executed = stepOf(host, 'execute');
    assert.equal(executed.content, 'Echo: hi from kestrel');
    assert.equal(executed.isError, false);
    assert.equal(executed.serviceIsError, false);

    // SIGKILL in the middle of a call: a result for the model, the typed error for the host, then back by itself.
    const killed = stepOf(host, 'killed');
    assert.equal(killed.isError, true);
    assert.match(killed.content, /everything/);
    assert.deepEqual(killed.error, { name: 'ClosedError', code: 'closed' });
    assert.equal(killed.back, 'ready');
    assert.equal(killed.newPid, true);
    assert.equal(killed.disconnected, true, '`mcp server disconnected` logged');
    assert.equal(killed.changes.length, 2, `withdrawn, then published again: ${JSON.stringify(killed.changes)}`);
    assert.ok(killed.changes[0].removed > 0 && killed.changes[0].added === 0, JSON.stringify(killed.changes[0]));
    assert.equal(killed.changes[1].added, killed.changes[0].removed);
    assert.deepEqual(killed.keptToolAgain, { isError: false, content: 'Echo: back again' }, 'a KestrelTool the host kept works again');

    const disabled = stepOf(host, 'disable');
    assert.equal(disabled.state, 'disabled');
    assert.equal(disabled.offered, 0);
    assert.deepEqual(disabled.servers, ['everything']);
    assert.ok(disabled.removed > 0);
    assert.equal(disabled.keptTool.isError, true);
    assert.equal(disabled.keptTool.error, 'ClosedError');
    const enabled = stepOf(host, 'enable');
    assert.equal(enabled.state, 'ready', 'enable() resolves once it is ready');
    assert.equal(enabled.offered, disabled.removed);
    assert.equal(enabled.added, disabled.removed);
    assert.equal(enabled.isError, false);

    const restarted = stepOf(host, 'restart');
    assert.equal(restarted.newPid, true);
    assert.equal(restarted.state, 'ready');
    assert.equal(restarted.content, 'Echo: after restart');

    const status = stepOf(host, 'status');
    const everything = status.servers.find((s: Step) => s.key === 'everything');
    assert.equal(everything.state, 'ready');
    assert.equal(everything.restarts, 1, 'the crash, not the host restart');
    assert.ok(everything.errors >= 1, 'the killed call');

    const events = stepOf(host, 'events');
    assert.deepEqual(events.states.everything.slice(0, 3), ['restarting', 'starting', 'ready']);
    assert.ok(events.states.memory.includes('disabled'));

    const closed = stepOf(host, 'close');
    assert.deepEqual(closed.closeEvents, { during: 0, after: 0 }, 'no event once close() is called');
    assert.ok(closed.pids.length >= 4, `every server process the host saw (${closed.pids})`);
    assert.deepEqual(closed.alive, [], 'no server process outlives close()');
    assert.ok(closed.states.every((s: string) => s === 'closed'));
  });
});
