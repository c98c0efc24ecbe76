// W8 typed failures: timeout, closed (transport/process gone), protocol (the
// peer broke the protocol), server error (a JSON-RPC error, with code and
// data), config. Each says which server and which request. A pending request
// never hangs when its transport dies.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpClient } from '../src/client/client.js';
import {
  ClosedError,
  ConfigError,
  McpClientError,
  MessageTooLargeError,
  ProtocolError,
  RpcError,
  TimeoutError,
  isMcpClientError,
} from '../src/errors.js';
import { StdioTransport } from '../src/transport/stdio.js';
import { NO_ANSWER, ScriptedTransport, handshake } from '../src/testing/scripted-transport.js';
import { startScriptedServer } from './helpers/scripted-server.js';

/** The rejection of `promise`, which must reject. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => assert.fail(`expected a rejection, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
}

/** W8: "Each says which server and which request." */
function assertSite(error: unknown, server: string, method: string): void {
  assert.ok(error instanceof McpClientError, String(error));
  assert.equal(error.server, server);
  assert.equal(error.method, method);
  assert.ok(error.message.includes(`"${server}"`), error.message);
  assert.ok(error.message.includes(method), error.message);
}

describe('W8 typed failures', { timeout: 30_000 }, () => {
  test('W8: timeout → TimeoutError (code "timeout"), naming server and request', async (t) => {
    const { client } = await startScriptedServer(t);
    const error = await failure(client.callTool('never', {}, { timeoutMs: 50 }));
    assert.ok(error instanceof TimeoutError);
    assert.equal(error.code, 'timeout');
    assert.equal(error.name, 'TimeoutError');
    assert.equal(error.timeoutMs, 50);
    assertSite(error, 'scripted', 'tools/call');
  });

  test('W8: server error → RpcError (code "rpc") with the JSON-RPC code and data, naming server and request', async (t) => {
    const { client } = await startScriptedServer(t);
    const error = await failure(client.callTool('fail'));
    assert.ok(error instanceof RpcError);
    assert.equal(error.code, 'rpc');
    assert.equal(error.rpcCode, -32042);
    assert.equal(error.rpcMessage, 'scripted failure');
    assert.deepEqual(error.data, { why: 'asked to' });
    assertSite(error, 'scripted', 'tools/call');
  });

  test('W8: protocol → ProtocolError (code "protocol") for an invalid result, naming server and request', async (t) => {
    const { client } = await startScriptedServer(t);
    const error = await failure(client.callTool('invalid-result'));
    assert.ok(error instanceof ProtocolError);
    assert.equal(error.code, 'protocol');
    assertSite(error, 'scripted', 'tools/call');
    assert.match(error.message, /content/);
  });

  test('W8: closed → ClosedError (code "closed") when the process dies; exit code and stderr are in the error', async (t) => {
    const { client } = await startScriptedServer(t);
    const error = await failure(client.callTool('crash', { code: 3 }, { timeoutMs: 10_000 }));
    assert.ok(error instanceof ClosedError, String(error));
    assert.equal(error.code, 'closed');
    assert.equal(error.reason, 'exited');
    assert.equal(error.exitCode, 3);
    assert.match(error.stderrTail ?? '', /fatal: scripted crash/);
    assert.match(error.message, /fatal: scripted crash/);
    assertSite(error, 'scripted', 'tools/call');
    assert.equal(client.state, 'closed');
  });

  test('W8: a pending request never hangs when its transport dies: all pending calls reject with ClosedError', async (t) => {
    const { client } = await startScriptedServer(t);
    const pending = [
      client.callTool('never', {}, { timeoutMs: 10_000 }),
      client.listTools({ timeoutMs: 10_000 }).then(() => client.callTool('never', {}, { timeoutMs: 10_000 })),
      client.callTool('never', {}, { timeoutMs: 10_000 }),
    ];
    await new Promise((resolve) => setTimeout(resolve, 50));
    const crash = client.callTool('crash', { code: 9 }, { timeoutMs: 10_000 });
    const errors = await Promise.all([...pending, crash].map(failure));
    for (const error of errors) {
      assert.ok(error instanceof ClosedError, String(error));
      assert.equal(error.exitCode, 9);
      assert.equal(error.method, 'tools/call');
    }
    // And after: a fail-fast ClosedError, not a hang.
    assert.ok((await failure(client.ping())) instanceof ClosedError);
  });

  test('W8: closed → ClosedError "spawn-failed" when the server cannot be started, naming it', async () => {
    const client = new McpClient(new StdioTransport({ command: ['/nonexistent/mcp-server-binary'], server: 'ghost' }));
    const error = await failure(client.connect());
    assert.ok(error instanceof ClosedError, String(error));
    assert.equal(error.reason, 'spawn-failed');
    assert.equal(error.server, 'ghost');
    assert.match(error.message, /"ghost"/);
  });

  test('W8: a transport that ends with too-large → MessageTooLargeError, a ProtocolError naming the limit', async () => {
    const transport = new ScriptedTransport(handshake(() => NO_ANSWER));
    const client = new McpClient(transport);
    await client.connect();
    const call = client.callTool('x');
    transport.end({ reason: 'too-large', limitBytes: 4096 });
    const error = await failure(call);
    assert.ok(error instanceof MessageTooLargeError);
    assert.ok(error instanceof ProtocolError);
    assert.equal(error.code, 'protocol');
    assert.equal(error.limitBytes, 4096);
    assertSite(error, 'scripted', 'tools/call');
    assert.match(error.message, /4096 bytes/);
  });

  test('W8: config → ConfigError (code "config") naming the file and the path', () => {
    const error = new ConfigError('project.yaml', ['mcp', 'github', 'auth', 'secret_ref'], 'expected a string', { server: 'github' });
    assert.equal(error.code, 'config');
    assert.equal(error.name, 'ConfigError');
    assert.match(error.message, /project\.yaml/);
    assert.match(error.message, /mcp\.github\.auth\.secret_ref/);
    assert.equal(error.server, 'github');
  });

  test('W8: the five kinds are distinct classes of one hierarchy with distinct codes', () => {
    const site = { server: 's', method: 'm' };
    const errors = [
      new TimeoutError(site, 1),
      new ClosedError(site, { reason: 'closed' }),
      new ProtocolError(site, 'bad'),
      new RpcError(site, -32000, 'x'),
      new ConfigError('f', [], 'd'),
    ];
    assert.deepEqual(errors.map((e) => e.code), ['timeout', 'closed', 'protocol', 'rpc', 'config']);
    assert.ok(errors.every((e) => isMcpClientError(e) && e instanceof Error));
    assert.equal(isMcpClientError(new Error('plain')), false);
  });
});
