// #16 item 6: a dropped session stream is a state the client reports, not a
// wait it hides. The moment the legacy SSE stream drops (or the Streamable
// HTTP GET stream breaks), the client reports `reconnecting` through
// onConnectionState (with the next attempt's time, again after each failed
// attempt), `client.state` says 'reconnecting', and a request made meanwhile
// waits reconnectWaitMs at most and then fails with ClosedError
// 'unavailable' naming the next attempt, instead of waiting out the whole
// reconnect schedule (0.5 + 1 + 2 + 4 + 8 = 15.5 s) as it did. When the
// stream is back: `connected`, and calls work again; when the client gives
// up: onClose, as before. Against the HTTP fixture and the real
// server-everything (killed and started again on the same port).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { ClosedError, McpClient, SseTransport, StreamableHttpTransport, type TransportEnd, type TransportState } from '../src/index.js';
import { startHttpFixture, until } from '../src/testing/http-fixture.js';
import { restartableEverything } from './helpers/everything-restartable.js';
import { text } from './helpers/interop.js';

/** The states a client reported, each with when (performance.now()) it arrived. */
function recorder() {
  const states: (TransportState & { at: number })[] = [];
  const ends: TransportEnd[] = [];
  return {
    states,
    ends,
    options: { onConnectionState: (s: TransportState) => states.push({ ...s, at: performance.now() }), onClose: (end: TransportEnd) => ends.push(end) },
  };
}

describe('T5: reconnecting (#16 item 6)', { timeout: 90_000 }, () => {
  test('legacy SSE: a drop is reported at once; a call made meanwhile fails as unavailable after reconnectWaitMs, with the next attempt; the stream back is reported and calls work', async (t) => {
    let refuse = false;
    const fixture = await startHttpFixture(t, {
      kind: 'sse',
      get: (ex) => (refuse ? ex.status(503, 'restarting') : ex.default()),
    });
    const seen = recorder();
    const client = new McpClient(new SseTransport({ url: fixture.url, server: 'sse', reconnect: { initialMs: 200, maxAttempts: 10 } }), { ...seen.options, reconnectWaitMs: 300 });
    t.after(() => client.close());
    await client.connect();

    refuse = true;
    const droppedAt = performance.now();
    fixture.sessions[0]!.stream.drop();
    await until(() => seen.states.length > 0, 'the reconnecting report');
    const first = seen.states[0]!;
    assert.equal(first.state, 'reconnecting');
    assert.ok(first.state === 'reconnecting' && first.nextAttemptAt !== undefined && first.nextAttemptAt >= first.since, JSON.stringify(first));
    assert.match(first.state === 'reconnecting' ? first.reason : '', /SSE stream dropped/);
    assert.equal(client.state, 'reconnecting');
    t.diagnostic(`legacy SSE drop → reconnecting: ${(first.at - droppedAt).toFixed(1)} ms`);

    const error = await client.callTool('echo', {}, { timeoutMs: 20_000 }).then(
      () => assert.fail('no call can succeed while the stream is down'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ClosedError, String(error));
    assert.equal(error.reason, 'unavailable');
    assert.equal(error.method, 'tools/call');
    assert.equal(typeof error.nextAttemptAt, 'number');
    assert.match(error.message, /reconnecting since .*next attempt at/);
    assert.deepEqual(seen.ends, [], 'failed while the client still reconnects, not when it gave up');

    refuse = false;
    await until(() => seen.states.at(-1)?.state === 'connected', 'the connected report', 10_000);
    assert.ok(seen.states.slice(1, -1).every((s) => s.state === 'reconnecting'), 'each failed attempt reported as reconnecting');
    assert.equal(text(await client.callTool('echo', {}, { timeoutMs: 10_000 })), 'called echo');
    assert.equal(client.state, 'ready');
  });

  test('legacy SSE: a call made during a blip shorter than reconnectWaitMs waits for it and succeeds', async (t) => {
    const fixture = await startHttpFixture(t, { kind: 'sse' });
    const seen = recorder();
    const client = new McpClient(new SseTransport({ url: fixture.url, server: 'sse', reconnect: { initialMs: 50 } }), seen.options);
    t.after(() => client.close());
    await client.connect();
    fixture.sessions[0]!.stream.drop();
    await until(() => seen.states.length > 0, 'the reconnecting report');
    assert.equal(text(await client.callTool('echo', {}, { timeoutMs: 10_000 })), 'called echo');
    assert.deepEqual(seen.states.map((s) => s.state), ['reconnecting', 'connected']);
  });

  test('legacy SSE: reconnectWaitMs 0 fails a call at once while reconnecting; giving up is onClose', async (t) => {
    const fixture = await startHttpFixture(t, { kind: 'sse', get: (ex) => (fixture.sessions.length === 0 ? ex.default() : ex.status(503)) });
    const seen = recorder();
    const client = new McpClient(new SseTransport({ url: fixture.url, server: 'sse', reconnect: { initialMs: 100, maxAttempts: 2 } }), { ...seen.options, reconnectWaitMs: 0 });
    t.after(() => client.close());
    await client.connect();
    fixture.sessions[0]!.stream.drop();
    await until(() => seen.states.length > 0, 'the reconnecting report');
    await assert.rejects(client.listTools(), (e: unknown) => e instanceof ClosedError && e.reason === 'unavailable');
    await until(() => seen.ends.length === 1, 'the client to give up');
    assert.equal(seen.ends[0]!.reason, 'transport');
    assert.ok(!seen.states.some((s) => s.state === 'connected'));
    assert.equal(client.state, 'closed');
  });

  test('real server-everything over legacy SSE: killed → reconnecting at once, calls fail fast as unavailable; started again on the same port → connected, calls work', async (t) => {
    const server = await restartableEverything(t, 'sse');
    const seen = recorder();
    const client = new McpClient(new SseTransport({ url: `http://127.0.0.1:${server.port}/sse`, server: 'everything-sse' }), { ...seen.options, timeoutMs: 15_000 });
    t.after(() => client.close());
    await client.connect();
    assert.equal(text(await client.callTool('echo', { message: 'before' })), 'Echo: before');

    const killedAt = performance.now();
    await server.kill();
    const exitedAt = performance.now();
    await until(() => seen.states.length > 0, 'the reconnecting report');
    t.diagnostic(`server-everything sse: SIGKILL → reconnecting ${(seen.states[0]!.at - killedAt).toFixed(1)} ms (exit seen after ${(exitedAt - killedAt).toFixed(1)} ms)`);
    assert.equal(client.state, 'reconnecting');
    const callAt = performance.now();
    await assert.rejects(client.callTool('echo', { message: 'during' }), (e: unknown) => e instanceof ClosedError && e.reason === 'unavailable' && typeof e.nextAttemptAt === 'number');
    t.diagnostic(`a call while reconnecting failed after ${(performance.now() - callAt).toFixed(0)} ms (reconnectWaitMs default 1000; it used to wait out the 15.5 s schedule)`);
    assert.deepEqual(seen.ends, []);

    await server.start();
    await until(() => seen.states.at(-1)?.state === 'connected', 'the connected report', 20_000);
    assert.equal(text(await client.callTool('echo', { message: 'after' })), 'Echo: after');
    assert.deepEqual(seen.ends, [], 'the same client, on a new session');
  });

  test('real server-everything over Streamable HTTP: killed → reconnecting (the GET stream broke); started again → connected, the session renewed, calls work', async (t) => {
    const server = await restartableEverything(t, 'streamableHttp');
    const seen = recorder();
    let renewed = 0;
    const client = new McpClient(new StreamableHttpTransport({ url: `http://127.0.0.1:${server.port}/mcp`, server: 'everything-http' }), {
      ...seen.options,
      timeoutMs: 15_000,
      onSessionRenewed: () => renewed++,
    });
    t.after(() => client.close());
    await client.connect();
    await until(() => /Establishing new SSE stream/.test(server.stdout()), 'the GET stream to open');
    const killedAt = performance.now();
    await server.kill();
    await until(() => seen.states.length > 0, 'the reconnecting report');
    t.diagnostic(`server-everything streamableHttp: SIGKILL → reconnecting ${(seen.states[0]!.at - killedAt).toFixed(1)} ms`);
    assert.equal(client.state, 'reconnecting');
    await assert.rejects(client.callTool('echo', { message: 'during' }), (e: unknown) => e instanceof ClosedError && e.reason === 'unavailable');

    await server.start();
    await until(() => seen.states.at(-1)?.state === 'connected', 'the connected report', 20_000);
    // The GET is retried on the reconnect backoff (up to 30 s between tries): under load a try or two can fail before the new server answers.
    await until(() => renewed === 1, 'the session to be renewed (the new server refused the old one on the GET)', 35_000);
    assert.equal(text(await client.callTool('echo', { message: 'after' })), 'Echo: after');
    assert.equal(client.state, 'ready');
    assert.deepEqual(seen.ends, []);
  });

  test('Streamable HTTP: a GET stream the server ends cleanly is reopened without a reconnecting report', async (t) => {
    let gets = 0;
    const fixture = await startHttpFixture(t, {
      sessionId: 'sess-1',
      get: async (ex) => {
        gets++;
        await ex.event({ id: `e${gets}`, retry: 20, data: '' });
        if (gets === 1) ex.end(); // a server may close its stream at any time
      },
    });
    const seen = recorder();
    const client = new McpClient(new StreamableHttpTransport({ url: fixture.url, server: 'http' }), seen.options);
    t.after(() => client.close());
    await client.connect();
    await until(() => gets === 2, 'the GET stream to be reopened');
    await delay(50);
    assert.deepEqual(seen.states, []);
    assert.equal(client.state, 'ready');
  });
});
