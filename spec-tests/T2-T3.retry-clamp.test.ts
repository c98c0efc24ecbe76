// T2/T3, issue #20: the server's SSE `retry:` field is clamped before it
// becomes a reconnect delay. The field is any run of digits: `retry:
// 99999999999` (past 2^31 − 1) made Node fire the reconnect timer after
// 1 ms (TimeoutOverflowWarning), and a large valid one (2 000 000 000 ms,
// 23 days) stalled the reconnect for that long. Now the delay is
// min(retry, reconnect.maxMs). Checked on the delay the transport chooses
// (the `reconnecting` report's nextAttemptAt − since), never on wall time,
// against a real server on 127.0.0.1 that sends the field and then drops the
// stream; and on the resume path of a POST's SSE answer, which reports
// nothing, by the call completing (with a 23-day wait it would not).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpClient, SseTransport, StreamableHttpTransport, type TransportState } from '../src/index.js';
import { startHttpFixture, until } from '../src/testing/http-fixture.js';
import { MAX_TIMER_MS, retryDelay } from '../src/util/backoff.js';
import { text } from './helpers/interop.js';

const MAX_MS = 300;
/** Past 2^31 − 1 (the brief's two), and one Node takes as given: 23 days. */
const HUGE = [99_999_999_999, 3_000_000_000, 2_000_000_000];

describe('T2/T3: the SSE retry field is clamped to reconnect.maxMs (#20)', { timeout: 60_000 }, () => {
  test('retryDelay: within [0, maxMs] and a Node timer\'s range, whatever the field says', () => {
    assert.equal(retryDelay(99_999_999_999, { maxMs: 30_000 }), 30_000);
    assert.equal(retryDelay(3_000_000_000, { maxMs: 30_000 }), 30_000);
    assert.equal(retryDelay(Number('9'.repeat(400)), { maxMs: 30_000 }), 30_000, 'Infinity');
    assert.equal(retryDelay(250, { maxMs: 30_000 }), 250, 'a retry within bounds is honoured as sent, below initialMs too');
    assert.equal(retryDelay(0, { maxMs: 30_000 }), 0);
    assert.equal(retryDelay(5_000_000_000, { maxMs: 4_000_000_000 }), MAX_TIMER_MS, 'a maxMs past a timer\'s range is held to it');
  });

  for (const retry of HUGE) {
    test(`Streamable HTTP GET stream: retry: ${retry} then a drop: the reconnect is planned maxMs out, and happens`, async (t) => {
      let gets = 0;
      const fixture = await startHttpFixture(t, {
        sessionId: 'sess-1',
        get: async (ex) => {
          gets++;
          if (gets > 1) return ex.openSse(); // the reopened stream stays open
          // A ping in the same event: its answer, POSTed back, says the client has read the retry field (a drop
          // right after the write can discard bytes the client had not read yet).
          await ex.event({ id: 'e1', retry, data: { jsonrpc: '2.0', id: 'p1', method: 'ping' } });
          await fixture.waitFor((r) => r.method === 'POST' && r.message?.id === 'p1');
          ex.drop();
        },
      });
      const states: TransportState[] = [];
      const client = new McpClient(new StreamableHttpTransport({ url: fixture.url, server: 'http', reconnect: { initialMs: 50, maxMs: MAX_MS } }), { onConnectionState: (s) => states.push(s) });
      t.after(() => client.close());
      await client.connect();
      await until(() => states.length > 0, 'the reconnecting report');
      const first = states[0]!;
      assert.ok(first.state === 'reconnecting' && first.nextAttemptAt !== undefined, JSON.stringify(first));
      assert.equal(first.nextAttemptAt - first.since, MAX_MS, `the delay chosen for retry: ${retry}`);
      await until(() => gets === 2, 'the GET stream to be reopened', 10_000);
      assert.equal(fixture.received('GET')[1]!.headers['last-event-id'], 'e1');
    });

    test(`Streamable HTTP resume of a POST's SSE answer: retry: ${retry} then the stream ends; the resume GET comes and the call is answered`, async (t) => {
      const fixture = await startHttpFixture(t, {
        post: async (ex) => {
          if (ex.message?.method !== 'tools/call') return ex.default();
          await ex.event({ id: 'r-1', data: '', retry });
          ex.end();
        },
        get: async (ex) => {
          if (ex.request.headers['last-event-id'] !== 'r-1') return ex.status(405);
          await ex.event({ id: 'r-2', data: { jsonrpc: '2.0', id: fixture.posted().find((m) => m.method === 'tools/call')!.id, result: { content: [{ type: 'text', text: 'resumed' }] } } });
          ex.end();
        },
      });
      const client = new McpClient(new StreamableHttpTransport({ url: fixture.url, server: 'http', reconnect: { initialMs: 50, maxMs: MAX_MS } }));
      t.after(() => client.close());
      await client.connect();
      // Unclamped, 2 000 000 000 waits 23 days: the call's own timeout (10 s) would end it first.
      assert.equal(text(await client.callTool('slow', {}, { timeoutMs: 10_000 })), 'resumed');
    });
  }

  test('legacy SSE: retry: 99999999999 on the stream, then a drop: the reconnect follows the backoff, within maxMs (T2 does not take retry)', async (t) => {
    const fixture = await startHttpFixture(t, { kind: 'sse' });
    const states: TransportState[] = [];
    const client = new McpClient(new SseTransport({ url: fixture.url, server: 'sse', reconnect: { initialMs: 50, maxMs: MAX_MS } }), { onConnectionState: (s) => states.push(s) });
    t.after(() => client.close());
    await client.connect();
    const stream = fixture.sessions[0]!.stream;
    await stream.event({ retry: 99_999_999_999, data: '' });
    stream.drop();
    await until(() => states.some((s) => s.state === 'connected'), 'the stream to be back', 10_000);
    const first = states[0]!;
    assert.ok(first.state === 'reconnecting' && first.nextAttemptAt !== undefined, JSON.stringify(first));
    assert.ok(first.nextAttemptAt - first.since <= MAX_MS, `${first.nextAttemptAt - first.since} ms`);
  });
});
