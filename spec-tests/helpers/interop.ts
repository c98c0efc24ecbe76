// Small helpers shared by the tests that talk to real servers: a free port
// on 127.0.0.1 for a server to take, and the text of a tool result.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { CallToolResult } from '../../src/index.js';

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
