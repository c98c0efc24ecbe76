// Interop over HTTP with a real server nobody here wrote: the MCP reference
// "everything" server (@modelcontextprotocol/server-everything, built on the
// official SDK), once over Streamable HTTP (T3) and once over the legacy
// HTTP+SSE transport (T2): tools/list, echo, a long-running tool with three
// progress updates, close. The server runs as a child process forced onto
// 127.0.0.1 (fixtures/bind-loopback.mjs) on a port the OS handed out, and is
// killed after each test.

import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { describe, test, type TestContext } from 'node:test';
import { connect, McpClient, SseTransport, StreamableHttpTransport, type Diagnostic, type ProgressUpdate, type Transport } from '../src/index.js';
import { until } from '../src/testing/http-fixture.js';
import { startEverythingHttp as startEverything, text } from './helpers/interop.js';



async function exercise(t: TestContext, transport: Transport, child: ChildProcess): Promise<void> {
  const client = new McpClient(transport, { timeoutMs: 15_000 });
  t.after(() => client.close().catch(() => {}));
  const info = await client.connect();
  assert.equal(info.protocolVersion, '2025-11-25');
  assert.equal(info.serverInfo.name, 'mcp-servers/everything');

  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  for (const name of ['echo', 'get-sum', 'trigger-long-running-operation']) assert.ok(names.includes(name), `tools/list has ${name} (got ${names.join(', ')})`);

  assert.equal(text(await client.callTool('echo', { message: 'over http ✓' })), 'Echo: over http ✓');

  const updates: ProgressUpdate[] = [];
  const result = await client.callTool('trigger-long-running-operation', { duration: 0.6, steps: 3 }, { onProgress: (u) => updates.push(u) });
  assert.match(text(result), /Long running operation completed\. Duration: 0\.6 seconds, Steps: 3\./);
  assert.deepEqual(updates, [
    { progress: 1, total: 3 },
    { progress: 2, total: 3 },
    { progress: 3, total: 3 },
  ]);

  await client.close();
  assert.equal(client.state, 'closed');
  assert.equal(child.exitCode, null, 'the server outlives the client: it is a separate process, stopped by the test');
}

describe('interop: server-everything over HTTP', { timeout: 60_000 }, () => {
  test('T3 interop: Streamable HTTP: tools/list, echo, progress ×3, close (DELETE)', async (t) => {
    const { port, child, stdout } = await startEverything(t, 'streamableHttp');
    await exercise(t, new StreamableHttpTransport({ url: `http://127.0.0.1:${port}/mcp`, server: 'everything-http' }), child);
    // What the server saw: the listening GET stream, and the DELETE that ended the session (its log lines).
    await until(() => /Received session termination request/.test(stdout()), 'the server to log the DELETE');
    assert.match(stdout(), /Establishing new SSE stream for session/);
  });

  test('T2 interop: legacy HTTP+SSE: tools/list, echo, progress ×3, close', async (t) => {
    const { port, child } = await startEverything(t, 'sse');
    await exercise(t, new SseTransport({ url: `http://127.0.0.1:${port}/sse`, server: 'everything-sse' }), child);
  });

  test('T2/T3 interop: a URL with no transport given (fallbackToSse) reaches the legacy SSE server after it refuses the initialize POST', async (t) => {
    const { port } = await startEverything(t, 'sse');
    const diagnostics: Diagnostic[] = [];
    const url = `http://127.0.0.1:${port}/sse`;
    const client = await connect({ transport: 'streamable-http', fallbackToSse: true, url, server: 'everything-auto' }, { timeoutMs: 15_000, onDiagnostic: (d) => diagnostics.push(d) });
    t.after(() => client.close().catch(() => {}));
    assert.equal(text(await client.callTool('echo', { message: 'fell back ✓' })), 'Echo: fell back ✓');
    const fallback = diagnostics.find((d) => d.kind === 'transport-fallback');
    assert.ok(fallback && fallback.kind === 'transport-fallback' && fallback.status >= 400 && fallback.status < 500, `a fallback diagnostic with the server's 4xx (got ${JSON.stringify(diagnostics)})`);
    await client.close();
  });
});
