// Small helpers shared by the tests that talk to real servers: one started
// over stdio and connected, server-everything started over HTTP, a free port
// on 127.0.0.1 for a server to take, and the text of a tool result.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { McpClient, StdioTransport, type CallToolResult, type McpClientOptions } from '../../src/index.js';
import { isAlive, killIfAlive } from './fault-harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EVERYTHING = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

/** The entry script of the real server-everything (a devDependency). */
export function everythingServerPath(): string {
  return EVERYTHING;
}
const BIND_LOOPBACK = fileURLToPath(new URL('../fixtures/bind-loopback.mjs', import.meta.url));
const READY_MS = 20_000;

/**
 * Spawns a real server over stdio (argv, in the project root) and connects.
 * The returned `close` closes the client and asserts the child is gone;
 * t.after kills it whatever happens.
 */
export async function connectRealServer(t: TestContext, argv: string[], server: string, options: McpClientOptions = {}): Promise<{ client: McpClient; transport: StdioTransport; close: () => Promise<void> }> {
  const transport = new StdioTransport({ command: argv, cwd: ROOT, server });
  const client = new McpClient(transport, options);
  t.after(async () => {
    // Normally already closed. After a failure, give close() a moment, then SIGKILL whatever is left.
    await Promise.race([client.close().catch(() => {}), delay(1_000, undefined, { ref: false })]);
    const pid = transport.pid;
    if (pid !== undefined) killIfAlive(pid);
  });
  await client.connect();
  const pid = transport.pid!;
  return {
    client,
    transport,
    close: async () => {
      await client.close();
      assert.equal(client.state, 'closed');
      assert.ok(!isAlive(pid), `the server process ${pid} is gone after close()`);
    },
  };
}

/**
 * Ports that a test keeps across a restart of its server (everything-restartable.ts): free for a
 * moment between the kill and the new start, when the OS may hand them to another test file's
 * freePort(). A file per port in a folder every test process shares; freePort() skips them.
 */
export const RESERVED_PORTS = path.join(os.tmpdir(), 'mcpwire-reserved-ports');

/** A port on 127.0.0.1 that nothing listens on (taken from the OS, then released for a child or a refusal test). */
export async function freePort(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    if (attempt >= 20 || !existsSync(path.join(RESERVED_PORTS, String(port)))) return port;
  }
}

/** The first content block of a tool result, which must be text. */
export function text(result: CallToolResult): string {
  const first = result.content[0];
  assert.equal(first?.type, 'text');
  return String(first.text);
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts the real server-everything over HTTP in `mode`, forced onto
 * 127.0.0.1 (fixtures/bind-loopback.mjs) on a port the OS handed out, and
 * waits for its "listening"/"running" line; killed (SIGKILL) after the test.
 */
export async function startEverythingHttp(t: TestContext, mode: 'streamableHttp' | 'sse'): Promise<{ port: number; child: ChildProcess; stdout: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', BIND_LOOPBACK, EVERYTHING, mode], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The streamableHttp server logs each request it handles on stdout; kept to check what reached it.
  let stdout = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => (stdout += chunk));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited(child);
  });
  await untilListening(child, mode);
  return { port, child, stdout: () => stdout };
}

/** Resolves once server-everything (spawned with stderr piped) says it listens; rejects if it exits first or takes past READY_MS. */
export function untilListening(child: ChildProcess, mode: string): Promise<void> {
  let stderr = '';
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} not ready within ${READY_MS} ms; stderr:\n${stderr}`)), READY_MS);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      if (/listening|running/i.test(stderr)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server-everything ${mode} exited (${code ?? signal}) before it was ready; stderr:\n${stderr}`));
    });
  });
}
