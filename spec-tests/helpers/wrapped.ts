// Servers started through spec-tests/fixtures/wrapper.sh, a launcher that
// does not forward signals (as npx, uvx and start scripts often do not): the
// fault server runs as a grandchild of the client. Both pids are read from
// the wrapper's stderr line, and both are SIGKILLed after the test if
// anything is left, so a failing test does not leak processes into the next.

import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import type { McpClientOptions, StdioTransport, StdioTransportOptions } from '../../src/index.js';
import { FIXTURE, killIfAlive, start, startedPids, type Started } from './fault-harness.js';

export const WRAPPER = fileURLToPath(new URL('../fixtures/wrapper.sh', import.meta.url));

/** The argv that starts the fault server in `mode` under the wrapper. */
export function wrappedCommand(mode: string): string[] {
  return ['sh', WRAPPER, process.execPath, FIXTURE, mode];
}

export interface WrapperPids {
  wrapper: number;
  server: number;
}

/** Parses `wrapper-pids W S` out of text (the wrapper's stderr, or its WRAPPER_PIDS file). */
export function parseWrapperPids(text: string): WrapperPids | undefined {
  const match = /wrapper-pids (\d+) (\d+)/.exec(text);
  return match ? { wrapper: Number(match[1]), server: Number(match[2]) } : undefined;
}

/** The pids the wrapper reported on stderr (it writes them before the server can answer anything). */
export async function wrapperPids(transport: StdioTransport, ms = 2_000): Promise<WrapperPids> {
  const deadline = Date.now() + ms;
  for (;;) {
    const pids = parseWrapperPids(transport.stderrTail());
    if (pids) return pids;
    if (Date.now() > deadline) throw new Error(`the wrapper reported no pids; stderr: ${transport.stderrTail()}`);
    await delay(10);
  }
}

/** Kills the fault server after the test if it is still there. */
export function killAfter(t: TestContext, pid: number): void {
  startedPids.add(pid);
  t.after(() => {
    killIfAlive(pid);
  });
}

/** Starts the fault server in `mode` under the wrapper and connects; returns both pids too. */
export async function startWrapped(
  t: TestContext,
  mode: string,
  options: Partial<StdioTransportOptions> = {},
  clientOptions: McpClientOptions = {},
): Promise<Started & { pids: WrapperPids }> {
  const started = await start(t, { command: wrappedCommand(mode), server: `wrapped-${mode}`, ...options }, clientOptions);
  const pids = await wrapperPids(started.transport);
  killAfter(t, pids.server);
  return { ...started, pids };
}
