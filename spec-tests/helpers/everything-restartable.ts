// server-everything over HTTP on a port that stays the same across restarts:
// the tests of #16 items 6 and 7 kill it (SIGKILL: a crash, not a shutdown)
// and start it again where the client is still pointed. Forced onto
// 127.0.0.1 (fixtures/bind-loopback.mjs); every instance is killed after the test.

import { spawn, type ChildProcess } from 'node:child_process';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { everythingServerPath, freePort, RESERVED_PORTS, untilListening } from './interop.js';

const BIND_LOOPBACK = fileURLToPath(new URL('../fixtures/bind-loopback.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RestartableEverything {
  port: number;
  /** The running instance's stdout so far (the streamableHttp server logs each request). */
  stdout(): string;
  /** SIGKILLs the running instance and waits for its exit. */
  kill(): Promise<void>;
  /** Starts a new instance on the same port and waits until it listens. */
  start(): Promise<void>;
}

export async function restartableEverything(t: TestContext, mode: 'streamableHttp' | 'sse'): Promise<RestartableEverything> {
  const port = await freePort();
  // Held for the test's life: between a kill and the next start the port is free, and no other test may take it.
  const reservation = path.join(RESERVED_PORTS, String(port));
  mkdirSync(RESERVED_PORTS, { recursive: true });
  writeFileSync(reservation, String(process.pid));
  t.after(() => rmSync(reservation, { force: true }));
  let child: ChildProcess | undefined;
  let out = '';
  const all = new Set<ChildProcess>();
  t.after(async () => {
    for (const c of all) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await Promise.all([...all].map(exited));
  });
  const server: RestartableEverything = {
    port,
    stdout: () => out,
    async kill() {
      if (!child) return;
      child.kill('SIGKILL');
      await exited(child);
      child = undefined;
    },
    async start() {
      out = '';
      const c = spawn(process.execPath, ['--import', BIND_LOOPBACK, everythingServerPath(), mode], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
      all.add(c);
      child = c;
      c.stdout!.setEncoding('utf8');
      c.stdout!.on('data', (chunk: string) => (out += chunk));
      await untilListening(c, mode);
    },
  };
  await server.start();
  return server;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}
