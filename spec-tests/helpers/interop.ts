// Small helpers shared by the tests that talk to real servers: one started
// over stdio and connected, a free port on 127.0.0.1 for a server to take,
// and the text of a tool result.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { TestContext } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { McpClient, StdioTransport, type CallToolResult, type McpClientOptions } from '../../src/index.js';
import { isAlive } from './fault-harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

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
    if (pid !== undefined && isAlive(pid)) process.kill(pid, 'SIGKILL');
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

/** A port on 127.0.0.1 that nothing listens on (taken from the OS, then released for a child or a refusal test). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The first content block of a tool result, which must be text. */
export function text(result: CallToolResult): string {
  const first = result.content[0];
  assert.equal(first?.type, 'text');
  return String(first.text);
}
