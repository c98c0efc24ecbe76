// Test support for `mcpwire serve` (G1): kaged projects naming real upstream
// servers (server-everything, server-memory, the tool-source fixture, the
// slow G1 fixture), the argv of the compiled CLI's serve, and a serve over
// Streamable HTTP started as a child on 127.0.0.1 with its URL read from its
// --json line. Everything started here is stopped after the test.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { McpClient, StdioTransport, type ProtocolEra } from '../../src/index.js';
import { BIN, ROOT } from './cli.js';
import { killIfAlive } from './fault-harness.js';
import { everythingServerPath } from './interop.js';
import { tempDir } from './temp.js';
import { TOOLSOURCE_FIXTURE } from './toolsource.js';

export const MEMORY_SERVER = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-memory/dist/index.js', import.meta.url));
export const SLOW_UPSTREAM = fileURLToPath(new URL('../fixtures/G1-slow-upstream.mjs', import.meta.url));

interface Cleanup {
  after(fn: () => unknown): void;
}

/** One upstream server of a project: its key and the YAML lines under it (indented 4). */
export interface Upstream {
  key: string;
  lines: string[];
}

export function everythingUpstream(key = 'everything', extra: string[] = []): Upstream {
  return { key, lines: ['transport: stdio', `command: ${JSON.stringify([process.execPath, everythingServerPath(), 'stdio'])}`, ...extra] };
}

export function memoryUpstream(t: Cleanup, key = 'memory'): Upstream {
  const file = path.join(tempDir(t, 'g1-memory'), 'memory.jsonl');
  return { key, lines: ['transport: stdio', `command: ${JSON.stringify([process.execPath, MEMORY_SERVER])}`, 'env:', `  MEMORY_FILE_PATH: ${JSON.stringify(file)}`] };
}

export function fixtureUpstream(key: string, env: Record<string, string> = {}): Upstream {
  const entries = Object.entries(env).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`);
  return { key, lines: ['transport: stdio', `command: ${JSON.stringify([process.execPath, TOOLSOURCE_FIXTURE])}`, ...(entries.length > 0 ? ['env:', ...entries] : [])] };
}

export function slowUpstream(key: string, log: string): Upstream {
  return { key, lines: ['transport: stdio', `command: ${JSON.stringify([process.execPath, SLOW_UPSTREAM])}`, 'env:', `  G1_LOG: ${JSON.stringify(log)}`] };
}

/** Writes kaged.yaml (the `mcp:` block, then `tail` as it is) in a temporary folder; returns its path. */
export function writeProject(t: Cleanup, upstreams: Upstream[], tail = ''): string {
  const dir = tempDir(t, 'g1');
  const body = upstreams.map((u) => `  ${u.key}:\n${u.lines.map((l) => `    ${l}\n`).join('')}`).join('');
  const file = path.join(dir, 'kaged.yaml');
  writeFileSync(file, `mcp:\n${body}${tail}`);
  return file;
}

/** The argv of `mcpwire serve ARGS` (the compiled CLI). */
export function serveArgv(args: string[]): string[] {
  return [process.execPath, BIN, 'serve', ...args];
}

/** mcpwire's own client connected to `mcpwire serve ARGS` over stdio, in `era` (and `env` for serve, over the host's); closed, and serve gone, after the test. */
export async function mcpwireThroughServe(t: Cleanup, args: string[], era: ProtocolEra, env?: Record<string, string>): Promise<McpClient> {
  const transport = new StdioTransport({ command: serveArgv(args), cwd: ROOT, server: 'serve', ...(env ? { env } : {}) });
  // 'auto' probes with server/discover, and the probe's 1 s includes serve's own start: on a loaded machine that
  // is more, the probe goes unanswered in time and the client (rightly) falls back to legacy. These tests are about
  // what serve answers, not how fast it starts.
  const client = new McpClient(transport, { protocolEra: era, ...(era === 'auto' ? { probeTimeoutMs: 30_000 } : {}) });
  t.after(async () => {
    const pid = transport.pid;
    await client.close().catch(() => {});
    if (pid !== undefined) killIfAlive(pid);
  });
  await client.connect();
  return client;
}

/** The lines of a fixture's event log (none before the file exists). */
export function logLines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

export interface ServedHttp {
  /** http://127.0.0.1:PORT/mcp */
  url: string;
  /** What --json printed: url, agents, token (a generated one). */
  printed: { url: string; agents: string[]; token?: string };
  child: ChildProcess;
  stderr: () => string;
  /** SIGTERM, then wait for the exit; idempotent. */
  stop: () => Promise<void>;
}

/** `mcpwire serve ARGS --listen 127.0.0.1:0 --json` (unless ARGS has its own --listen), once it listens. */
export async function startServeHttp(t: Cleanup, args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServedHttp> {
  const argv = serveArgv([...args, ...(args.includes('--listen') ? [] : ['--listen', '127.0.0.1:0']), '--json']);
  const child = spawn(argv[0]!, argv.slice(1), { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  t.after(stop);
  const lines = createInterface({ input: child.stdout! });
  const printed = await new Promise<ServedHttp['printed']>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mcpwire serve did not print its URL within 20 s; stderr: ${stderr}`)), 20_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as ServedHttp['printed']);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mcpwire serve exited (${code}) before listening; stderr: ${stderr}`));
    });
  });
  return { url: printed.url, printed, child, stderr: () => stderr, stop };
}
