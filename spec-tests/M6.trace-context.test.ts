// Trace context (#17 item 6, M6): the W3C checks, and what reaches the wire:
// the raw lines a real stdio child receives, and the headers a real HTTP
// server on 127.0.0.1 receives.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { receivedLines, startScriptedServer } from './helpers/scripted-server.js';
import type { Diagnostic } from '../src/diagnostics.js';
import { startHttpFixture } from '../src/testing/http-fixture.js';
import { McpClient } from '../src/client/client.js';
import { baggageProblem, checkTraceContext, traceparentProblem, tracestateProblem } from '../src/client/trace-context.js';

const PARENT = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';
const OTHER_PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-b7ad6b7169203331-00';

describe('W3C forms', () => {
  test('traceparent: the W3C examples pass; each broken rule is named', () => {
    assert.equal(traceparentProblem(PARENT), undefined);
    assert.equal(traceparentProblem(OTHER_PARENT), undefined);
    // A later version may carry more fields after a dash.
    assert.equal(traceparentProblem('01-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-what-the-future-holds'), undefined);
    for (const [value, why] of [
      ['', /not of the form/],
      ['00-0AF7651916CD43DD8448EB211C80319C-00f067aa0ba902b7-01', /not of the form/], // upper case
      ['00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-1', /not of the form/],
      ['00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01\r\nx-evil: 1', /not of the form|exactly four/],
      ['ff-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01', /ff is forbidden/],
      ['00-00000000000000000000000000000000-00f067aa0ba902b7-01', /trace-id is all zeros/],
      ['00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01', /parent-id is all zeros/],
      ['00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-extra', /exactly four fields/],
    ] as const) {
      assert.match(traceparentProblem(value) ?? 'valid', why, JSON.stringify(value));
    }
  });

  test('tracestate and baggage', () => {
    assert.equal(tracestateProblem('rojo=00f067aa0ba902b7,congo=t61rcWkgMzE'), undefined);
    assert.equal(tracestateProblem('tenant@vendor=x'), undefined);
    assert.match(tracestateProblem('Rojo=1') ?? '', /list member/);
    assert.match(tracestateProblem('a=1,a=2') ?? '', /twice/);
    assert.match(tracestateProblem(Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(',')) ?? '', /33 list members/);
    assert.equal(baggageProblem('userId=alice,serverNode=DF%2028,isProduction=false;p=1'), undefined);
    assert.match(baggageProblem('user id=alice') ?? '', /list member/);
    assert.match(baggageProblem('k=a\nb') ?? '', /list member/);
    assert.match(baggageProblem(`k=${'a'.repeat(9000)}`) ?? '', /8192 bytes/);
  });

  test('a tracestate goes only beside a valid traceparent; baggage stands alone', () => {
    assert.deepEqual(checkTraceContext({ traceparent: PARENT, tracestate: 'a=1', baggage: 'k=v' }), {
      meta: { traceparent: PARENT, tracestate: 'a=1', baggage: 'k=v' },
      problems: [],
    });
    const { meta, problems } = checkTraceContext({ traceparent: 'nope', tracestate: 'a=1', baggage: 'k=v' });
    assert.deepEqual(meta, { baggage: 'k=v' });
    assert.deepEqual(problems.map((p) => p.key), ['traceparent', 'tracestate']);
    assert.deepEqual(checkTraceContext({}), { meta: undefined, problems: [] });
  });
});

describe('over stdio: the bytes a real child receives', () => {
  test("the hook's context is in _meta of every request, initialize included; a request's own context wins", async (t) => {
    const asked: string[] = [];
    const { client } = await startScriptedServer(t, [], {
      traceContext: (method) => {
        asked.push(method);
        return { traceparent: PARENT, tracestate: 'rojo=00f067aa0ba902b7' };
      },
    });
    await client.callTool('echo', { text: 'hi' }, { traceContext: { traceparent: OTHER_PARENT, baggage: 'userId=alice' } });
    await client.listTools();
    const lines = await receivedLines(client);
    const messages = lines.map((line) => JSON.parse(line) as { method?: string; id?: unknown; params?: { _meta?: Record<string, unknown> } });
    const initialize = messages.find((m) => m.method === 'initialize')!;
    assert.deepEqual(initialize.params?._meta, { traceparent: PARENT, tracestate: 'rojo=00f067aa0ba902b7' });
    // The exact bytes: the keys are in _meta, beside nothing else the caller did not ask for.
    const call = lines.find((line) => line.includes('"tools/call"'))!;
    assert.ok(call.includes(`"_meta":{"traceparent":"${OTHER_PARENT}","baggage":"userId=alice"}`), call);
    const list = messages.find((m) => m.method === 'tools/list')!;
    assert.deepEqual(list.params?._meta, { traceparent: PARENT, tracestate: 'rojo=00f067aa0ba902b7' });
    // A notification carries none (it is no request), and the hook was asked once per request it served.
    const initialized = messages.find((m) => m.method === 'notifications/initialized')!;
    assert.equal(initialized.params?._meta, undefined);
    assert.deepEqual(asked, ['initialize', 'tools/list', 'tools/call']);
  });

  test('with progress the token and the trace share _meta', async (t) => {
    const { client } = await startScriptedServer(t, [], { traceContext: () => ({ traceparent: PARENT }) });
    await client.callTool('notify', {}, { onProgress: () => {} });
    const call = (await receivedLines(client)).map((l) => JSON.parse(l) as { method?: string; id?: number; params?: { _meta?: unknown } }).find((m) => m.method === 'tools/call')!;
    assert.deepEqual(call.params?._meta, { progressToken: call.id, traceparent: PARENT });
  });

  test('an invalid traceparent is dropped with a diagnostic that does not repeat it, and never sent', async (t) => {
    const canary = '00-CANARY0000000000000000000000000-00f067aa0ba902b7-01';
    const diagnostics: Diagnostic[] = [];
    const { client } = await startScriptedServer(t, [], { traceContext: () => ({ traceparent: canary, tracestate: 'a=1', baggage: 'k=v' }), onDiagnostic: (d) => diagnostics.push(d) });
    await client.callTool('echo', { text: 'x' });
    const lines = await receivedLines(client);
    assert.ok(!lines.some((l) => l.includes('CANARY')), 'the invalid traceparent reached the wire');
    assert.ok(!lines.some((l) => l.includes('tracestate')), 'a tracestate without its traceparent reached the wire');
    const call = lines.map((l) => JSON.parse(l) as { method?: string; params?: { _meta?: unknown } }).find((m) => m.method === 'tools/call')!;
    assert.deepEqual(call.params?._meta, { baggage: 'k=v' });
    const dropped = diagnostics.filter((d) => d.kind === 'invalid-trace-context');
    assert.ok(dropped.some((d) => d.kind === 'invalid-trace-context' && d.key === 'traceparent' && d.method === 'tools/call'));
    assert.ok(!JSON.stringify(dropped).includes('CANARY'));
  });

  test('a hook that throws is reported and the request goes without', async (t) => {
    const diagnostics: Diagnostic[] = [];
    const { client } = await startScriptedServer(t, [], {
      traceContext: () => {
        throw new Error('tracer broke');
      },
      onDiagnostic: (d) => diagnostics.push(d),
    });
    const result = await client.callTool('echo', { text: 'still works' });
    assert.deepEqual(result.content, [{ type: 'text', text: 'still works' }]);
    assert.ok(diagnostics.some((d) => d.kind === 'handler-error' && d.method === 'traceContext'));
  });
});

describe('over Streamable HTTP: the header beside _meta', () => {
  test('traceparent, tracestate and baggage headers on every request POST, none on notifications', async (t) => {
    const fixture = await startHttpFixture(t);
    const client = new McpClient(fixture.createTransport(), { traceContext: () => ({ traceparent: PARENT, tracestate: 'rojo=1', baggage: 'k=v' }) });
    t.after(() => client.close());
    await client.connect();
    await client.callTool('echo', {}, { traceContext: { traceparent: OTHER_PARENT } });
    const posts = fixture.received('POST');
    const byMethod = (method: string) => posts.find((r) => r.message?.method === method)!;
    for (const method of ['initialize']) {
      const { headers } = byMethod(method);
      assert.equal(headers.traceparent, PARENT);
      assert.equal(headers.tracestate, 'rojo=1');
      assert.equal(headers.baggage, 'k=v');
    }
    const call = byMethod('tools/call');
    assert.equal(call.headers.traceparent, OTHER_PARENT);
    assert.equal(call.headers.tracestate, undefined);
    assert.deepEqual((call.message?.params as { _meta?: unknown })._meta, { traceparent: OTHER_PARENT });
    assert.equal(byMethod('notifications/initialized').headers.traceparent, undefined);
  });

  test('an invalid traceparent is in neither the header nor the body', async (t) => {
    const fixture = await startHttpFixture(t);
    const client = new McpClient(fixture.createTransport(), { traceContext: () => ({ traceparent: 'not-a-traceparent' }) });
    t.after(() => client.close());
    await client.connect();
    await client.callTool('echo', {});
    for (const request of fixture.received('POST')) {
      assert.equal(request.headers.traceparent, undefined);
      assert.ok(!request.body.includes('not-a-traceparent'));
    }
  });
});
