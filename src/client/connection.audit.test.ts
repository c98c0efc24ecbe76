// Audit tests for Connection (W4–W8; issue #20 item 3): decisions of
// src/client/connection.ts the mutation audit found no test for, each over
// the in-memory ScriptedTransport (exact control of the wire; the process
// level is tested in spec-tests/W4–W8). Messages in, messages and typed
// errors out.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Diagnostic } from '../diagnostics.js';
import { ClosedError, SessionExpiredError } from '../errors.js';
import type { JsonRpcMessage } from '../jsonrpc/message.js';
import { ScriptedTransport } from '../testing/scripted-transport.js';
import type { TransportState } from '../transport/transport.js';
import { Connection, type ConnectionOptions } from './connection.js';

/** A scripted transport whose send() refuses the messages `refuse` picks (once each, with the error it returns). */
class RefusingTransport extends ScriptedTransport {
  constructor(private readonly refuse: (m: JsonRpcMessage) => Error | undefined) {
    super(undefined, { server: 'fake' });
  }
  override send(message: JsonRpcMessage): Promise<void> {
    const error = this.refuse(message);
    return error ? Promise.reject(error) : super.send(message);
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

async function open(options: ConnectionOptions = {}, transport: ScriptedTransport = new ScriptedTransport(undefined, { server: 'fake' })) {
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

const SINCE = Date.UTC(2026, 0, 2, 3, 4, 5);
const reconnecting = (nextAttemptAt?: number): TransportState => ({ state: 'reconnecting', since: SINCE, reason: 'the SSE stream dropped (terminated)', ...(nextAttemptAt === undefined ? {} : { nextAttemptAt }) });

describe('Connection audit: while the transport reconnects (#16 item 6)', () => {
  test('W7 audit: a request and a notification made while the transport reconnects wait, and go out once it is back', async () => {
    const states: string[] = [];
    const { transport, connection } = await open({ onConnectionState: (s) => states.push(s.state) });
    transport.handlers!.onConnectionState!(reconnecting());
    assert.equal(connection.reconnecting?.reason, 'the SSE stream dropped (terminated)');
    const p = connection.request('tools/list');
    const n = connection.notify('notifications/roots/list_changed');
    await flush();
    assert.deepEqual(transport.sent, [], 'nothing is sent while the stream is down');
    // The handshake's own requests are not held.
    const init = connection.handshakeChannel().request('initialize', {}).catch((e: unknown) => e);
    assert.deepEqual(transport.methods(), ['initialize']);
    transport.handlers!.onConnectionState!({ state: 'connected' });
    await n;
    await flush();
    assert.deepEqual(transport.methods(), ['initialize', 'tools/list', 'notifications/roots/list_changed']);
    assert.equal(connection.reconnecting, undefined);
    transport.inject({ jsonrpc: '2.0', id: transport.requests('tools/list')[0]!.id, result: { tools: [] } });
    assert.deepEqual(await p, { tools: [] });
    assert.deepEqual(states, ['reconnecting', 'connected']);
    await connection.close();
    assert.ok((await init) instanceof ClosedError, 'the unanswered initialize fails at close');
  });

  test('W7 audit: a request held longer than reconnectWaitMs fails as unavailable, naming the drop, its time and the latest next attempt', async () => {
    const { transport, connection } = await open({ reconnectWaitMs: 20 });
    transport.handlers!.onConnectionState!(reconnecting(SINCE + 1000));
    const p = connection.request('tools/call', { name: 'x' });
    transport.handlers!.onConnectionState!(reconnecting(SINCE + 5000));
    const error = await p.then(
      () => assert.fail('resolved'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ClosedError);
    assert.equal(error.reason, 'unavailable');
    assert.equal(error.method, 'tools/call');
    assert.equal(error.nextAttemptAt, SINCE + 5000);
    assert.equal(
      (error.cause as Error).message,
      `the SSE stream dropped (terminated); reconnecting since ${new Date(SINCE).toISOString()}, next attempt at ${new Date(SINCE + 5000).toISOString()}`,
    );
    assert.deepEqual(transport.sent, []);
    await connection.close();
  });

  test('W7 audit: with reconnectWaitMs 0 a request made during an outage fails at once; without a next attempt the error says only since when', async () => {
    const { transport, connection } = await open({ reconnectWaitMs: 0 });
    transport.handlers!.onConnectionState!(reconnecting());
    const error = await connection.request('ping').then(
      () => assert.fail('resolved'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ClosedError && error.reason === 'unavailable');
    assert.equal(error.nextAttemptAt, undefined);
    assert.equal((error.cause as Error).message, `the SSE stream dropped (terminated); reconnecting since ${new Date(SINCE).toISOString()}`);
    assert.equal(connection.unavailableError('x').cause instanceof Error && (connection.unavailableError('x').cause as Error).message.startsWith('the SSE stream dropped'), true);
    transport.handlers!.onConnectionState!({ state: 'connected' });
    assert.equal((connection.unavailableError().cause as Error).message, 'the connection is being reestablished');
    await connection.close();
  });

  test('W7 audit: an onConnectionState that throws is reported as a handler-error and the state still applies', async () => {
    const { transport, connection, diagnostics } = await open({
      onConnectionState: () => {
        throw new Error('host bug');
      },
    });
    transport.handlers!.onConnectionState!(reconnecting());
    assert.ok(connection.reconnecting);
    assert.deepEqual(
      diagnostics.map((d) => (d.kind === 'handler-error' ? d.method : d.kind)),
      ['onConnectionState'],
    );
    await connection.close();
  });
});

describe('Connection audit: expired sessions (T3)', () => {
  test('T3 audit: a notification refused for an expired session is sent again after one renewal', async () => {
    let refused = 0;
    const transport = new RefusingTransport((m) => ('method' in m && m.method === 'notifications/x' && refused++ === 0 ? new SessionExpiredError({ server: 'fake' }, 404) : undefined));
    let renewals = 0;
    const { connection } = await open({ renewSession: async () => void renewals++ }, transport);
    await connection.notify('notifications/x', { a: 1 });
    assert.equal(renewals, 1);
    assert.equal(refused, 2, 'refused once, then sent');
    assert.deepEqual(transport.sent.map((m) => m.method), ['notifications/x']);
    await connection.close();
  });

  test('T3 audit: an expiry reported while a renewal runs makes a failed renewal run again instead of ending the connection', async () => {
    let calls = 0;
    let transport!: ScriptedTransport;
    const { connection } = await open(
      {
        renewSession: async () => {
          calls++;
          await flush();
          if (calls === 1) {
            transport.handlers!.onSessionExpired(); // the stream dropped again during the handshake
            throw new Error('the first renewal broke');
          }
        },
      },
      (transport = new ScriptedTransport(undefined, { server: 'fake' })),
    );
    transport.handlers!.onSessionExpired();
    const p = connection.request('ping');
    for (let i = 0; i < 10 && calls < 2; i++) await flush();
    await flush();
    assert.equal(calls, 2);
    assert.equal(connection.state, 'open');
    transport.inject({ jsonrpc: '2.0', id: transport.requests('ping')[0]!.id, result: {} });
    assert.deepEqual(await p, {});
    await connection.close();
  });

  test('T3 audit: a renewal that fails with no new expiry ends the connection as a transport failure', async () => {
    const transport = new ScriptedTransport(undefined, { server: 'fake' });
    const { connection } = await open({ renewSession: () => Promise.reject(new Error('broke')) }, transport);
    transport.handlers!.onSessionExpired();
    const end = await connection.closed;
    assert.equal(end.reason, 'transport');
    assert.equal(connection.state, 'closed');
  });
});

describe('Connection audit: odds and ends', () => {
  test('W5 audit: requestHandler() returns the handler installed for a method, and nothing once removed', async () => {
    const { connection } = await open();
    const handler = () => ({ roots: [] });
    connection.setRequestHandler('roots/list', handler);
    assert.equal(connection.requestHandler('roots/list'), handler);
    assert.equal(typeof connection.requestHandler('ping'), 'function', 'ping is answered by the connection itself');
    connection.setRequestHandler('roots/list', undefined);
    assert.equal(connection.requestHandler('roots/list'), undefined);
    await connection.close();
  });

  test('L2 audit: close() before open() ends the connection without starting the transport', async () => {
    const transport = new ScriptedTransport(undefined, { server: 'fake' });
    const connection = new Connection(transport);
    await connection.close();
    assert.equal(connection.state, 'closed');
    assert.deepEqual(await connection.closed, { reason: 'closed' });
    assert.equal(transport.handlers, undefined, 'the transport was never started');
    await assert.rejects(connection.request('ping'), (e: unknown) => e instanceof ClosedError && e.reason === 'closed');
  });

  test('W5 audit: an answer to a server request that cannot be sent is dropped quietly; the connection goes on', async () => {
    const transport = new RefusingTransport((m) => ('result' in m ? new ClosedError({ server: 'fake' }, { reason: 'exited' }) : undefined));
    const { connection } = await open({}, transport);
    transport.inject({ jsonrpc: '2.0', id: 's1', method: 'ping' });
    await flush();
    await flush();
    assert.equal(connection.state, 'open');
    const p = connection.request('tools/list');
    transport.inject({ jsonrpc: '2.0', id: transport.requests('tools/list')[0]!.id, result: {} });
    assert.deepEqual(await p, {});
    await connection.close();
  });
});
