// Audit tests for Connection (W4–W8; issue #20 item 3): decisions of
// src/client/connection.ts the mutation audit found no test for, each over
// the in-memory ScriptedTransport (exact control of the wire; the process
// level is tested in spec-tests/W4–W8). Messages in, messages and typed
// errors out.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Diagnostic } from '../diagnostics.js';
import { AuthError, ClosedError, MessageTooLargeError, ProtocolError, SessionExpiredError, TimeoutError } from '../errors.js';
import type { JsonRpcMessage } from '../jsonrpc/message.js';
import { ScriptedTransport } from '../testing/scripted-transport.js';
import { ACCEPTS_REQUEST_SIGNAL, type SendOptions, type TransportHandlers, type TransportState } from '../transport/transport.js';
import { Connection, errorForEnd, RequestSignal, type ConnectionOptions } from './connection.js';

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

/** A transport that takes request signals (as the HTTP ones do) and records what send() was given; `fail` refuses some sends. */
class SignalTransport extends ScriptedTransport {
  readonly usesRequestSignals = true;
  readonly options: (SendOptions | undefined)[] = [];
  fail: ((m: JsonRpcMessage) => Error | undefined) | undefined;
  killed = 0;
  hurried = 0;
  override send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    this.options.push(options);
    const error = this.fail?.(message);
    return error ? Promise.reject(error) : super.send(message);
  }
  kill(): Promise<void> {
    this.killed++;
    return this.close();
  }
  hurry(): Promise<void> {
    this.hurried++;
    return this.close();
  }
}

const rejection = (p: Promise<unknown>) => p.then(() => assert.fail('resolved'), (e: unknown) => e);

describe('Connection audit: branches', () => {
  test('L1 audit: open() twice is a programming error that says the state', async () => {
    const { connection } = await open();
    await assert.rejects(connection.open(), /Connection\.open\(\): the connection is open, not idle/);
    await connection.close();
  });

  test('M audit: the modern envelope with the owner\'s entries is merged into every request; without an envelope the entries are not sent', async () => {
    const { transport, connection } = await open();
    connection.setEnvelopeEntries({ 'io.modelcontextprotocol/logLevel': 'info' });
    void connection.request('a').catch(() => {});
    assert.equal(transport.sent[0]!.params, undefined, 'legacy era: no envelope, no entries');
    connection.handshakeChannel().setEnvelope({ 'io.modelcontextprotocol/protocolVersion': 'x' });
    void connection.request('b').catch(() => {});
    assert.deepEqual(transport.sent[1]!.params, { _meta: { 'io.modelcontextprotocol/protocolVersion': 'x', 'io.modelcontextprotocol/logLevel': 'info' } });
    connection.setEnvelopeEntries(undefined);
    void connection.request('c').catch(() => {});
    assert.deepEqual(transport.sent[2]!.params, { _meta: { 'io.modelcontextprotocol/protocolVersion': 'x' } });
    await connection.close();
  });

  test('M6 audit: requestMeta and traceMeta entries join params._meta; the trace entries win; nothing is added when both say nothing', async () => {
    const { transport, connection } = await open({
      requestMeta: (method) => (method === 'tools/call' ? { task: 1 } : undefined),
      traceMeta: (method) => (method === 'ping' ? undefined : { traceparent: 't', task: 'trace' }),
    });
    void connection.request('ping').catch(() => {});
    assert.equal('params' in transport.sent[0]!, false);
    void connection.request('tools/call', { name: 'x', _meta: { own: true } }).catch(() => {});
    assert.deepEqual(transport.sent[1]!.params, { name: 'x', _meta: { own: true, task: 'trace', traceparent: 't' } });
    void connection.request('tools/list', undefined, { meta: { extra: 2 } }).catch(() => {});
    assert.deepEqual(transport.sent[2]!.params, { _meta: { extra: 2, traceparent: 't', task: 'trace' } });
    await connection.close();
  });

  test('T3 audit: a transport that takes request signals gets one per request, with the request\'s own headers when it has some', async () => {
    for (const lookAlike of [false, true]) {
      const transport = new SignalTransport(undefined, { server: 'fake' });
      if (lookAlike) Object.assign(transport, { [ACCEPTS_REQUEST_SIGNAL]: true });
      const { connection } = await open({}, transport);
      void connection.request('a').catch(() => {});
      void connection.request('b', {}, { headers: { 'Mcp-Param-X': '1' } }).catch(() => {});
      // mcpwire's own transports get an AbortSignal look-alike (#20 item 2: a real one costs microseconds per request
      // on Node 20), any other a real one; one per request either way.
      const Kind = lookAlike ? RequestSignal : AbortSignal;
      assert.ok(transport.options[0]?.signal instanceof Kind);
      assert.equal(transport.options[0].signal instanceof RequestSignal, lookAlike);
      assert.ok(transport.options[1]?.signal instanceof Kind && transport.options[1].signal !== transport.options[0].signal);
      assert.equal(transport.options[0]?.headers, undefined);
      assert.deepEqual(transport.options[1]?.headers, { 'Mcp-Param-X': '1' });
      await connection.close();
    }
  });

  test('W8 audit: a send that fails names the method; an expired session or a refused credential keeps its type and status', async () => {
    const transport = new SignalTransport(undefined, { server: 'fake' });
    transport.fail = (m) => {
      if (!('method' in m)) return undefined;
      if (m.method === 'a') return new ClosedError({ server: 'fake' }, { reason: 'http', status: 502 });
      if (m.method === 'b') return new SessionExpiredError({ server: 'fake' }, 404);
      if (m.method === 'c') return new AuthError({ server: 'fake' }, 403);
      if (m.method === 'd') return new Error('plain');
      return undefined;
    };
    const { connection } = await open({}, transport);
    const a = await rejection(connection.request('a'));
    assert.ok(a instanceof ClosedError && a.method === 'a' && a.status === 502 && a.reason === 'http');
    const b = await rejection(connection.request('b'));
    assert.ok(b instanceof SessionExpiredError && b.method === 'b' && b.status === 404, 'without renewSession it fails the message');
    const c = await rejection(connection.request('c'));
    assert.ok(c instanceof AuthError && c.method === 'c' && c.status === 403);
    const d = await rejection(connection.request('d'));
    assert.ok(d instanceof Error && d.message === 'plain', 'anything else is passed on as it is');
    await connection.close();
  });

  test('W7 audit: a send that fails after its request timed out changes nothing; the cancellation tells the transport to stop the request', async () => {
    const transport = new SignalTransport(undefined, { server: 'fake' });
    let failLater!: (e: Error) => void;
    const { connection } = await open({}, transport);
    const original = transport.send.bind(transport);
    transport.send = (m, o) => ('method' in m && m.method === 'slow' ? (original(m, o), new Promise<void>((_, reject) => (failLater = reject))) : original(m, o));
    const p = rejection(connection.request('slow', {}, { timeoutMs: 5 }));
    const error = await p;
    assert.ok(error instanceof TimeoutError);
    failLater(new Error('late failure'));
    await flush();
    assert.ok(transport.options[0]?.signal?.aborted, 'the request signal is aborted once the cancellation is sent');
    assert.deepEqual(transport.cancellations(), [0]);
    await connection.close();
  });

  test('W7 audit: when the cancellation itself cannot be sent, the request signal is still aborted', async () => {
    const transport = new SignalTransport(undefined, { server: 'fake' });
    transport.fail = (m) => ('method' in m && m.method === 'notifications/cancelled' ? new Error('gone') : undefined);
    const { connection } = await open({}, transport);
    const controller = new AbortController();
    const p = rejection(connection.request('x', {}, { signal: controller.signal }));
    controller.abort(new Error('stop'));
    assert.equal(((await p) as Error).message, 'stop');
    await flush();
    assert.ok(transport.options[0]?.signal?.aborted);
    await connection.close();
  });

  test('L2 audit: close({ force }) kills, close({ hurry }) hurries, where the transport can', async () => {
    const forced = new SignalTransport(undefined, { server: 'fake' });
    await (await open({}, forced)).connection.close({ force: true });
    assert.deepEqual([forced.killed, forced.hurried], [1, 0]);
    const hurried = new SignalTransport(undefined, { server: 'fake' });
    await (await open({}, hurried)).connection.close({ hurry: true });
    assert.deepEqual([hurried.killed, hurried.hurried], [0, 1]);
    const plain = new ScriptedTransport(undefined, { server: 'fake' });
    await (await open({}, plain)).connection.close({ force: true, hurry: true });
    assert.equal(plain.closeCalls, 1, 'a transport without kill() or hurry() is closed');
  });

  test('W6 audit: malformed progress and cancellation notifications are passed on but change nothing', async () => {
    const notes: string[] = [];
    const updates: unknown[] = [];
    const { transport, connection } = await open({ onNotification: (n) => notes.push(n.method) });
    const p = connection.request('x', {}, { onProgress: (u) => updates.push(u) });
    transport.inject({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: { id: 0 }, progress: 1 } });
    transport.inject({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 0, progress: 2, total: 'many', message: 5 } });
    let aborted = false;
    connection.setRequestHandler('slow', (_params, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => ((aborted = true), resolve({})))));
    transport.inject({ jsonrpc: '2.0', id: 's', method: 'slow' });
    transport.inject({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: { id: 's' } } });
    await flush();
    assert.equal(aborted, false, 'a requestId that is not a string or number cancels nothing');
    assert.deepEqual(updates, [{ progress: 2 }], 'total and message are kept only when they are a number and a string');
    assert.deepEqual(notes, ['notifications/progress', 'notifications/progress', 'notifications/cancelled']);
    transport.inject({ jsonrpc: '2.0', id: 0, result: {} });
    await p;
    await connection.close();
  });

  test('W8 audit: an invalid message without a diagnostic hook is dropped quietly; states reported after the end are ignored', async () => {
    const transport = new ScriptedTransport(undefined, { server: 'fake' });
    const states: string[] = [];
    const connection = new Connection(transport, { onConnectionState: (s) => states.push(s.state) });
    await connection.open();
    transport.inject({ jsonrpc: '1.0', method: 'x' });
    const handlers = transport.handlers as TransportHandlers;
    await connection.close();
    handlers.onConnectionState!(reconnecting());
    assert.deepEqual(states, []);
    assert.equal(connection.reconnecting, undefined);
  });

  test('W8 audit: how a connection ended decides its requests\' error: too large, a refused credential, or closed', () => {
    const site = { server: 's', method: 'm' };
    assert.ok(errorForEnd(site, { reason: 'too-large', limitBytes: 9 }) instanceof MessageTooLargeError);
    for (const status of [401, 403]) {
      const e = errorForEnd(site, { reason: 'http', status });
      assert.ok(e instanceof AuthError && e.status === status, String(status));
    }
    for (const end of [{ reason: 'http' as const, status: 500 }, { reason: 'exited' as const, exitCode: 1, signal: null }]) {
      const e = errorForEnd(site, end);
      assert.ok(e instanceof ClosedError && !(e instanceof AuthError), JSON.stringify(end));
    }
  });

  test('W8 audit: a transport that cannot start ends the connection with its own account, whatever it threw', async () => {
    for (const [thrown, check] of [
      [new ClosedError({ server: 'fake' }, { reason: 'spawn-failed' }), (e: unknown) => e instanceof ClosedError && e.reason === 'spawn-failed'],
      [new MessageTooLargeError({ server: 'fake' }, 7), (e: unknown) => e instanceof MessageTooLargeError && e.limitBytes === 7],
      [new Error('odd'), (e: unknown) => e instanceof ClosedError && e.reason === 'transport'],
    ] as const) {
      const transport = new ScriptedTransport(undefined, { server: 'fake' });
      transport.start = () => Promise.reject(thrown);
      const connection = new Connection(transport);
      await assert.rejects(connection.open(), (e: unknown) => e === thrown);
      assert.ok(check(await rejection(connection.request('ping'))), String(thrown));
    }
  });

  test('T3 audit: a renewal refused with a credential error ends the connection with an AuthError for what follows', async () => {
    const transport = new ScriptedTransport(undefined, { server: 'fake' });
    const { connection } = await open({ renewSession: () => Promise.reject(new AuthError({ server: 'fake' }, 401)) }, transport);
    const p = rejection(connection.request('x'));
    transport.handlers!.onSessionExpired();
    await connection.closed;
    const e = await rejection(connection.request('y'));
    assert.ok(e instanceof AuthError && e.status === 401 && e.method === 'y');
    void p;
  });

  test('T3 audit: requests held at the renewal gate when the stream drops wait for the reconnect too, and fail as unavailable', async () => {
    const transport = new ScriptedTransport(undefined, { server: 'fake' });
    let finish!: () => void;
    const { connection } = await open({ reconnectWaitMs: 10, renewSession: () => new Promise<void>((resolve) => (finish = resolve)) }, transport);
    transport.handlers!.onSessionExpired();
    const p = rejection(connection.request('held'));
    transport.handlers!.onConnectionState!(reconnecting());
    const e = await p;
    assert.ok(e instanceof ClosedError && e.reason === 'unavailable' && e.method === 'held');
    finish();
    await connection.close();
  });
});
