// Audit tests for Connection (W4–W8; issue #20 item 3): decisions of
// src/client/connection.ts the mutation audit found no test for, each over
// the in-memory ScriptedTransport (exact control of the wire; the process
// level is tested in spec-tests/W4–W8). Messages in, messages and typed
// errors out.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Diagnostic } from '../diagnostics.js';
import { ScriptedTransport } from '../testing/scripted-transport.js';
import { Connection, type ConnectionOptions } from './connection.js';

async function open(options: ConnectionOptions = {}) {
  const transport = new ScriptedTransport(undefined, { server: 'fake' });
  const diagnostics: Diagnostic[] = [];
  const connection = new Connection(transport, { onDiagnostic: (d) => diagnostics.push(d), ...options });
  await connection.open();
  return { transport, connection, diagnostics };
}

describe('Connection audit (W4)', () => {
  test('W4 audit: a second answer to the same id is an unknown-response; the first one stands', async () => {
    const { transport, connection, diagnostics } = await open();
    const p = connection.request('tools/list');
    const id = transport.sent[0]!.id;
    transport.inject({ jsonrpc: '2.0', id, result: { first: true } });
    transport.inject({ jsonrpc: '2.0', id, result: { second: true } });
    assert.deepEqual(await p, { first: true });
    assert.deepEqual(
      diagnostics.map((d) => [d.kind, 'id' in d ? d.id : undefined]),
      [['unknown-response', id]],
    );
    await connection.close();
  });
});
