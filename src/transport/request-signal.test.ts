// A request's own signal on both HTTP request paths (#20 item 2) when it is
// the Connection's RequestSignal, the AbortSignal look-alike every request
// over HTTP now carries instead of a real AbortController's signal: an abort
// before the response headers and one in the middle of the body end the
// exchange with the signal's reason and free the socket, on node:http and on
// fetch (whose AbortSignal.any() takes only real signals). Real servers on
// 127.0.0.1 that count their sockets; the timers are guards against a hang.

import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test, type TestContext } from 'node:test';
import { McpClient } from '../client/client.js';
import { RequestSignal } from '../client/connection.js';
import { startHttpFixture } from '../testing/http-fixture.js';
import { fetchClient, type HttpClient, type HttpClientKind, type HttpRequestInit } from './http-client.js';
import { nodeHttpClient } from './node-http.js';
import { guard, serveCounting } from '../testing/counting-server.js';

const PATHS: readonly HttpClientKind[] = ['node', 'fetch'];
/** The counting server, its URL as the request paths take it. */
async function serve(t: TestContext, handler: http.RequestListener): Promise<{ url: URL; allClosed(): Promise<void> }> {
  const served = await serveCounting(t, handler);
  return { url: new URL(served.url), allClosed: served.allClosed };
}

function clientFor(kind: HttpClientKind, t: TestContext): HttpClient {
  const client = kind === 'node' ? nodeHttpClient() : fetchClient(fetch);
  t.after(() => client.close());
  return client;
}

const init = (requestSignal: RequestSignal): HttpRequestInit => ({ method: 'GET', headers: {}, signal: new AbortController().signal, requestSignal });

describe('a RequestSignal as the request signal of an HTTP exchange', { timeout: 20_000 }, () => {
  for (const kind of PATHS) {
    test(`${kind}: an abort before the response headers rejects with the signal's reason and frees the socket`, async (t) => {
      let arrived!: () => void;
      const seen = new Promise<void>((resolve) => (arrived = resolve));
      const s = await serve(t, () => arrived()); // never answers
      const signal = new RequestSignal();
      const pending = clientFor(kind, t).request(s.url, init(signal));
      await guard(seen, 'the request to reach the server');
      const reason = new Error('given up');
      signal.abort(reason);
      await assert.rejects(guard(pending, 'the aborted request to settle'), (error) => error === reason);
      await guard(s.allClosed(), 'the aborted request’s socket to close');
    });

    test(`${kind}: an abort in the middle of the body rejects the pending read with the signal's reason and frees the socket`, async (t) => {
      const s = await serve(t, (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n'); // and never ends
      });
      const signal = new RequestSignal();
      const answer = await clientFor(kind, t).request(s.url, init(signal));
      assert.equal((await answer.body!.read()).done, false);
      const pending = answer.body!.read();
      const reason = new Error('stop reading');
      signal.abort(reason);
      await assert.rejects(guard(pending, 'the pending read to settle'), (error) => error === reason || (error as Error).name === 'AbortError');
      await guard(s.allClosed(), 'the server to see the socket closed');
    });

    test(`${kind}: a signal aborted before the request starts fails it at once with its reason`, async (t) => {
      let reached = false;
      const s = await serve(t, (_req, res) => {
        reached = true;
        res.end();
      });
      const signal = new RequestSignal();
      const reason = new Error('already given up');
      signal.abort(reason);
      await assert.rejects(guard(clientFor(kind, t).request(s.url, init(signal)), 'the request to fail'), (error) => error === reason);
      assert.equal(reached, false);
    });
  }
});

describe('which transports get the look-alike (#20)', () => {
  test('StreamableHttpTransport takes the look-alike: a client over it against a server on 127.0.0.1 hands each request a RequestSignal of its own', async (t) => {
    const fixture = await startHttpFixture(t);
    const transport = fixture.createTransport();
    const signals: (AbortSignal | undefined)[] = [];
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if ('id' in message && 'method' in message) signals.push(options?.signal);
      return send(message, options);
    };
    const client = new McpClient(transport);
    t.after(() => client.close());
    await client.connect();
    await client.ping();
    await client.ping();
    assert.ok(signals.length >= 3, `requests seen: ${signals.length}`);
    for (const signal of signals) assert.ok(signal instanceof RequestSignal, 'each request carries a RequestSignal');
    assert.equal(new Set(signals).size, signals.length, 'one of its own per request');
  });
});
