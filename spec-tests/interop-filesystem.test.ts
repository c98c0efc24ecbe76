// Interop with a real server nobody here wrote: the MCP reference
// filesystem server (@modelcontextprotocol/server-filesystem) over stdio, on
// a temp folder. Reading, writing, an access outside the allowed folder, and
// roots: without a roots handler the client does not advertise roots and the
// server falls back to its command-line folder; with one, the server asks
// (a real server-initiated roots/list) and uses the client's answer; and when
// the server asks anyway, the unhandled roots/list is answered -32601 (W5)
// and the server goes on working.

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { Connection, StdioTransport, type CallToolResult, type McpClientOptions } from '../src/index.js';
import { isAlive, killIfAlive } from './helpers/fault-harness.js';
import { connectRealServer, text } from './helpers/interop.js';
import { tempDir } from './helpers/temp.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url));

/** A temp folder (real path: the server resolves symlinks) removed after the test. */
function filesystem(t: TestContext, dir: string, options: McpClientOptions = {}) {
  return connectRealServer(t, [process.execPath, SERVER, dir], 'filesystem', options);
}


test('filesystem: tools/list, read_text_file, write_file then read back, and an access outside the folder', async (t) => {
  const dir = tempDir(t, 'fs-main');
  const outside = tempDir(t, 'fs-outside');
  writeFileSync(join(dir, 'notes.txt'), 'première ligne\nsecond line\n');
  writeFileSync(join(outside, 'secret.txt'), 'not for you\n');
  const { client, transport, close } = await filesystem(t, dir);
  assert.equal(client.serverInfo?.name, 'secure-filesystem-server');

  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  for (const name of ['read_text_file', 'write_file', 'list_directory', 'list_allowed_directories']) {
    assert.ok(names.includes(name), `tools/list has ${name}`);
  }
  for (const tool of tools) assert.equal(tool.inputSchema.type, 'object', `${tool.name} has an object inputSchema`);

  const read = await client.callTool('read_text_file', { path: join(dir, 'notes.txt') });
  assert.notEqual(read.isError, true);
  assert.equal(text(read), 'première ligne\nsecond line\n');

  const written = await client.callTool('write_file', { path: join(dir, 'new.txt'), content: 'written by mcpwire ✓\n' });
  assert.notEqual(written.isError, true, text(written));
  assert.equal(readFileSync(join(dir, 'new.txt'), 'utf8'), 'written by mcpwire ✓\n', 'the file is really on disk');
  assert.equal(text(await client.callTool('read_text_file', { path: join(dir, 'new.txt') })), 'written by mcpwire ✓\n');

  // What this real server does: a tool result with isError, not a JSON-RPC error.
  for (const path of [join(outside, 'secret.txt'), join(dir, '..', 'escape.txt')]) {
    const denied = await client.callTool('read_text_file', { path });
    assert.equal(denied.isError, true, `reading ${path} is refused as a tool error`);
    assert.match(text(denied), /Access denied - path outside allowed directories/);
    assert.doesNotMatch(text(denied), /not for you/);
  }

  // Without a roots handler the client does not advertise roots, so the server never asks and uses its argument.
  assert.match(transport.stderrTail(), /Client does not support MCP Roots/);
  assert.match(text(await client.callTool('list_allowed_directories')), new RegExp(dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await close();
});

test('filesystem: with a roots handler the server asks roots/list and works in the folder the client names', async (t) => {
  const argDir = tempDir(t, 'fs-arg');
  const rootDir = tempDir(t, 'fs-root');
  mkdirSync(join(rootDir, 'sub'));
  writeFileSync(join(rootDir, 'sub', 'inside.txt'), 'from the root\n');
  writeFileSync(join(argDir, 'arg.txt'), 'from the argument\n');
  let asked = 0;
  const { client, close } = await filesystem(t, argDir, {
    handlers: {
      roots: () => {
        asked++;
        return { roots: [{ uri: pathToFileURL(rootDir).href, name: 'test root' }] };
      },
    },
  });
  // The server asks right after notifications/initialized; wait for it to apply the answer, bounded.
  let allowed = '';
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline) {
    allowed = text(await client.callTool('list_allowed_directories'));
    if (allowed.includes(rootDir)) break;
    await delay(25);
  }
  assert.equal(asked, 1, 'the server sent roots/list once');
  assert.ok(allowed.includes(rootDir), `the client's root is allowed: ${allowed}`);
  assert.ok(!allowed.includes(argDir), `the roots replaced the command-line folder: ${allowed}`);

  assert.equal(text(await client.callTool('read_text_file', { path: join(rootDir, 'sub', 'inside.txt') })), 'from the root\n');
  const denied = await client.callTool('read_text_file', { path: join(argDir, 'arg.txt') });
  assert.equal(denied.isError, true);
  await close();
});

test('filesystem: a roots/list the client has no handler for is answered -32601 and the server keeps working (W5)', async (t) => {
  const dir = tempDir(t, 'fs-w5');
  writeFileSync(join(dir, 'still.txt'), 'still works\n');
  // McpClient sends no notification on its own, so this drives the Connection underneath
  // it: a roots/list_changed makes this server send roots/list whatever we advertised.
  const transport = new StdioTransport({ command: [process.execPath, SERVER, dir], cwd: ROOT, server: 'filesystem' });
  const stderr: string[] = [];
  const connection = new Connection(transport, { onDiagnostic: (d) => d.kind === 'stderr' && stderr.push(d.text) });
  t.after(async () => {
    await Promise.race([connection.close().catch(() => {}), delay(1_000, undefined, { ref: false })]);
    const pid = transport.pid;
    if (pid !== undefined) killIfAlive(pid);
  });
  await connection.open();
  await connection.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcpwire-test', version: '0' } });
  await connection.notify('notifications/initialized');
  await connection.notify('notifications/roots/list_changed');

  const deadline = Date.now() + 3_000;
  while (!stderr.join('').includes('Failed to request roots') && Date.now() < deadline) await delay(20);
  assert.match(stderr.join(''), /Failed to request roots from client: MCP error -32601: Method not found/);

  const result = (await connection.request('tools/call', { name: 'read_text_file', arguments: { path: join(dir, 'still.txt') } })) as CallToolResult;
  assert.equal(text(result), 'still works\n');
  const pid = transport.pid!;
  await connection.close();
  assert.ok(!isAlive(pid), 'the server process is gone after close()');
});
