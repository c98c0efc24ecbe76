// Audit tests for Connection, second round (W4–W8, T3, L2; issue #20 item
// 3, SPEC G5): what a caller or a transport can observe of the decisions of
// src/client/connection.ts that the mutation audit's first rounds left
// untested: which ids go out, what a pending request rejects with and when,
// which messages reach the transport and in what order around a session
// renewal or a reconnect, which timers are left armed, which state the
// connection reports while it closes. Over in-memory transports (exact
// control of the wire, as in connection.audit.test.ts); the process and
// HTTP levels are tested in spec-tests/W4–W8, T3, T5.

import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { Diagnostic } from '../diagnostics.js';
import { ClosedError, RpcError, SessionExpiredError, TimeoutError } from '../errors.js';
import type { JsonRpcMessage } from '../jsonrpc/message.js';
import { NO_ANSWER, ScriptedTransport, type Script } from '../testing/scripted-transport.js';
import { ACCEPTS_REQUEST_SIGNAL, type SendOptions, type TransportEnd, type TransportState } from '../transport/transport.js';
import { Connection, RequestSignal, type ConnectionOptions } from './connection.js';

/** Lets queued promise callbacks and immediates run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
const flushes = async (n = 5) => {
  for (let i = 0; i < n; i++) await flush();
};
const rejection = (p: Promise<unknown>) => p.then(() => assert.fail('resolved'), (e: unknown) => e);

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const expired = () => new SessionExpiredError({ server: 'fake' }, 404);
const SINCE = Date.UTC(2026, 0, 2, 3, 4, 5);
const reconnecting = (): TransportState => ({ state: 'reconnecting', since: SINCE, reason: 'the SSE stream dropped (terminated)' });
const CANARY = 'CANARY-7f3a9c';

/**
 * A scripted transport that keeps the very objects send() was handed
 * (`raw`, before any JSON round trip), lets the test decide the fate of each
 * send (`gate`: an Error refuses it, a promise holds it until it settles),
 * can scrub a canary, can take its time to close, and can take request
 * signals as the HTTP transports do.
 */
class WireTransport extends ScriptedTransport {
  readonly raw: JsonRpcMessage[] = [];
  readonly options: (SendOptions | undefined)[] = [];
  gate: ((m: JsonRpcMessage, nth: number) => Error | Promise<void> | undefined) | undefined;
  closeGate: Promise<void> | undefined;
  scrub?: (text: string) => string;
  usesRequestSignals = false;

  constructor(script?: Script) {
    super(script, { server: 'fake' });
  }

  /** How many times a message of this method (or this id, for answers) was handed to send(). */
  count(key: string | number): number {
    return this.raw.filter((m) => ('method' in m ? m.method === key : 'id' in m && m.id === key)).length;
  }

  override send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    this.raw.push(message);
    this.options.push(options);
    const key = 'method' in message ? message.method : undefined;
    const fate = this.gate?.(message, this.raw.filter((m) => 'method' in m && m.method === key).length);
    if (fate instanceof Error) return Promise.reject(fate);
    if (fate) return fate.then(() => super.send(message));
    return super.send(message);
  }

  override async close(): Promise<void> {
    this.closeCalls++;
    if (this.closeGate) await this.closeGate;
    this.end({ reason: 'closed' });
  }
}

async function open(options: ConnectionOptions = {}, transport = new WireTransport()) {
  const diagnostics: Diagnostic[] = [];
  const connection = new Connection(transport, { onDiagnostic: (d) => diagnostics.push(d), ...options });
  await connection.open();
  return { transport, connection, diagnostics };
}

/** A renewSession that counts its calls; each call waits for `next` when one is set (then clears it). */
function renewals() {
  const r = {
    calls: 0,
    next: undefined as Promise<void> | undefined,
    renew: async () => {
      r.calls++;
      const wait = r.next;
      r.next = undefined;
      if (wait) await wait;
    },
  };
  return r;
}

/**
 * Counts the Node timers armed for `ms` that have neither fired nor been
 * cleared. process.getActiveResourcesInfo() does not list unref'd timers
 * (the outage wait is one), so the test watches setTimeout and clearTimeout
 * themselves; the timers stay the real ones. With `numbers`, setTimeout
 * returns the timer's numeric id for those timers, as on a runtime whose
 * timers are numbers (Deno's globals): Node's clearTimeout takes the id.
 */
function armedTimers(t: TestContext, ms: number, numbers = false): () => number {
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const live = new Set<unknown>();
  const wrappedSet = (fn: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    if (delay !== ms) return realSet(fn, delay, ...args);
    const timer = realSet(() => {
      live.delete(key);
      fn(...args);
    }, delay);
    const key: unknown = numbers ? Number(timer) : timer;
    live.add(key);
    return key;
  };
  globalThis.setTimeout = wrappedSet as unknown as typeof setTimeout;
  globalThis.clearTimeout = ((timer: Parameters<typeof clearTimeout>[0]) => {
    live.delete(timer);
    realClear(timer);
  }) as typeof clearTimeout;
  t.after(() => {
    globalThis.setTimeout = realSet;
    globalThis.clearTimeout = realClear;
  });
  return () => live.size;
}

describe('Connection audit 2: ids and the probe (W4, #17)', () => {
  test('W4 audit2: request ids count up from 0; a probe takes none of them and is numbered mcpwire-probe-1, -2', async () => {
    const { transport, connection } = await open();
    const channel = connection.handshakeChannel();
    for (const p of [connection.request('a'), connection.request('b'), channel.probe('server/discover'), connection.request('c'), channel.probe('server/discover')]) p.catch(() => {});
    assert.deepEqual(
      transport.raw.map((m) => ('id' in m ? m.id : undefined)),
      [0, 1, 'mcpwire-probe-1', 2, 'mcpwire-probe-2'],
    );
    await connection.close();
  });

  test('L1 audit2: a probe is one of the handshake\'s messages: it goes out while the stream is down; its progress (a string token) reaches onProgress', async () => {
    const updates: unknown[] = [];
    const { transport, connection } = await open();
    transport.handlers!.onConnectionState!(reconnecting());
    const p = connection.handshakeChannel().probe('server/discover', {}, { onProgress: (u) => updates.push(u) });
    assert.deepEqual(transport.methods(), ['server/discover'], 'not held back by the outage');
    transport.inject({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'mcpwire-probe-1', progress: 3 } });
    assert.deepEqual(updates, [{ progress: 3 }]);
    transport.inject({ jsonrpc: '2.0', id: 'mcpwire-probe-1', result: { ok: 1 } });
    assert.deepEqual(await p, { ok: 1 });
    await connection.close();
  });

  test('W4 audit2: a request or notification without params is handed to the transport without a params member', async () => {
    const { transport, connection } = await open();
    connection.request('ping').catch(() => {});
    await connection.notify('notifications/x');
    assert.deepEqual(transport.raw.map((m) => Object.keys(m).sort()), [
      ['id', 'jsonrpc', 'method'],
      ['jsonrpc', 'method'],
    ]);
    await connection.close();
  });
});

describe('Connection audit 2: answers the transport says are lost', () => {
  test('W8 audit2: onAnswersLost with ids fails those requests, naming their method; the others wait', async () => {
    const { transport, connection } = await open();
    const a = rejection(connection.request('a'));
    const b = connection.request('b');
    transport.handlers!.onAnswersLost([0], new ClosedError({ server: 'fake' }, { reason: 'transport', cause: new Error('stream ended') }));
    const e = await a;
    assert.ok(e instanceof ClosedError && e.method === 'a' && e.reason === 'transport', String(e));
    transport.inject({ jsonrpc: '2.0', id: 1, result: { b: true } });
    assert.deepEqual(await b, { b: true }, 'b was not failed');
    await connection.close();
  });

  test('W8 audit2: onAnswersLost(\'all\') fails every request handed to the transport, not one held at the renewal gate', async () => {
    const renew = renewals();
    const gate = deferred();
    renew.next = gate.promise;
    const { transport, connection } = await open({ renewSession: renew.renew });
    const a = rejection(connection.request('a'));
    const b = rejection(connection.request('b'));
    transport.handlers!.onSessionExpired();
    const held = connection.request('held');
    transport.handlers!.onAnswersLost('all', new ClosedError({ server: 'fake' }, { reason: 'transport' }));
    const [ea, eb] = await Promise.all([a, b]);
    assert.ok(ea instanceof ClosedError && ea.method === 'a');
    assert.ok(eb instanceof ClosedError && eb.method === 'b');
    gate.resolve();
    await flushes();
    assert.equal(transport.count('held'), 1, 'the held request went out after the renewal');
    transport.inject({ jsonrpc: '2.0', id: 2, result: {} });
    assert.deepEqual(await held, {});
    await connection.close();
  });

  test('W8 audit2: an error that already names its request is passed on as it is', async () => {
    const { transport, connection } = await open();
    const p = rejection(connection.request('a'));
    const own = new ClosedError({ server: 'fake', method: 'tools/call' }, { reason: 'transport' });
    transport.handlers!.onAnswersLost([0], own);
    assert.equal(await p, own);
    await connection.close();
  });
});

describe('Connection audit 2: secrets (T4)', () => {
  test('T4 audit2: a transport\'s own diagnostics reach the hook scrubbed; without a hook the transport is given none', async () => {
    const transport = new WireTransport();
    transport.scrub = (text) => text.split(CANARY).join('[redacted]');
    const { connection, diagnostics } = await open({}, transport);
    transport.handlers!.onDiagnostic!({ kind: 'stderr', server: 'fake', text: `token ${CANARY} here` });
    assert.deepEqual(diagnostics, [{ kind: 'stderr', server: 'fake', text: 'token [redacted] here' }]);
    await connection.close();
    const bare = new WireTransport();
    const quiet = new Connection(bare);
    await quiet.open();
    assert.equal(bare.handlers!.onDiagnostic, undefined);
    await quiet.close();
  });

  test('T4 audit2: an error answer that echoes a secret in its message or data is scrubbed before the caller sees it', async () => {
    const transport = new WireTransport();
    transport.scrub = (text) => text.split(CANARY).join('[redacted]');
    const { connection } = await open({}, transport);
    const p = rejection(connection.request('a'));
    transport.inject({ jsonrpc: '2.0', id: 0, error: { code: -32000, message: `bad key ${CANARY}`, data: { echo: CANARY, n: 1 } } });
    const e = await p;
    assert.ok(e instanceof RpcError);
    assert.equal(e.rpcMessage, 'bad key [redacted]');
    assert.deepEqual(e.data, { echo: '[redacted]', n: 1 });
    await connection.close();
  });
});

describe('Connection audit 2: progress and timeouts (W7)', () => {
  test('W7 audit2: with resetTimeoutOnProgress and the default overall cap (10 minutes), a progress report restarts the request\'s own timeout', async () => {
    const { transport, connection } = await open();
    const p = rejection(connection.request('slow', {}, { resetTimeoutOnProgress: true, timeoutMs: 30 }));
    transport.inject({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 0, progress: 1 } });
    const e = await p;
    assert.ok(e instanceof TimeoutError);
    assert.equal(e.timeoutMs, 30);
    assert.match(e.message, /since its last progress report/);
    await connection.close();
  });

  test('W7 audit2: a progress report that leaves exactly the request\'s timeout before the overall cap names the cap', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
    const { transport, connection } = await open();
    const p = rejection(connection.request('slow', {}, { resetTimeoutOnProgress: true, timeoutMs: 40, maxTotalTimeoutMs: 100 }));
    const progress = (n: number) => transport.inject({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 0, progress: n } });
    t.mock.timers.tick(30);
    progress(1); // 70 ms left: the request's own 40 ms apply
    t.mock.timers.tick(30);
    progress(2); // 40 ms left, exactly the request's timeout: the cap is what ends it
    t.mock.timers.tick(40);
    const e = await p;
    assert.ok(e instanceof TimeoutError);
    assert.equal(e.timeoutMs, 100);
    assert.match(e.message, /in total \(the overall cap/);
    await connection.close();
  });

  test('W6 audit2: an onProgress that throws is reported as a handler-error of notifications/progress', async () => {
    const { transport, connection, diagnostics } = await open();
    const p = connection.request('x', {}, {
      onProgress: () => {
        throw new Error('host bug');
      },
    });
    transport.inject({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 0, progress: 1 } });
    assert.deepEqual(diagnostics.map((d) => (d.kind === 'handler-error' ? d.method : d.kind)), ['notifications/progress']);
    transport.inject({ jsonrpc: '2.0', id: 0, result: {} });
    await p;
    await connection.close();
  });
});

describe('Connection audit 2: cancellation (W7)', () => {
  test('W7 audit2: notifications/cancelled says why: the timeout and its length, or an abort', async () => {
    const { transport, connection } = await open();
    await rejection(connection.request('a', {}, { timeoutMs: 5 }));
    const controller = new AbortController();
    const b = rejection(connection.request('b', {}, { signal: controller.signal }));
    controller.abort(new Error('stop'));
    await b;
    await flush();
    assert.deepEqual(
      transport.sent.filter((m) => m.method === 'notifications/cancelled').map((m) => m.params),
      [
        { requestId: 0, reason: 'timed out after 5 ms' },
        { requestId: 1, reason: 'aborted by the client' },
      ],
    );
    await connection.close();
  });

  test('L1 audit2: an initialize that times out is not cancelled on the wire, but the transport is told to stop it', async () => {
    const transport = new WireTransport();
    transport.usesRequestSignals = true;
    const { connection } = await open({}, transport);
    const e = await rejection(connection.handshakeChannel().request('initialize', {}, { timeoutMs: 5 }));
    assert.ok(e instanceof TimeoutError);
    await flush();
    assert.deepEqual(transport.cancellations(), []);
    assert.equal(transport.options[0]?.signal?.aborted, true);
    await connection.close();
  });

  test('W4 audit2: the ids of the last 1024 abandoned requests are remembered: a late answer to the 1024th-newest is late, to the 1025th unknown', async () => {
    const { transport, connection, diagnostics } = await open();
    await Promise.all(Array.from({ length: 1025 }, () => rejection(connection.request('x', {}, { timeoutMs: 1 }))));
    transport.inject({ jsonrpc: '2.0', id: 0, result: {} });
    transport.inject({ jsonrpc: '2.0', id: 1, result: {} });
    assert.deepEqual(
      diagnostics.map((d) => [d.kind, 'id' in d ? d.id : undefined]),
      [
        ['unknown-response', 0],
        ['late-response', 1],
      ],
    );
    await connection.close();
  });

  test('W5 audit2: the server cancelling its request (a numeric id) aborts the handler; a cancellation after the answer, or the close, aborts nothing', async () => {
    const { transport, connection } = await open();
    let running: AbortSignal | undefined;
    let finished: AbortSignal | undefined;
    connection.setRequestHandler('slow', (_p, { signal }) => ((running = signal), new Promise((resolve) => signal.addEventListener('abort', () => resolve({})))));
    connection.setRequestHandler('quick', (_p, { signal }) => ((finished = signal), { done: true }));
    transport.inject({ jsonrpc: '2.0', id: 7, method: 'slow' });
    transport.inject({ jsonrpc: '2.0', id: 8, method: 'quick' });
    await flushes(2);
    assert.deepEqual(transport.sent.filter((m) => m.id === 8).map((m) => m.result), [{ done: true }]);
    transport.inject({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    transport.inject({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 8 } });
    assert.equal(running?.aborted, true);
    await flushes(2);
    assert.equal(transport.sent.filter((m) => m.id === 7).length, 0, 'a cancelled request is not answered');
    await connection.close();
    assert.equal(finished?.aborted, false, 'the answered request\'s signal stays as it was');
  });
});

describe('Connection audit 2: expired sessions (T3)', () => {
  test('T3 audit2: an expired-session refusal that comes after the request timed out neither renews nor sends it again', async () => {
    const renew = renewals();
    const transport = new WireTransport();
    const send = deferred();
    transport.gate = (m) => ('method' in m && m.method === 'slow' ? send.promise : undefined);
    const { connection } = await open({ renewSession: renew.renew }, transport);
    assert.ok((await rejection(connection.request('slow', {}, { timeoutMs: 5 }))) instanceof TimeoutError);
    send.reject(expired());
    await flushes();
    assert.equal(renew.calls, 0);
    assert.equal(transport.count('slow'), 1);
    await connection.close();
  });

  test('T3 audit2: a request refused for an expired session twice fails with SessionExpiredError after one renewal', async () => {
    const renew = renewals();
    const transport = new WireTransport((m) => (m.method === 'x' ? { ok: true } : NO_ANSWER));
    transport.gate = (m, nth) => ('method' in m && m.method === 'x' && nth <= 2 ? expired() : undefined);
    const { connection } = await open({ renewSession: renew.renew }, transport);
    const e = await rejection(connection.request('x', {}, { timeoutMs: 2_000 }));
    assert.ok(e instanceof SessionExpiredError && e.method === 'x', String(e));
    assert.equal(renew.calls, 1);
    assert.equal(transport.count('x'), 2);
    await connection.close();
  });

  test('T3 audit2: a request waiting to be sent again after a refusal is not among the answers lost; it goes out after the renewal', async () => {
    const renew = renewals();
    const gate = deferred();
    renew.next = gate.promise;
    const transport = new WireTransport((m) => (m.method === 'x' ? { ok: true } : NO_ANSWER));
    transport.gate = (m, nth) => ('method' in m && m.method === 'x' && nth === 1 ? expired() : undefined);
    const { connection } = await open({ renewSession: renew.renew }, transport);
    const p = connection.request('x');
    await flushes();
    assert.equal(renew.calls, 1);
    transport.handlers!.onAnswersLost('all', new ClosedError({ server: 'fake' }, { reason: 'transport' }));
    gate.resolve();
    assert.deepEqual(await p, { ok: true });
    assert.equal(transport.count('x'), 2);
    await connection.close();
  });

  test('T3 audit2: refusals of messages of the old session renew once: the second request or notification refused is just sent again', async () => {
    for (const kind of ['request', 'notification'] as const) {
      const renew = renewals();
      const transport = new WireTransport((m) => (m.method === 'a' || m.method === 'b' ? {} : NO_ANSWER));
      const first = { a: deferred(), b: deferred() };
      transport.gate = (m, nth) => ('method' in m && (m.method === 'a' || m.method === 'b') && nth === 1 ? first[m.method].promise : undefined);
      const { connection } = await open({ renewSession: renew.renew }, transport);
      const send = (method: string) => (kind === 'request' ? connection.request(method) : connection.notify(method));
      const a = send('a');
      const b = send('b');
      first.a.reject(expired());
      await flushes();
      assert.equal(renew.calls, 1, kind);
      first.b.reject(expired());
      await Promise.all([a, b]);
      assert.equal(renew.calls, 1, `${kind}: b was refused for the session already renewed`);
      assert.deepEqual([transport.count('a'), transport.count('b')], [2, 2], kind);
      await connection.close();
    }
  });

  test('T3 audit2: a notification refused for an expired session waits for the renewal before it goes again; refused twice, it fails', async () => {
    const renew = renewals();
    const gate = deferred();
    renew.next = gate.promise;
    const transport = new WireTransport();
    transport.gate = (m, nth) => ('method' in m && m.method === 'n' && nth === 1 ? expired() : 'method' in m && m.method === 'twice' && nth <= 2 ? expired() : undefined);
    const { connection } = await open({ renewSession: renew.renew }, transport);
    const n = connection.notify('n');
    await flushes();
    assert.equal(transport.count('n'), 1, 'not sent again before the new session exists');
    gate.resolve();
    await n;
    assert.equal(transport.count('n'), 2);
    const e = await rejection(connection.notify('twice'));
    assert.ok(e instanceof SessionExpiredError, String(e));
    assert.equal(transport.count('twice'), 2);
    await connection.close();
  });

  test('T3 audit2: a notification made while a renewal runs waits for it', async () => {
    const renew = renewals();
    const gate = deferred();
    renew.next = gate.promise;
    const { transport, connection } = await open({ renewSession: renew.renew });
    transport.handlers!.onSessionExpired();
    const n = connection.notify('n');
    await flushes();
    assert.equal(transport.count('n'), 0);
    gate.resolve();
    await n;
    assert.equal(transport.count('n'), 1);
    await connection.close();
  });

  test('T3 audit2: only an expired session is a reason to renew: a notification that fails otherwise, a handshake notification, an answer to the server, fail once', async () => {
    const renew = renewals();
    const transport = new WireTransport();
    transport.gate = (m, nth) => {
      if (nth > 1) return undefined;
      if ('method' in m && m.method === 'n') return new Error('pipe broke');
      if ('method' in m && m.method === 'notifications/initialized') return expired();
      if ('result' in m) return expired();
      return undefined;
    };
    const { connection } = await open({ renewSession: renew.renew }, transport);
    const e = await rejection(connection.notify('n'));
    assert.ok(e instanceof Error && e.message === 'pipe broke');
    const h = await rejection(connection.handshakeChannel().notify('notifications/initialized'));
    assert.ok(h instanceof SessionExpiredError);
    transport.inject({ jsonrpc: '2.0', id: 's1', method: 'ping' });
    await flushes();
    assert.equal(renew.calls, 0);
    assert.deepEqual([transport.count('n'), transport.count('notifications/initialized'), transport.count('s1')], [1, 1, 1]);
    assert.equal(connection.state, 'open');
    await connection.close();
  });

  test('T3 audit2: a request held at the renewal gate and aborted there is never sent; one sent after the renewal and refused again renews again', async () => {
    const renew = renewals();
    const gate = deferred();
    renew.next = gate.promise;
    const transport = new WireTransport((m) => (m.method === 'x' ? { ok: true } : NO_ANSWER));
    transport.gate = (m, nth) => ('method' in m && m.method === 'x' && nth === 1 ? expired() : undefined);
    const { connection } = await open({ renewSession: renew.renew }, transport);
    transport.handlers!.onSessionExpired();
    const controller = new AbortController();
    const aborted = rejection(connection.request('held', {}, { signal: controller.signal }));
    const x = connection.request('x');
    controller.abort(new Error('stop'));
    assert.equal(((await aborted) as Error).message, 'stop');
    gate.resolve();
    assert.deepEqual(await x, { ok: true });
    assert.equal(transport.count('held'), 0);
    assert.equal(renew.calls, 2, 'x was refused on the new session too: that is a new expiry');
    await connection.close();
  });

  test('T3 audit2: without renewSession an expired session changes nothing: the connection stays open; after the close no renewal starts', async () => {
    const { transport, connection } = await open();
    transport.handlers!.onSessionExpired();
    await flushes();
    assert.equal(connection.state, 'open');
    const p = connection.request('x');
    transport.inject({ jsonrpc: '2.0', id: 0, result: {} });
    assert.deepEqual(await p, {});
    await connection.close();
    const renew = renewals();
    const other = await open({ renewSession: renew.renew });
    await other.connection.close();
    other.transport.handlers!.onSessionExpired();
    await flushes();
    assert.equal(renew.calls, 0);
  });

  test('T3 audit2: a renewal that fails after the close is not run again, even if another expiry was reported while it ran', async () => {
    const renew = renewals();
    const gate = deferred();
    renew.next = gate.promise;
    const { transport, connection } = await open({ renewSession: renew.renew });
    transport.handlers!.onSessionExpired();
    transport.handlers!.onSessionExpired();
    await connection.close();
    gate.reject(new Error('the handshake failed: the connection is gone'));
    await flushes();
    assert.equal(renew.calls, 1);
    assert.equal(transport.closeCalls, 1);
    assert.equal(connection.state, 'closed');
  });

  test('L2 audit2: a notification on a closed connection rejects at once, even while a renewal it interrupted has not settled', async () => {
    const renew = renewals();
    renew.next = new Promise(() => {}); // the owner's handshake never settles
    const { transport, connection } = await open({ renewSession: renew.renew });
    transport.handlers!.onSessionExpired();
    await connection.close();
    const outcome = await Promise.race([connection.notify('n').then(() => 'sent', (e: unknown) => e), flushes(3).then(() => 'still waiting')]);
    assert.ok(outcome instanceof ClosedError && outcome.method === 'n', String(outcome));
  });
});

describe('Connection audit 2: while the transport reconnects (#16 item 6)', () => {
  test('W7 audit2: a request held during an outage and aborted there is never sent; one refused for an expired session on the way out is renewed and sent again', async () => {
    const renew = renewals();
    const transport = new WireTransport((m) => (m.method === 'x' ? { ok: true } : NO_ANSWER));
    transport.gate = (m, nth) => ('method' in m && m.method === 'x' && nth === 1 ? expired() : undefined);
    const { connection } = await open({ renewSession: renew.renew }, transport);
    transport.handlers!.onConnectionState!(reconnecting());
    const controller = new AbortController();
    const aborted = rejection(connection.request('held', {}, { signal: controller.signal }));
    const x = connection.request('x');
    controller.abort(new Error('stop'));
    await aborted;
    transport.handlers!.onConnectionState!({ state: 'connected' });
    assert.deepEqual(await x, { ok: true });
    assert.equal(transport.count('held'), 0);
    assert.equal(renew.calls, 1);
    assert.equal(transport.count('x'), 2);
    await connection.close();
  });

  test('W7 audit2: with reconnectWaitMs 0 a request made during an outage has failed before the stream comes back', async () => {
    const { transport, connection } = await open({ reconnectWaitMs: 0 });
    transport.handlers!.onConnectionState!(reconnecting());
    const p = rejection(connection.request('x', {}, { timeoutMs: 50 }));
    transport.handlers!.onConnectionState!({ state: 'connected' });
    const e = await p;
    assert.ok(e instanceof ClosedError && e.reason === 'unavailable', String(e));
    assert.equal(transport.count('x'), 0);
    await connection.close();
  });

  test('W7 audit2: the wait for a reconnect arms one timer per held request, and none is left armed once the request settles or the stream is back', async (t) => {
    const WAIT = 4_321;
    const armed = armedTimers(t, WAIT);
    const renew = renewals();
    const gate = deferred();
    renew.next = gate.promise;
    const { transport, connection } = await open({ reconnectWaitMs: WAIT, renewSession: renew.renew });
    const sent = connection.request('sent');
    transport.handlers!.onConnectionState!(reconnecting());
    assert.equal(armed(), 0, 'a request already handed to the transport does not wait for the reconnect');
    const controller = new AbortController();
    const aborted = rejection(connection.request('aborted', {}, { signal: controller.signal }));
    assert.equal(armed(), 1);
    controller.abort(new Error('stop'));
    await aborted;
    assert.equal(armed(), 0, 'settled: its timer is cleared');
    transport.handlers!.onConnectionState!({ state: 'connected' });
    // Held at the renewal gate when the stream drops, then at the outage once the renewal is over: still one timer.
    transport.handlers!.onSessionExpired();
    const held = connection.request('held');
    transport.handlers!.onConnectionState!(reconnecting());
    assert.equal(armed(), 1);
    gate.resolve();
    await flushes();
    assert.equal(armed(), 1);
    transport.handlers!.onConnectionState!({ state: 'connected' });
    assert.equal(armed(), 0, 'the stream is back: no wait is left armed');
    await flushes();
    assert.equal(transport.count('held'), 1);
    transport.inject({ jsonrpc: '2.0', id: 0, result: {} });
    transport.inject({ jsonrpc: '2.0', id: 2, result: {} });
    await Promise.all([sent, held]);
    await connection.close();
  });

  test('W7 audit2: on a runtime whose timers are numbers, a request held during an outage still fails as unavailable at its wait', async (t) => {
    const WAIT = 7;
    armedTimers(t, WAIT, true);
    const { transport, connection } = await open({ reconnectWaitMs: WAIT });
    transport.handlers!.onConnectionState!(reconnecting());
    const e = await rejection(connection.request('x'));
    assert.ok(e instanceof ClosedError && e.reason === 'unavailable', String(e));
    await connection.close();
  });

  test('W5 audit2: an answer to a server request made during an outage goes out once the stream is back', async () => {
    const { transport, connection } = await open();
    transport.handlers!.onConnectionState!(reconnecting());
    transport.inject({ jsonrpc: '2.0', id: 's1', method: 'ping' });
    await flushes();
    assert.equal(transport.count('s1'), 0);
    transport.handlers!.onConnectionState!({ state: 'connected' });
    await flushes();
    assert.deepEqual(transport.sent.filter((m) => m.id === 's1').map((m) => m.result), [{}]);
    await connection.close();
  });

  test('L2 audit2: closing during an outage ends it: a notification waiting for the reconnect rejects as closed', async () => {
    const { transport, connection } = await open();
    transport.handlers!.onConnectionState!(reconnecting());
    const n = connection.notify('n').then(() => 'sent', (e: unknown) => e);
    await connection.close();
    assert.equal(connection.reconnecting, undefined);
    const outcome = await Promise.race([n, flushes(3).then(() => 'still waiting')]);
    assert.ok(outcome instanceof ClosedError, String(outcome));
    assert.equal(transport.count('n'), 0);
  });
});

describe('Connection audit 2: close (L2)', () => {
  test('L2 audit2: close() fails what is pending at once and reports closing until the transport has shut down, even after its onClose', async () => {
    const transport = new WireTransport();
    const shut = deferred();
    transport.closeGate = shut.promise;
    const ends: TransportEnd[] = [];
    const { connection } = await open({ onClose: (end) => ends.push(end) }, transport);
    const p = rejection(connection.request('x'));
    const closing = connection.close();
    const e = await p;
    assert.ok(e instanceof ClosedError && e.reason === 'closed' && e.method === 'x', String(e));
    assert.equal(connection.state, 'closing');
    assert.deepEqual(ends, [{ reason: 'closed' }]);
    transport.end({ reason: 'exited', exitCode: 0, signal: null });
    assert.equal(connection.state, 'closing', 'the transport reported its end, close() has not finished');
    shut.resolve();
    await closing;
    assert.equal(connection.state, 'closed');
    assert.equal(ends.length, 1);
  });
});

describe('Connection audit 2: what the server is told about bad input (W5, W8)', () => {
  test('W8 audit2: an empty batch is reported as such; a batch with an answer is not reported at all', async () => {
    const { transport, connection, diagnostics } = await open();
    transport.inject([]);
    assert.deepEqual(diagnostics.map((d) => (d.kind === 'invalid-message' ? d.detail : d.kind)), ['an empty batch']);
    const p = connection.request('x');
    transport.inject([{ jsonrpc: '2.0', id: 0, result: { in: 'batch' } }]);
    assert.deepEqual(await p, { in: 'batch' });
    assert.equal(diagnostics.length, 1);
    await connection.close();
  });

  test('W8 audit2: the excerpt of an invalid message is its JSON text', async () => {
    const { transport, connection, diagnostics } = await open();
    transport.inject({ jsonrpc: '1.0', method: 'x' });
    const d = diagnostics[0];
    assert.ok(d?.kind === 'invalid-message');
    assert.match(d.excerpt, /"jsonrpc":"1\.0"/);
    await connection.close();
  });

  test('W5 audit2: an unknown method is answered -32601 "Method not found"; a malformed request with an id, -32600 naming what is wrong', async () => {
    const { transport, connection } = await open();
    transport.inject({ jsonrpc: '2.0', id: 'u', method: 'no/such' });
    transport.inject({ jsonrpc: '2.0', id: 'm', method: 5 });
    await flushes(2);
    const answer = (id: string) => transport.sent.find((m) => m.id === id)?.error as { code: number; message: string } | undefined;
    assert.deepEqual(answer('u'), { code: -32601, message: 'Method not found' });
    assert.equal(answer('m')?.code, -32600);
    assert.match(answer('m')?.message ?? '', /^Invalid Request: \S/);
    await connection.close();
  });
});

describe('Connection audit2: the request signal a transport gets (#20 item 2)', () => {
  test('RequestSignal reads as an aborted AbortSignal once aborted: reason (an AbortError by default), onabort and one abort event whose target it is', () => {
    const signal = new RequestSignal();
    assert.equal(signal.aborted, false);
    assert.equal(signal.reason, undefined);
    signal.throwIfAborted();
    const seen: unknown[] = [];
    signal.onabort = function (event) {
      seen.push(['onabort', this, event.type]);
    };
    signal.addEventListener('abort', (event) => seen.push(['listener', event.target, event.type]));
    signal.abort();
    signal.abort(new Error('again')); // once only
    assert.equal(signal.aborted, true);
    const reason: unknown = signal.reason;
    assert.ok(reason instanceof DOMException);
    // What a real AbortController's abort() gives, name and message.
    const real = new AbortController();
    real.abort();
    assert.deepEqual([reason.name, reason.message], ['AbortError', (real.signal.reason as DOMException).message]);
    assert.deepEqual(seen, [
      ['onabort', signal, 'abort'],
      ['listener', signal, 'abort'],
    ]);
    assert.throws(() => signal.throwIfAborted(), (error) => error === signal.reason);
    const given = new Error('given up');
    const other = new RequestSignal();
    other.abort(given);
    assert.equal(other.reason, given);
  });

  test('a request over a transport that takes the look-alike makes no AbortController; its signal is aborted once the server has been told', async (t) => {
    const transport = new WireTransport();
    transport.usesRequestSignals = true;
    Object.assign(transport, { [ACCEPTS_REQUEST_SIGNAL]: true });
    const { connection } = await open({}, transport);
    const Real = globalThis.AbortController;
    let made = 0;
    globalThis.AbortController = class extends Real {
      constructor() {
        super();
        made++;
      }
    };
    t.after(() => {
      globalThis.AbortController = Real;
    });
    const answered = connection.request('a', {});
    const abandoned = rejection(connection.request('b', {}, { timeoutMs: 5 }));
    transport.inject({ jsonrpc: '2.0', id: 0, result: {} });
    assert.deepEqual(await answered, {});
    assert.ok((await abandoned) instanceof TimeoutError);
    globalThis.AbortController = Real;
    assert.equal(made, 0, 'no AbortController per request');
    const [first, second] = transport.options.map((o) => o?.signal);
    assert.ok(first instanceof RequestSignal && second instanceof RequestSignal && first !== second, 'a signal of its own for each request');
    assert.equal(first.aborted, false, 'an answered request is not aborted');
    await flush();
    assert.equal(transport.count('notifications/cancelled'), 1);
    assert.equal(second.aborted, true);
    assert.equal((second.reason as DOMException).name, 'AbortError');
    await connection.close();
  });

  test('a transport that takes request signals but not the look-alike (a host\'s own) gets a real AbortSignal, which AbortSignal.any() follows', async () => {
    const transport = new WireTransport();
    transport.usesRequestSignals = true;
    const { connection } = await open({}, transport);
    const abandoned = rejection(connection.request('b', {}, { timeoutMs: 5 }));
    const signal = transport.options[0]?.signal;
    assert.ok(signal instanceof AbortSignal && !(signal instanceof RequestSignal));
    const linked = AbortSignal.any([signal, new AbortController().signal]);
    assert.ok((await abandoned) instanceof TimeoutError);
    await flush();
    assert.equal(transport.count('notifications/cancelled'), 1);
    assert.equal(signal.aborted, true);
    assert.equal(linked.aborted, true, 'AbortSignal.any() saw the abort');
    await connection.close();
  });
});
