// Shared by the process-level spec tests (T1, L2, W2, W3, faults): starts
// spec-tests/fixtures/fault-server.mjs as a real child process, connects a
// McpClient to it, and makes sure no child outlives its test file.

import { after, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { McpClient, StdioTransport, type McpClientOptions, type StdioTransportOptions } from '../../src/index.js';
import { isAlive } from '../../src/util/process-alive.js';

export { isAlive };

export const FIXTURE = fileURLToPath(new URL('../fixtures/fault-server.mjs', import.meta.url));
export const startedPids = new Set<number>();


/** Polls until the process is gone (exited and reaped); false if it is still there after `ms`. */
export async function waitGone(pid: number, ms = 3_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await delay(20);
  }
  return true;
}

export interface Started {
  client: McpClient;
  transport: StdioTransport;
  pid: number;
}

/** Spawns the fault fixture (or `command`) and connects; the child is killed after the test whatever happens. */
export async function start(
  t: TestContext,
  transportOptions: Partial<StdioTransportOptions> & { mode?: string },
  clientOptions: McpClientOptions = {},
): Promise<Started> {
  const { mode = 'ok', ...rest } = transportOptions;
  const transport = new StdioTransport({ command: [process.execPath, FIXTURE, mode], server: `fault-${mode}`, ...rest });
  const client = new McpClient(transport, clientOptions);
  t.after(async () => {
    // Normally already closed. After a failure, give close() a moment, then SIGKILL whatever is left.
    await Promise.race([client.close().catch(() => {}), delay(1_000, undefined, { ref: false })]);
    const pid = transport.pid;
    if (pid === undefined) return;
    startedPids.add(pid);
    killIfAlive(pid);
  });
  await client.connect();
  const pid = transport.pid;
  assert.ok(pid !== undefined, 'the transport reports the child pid');
  startedPids.add(pid);
  return { client, transport, pid };
}

after(() => {
  for (const pid of startedPids) killIfAlive(pid);
});

/**
 * SIGKILL to a child that may be gone: it can exit between the check and the
 * kill (CI saw the after hook fail on 'kill ESRCH'), which is what was wanted.
 */
export function killIfAlive(pid: number): void {
  if (!isAlive(pid)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** The non-empty lines of a log written so far; none while it does not exist yet. */
export function logLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');
  } catch {
    return [];
  }
}
