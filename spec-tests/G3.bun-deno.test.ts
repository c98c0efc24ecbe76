// G3 (issue #21 item 3): the library on Bun and on Deno. Each runtime runs
// spec-tests/runtime-smoke/smoke.mjs, which imports the compiled
// dist/index.js as a consumer on that runtime would, against real servers
// this test starts on 127.0.0.1: server-everything over Streamable HTTP and
// over the legacy HTTP+SSE transport (list, call), server-everything over
// stdio (the runtime's child_process), and the tool source of the kaged
// example project (examples/kaged-host: three stdio servers, an agent's
// view, a call by alias). The request path is checked too: on both runtimes
// the default goes through the runtime's own fetch, and a `fetch` passed in
// carries every request. A runtime whose binary is missing is skipped,
// saying so (the bun and deno devDependencies ship them).

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { everythingServerPath, startEverythingHttp } from './helpers/interop.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SMOKE = path.join(ROOT, 'spec-tests', 'runtime-smoke', 'smoke.mjs');
const KAGED = path.join(ROOT, 'examples', 'kaged-host', 'kaged.yaml');
/** The whole run of one runtime: six checks, a few server starts. */
const RUN_MS = 180_000;
/** How long a runtime is given to exit by itself once every check has reported (everything is closed by then). */
const EXIT_GRACE_MS = 10_000;

const CHECKS = ['streamable-http', 'streamable-http-fetch-option', 'sse', 'sse-sessions', 'stdio', 'kaged'] as const;
type CheckName = (typeof CHECKS)[number];

/** One line smoke.mjs prints per check. */
interface CheckLine {
  check: CheckName;
  ok: boolean;
  runtime: string;
  error?: string;
  tools?: number;
  hasEcho?: boolean;
  echoed?: string;
  globalFetches?: number;
  ownFetches?: number;
  aliases?: string[];
  rounds?: number;
  servers?: string[];
}

interface Runtime {
  name: 'bun' | 'deno';
  bin: string;
  args: (input: string) => string[];
  env?: () => Record<string, string>;
  /** Set when the runtime is known not to exit by itself: the reason, shown as the exit check's todo. */
  lingers?: string;
}

// Deno: the repository's node_modules as they are (no download: --cached-only, --no-remote), only loopback
// network, reading files (dist, configs), the environment (${VAR} in configs, MCPWIRE_*), starting stdio servers,
// and the home folder's path (the kaged loader looks for the user's kaged folder under it).
const DENO_FLAGS = ['--node-modules-dir=manual', '--cached-only', '--no-remote', '--no-prompt', '--allow-net=127.0.0.1', '--allow-read', '--allow-env', '--allow-run', '--allow-sys=homedir'];

let denoDir: string | undefined;
const RUNTIMES: Runtime[] = [
  { name: 'bun', bin: path.join(ROOT, 'node_modules', '.bin', 'bun'), args: (input) => [SMOKE, input] },
  {
    name: 'deno',
    bin: path.join(ROOT, 'node_modules', '.bin', 'deno'),
    args: (input) => ['run', ...DENO_FLAGS, SMOKE, input],
    // Its caches in a folder of this test's, removed after it: nothing written to the user's ~/.cache/deno.
    env: () => ({ DENO_DIR: (denoDir ??= mkdtempSync(path.join(os.tmpdir(), 'g3-deno-'))), DENO_NO_UPDATE_CHECK: '1' }),
    lingers:
      'Deno 2.9.6: after close(), a legacy SSE GET stream that went out on a keep-alive connection earlier sessions\' POSTs used now and then stays connected although its fetch was aborted (its pending read never settles, the socket stays open) and keeps the process alive; five sessions alone show it every time. Cancelling the body reader on abort did not end it either. Node and Bun close it (README, Runtimes)',
  },
];

/** Why `runtime` cannot run here, or undefined when its binary answers --version. */
function missing(runtime: Runtime): string | undefined {
  if (!existsSync(runtime.bin)) return `${runtime.name} binary not found: ${runtime.bin} (npm ci installs the ${runtime.name} devDependency)`;
  const probe = spawnSync(runtime.bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.status !== 0) return `${runtime.name} binary does not run: ${runtime.bin} --version ${probe.error ? `failed: ${probe.error.message}` : `exited ${probe.status ?? probe.signal}: ${probe.stderr.trim()}`}`;
  return undefined;
}

interface SmokeRun {
  lines: Map<CheckName, CheckLine>;
  stderr: string;
  /** Exited by itself within EXIT_GRACE_MS of the last check (else it was killed). */
  exitedByItself: boolean;
  code: number | null;
}

/** Runs smoke.mjs on `runtime` with `input` (its `only` checks, else all); always ends the child before resolving. */
function runSmoke(runtime: Runtime, input: Record<string, unknown> & { only?: CheckName[] }): Promise<SmokeRun> {
  const expected = input.only?.length ?? CHECKS.length;
  return new Promise((resolve, reject) => {
    const child = spawn(runtime.bin, runtime.args(JSON.stringify(input)), { cwd: ROOT, env: { ...process.env, ...runtime.env?.() }, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines = new Map<CheckName, CheckLine>();
    let stdout = '';
    let stderr = '';
    let grace: NodeJS.Timeout | undefined;
    let killed = false;
    const kill = () => {
      killed = true;
      child.kill('SIGKILL');
    };
    const overall = setTimeout(kill, RUN_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      let end: number;
      while ((end = stdout.indexOf('\n')) !== -1) {
        const text = stdout.slice(0, end).trim();
        stdout = stdout.slice(end + 1);
        if (!text.startsWith('{')) continue;
        const line = JSON.parse(text) as CheckLine;
        lines.set(line.check, line);
      }
      if (lines.size === expected && grace === undefined) grace = setTimeout(kill, EXIT_GRACE_MS);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => {
      clearTimeout(overall);
      clearTimeout(grace);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(overall);
      clearTimeout(grace);
      resolve({ lines, stderr, exitedByItself: !killed, code });
    });
  });
}

/** The line of `check`, which must have passed. */
function passed(run: SmokeRun, check: CheckName): CheckLine {
  const line = run.lines.get(check);
  assert.ok(line, `${check} never reported; the runtime's stderr:\n${run.stderr}`);
  assert.equal(line.error, undefined, `${check} failed on ${line.runtime}`);
  assert.equal(line.ok, true);
  return line;
}

/** A connection check: 13 tools with echo among them, and echo's answer. */
function listedAndCalled(line: CheckLine, message: string): void {
  assert.equal(line.hasEcho, true, 'tools/list had echo');
  assert.ok((line.tools ?? 0) >= 10, `server-everything lists its tools (${line.tools})`);
  assert.equal(line.echoed, `Echo: ${message}`);
}

test('G3: the library on Bun and Deno against servers on 127.0.0.1: Streamable HTTP, legacy SSE, stdio, a kaged project\'s tool source', { timeout: 2 * RUN_MS + 60_000 }, async (t: TestContext) => {
  t.after(() => {
    if (denoDir !== undefined) rmSync(denoDir, { recursive: true, force: true });
  });
  const ready = RUNTIMES.map((runtime) => ({ runtime, skip: missing(runtime) }));
  // The servers only when some runtime will use them.
  const servers = ready.some((r) => r.skip === undefined) ? await Promise.all([startEverythingHttp(t, 'streamableHttp'), startEverythingHttp(t, 'sse')]) : undefined;
  for (const { runtime, skip } of ready) {
    await t.test(runtime.name, { skip: skip ?? false }, async (t) => {
      const [streamable, sse] = servers!;
      const run = await runSmoke(runtime, {
        streamableUrl: `http://127.0.0.1:${streamable.port}/mcp`,
        sseUrl: `http://127.0.0.1:${sse.port}/sse`,
        node: process.execPath,
        everything: everythingServerPath(),
        kaged: KAGED,
      });
      const version = [...run.lines.values()][0]?.runtime;
      if (version !== undefined) t.diagnostic(version);

      await t.test('Streamable HTTP: tools/list and tools/call; the default request path is the runtime\'s fetch', () => {
        const line = passed(run, 'streamable-http');
        listedAndCalled(line, `streamable on ${line.runtime}`);
        assert.ok((line.globalFetches ?? 0) > 0, 'the requests went through the runtime\'s global fetch');
      });
      await t.test('Streamable HTTP with a `fetch` passed in: it carries every request, the global one none', () => {
        const line = passed(run, 'streamable-http-fetch-option');
        listedAndCalled(line, 'through the fetch option');
        assert.ok((line.ownFetches ?? 0) > 0, 'the given fetch was used');
        assert.equal(line.globalFetches, 0, 'nothing went around it');
      });
      await t.test('legacy HTTP+SSE: tools/list and tools/call', () => {
        const line = passed(run, 'sse');
        listedAndCalled(line, `legacy SSE on ${line.runtime}`);
        assert.ok((line.globalFetches ?? 0) > 0, 'the requests went through the runtime\'s global fetch');
      });
      await t.test('legacy HTTP+SSE: five sessions one after another, each closed (their streams reuse keep-alive connections)', () => {
        assert.equal(passed(run, 'sse-sessions').rounds, 5);
      });
      await t.test('stdio: server-everything as a child process of the runtime', () => {
        const line = passed(run, 'stdio');
        listedAndCalled(line, `stdio on ${line.runtime}`);
      });
      await t.test('the kaged example project: the primary agent\'s tools by alias, a call through its view', () => {
        const line = passed(run, 'kaged');
        for (const alias of ['mcp_everything_echo', 'mcp_files_read_text_file', 'mcp_memory_read_graph']) assert.ok(line.aliases?.includes(alias), `${alias} in ${line.aliases?.join(', ')}`);
        assert.ok(!line.aliases?.includes('mcp_everything_get-sum'), 'a tool the agent was not given is not offered');
        assert.equal(line.echoed, `Echo: kaged on ${line.runtime}`);
        assert.deepEqual(line.servers, ['everything:ready', 'files:ready', 'memory:ready', 'docs:disabled']);
      });
      await t.test('the runtime exits by itself once every client and the tool source are closed', { todo: runtime.lingers ?? false }, () => {
        assert.ok(run.exitedByItself, `still running ${EXIT_GRACE_MS} ms after the last check (killed); stderr:\n${run.stderr}`);
        assert.equal(run.code, 0, run.stderr);
      });
      // Alone, the five sessions are the pattern that leaves a stream open on Deno 2.9.6 every time (#21 item 3: the
      // process never exits); after the other checks the pooled connections line up otherwise and it seldom shows.
      await t.test('five legacy SSE sessions alone, each closed: the runtime exits by itself', { todo: runtime.lingers ?? false }, async () => {
        const alone = await runSmoke(runtime, { sseUrl: `http://127.0.0.1:${sse.port}/sse`, only: ['sse-sessions'] });
        assert.equal(passed(alone, 'sse-sessions').rounds, 5);
        assert.ok(alone.exitedByItself, `still running ${EXIT_GRACE_MS} ms after the sessions were closed (killed); stderr:\n${alone.stderr}`);
        assert.equal(alone.code, 0, alone.stderr);
      });
    });
  }
});
