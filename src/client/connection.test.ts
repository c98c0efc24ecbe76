// Unit tests for Connection, the JSON-RPC peer (W4–W8), over an in-memory
// scripted Transport. Process-level behaviour is tested elsewhere.

import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, test } from 'node:test';
import type { Diagnostic } from '../diagnostics.js';
import { ClosedError, MessageTooLargeError, ProtocolError, RpcError, TimeoutError } from '../errors.js';
import { ScriptedTransport } from '../testing/scripted-transport.js';
import type { TransportEnd } from '../transport/transport.js';
import { ABANDONED_IDS_KEPT, Connection, type ConnectionOptions, type RequestHandler } from './connection.js';

/** The shared in-memory transport: records what is sent (JSON round trip), lets the test inject what arrives. */
const newTransport = () => new ScriptedTransport(undefined, { server: 'fake' });

async function open(options: ConnectionOptions = {}) {
  const transport = newTransport();
  const diagnostics: Diagnostic[] = [];
  const connection = new Connection(transport, { onDiagnostic: (d) => diagnostics.push(d), ...options });
  await connection.open();
  return { transport, connection, diagnostics };
}

/** Lets queued promise callbacks run (handler results, send() continuations). */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A promise's state without waiting for it. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  const winner = await Promise.race([promise.then(() => 'settled', () => 'settled'), Promise.resolve(marker)]);
  return winner !== marker;
}

describe('Connection: requests and responses (W4)', () => {
  test('ids are allocated by the client, unique, and answers out of order reach the right caller', async () => {
    const { transport, connection } = await open();
    const a = connection.request('tools/list', {});
    const b = connection.request('tools/call', { name: 'x' });
    const c = connection.request('ping');
    const ids = transport.sent.map((m) => m.id);
    assert.equal(new Set(ids).size, 3);
    for (const id of ids) assert.ok(typeof id === 'number' || typeof id === 'string');
    assert.deepEqual(transport.sent.map((m) => m.method), ['tools/list', 'tools/call', 'ping']);
    assert.deepEqual(transport.sent[1]!.params, { name: 'x' });
    assert.equal('params' in transport.sent[2]!, false, 'no params member when there are none');
    const [idA, idB, idC] = ids;
    transport.inject({ jsonrpc: '2.0', id: idC, result: { c: true } });
    transport.inject({ jsonrpc: '2.0', id: idA, result: { a: true } });
    transport.inject({ jsonrpc: '2.0', id: idB, result: { b: true } });
    assert.deepEqual(await Promise.all([a, b, c]), [{ a: true }, { b: true }, { c: true }]);
  });

  test('a JSON-RPC error becomes an RpcError with code, message, data, and names server and method', async () => {
    const { transport, connection } = await open();
    const p = connection.request('tools/call', { name: 'x' });
    transport.inject({ jsonrpc: '2.0', id: transport.sent[0]!.id, error: { code: -32602, message: 'bad args', data: { field: 'x' } } });
    const error = await p.then(
      () => assert.fail('resolved'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof RpcError);
    assert.equal(error.code, 'rpc');
    assert.equal(error.rpcCode, -32602);
    assert.equal(error.rpcMessage, 'bad args');
    assert.deepEqual(error.data, { field: 'x' });
    assert.equal(error.server, 'fake');
    assert.equal(error.method, 'tools/call');
    assert.match(error.message, /server "fake"/);
    assert.match(error.message, /tools\/call/);
    assert.match(error.message, /-32602/);
  });

  test('an answer for an unknown id is reported as unknown-response and does not touch the pending request', async () => {
    const { transport, connection, diagnostics } = await open();
    const p = connection.request('ping');
    const id = transport.sent[0]!.id as number;
    transport.inject({ jsonrpc: '2.0', id: id + 1000, result: { wrong: true } });
    transport.inject({ jsonrpc: '2.0', id: 'nope', error: { code: 1, message: 'm' } });
    assert.deepEqual(
      diagnostics.map((d) => d.kind === 'unknown-response' && d.id),
      [id + 1000, 'nope'],
    );
    assert.equal(await isSettled(p), false);
    transport.inject({ jsonrpc: '2.0', id, result: { right: true } });
    assert.deepEqual(await p, { right: true });
  });

  test('an error answer with id null is reported, not thrown into a pending request', async () => {
    const { transport, connection, diagnostics } = await open();
    const p = connection.request('ping');
    transport.inject({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    assert.deepEqual(diagnostics.map((d) => d.kind), ['unknown-response']);
    assert.equal(await isSettled(p), false);
    transport.inject({ jsonrpc: '2.0', id: transport.sent[0]!.id, result: {} });
    assert.deepEqual(await p, {});
  });

  test('an incoming batch (array) is handled item by item; an empty batch is reported', async () => {
    const notes: string[] = [];
    const { transport, connection, diagnostics } = await open({ onNotification: (n) => notes.push(n.method) });
    const a = connection.request('a');
    const b = connection.request('b');
    const [idA, idB] = transport.sent.map((m) => m.id);
    transport.inject([
      { jsonrpc: '2.0', id: idB, result: 'B' },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } },
      { jsonrpc: '2.0', id: 99, method: 'ping' },
      { jsonrpc: '2.0', id: idA, result: 'A' },
    ]);
    assert.deepEqual(await Promise.all([a, b]), ['A', 'B']);
    assert.deepEqual(notes, ['notifications/message']);
    await flush();
    assert.deepEqual(transport.sent.find((m) => m.id === 99), { jsonrpc: '2.0', id: 99, result: {} });
    transport.inject([]);
    assert.deepEqual(diagnostics.map((d) => d.kind), ['invalid-message']);
  });

  test('an invalid message that carries a pending id fails that request at once with a ProtocolError', async () => {
    const { transport, connection, diagnostics } = await open();
    const p = connection.request('tools/call', { name: 'x' });
    const other = connection.request('ping');
    transport.inject({ jsonrpc: '2.0', id: transport.sent[0]!.id, result: {}, error: { code: 1, message: 'm' } });
    await assert.rejects(p, (e: unknown) => e instanceof ProtocolError && e.method === 'tools/call' && /both/.test(e.message));
    assert.deepEqual(diagnostics.map((d) => d.kind), ['invalid-message']);
    assert.equal(await isSettled(other), false, 'the other request is untouched');
    transport.inject({ jsonrpc: '2.0', id: transport.sent[1]!.id, result: {} });
    assert.deepEqual(await other, {});
  });

  test('invalid messages without a usable id are reported and dropped; pending requests survive', async () => {
    const { transport, connection, diagnostics } = await open();
    const p = connection.request('ping');
    for (const bad of [42, 'text', null, { jsonrpc: '2.0' }, { jsonrpc: '2.0', method: 7 }, { jsonrpc: '2.0', id: null, result: {} }]) transport.inject(bad);
    assert.equal(diagnostics.length, 6);
    assert.ok(diagnostics.every((d) => d.kind === 'invalid-message'));
    assert.equal(await isSettled(p), false);
    transport.inject({ jsonrpc: '2.0', id: transport.sent[0]!.id, result: {} });
    assert.deepEqual(await p, {});
  });

  test('a malformed server request whose id equals a pending request id does not fail that request', async () => {
    // Server-request ids and ours are separate spaces: a bad *request* is not an answer to anything of ours.
    const { transport, connection, diagnostics } = await open();
    const p = connection.request('ping');
    const id = transport.sent[0]!.id;
    transport.inject({ id, method: 'roots/list' }); // no "jsonrpc"
    transport.inject({ jsonrpc: '2.0', id, method: 'x', params: [1] }); // params an array
    assert.deepEqual(diagnostics.map((d) => d.kind), ['invalid-message', 'invalid-message']);
    assert.equal(await isSettled(p), false);
    transport.inject({ jsonrpc: '2.0', id, result: { ok: 1 } });
    assert.deepEqual(await p, { ok: 1 });
  });
});

describe('Connection: timeouts and cancellation (W7)', () => {
  test('a timeout rejects with TimeoutError and sends notifications/cancelled with the request id', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { transport, connection } = await open({ defaultTimeoutMs: 1000 });
    const p = connection.request('tools/call', { name: 'slow' });
    const fast = connection.request('ping', undefined, { timeoutMs: 100 });
    const [slowId, fastId] = transport.sent.map((m) => m.id);
    t.mock.timers.tick(100);
    await assert.rejects(fast, (e: unknown) => e instanceof TimeoutError && e.timeoutMs === 100 && e.method === 'ping' && e.server === 'fake');
    assert.deepEqual(transport.cancellations(), [fastId]);
    assert.equal(await isSettled(p), false, 'the default timeout has not run out yet');
    t.mock.timers.tick(900);
    await assert.rejects(p, (e: unknown) => e instanceof TimeoutError && e.timeoutMs === 1000 && e.code === 'timeout');
    assert.deepEqual(transport.cancellations(), [fastId, slowId]);
    const cancel = transport.sent.find((m) => m.method === 'notifications/cancelled');
    assert.equal(cancel?.id, undefined, 'cancelled is a notification');
    assert.equal(typeof cancel?.params?.reason, 'string');
  });

  test('the default timeout is 30 s', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { connection } = await open();
    const p = connection.request('ping');
    t.mock.timers.tick(29_999);
    assert.equal(await isSettled(p), false);
    t.mock.timers.tick(1);
    await assert.rejects(p, TimeoutError);
  });

  test('a late answer after a timeout is reported as late-response and dropped', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { transport, connection, diagnostics } = await open();
    const p = connection.request('ping', undefined, { timeoutMs: 50 });
    t.mock.timers.tick(50);
    await assert.rejects(p, TimeoutError);
    transport.inject({ jsonrpc: '2.0', id: transport.sent[0]!.id, result: {} });
    assert.deepEqual(diagnostics, [{ kind: 'late-response', server: 'fake', id: transport.sent[0]!.id }]);
  });

  test('only the newest abandoned ids are remembered: past the cap, the oldest one\'s answer is an unknown-response', async () => {
    // Memory stays bounded however many requests are given up: the oldest ids are forgotten first.
    const { transport, connection, diagnostics } = await open();
    const controller = new AbortController();
    const calls = Array.from({ length: ABANDONED_IDS_KEPT + 1 }, () => connection.request('ping', undefined, { signal: controller.signal }).catch(() => {}));
    controller.abort();
    await Promise.all(calls);
    const ids = transport.sent.filter((m) => m.method === 'ping').map((m) => m.id);
    transport.inject({ jsonrpc: '2.0', id: ids[0]!, result: {} });
    transport.inject({ jsonrpc: '2.0', id: ids.at(-1)!, result: {} });
    assert.deepEqual(diagnostics.map((d) => d.kind), ['unknown-response', 'late-response']);
  });

  test('no timer is left once a request settles, answered or failed', async () => {
    // The timeout is armed per request; a settled request must not keep a timer (and so the process) alive.
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const { transport, connection } = await open();
    const answered = connection.request('ping', undefined, { timeoutMs: 60_000 });
    const failed = connection.request('tools/call', undefined, { timeoutMs: 45_000 });
    assert.ok(timers() > before, 'the requests armed a timer');
    const [a, b] = transport.sent.map((m) => m.id);
    transport.inject({ jsonrpc: '2.0', id: a!, result: {} });
    transport.inject({ jsonrpc: '2.0', id: b!, error: { code: -1, message: 'no' } });
    await answered;
    await assert.rejects(failed, RpcError);
    assert.equal(timers(), before);
  });

  test('abort rejects with exactly signal.reason (not a TimeoutError) and sends notifications/cancelled', async () => {
    const { transport, connection, diagnostics } = await open();
    const controller = new AbortController();
    const p = connection.request('tools/call', { name: 'x' }, { signal: controller.signal });
    const reason = new Error('user gave up');
    controller.abort(reason);
    await assert.rejects(p, (e: unknown) => e === reason);
    assert.deepEqual(transport.cancellations(), [transport.sent[0]!.id]);
    // The answer that arrives anyway is dropped quietly.
    transport.inject({ jsonrpc: '2.0', id: transport.sent[0]!.id, result: {} });
    assert.deepEqual(diagnostics.map((d) => d.kind), ['late-response']);
  });

  test('abort with the default reason rejects with that AbortError DOMException', async () => {
    const { connection } = await open();
    const controller = new AbortController();
    const p = connection.request('ping', undefined, { signal: controller.signal });
    controller.abort();
    await assert.rejects(p, (e: unknown) => e === controller.signal.reason && (e as Error).name === 'AbortError');
  });

  test('an already-aborted signal rejects with its reason and sends nothing', async () => {
    const { transport, connection } = await open();
    const reason = new Error('before');
    await assert.rejects(connection.request('ping', undefined, { signal: AbortSignal.abort(reason) }), (e: unknown) => e === reason);
    assert.deepEqual(transport.sent, []);
  });

  test('initialize is never cancelled (MCP lifecycle), neither on timeout nor on abort', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { transport, connection } = await open();
    const p1 = connection.request('initialize', {}, { timeoutMs: 10 });
    t.mock.timers.tick(10);
    await assert.rejects(p1, TimeoutError);
    const controller = new AbortController();
    const p2 = connection.request('initialize', {}, { signal: controller.signal });
    controller.abort(new Error('stop'));
    await assert.rejects(p2, /stop/);
    assert.deepEqual(transport.cancellations(), []);
    assert.deepEqual(transport.sent.map((m) => m.method), ['initialize', 'initialize']);
  });

  test('resetTimeoutOnProgress extends a request past its timeout while progress comes; the overall cap still ends it', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { transport, connection } = await open();
    const updates: unknown[] = [];
    const p = connection.request('tools/call', { name: 'long' }, {
      timeoutMs: 100,
      resetTimeoutOnProgress: true,
      maxTotalTimeoutMs: 400,
      onProgress: (u) => updates.push(u),
    });
    const sent = transport.sent[0]!;
    const token = (sent.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
    assert.notEqual(token, undefined, 'a progressToken is sent in params._meta');
    assert.equal(sent.params?.name, 'long', 'the caller’s params are kept');
    for (let elapsed = 60; elapsed <= 360; elapsed += 60) {
      t.mock.timers.tick(60);
      transport.inject({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: elapsed } });
    }
    // 360 ms in: far past the 100 ms timeout, still alive thanks to the progress reports.
    assert.equal(await isSettled(p), false);
    assert.equal(updates.length, 6);
    t.mock.timers.tick(40);
    await assert.rejects(p, (e: unknown) => e instanceof TimeoutError && e.timeoutMs === 400 && /in total/.test(e.message));
    assert.deepEqual(transport.cancellations(), [sent.id]);
  });

  test('resetTimeoutOnProgress: when progress stops, the per-step timeout ends the request', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { transport, connection } = await open();
    const p = connection.request('x', {}, { timeoutMs: 100, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 10_000 });
    const token = (transport.sent[0]!.params?._meta as { progressToken: unknown }).progressToken;
    t.mock.timers.tick(90);
    transport.inject({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1 } });
    t.mock.timers.tick(99);
    assert.equal(await isSettled(p), false);
    t.mock.timers.tick(1);
    await assert.rejects(p, (e: unknown) => e instanceof TimeoutError && e.timeoutMs === 100 && /last progress/.test(e.message));
  });

  test('without resetTimeoutOnProgress, progress does not extend the timeout', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { transport, connection } = await open();
    const p = connection.request('x', {}, { timeoutMs: 100, onProgress: () => {} });
    const token = (transport.sent[0]!.params?._meta as { progressToken: unknown }).progressToken;
    t.mock.timers.tick(90);
    transport.inject({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1 } });
    t.mock.timers.tick(10);
    await assert.rejects(p, TimeoutError);
  });

  test('onProgress receives progress, total and message; other tokens and malformed updates are not delivered', async () => {
    const { transport, connection } = await open();
    const updates: unknown[] = [];
    const p = connection.request('x', { _meta: { keep: 1 } }, { onProgress: (u) => updates.push(u) });
    const meta = transport.sent[0]!.params?._meta as { progressToken: string | number; keep: number };
    assert.equal(meta.keep, 1, 'existing _meta members are kept');
    const progress = (params: Record<string, unknown>) => transport.inject({ jsonrpc: '2.0', method: 'notifications/progress', params });
    progress({ progressToken: meta.progressToken, progress: 1 });
    progress({ progressToken: meta.progressToken, progress: 2, total: 10, message: 'half' });
    progress({ progressToken: 'someone-else', progress: 3 });
    progress({ progressToken: meta.progressToken, progress: 'four' });
    assert.deepEqual(updates, [{ progress: 1 }, { progress: 2, total: 10, message: 'half' }]);
    transport.inject({ jsonrpc: '2.0', id: transport.sent[0]!.id, result: {} });
    await p;
    progress({ progressToken: meta.progressToken, progress: 5 });
    assert.equal(updates.length, 2, 'no progress after the request settled');
  });

  test('a throwing onProgress is reported as handler-error and does not fail the request', async () => {
    const { transport, connection, diagnostics } = await open();
    const p = connection.request('x', {}, { onProgress: () => { throw new Error('hook bug'); } });
    const token = (transport.sent[0]!.params?._meta as { progressToken: unknown }).progressToken;
    transport.inject({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1 } });
    assert.deepEqual(diagnostics.map((d) => d.kind), ['handler-error']);
    transport.inject({ jsonrpc: '2.0', id: transport.sent[0]!.id, result: 'ok' });
    assert.equal(await p, 'ok');
  });

  test('abort listeners are removed once the request settles, whichever way', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { transport, connection } = await open();
    const controller = new AbortController();
    const { signal } = controller;
    const answered = connection.request('a', {}, { signal });
    const failed = connection.request('b', {}, { signal });
    const timedOut = connection.request('c', {}, { signal, timeoutMs: 10 });
    const invalid = connection.request('d', {}, { signal });
    assert.equal(getEventListeners(signal, 'abort').length, 4);
    const [a, b, , d] = transport.sent.map((m) => m.id);
    transport.inject({ jsonrpc: '2.0', id: a, result: {} });
    transport.inject({ jsonrpc: '2.0', id: b, error: { code: 1, message: 'no' } });
    transport.inject({ jsonrpc: '2.0', id: d, result: {}, error: { code: 1, message: 'both' } });
    t.mock.timers.tick(10);
    await answered;
    await assert.rejects(failed, RpcError);
    await assert.rejects(timedOut, TimeoutError);
    await assert.rejects(invalid, ProtocolError);
    assert.equal(getEventListeners(signal, 'abort').length, 0);
    const closing = connection.request('e', {}, { signal });
    assert.equal(getEventListeners(signal, 'abort').length, 1);
    transport.end({ reason: 'exited', exitCode: 1 });
    await assert.rejects(closing, ClosedError);
    assert.equal(getEventListeners(signal, 'abort').length, 0);
    assert.equal(controller.signal.aborted, false);
  });
});

describe('Connection: server-initiated requests (W5)', () => {
  async function answerTo(transport: ScriptedTransport, request: { id: string | number; method: string; params?: unknown }) {
    transport.inject({ jsonrpc: '2.0', ...request });
    return transport.next((m) => m.id === request.id && !('method' in m));
  }

  test('ping is answered {}', async () => {
    const { transport } = await open();
    assert.deepEqual(await answerTo(transport, { id: 'p1', method: 'ping' }), { jsonrpc: '2.0', id: 'p1', result: {} });
  });

  test('an unknown method is answered -32601', async () => {
    const { transport } = await open();
    const answer = await answerTo(transport, { id: 5, method: 'frobnicate/now', params: {} });
    assert.equal(answer.error?.code, -32601);
    assert.equal(typeof answer.error?.message, 'string');
    assert.equal('result' in answer, false);
  });

  test('sampling/createMessage, elicitation/create, roots/list without a handler are answered -32601', async () => {
    const { transport } = await open();
    for (const [i, method] of ['sampling/createMessage', 'elicitation/create', 'roots/list'].entries()) {
      const answer = await answerTo(transport, { id: i, method, params: {} });
      assert.equal(answer.error?.code, -32601, method);
    }
  });

  test('with a handler, its result is the answer (params and id passed in)', async () => {
    const { transport, connection } = await open();
    const seen: unknown[] = [];
    connection.setRequestHandler('sampling/createMessage', (params, context) => {
      seen.push(params, context.id);
      return { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' };
    });
    const answer = await answerTo(transport, { id: 'r', method: 'sampling/createMessage', params: { maxTokens: 5 } });
    assert.deepEqual(answer, { jsonrpc: '2.0', id: 'r', result: { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' } });
    assert.deepEqual(seen, [{ maxTokens: 5 }, 'r']);
  });

  test('an async handler that returns undefined is answered {}', async () => {
    const { transport, connection } = await open();
    connection.setRequestHandler('roots/list', async () => undefined);
    assert.deepEqual(await answerTo(transport, { id: 1, method: 'roots/list' }), { jsonrpc: '2.0', id: 1, result: {} });
  });

  test('a handler throwing RpcError is answered with that code, message and data', async () => {
    const { transport, connection } = await open();
    connection.setRequestHandler('sampling/createMessage', () => {
      throw new RpcError({ server: 'fake' }, -1, 'User rejected sampling', { why: 'no' });
    });
    const answer = await answerTo(transport, { id: 2, method: 'sampling/createMessage', params: {} });
    assert.deepEqual(answer.error, { code: -1, message: 'User rejected sampling', data: { why: 'no' } });
  });

  test('a handler throwing anything else is answered -32603 and reported as handler-error', async () => {
    const { transport, connection, diagnostics } = await open();
    const bug = new Error('secret internal detail');
    connection.setRequestHandler('roots/list', () => Promise.reject(bug));
    const answer = await answerTo(transport, { id: 3, method: 'roots/list' });
    assert.equal(answer.error?.code, -32603);
    assert.doesNotMatch(answer.error?.message ?? '', /secret/, 'internal details are not sent to the server');
    assert.deepEqual(diagnostics, [{ kind: 'handler-error', server: 'fake', method: 'roots/list', error: bug }]);
  });

  test('a malformed request with a readable id is still answered: -32600 Invalid Request', async () => {
    // W5: "No server request is ever left unanswered"; JSON-RPC 2.0 §5.1 has the code for it.
    const { transport, diagnostics } = await open();
    for (const [id, bad] of [
      [21, { jsonrpc: '2.0', id: 21, method: 'roots/list', params: [1, 2] }],
      ['s22', { id: 's22', method: 'ping' }],
    ] as const) {
      transport.inject(bad);
      const answer = await transport.next((m) => m.id === id);
      assert.equal(answer.error?.code, -32600);
      assert.equal('result' in answer, false);
    }
    assert.deepEqual(diagnostics.map((d) => d.kind), ['invalid-message', 'invalid-message']);
  });

  test('removing a handler brings back -32601', async () => {
    const { transport, connection } = await open();
    connection.setRequestHandler('roots/list', () => ({ roots: [] }));
    connection.setRequestHandler('roots/list', undefined);
    assert.equal((await answerTo(transport, { id: 4, method: 'roots/list' })).error?.code, -32601);
  });

  test('notifications/cancelled from the server aborts the handler’s signal and no response is sent', async () => {
    const { transport, connection } = await open();
    let signal: AbortSignal | undefined;
    let finish: (value: unknown) => void = () => {};
    const handler: RequestHandler = (_params, context) => {
      signal = context.signal;
      return new Promise((resolve) => (finish = resolve));
    };
    connection.setRequestHandler('sampling/createMessage', handler);
    transport.inject({ jsonrpc: '2.0', id: 'long', method: 'sampling/createMessage', params: {} });
    await flush();
    assert.equal(signal?.aborted, false);
    transport.inject({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'long', reason: 'user' } });
    assert.equal(signal?.aborted, true);
    finish({ role: 'assistant' });
    await flush();
    await flush();
    assert.deepEqual(transport.sent.filter((m) => m.id === 'long'), []);
    // Another request is still answered normally afterwards.
    transport.inject({ jsonrpc: '2.0', id: 'next', method: 'ping' });
    assert.deepEqual(await transport.next((m) => m.id === 'next'), { jsonrpc: '2.0', id: 'next', result: {} });
  });

  test('the handler’s signal is aborted when the connection ends, and nothing is sent after', async () => {
    const { transport, connection } = await open();
    let signal: AbortSignal | undefined;
    connection.setRequestHandler('roots/list', (_p, context) => {
      signal = context.signal;
      return new Promise(() => {});
    });
    transport.inject({ jsonrpc: '2.0', id: 1, method: 'roots/list' });
    await flush();
    transport.end({ reason: 'exited', exitCode: 0 });
    assert.equal(signal?.aborted, true);
  });
});

describe('Connection: notifications (W6)', () => {
  test('notifications reach onNotification; unknown ones too, and nothing is answered', async () => {
    const seen: string[] = [];
    const { transport } = await open({ onNotification: (n) => seen.push(n.method) });
    transport.inject({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    transport.inject({ jsonrpc: '2.0', method: 'notifications/whatever', params: { a: 1 } });
    await flush();
    assert.deepEqual(seen, ['notifications/tools/list_changed', 'notifications/whatever']);
    assert.deepEqual(transport.sent, []);
  });

  test('a throwing onNotification is reported as handler-error', async () => {
    const diagnostics: Diagnostic[] = [];
    const { transport } = await open({
      onNotification: () => {
        throw new Error('hook');
      },
      onDiagnostic: (d) => diagnostics.push(d),
    });
    transport.inject({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
    assert.deepEqual(diagnostics.map((d) => d.kind), ['handler-error']);
  });
});

describe('Connection: the end of the transport (W8)', () => {
  test('transport end rejects ALL pending requests at once with ClosedError naming each method', async () => {
    const ends: TransportEnd[] = [];
    const { transport, connection } = await open({ onClose: (end) => ends.push(end) });
    const calls = ['tools/list', 'tools/call', 'ping'].map((m) => connection.request(m, {}));
    transport.end({ reason: 'exited', exitCode: 3, stderrTail: 'panic: oh no' });
    const errors = await Promise.all(calls.map((p) => p.then(() => assert.fail('resolved'), (e: unknown) => e)));
    for (const [i, method] of ['tools/list', 'tools/call', 'ping'].entries()) {
      const e = errors[i];
      assert.ok(e instanceof ClosedError);
      assert.equal(e.reason, 'exited');
      assert.equal(e.exitCode, 3);
      assert.equal(e.method, method);
      assert.match(e.message, /exited with code 3/);
      assert.match(e.message, /panic: oh no/);
    }
    assert.deepEqual(ends, [{ reason: 'exited', exitCode: 3, stderrTail: 'panic: oh no' }]);
    assert.equal(connection.state, 'closed');
  });

  test('a too-large end rejects pending requests with MessageTooLargeError naming the limit', async () => {
    const { transport, connection } = await open();
    const p = connection.request('tools/call', {});
    transport.end({ reason: 'too-large', limitBytes: 1024 });
    await assert.rejects(p, (e: unknown) => e instanceof MessageTooLargeError && e instanceof ProtocolError && e.limitBytes === 1024 && /1024 bytes/.test(e.message));
    await assert.rejects(connection.request('ping'), MessageTooLargeError);
  });

  test('requests and notifications after close reject with ClosedError, and nothing is sent', async () => {
    const { transport, connection } = await open();
    const pending = connection.request('ping');
    await connection.close();
    await assert.rejects(pending, (e: unknown) => e instanceof ClosedError && e.reason === 'closed');
    const before = transport.sent.length;
    await assert.rejects(connection.request('tools/list'), (e: unknown) => e instanceof ClosedError && e.method === 'tools/list');
    await assert.rejects(connection.notify('notifications/initialized'), ClosedError);
    assert.equal(transport.sent.length, before);
  });

  test('requests before open reject with a not-connected ClosedError', async () => {
    const connection = new Connection(newTransport());
    await assert.rejects(connection.request('ping'), (e: unknown) => e instanceof ClosedError && e.reason === 'not-connected');
  });

  test('close() is idempotent and a second transport end is ignored', async () => {
    const ends: TransportEnd[] = [];
    const { transport, connection } = await open({ onClose: (end) => ends.push(end) });
    await connection.close();
    await connection.close();
    transport.handlers!.onClose({ reason: 'exited', exitCode: 1 });
    assert.deepEqual(ends, [{ reason: 'closed' }]);
  });

  test('a failing send rejects that request with a ClosedError that names the request (W8)', async () => {
    const { transport, connection } = await open();
    const epipe = new Error('write EPIPE');
    // What a transport knows when a write fails: the server, not the request.
    transport.send = () => Promise.reject(new ClosedError({ server: 'fake' }, { reason: 'transport', cause: epipe, stderrTail: 'dying' }));
    const error = await connection.request('tools/call', { name: 'x' }).then(() => assert.fail('resolved'), (e: unknown) => e);
    assert.ok(error instanceof ClosedError);
    assert.equal(error.method, 'tools/call');
    assert.equal(error.reason, 'transport');
    assert.equal(error.cause, epipe);
    assert.equal(error.stderrTail, 'dying');
    assert.match(error.message, /server "fake", tools\/call: the transport failed \(write EPIPE\)/);
  });

  test('a failing send with another error (a caller bug such as unserialisable params) passes it through', async () => {
    const { transport, connection } = await open();
    const bug = new TypeError('Do not know how to serialize a BigInt');
    transport.send = () => Promise.reject(bug);
    await assert.rejects(connection.request('ping'), (e: unknown) => e === bug);
  });

  test('no cancelled is sent for requests rejected by the end of the transport', async () => {
    const { transport, connection } = await open();
    const p = connection.request('tools/call', {});
    transport.end({ reason: 'exited', exitCode: 0 });
    await assert.rejects(p, ClosedError);
    assert.deepEqual(transport.cancellations(), []);
  });
});
