// Real modern peers for #17: the official SDK v2 server (fixtures/v2-server.mjs)
// over stdio (a command line to hand a client) and over Streamable HTTP (a
// running child and its URL). Everything started here is stopped after the
// test, whatever happened in it.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** 'modern': 2026-07-28 only (a 2025 initialize is answered -32022). 'dual': 2026-07-28 and the 2025 revisions. */
export type V2Era = 'modern' | 'dual';
export type V2Transport = 'stdio' | 'http';

export const V2_ERAS: readonly V2Era[] = ['modern', 'dual'];
export const V2_SERVER = fileURLToPath(new URL('../fixtures/v2-server.mjs', import.meta.url));
/** Where the fixture runs (its imports resolve from the project's node_modules). */
export const V2_CWD = fileURLToPath(new URL('../..', import.meta.url));
/** The protocol versions the tests expect to see agreed on. */
export const MODERN_VERSION = '2026-07-28';
export const LEGACY_VERSION = '2025-11-25';

const READY_MS = 15_000;

/** Where cleanups go: a test's context, or a suite's list (suiteCleanup). Run in the order they were added. */
export interface Cleanup {
  after(fn: () => unknown): void;
}

/** Cleanups for a describe() that connects once in before(): call run() from its after(). Never throws. */
export function suiteCleanup(): Cleanup & { run: () => Promise<void> } {
  const fns: Array<() => unknown> = [];
  return {
    after: (fn) => void fns.push(fn),
    run: async () => {
      for (const fn of fns.splice(0)) await Promise.resolve().then(fn).catch(() => {});
    },
  };
}

/** The argv of the stdio server in `era`: for a client that spawns it itself. */
export function v2StdioCommand(era: V2Era): string[] {
  return [process.execPath, V2_SERVER, '--transport', 'stdio', '--era', era];
}

export interface V2HttpPeer {
  /** The MCP endpoint, http://127.0.0.1:<port>/mcp. */
  url: string;
  child: ChildProcess;
  /** What the server wrote on stderr so far (its rejections are reported there). */
  stderr: () => string;
  /** SIGTERM, then wait for the exit; idempotent. The test's cleanup calls it too. */
  stop: () => Promise<void>;
}

/** Starts the HTTP server in `era` on 127.0.0.1 (port from the OS), `env` added to its environment, and waits for its URL line. */
export async function startV2Http(t: Cleanup, era: V2Era, env: Record<string, string> = {}): Promise<V2HttpPeer> {
  const child = spawn(process.execPath, [V2_SERVER, '--transport', 'http', '--era', era], { cwd: V2_CWD, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = exited(child);
      child.kill('SIGTERM');
      // A server that ignores SIGTERM would hang the suite: a second later it is killed.
      const timer = setTimeout(() => child.kill('SIGKILL'), 1_000);
      await gone;
      clearTimeout(timer);
    }
  };
  t.after(stop);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the v2 ${era} HTTP server printed no URL within ${READY_MS} ms; stderr:\n${stderr}`)), READY_MS);
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      lines.close();
      try {
        resolve(String((JSON.parse(line) as { url: unknown }).url));
      } catch {
        reject(new Error(`the v2 ${era} HTTP server's first line is not {"url": …}: ${line}`));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the v2 ${era} HTTP server exited (${code ?? signal}) before it was ready; stderr:\n${stderr}`));
    });
  });
  return { url, child, stderr: () => stderr, stop };
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** The text of a tool result's first content block, which must be text (either client's result shape). */
export function firstText(result: { content?: unknown }): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  assert.equal(content[0]?.type, 'text');
  return String(content[0]!.text);
}

/**
 * What the fixture's ask tool answers, whichever client asked: over 2025 stateless HTTP the server
 * cannot send a request to the client, so the tool fails in band; elsewhere the elicitation handler
 * was asked once (modern: an input_required round retried with requestState echoed; legacy stdio:
 * the SDK server's shim sends elicitation/create and re-enters the handler with the state itself).
 */
export function assertAskAnswered(answer: { content?: unknown; isError?: unknown }, asked: readonly string[], transport: V2Transport, version: string): void {
  if (transport === 'http' && version === LEGACY_VERSION) {
    assert.equal(answer.isError, true);
    assert.match(firstText(answer), /per-request legacy serving cannot receive server-to-client requests/);
    assert.deepEqual(asked, []);
  } else {
    assert.equal(firstText(answer), 'answer=42 state=ask-round-1');
    assert.deepEqual(asked, ['What is the answer?']);
  }
}
