// A launcher for the scripted fixture server (spec-tests/fixtures/scripted-server.mjs)
// as a real child process, killed after the test, and a reader of what it received.

import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { McpClient, type McpClientOptions } from '../../src/client/client.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import { StdioTransport } from '../../src/transport/stdio.js';
import { killIfAlive } from './fault-harness.js';

export const SCRIPTED_SERVER = fileURLToPath(new URL('../fixtures/scripted-server.mjs', import.meta.url));

/**
 * Starts spec-tests/fixtures/scripted-server.mjs as a real child process and
 * connects an McpClient to it. The client is closed, and the process killed
 * if it is still there, when the test ends.
 */
export async function startScriptedServer(
  t: TestContext,
  flags: string[] = [],
  options: McpClientOptions & { env?: Record<string, string>; connect?: boolean } = {},
) {
  const diagnostics: Diagnostic[] = [];
  const transport = new StdioTransport({
    command: [process.execPath, SCRIPTED_SERVER, ...flags],
    server: 'scripted',
    env: options.env,
    shutdownStepMs: 500,
  });
  const client = new McpClient(transport, {
    ...options,
    onDiagnostic: (d) => {
      diagnostics.push(d);
      options.onDiagnostic?.(d);
    },
  });
  t.after(async () => {
    await client.close().catch(() => {});
    const pid = transport.pid;
    if (pid !== undefined) killIfAlive(pid);
  });
  if (options.connect !== false) await client.connect();
  return { client, transport, diagnostics };
}

/** Raw lines the scripted server received, via its `received` tool. */
export async function receivedLines(client: McpClient): Promise<string[]> {
  const result = await client.callTool('received');
  return (result.structuredContent as { lines: string[] }).lines;
}
