// The node:http request path's own tests (#20, SPEC T2/T3), each on both
// request paths where the behaviour is shared: real node:http servers on
// 127.0.0.1 (port 0) that the test stops, and that count what they see —
// connections opened and closed, so that keep-alive, close() and abort are
// checked by the server's own sockets, not by timing. No timed assertion:
// the few timers here are guards that turn a hang into a failure.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { Socket } from 'node:net';
import { describe, test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { getEventListeners } from 'node:events';
import { causeChain, ClosedError, ConfigError, MessageTooLargeError } from '../errors.js';
import { McpClient } from '../client/client.js';
import { chooseHttpClient, fetchClient, type HttpAnswer, type HttpClient, type HttpClientKind } from './http-client.js';
import { nodeHttpClient } from './node-http.js';
import { SseTransport } from './sse.js';
import { readSse, type ChunkPusher } from './sse-stream.js';
import { StreamableHttpTransport } from './streamable-http.js';
import { GUARD_MS, guard, serveCounting } from '../testing/counting-server.js';
import { until } from '../testing/http-fixture.js';

const PATHS: readonly HttpClientKind[] = ['node', 'fetch'];

const serve = serveCounting;


function clientFor(kind: HttpClientKind, t: TestContext): HttpClient {
  const client = kind === 'node' ? nodeHttpClient() : fetchClient(fetch);
  t.after(() => client.close());
  return client;
}

async function readAll(answer: HttpAnswer): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  if (answer.body) for await (const chunk of answer.body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const get = (signal = new AbortController().signal) => ({ method: 'GET', headers: {}, signal });

function resultFor(method: string | undefined): unknown {
  if (method === 'initialize') return { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'node-path-fixture', version: '1' } };
  return method === 'tools/list' ? { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] } : {};
}

/** A minimal legacy HTTP+SSE server: GET /sse announces /messages and carries every answer; POST /messages is answered 202. */
function legacyHandler(): http.RequestListener {
  let stream: http.ServerResponse | undefined;
  return (req, res) => {
    if (req.method === 'GET' && req.url === '/sse') {
      stream = res;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: endpoint\ndata: /messages\n\n');
      return;
    }
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      const message = JSON.parse(body) as { id?: unknown; method?: string };
      res.writeHead(202).end();
      if (message.id !== undefined) stream?.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: resultFor(message.method) })}\n\n`);
    });
  };
}

/** A minimal MCP endpoint: initialize and tools/list answered as JSON, notifications 202; `hook` may take a request over. */
function mcpHandler(hook?: (message: { id?: unknown; method?: string }, res: http.ServerResponse) => boolean): http.RequestListener {
  return (req, res) => {
    if (req.method === 'GET') {
      // The optional server-to-client stream, held open: close() has to end it.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
      return;
    }
    if (req.method !== 'POST') return void res.writeHead(200).end();
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      const message = JSON.parse(body) as { id?: unknown; method?: string };
      if (hook?.(message, res)) return;
      if (message.id === undefined) return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: resultFor(message.method) }));
    });
  };
}

describe('T2/T3 (#20): the node:http request path', () => {
  test('chooseHttpClient: the option, then a passed fetch, then MCPWIRE_HTTP_CLIENT, then node:http on Node', (t) => {
    const saved = process.env.MCPWIRE_HTTP_CLIENT;
    t.after(() => {
      if (saved === undefined) delete process.env.MCPWIRE_HTTP_CLIENT;
      else process.env.MCPWIRE_HTTP_CLIENT = saved;
    });
    const passed = (() => Promise.reject(new Error('unused'))) as unknown as typeof fetch;
    delete process.env.MCPWIRE_HTTP_CLIENT;
    assert.equal(chooseHttpClient({}), 'node');
    assert.equal(chooseHttpClient({ fetch: passed }), 'fetch');
    assert.equal(chooseHttpClient({ httpClient: 'node', fetch: passed }), 'node');
    process.env.MCPWIRE_HTTP_CLIENT = 'fetch';
    assert.equal(chooseHttpClient({}), 'fetch');
    assert.equal(chooseHttpClient({ httpClient: 'node' }), 'node');
    process.env.MCPWIRE_HTTP_CLIENT = 'node';
    assert.equal(chooseHttpClient({ fetch: passed }), 'fetch', 'a host that passes its own fetch gets it, whatever the environment says');
    assert.equal(chooseHttpClient({ httpClient: 'fetch' }), 'fetch');
    process.env.MCPWIRE_HTTP_CLIENT = 'undici';
    assert.equal(chooseHttpClient({}), 'node', 'an unknown value is ignored');
  });

  for (const kind of PATHS) {
    test(`${kind}: sequential requests reuse one kept-alive connection`, async (t) => {
      const s = await serve(t, (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
      const client = clientFor(kind, t);
      for (let i = 0; i < 4; i++) {
        const answer = await client.request(new URL(s.url), get());
        assert.equal((await readAll(answer)).toString(), 'ok');
      }
      // The node path's promise (one Agent per transport); fetch's pooling is the runtime's (Node 20's undici sometimes opens a second).
      if (kind === 'node') assert.equal(s.connections.length, 1, `the server saw ${s.connections.length} connections for 4 sequential requests`);
    });

    test(`${kind}: chunked and content-length bodies arrive byte for byte, split UTF-8 included`, async (t) => {
      const text = 'é'.repeat(10_000) + '✓';
      const bytes = Buffer.from(text);
      const s = await serve(t, (req, res) => {
        if (req.url === '/length') return void res.writeHead(200, { 'content-length': String(bytes.length) }).end(bytes);
        res.writeHead(200); // no length: chunked
        // Cut inside a two-byte character, one chunk per write.
        let at = 0;
        const step = () => {
          if (at >= bytes.length) return void res.end();
          res.write(bytes.subarray(at, (at += 999)), step);
        };
        step();
      });
      const client = clientFor(kind, t);
      const chunked = await client.request(new URL(`http://127.0.0.1:${s.port}/chunked`), get());
      assert.equal(chunked.headers.get('transfer-encoding'), 'chunked');
      assert.ok((await readAll(chunked)).equals(bytes));
      const sized = await client.request(new URL(`http://127.0.0.1:${s.port}/length`), get());
      assert.equal(sized.headers.get('content-length'), String(bytes.length));
      assert.ok((await readAll(sized)).equals(bytes));
    });

    test(`${kind}: a 204 has no body, and the connection serves the next request`, async (t) => {
      const s = await serve(t, (req, res) => (req.url === '/none' ? res.writeHead(204).end() : res.writeHead(200).end('after')));
      const client = clientFor(kind, t);
      const none = await client.request(new URL(`http://127.0.0.1:${s.port}/none`), get());
      assert.equal(none.status, 204);
      assert.equal(none.ok, true);
      assert.equal(none.body, null);
      const next = await client.request(new URL(`http://127.0.0.1:${s.port}/next`), get());
      assert.equal((await readAll(next)).toString(), 'after');
      if (kind === 'node') assert.equal(s.connections.length, 1, 'the 204 left its connection reusable');
    });

    test(`${kind}: a large header set arrives whole (repeated names joined); one past the 16 KiB limit fails, not hangs`, async (t) => {
      const s = await serve(t, (req, res) => {
        const count = req.url === '/huge' ? 2_000 : 100;
        for (let i = 0; i < count; i++) res.setHeader(`x-h-${i}`, 'v'.repeat(60));
        res.setHeader('x-multi', ['one', 'two']);
        res.writeHead(200).end('ok');
      });
      const client = clientFor(kind, t);
      const many = await client.request(new URL(`http://127.0.0.1:${s.port}/many`), get());
      assert.equal(many.headers.get('x-h-99'), 'v'.repeat(60));
      assert.equal(many.headers.get('X-H-0'), 'v'.repeat(60), 'names are case-insensitive');
      assert.equal(many.headers.get('x-multi'), 'one, two');
      assert.equal(many.headers.get('x-absent'), null);
      await readAll(many);
      let caught: unknown;
      await guard(
        client.request(new URL(`http://127.0.0.1:${s.port}/huge`), get()).then(
          () => assert.fail('a 120 KiB header block was accepted'),
          (error: unknown) => void (caught = error),
        ),
        'the oversized headers to fail the request',
      );
      assert.match(causeChain(caught), /header/i, causeChain(caught));
    });

    test(`${kind}: an abort mid-body rejects the read with the signal's reason and the socket is freed`, async (t) => {
      const s = await serve(t, (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n'); // and never ends
      });
      const client = clientFor(kind, t);
      const controller = new AbortController();
      const answer = await client.request(new URL(s.url), get(controller.signal));
      const first = await answer.body!.read();
      assert.equal(first.done, false);
      const reason = new Error('stop reading');
      const pending = answer.body!.read();
      controller.abort(reason);
      await assert.rejects(guard(pending, 'the pending read to settle'), (error) => error === reason || (error as Error).name === 'AbortError');
      if (kind === 'node') {
        // fetch's sockets belong to the runtime's global pool, not to the transport.
        await guard(s.allClosed(), 'the server to see the socket closed');
        assert.equal(s.open(), 0);
      }
    });

    test(`${kind}: a connection reset mid-stream rejects the read with ECONNRESET in its cause chain`, async (t) => {
      const s = await serve(t, (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n', () => setImmediate(() => res.socket?.resetAndDestroy?.() ?? res.socket?.destroy()));
      });
      const client = clientFor(kind, t);
      const answer = await client.request(new URL(s.url), get());
      let caught: unknown;
      await guard(
        (async () => {
          for await (const _chunk of answer.body!) {
            // read until it breaks
          }
        })().then(
          () => assert.fail('the stream ended cleanly after a reset'),
          (error: unknown) => void (caught = error),
        ),
        'the reset to reach the reader',
      );
      const chain = causeChain(caught);
      assert.match(chain, kind === 'node' ? /ECONNRESET/ : /ECONNRESET|terminated|other side closed/, chain);
    });
  }

  test('node: close() destroys every pooled socket, idle and busy; requests after it fail', async (t) => {
    const s = await serve(t, (req, res) => {
      if (req.url === '/stream') return void res.writeHead(200).write('x'); // never ends
      res.writeHead(200).end('ok');
    });
    const client = nodeHttpClient();
    const busy = await client.request(new URL(`http://127.0.0.1:${s.port}/stream`), get());
    await busy.body!.read();
    await readAll(await client.request(new URL(`http://127.0.0.1:${s.port}/a`), get())); // a second socket, idle in the pool after this
    assert.equal(s.connections.length, 2);
    assert.equal(s.open(), 2);
    client.close();
    await guard(s.allClosed(), 'every socket to close');
    await assert.rejects(client.request(new URL(`http://127.0.0.1:${s.port}/a`), get()), /closed/);
  });

  test('node: no response headers within the bounded time → an error naming the server (silent server and slow headers)', async (t) => {
    const s = await serve(t, (req, res) => {
      if (req.url === '/slow') res.socket?.write('HTTP/1.1 200 OK\r\nx-slow: '); // half a header, then nothing
      // '/silent': nothing at all
    });
    const client = nodeHttpClient({ headersTimeoutMs: 50 });
    t.after(() => client.close());
    for (const path of ['/silent', '/slow']) {
      let caught: unknown;
      await guard(
        client.request(new URL(`http://127.0.0.1:${s.port}${path}`), get()).then(
          () => assert.fail('answered'),
          (error: unknown) => void (caught = error),
        ),
        `the headers timeout of ${path}`,
      );
      assert.equal((caught as NodeJS.ErrnoException).code, 'UND_ERR_HEADERS_TIMEOUT', inspect(caught));
      assert.ok((caught as Error).message.includes(`127.0.0.1:${s.port}`), (caught as Error).message);
    }
    await guard(s.allClosed(), 'the timed-out sockets to close');
  });

  for (const kind of PATHS) {
    test(`${kind}: a JSON answer that never ends is cut at maxMessageBytes (MessageTooLargeError), and its socket closed`, async (t) => {
      let streamSocket: Socket | undefined;
      const s = await serve(
        t,
        mcpHandler((message, res) => {
          if (message.method !== 'tools/list') return false;
          streamSocket = res.socket ?? undefined;
          res.writeHead(200, { 'content-type': 'application/json' });
          const chunk = `[${'0,'.repeat(8_000)}`;
          const pump = () => {
            if (!res.destroyed) res.write(chunk, () => setImmediate(pump));
          };
          pump();
          return true;
        }),
      );
      const client = new McpClient(new StreamableHttpTransport({ url: s.url, server: 'endless-json', httpClient: kind, maxMessageBytes: 256 * 1024 }), { connectTimeoutMs: GUARD_MS });
      t.after(() => client.close().catch(() => {}));
      await client.connect();
      let caught: unknown;
      await guard(
        client.listTools().then(
          () => assert.fail('listed'),
          (error: unknown) => void (caught = error),
        ),
        'the capped read',
      );
      assert.ok(caught instanceof MessageTooLargeError, inspect(caught));
      assert.ok(caught.message.includes('endless-json'), caught.message);
      await guard(new Promise<void>((resolve) => (streamSocket!.destroyed ? resolve() : streamSocket!.once('close', () => resolve()))), 'the endless body’s socket to close');
    });

    // Found by this test: StreamableHttpTransport.consume() (streamable-http.ts, not this path's file) swallows the read's error
    // ('dropped'), so the call fails with "ended before the answer" and the reset's words are lost, on both paths.
    test(`${kind}: a reset in the middle of a POST's SSE answer fails the call with ECONNRESET in the error (T6)`, async (t) => {
      const s = await serve(
        t,
        mcpHandler((message, res) => {
          if (message.method !== 'tools/list') return false;
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n\n', () =>
            setImmediate(() => res.socket?.resetAndDestroy?.() ?? res.socket?.destroy()),
          );
          return true;
        }),
      );
      const client = new McpClient(new StreamableHttpTransport({ url: s.url, server: 'reset-sse', httpClient: kind, reconnect: { initialMs: 1, maxAttempts: 1 } }), { connectTimeoutMs: GUARD_MS });
      t.after(() => client.close().catch(() => {}));
      await client.connect();
      let caught: unknown;
      await guard(
        client.listTools().then(
          () => assert.fail('listed'),
          (error: unknown) => void (caught = error),
        ),
        'the call to fail',
      );
      assert.ok(caught instanceof ClosedError, inspect(caught));
      assert.ok(caught.message.includes('reset-sse'), caught.message);
      assert.match(causeChain(caught), kind === 'node' ? /ECONNRESET/ : /ECONNRESET|terminated|other side closed/, causeChain(caught));
    });

    for (const transport of ['streamable-http', 'sse'] as const) {
      test(`${kind} (${transport}): a process that connects, calls and closes exits by itself`, async (t) => {
        const s = await serve(t, transport === 'sse' ? legacyHandler() : mcpHandler());
        const url = transport === 'sse' ? `http://127.0.0.1:${s.port}/sse` : s.url;
        const script = `
          import { McpClient } from './src/client/client.ts';
          import { StreamableHttpTransport } from './src/transport/streamable-http.ts';
          import { SseTransport } from './src/transport/sse.ts';
          const [url, httpClient, transport] = process.argv.slice(1);
          const Transport = transport === 'sse' ? SseTransport : StreamableHttpTransport;
          const client = new McpClient(new Transport({ url, httpClient }));
          await client.connect();
          const tools = await client.listTools();
          await client.close();
          process.stdout.write(JSON.stringify(tools.tools.map((tool) => tool.name)));
        `;
        const root = fileURLToPath(new URL('../..', import.meta.url));
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, url, kind, transport], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
        t.after(() => void (child.exitCode === null && child.kill('SIGKILL')));
        let out = '';
        let err = '';
        child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
        child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
        // A guard, not a timing: a handle left open keeps the child alive until it is killed.
        const code = await guard(new Promise<number | null>((resolve) => child.once('exit', resolve)), `the child (${kind}, ${transport}) to exit by itself; a handle kept it alive`, 15_000);
        assert.equal(code, 0, err);
        assert.equal(out, '["echo"]', err);
      });
    }
  }
  for (const transport of ['streamable-http', 'sse'] as const) {
    test(`node (${transport}): the transport's close() leaves no socket open, its open server stream included`, async (t) => {
      const s = await serve(t, transport === 'sse' ? legacyHandler() : mcpHandler());
      const url = transport === 'sse' ? `http://127.0.0.1:${s.port}/sse` : s.url;
      const options = { url, server: 'close-fixture', httpClient: 'node' as const };
      const client = new McpClient(transport === 'sse' ? new SseTransport(options) : new StreamableHttpTransport(options), { connectTimeoutMs: GUARD_MS });
      t.after(() => client.close().catch(() => {}));
      await client.connect();
      assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), ['echo']);
      assert.ok(s.open() >= 1);
      await client.close();
      await guard(s.allClosed(), `the server to see all ${s.connections.length} sockets closed`);
      assert.equal(s.open(), 0);
    });
  }

  test('node: a kept-alive socket the server dropped as it was reused is retried once on a fresh one; a fresh socket\'s failure is not retried', async (t) => {
    let requests = 0;
    let failAll = false;
    const perSocket = new WeakMap<Socket, number>();
    const s = await serve(t, (req, res) => {
      requests++;
      const socket = req.socket;
      const n = (perSocket.get(socket) ?? 0) + 1;
      perSocket.set(socket, n);
      // A stale keep-alive connection: the second request on a socket meets a closed one.
      if (failAll || n > 1) return void socket.destroy();
      res.writeHead(200).end(`answer ${requests}`);
    });
    const client = clientFor('node', t);
    const post = () => client.request(new URL(s.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}', signal: new AbortController().signal });
    assert.equal((await readAll(await post())).toString(), 'answer 1');
    assert.equal((await readAll(await post())).toString(), 'answer 3', 'the request is sent again on a new connection');
    assert.equal(s.connections.length, 2);
    failAll = true;
    await assert.rejects(post(), (error: unknown) => /ECONNRESET|socket hang up/.test(causeChain(error)));
    // Once on the reused socket, once on a fresh one, then given up.
    assert.equal(requests, 5);
  });
  test('node: cancel() of a small sized body drains it and keeps the connection; of a large one closes it', async (t) => {
    const big = Buffer.alloc(1024 * 1024, 'b');
    let finishSmall: (() => void) | undefined;
    let onProbe: (socket: Socket) => void = () => {};
    const held: http.ServerResponse[] = [];
    let bigSocket: Socket | undefined;
    const s = await serve(t, (req, res) => {
      if (req.url === '/probe') {
        held.push(res);
        return onProbe(req.socket);
      }
      if (req.url === '/small') {
        // Half now, half once the client has cancelled: the rest is still on its way when cancel() runs.
        res.writeHead(200, { 'content-length': '1024' }).write(Buffer.alloc(512, 's'));
        finishSmall = () => res.end(Buffer.alloc(512, 't'));
        return;
      }
      if (req.url === '/big') {
        bigSocket = req.socket;
        return void res.writeHead(200, { 'content-length': String(big.length) }).end(big);
      }
      res.writeHead(200).end('ok');
    });
    const client = clientFor('node', t);
    const at = (path: string) => client.request(new URL(`http://127.0.0.1:${s.port}${path}`), get());
    const small = await at('/small');
    await small.body!.read();
    await small.body!.cancel();
    finishSmall!();
    // The drained socket goes back to the pool once its rest has arrived. Probes that the server holds unanswered keep
    // every other socket busy, so the first free one a probe can take is the drained one, or it closed (the failure).
    const first = s.connections[0]!;
    await guard(
      (async () => {
        for (;;) {
          const arrival = new Promise<Socket>((resolve) => (onProbe = resolve));
          const probe = at('/probe');
          probe.catch(() => {});
          const socket = await arrival;
          if (socket === first) break;
          if (first.destroyed) assert.fail('the connection of a cancelled small body was closed, not drained');
        }
      })(),
      'a request on the drained connection',
    );
    for (const res of held) res.end();
    const large = await at('/big');
    await large.body!.read();
    await large.body!.cancel();
    await guard(new Promise((resolve) => (bigSocket!.destroyed ? resolve(undefined) : bigSocket!.once('close', resolve))), 'the cancelled large body’s socket to close');
  });

  test('node: cancel() of a body whose whole response is in lets it end without a drain (no timer, no listener) and keeps the connection', async (t) => {
    // The common case of a POST's SSE answer: the server ends the stream with its answer, so when the reader has what it
    // wants the response is parsed whole already, and only its 'end' is still to come (and, for a body paused on a full
    // queue, its buffered bytes): the socket goes back to the pool as soon as it flows again. The response is paused
    // here by hand, so that it is complete and not yet ended when cancel() runs, whatever the reads' timing.
    const s = await serve(t, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
      setTimeout(() => res.end('data: {}\n\n'), 10);
    });
    const client = clientFor('node', t);
    for (let i = 0; i < 3; i++) {
      const answer = await client.request(new URL(s.url), get());
      const inner = answer.body as unknown as { response: http.IncomingMessage };
      inner.response.pause();
      await until(() => inner.response.complete, 'the response to be parsed whole');
      assert.equal(inner.response.readableEnded, false);
      void answer.body!.cancel();
      // The drain would listen for the rest's bytes; a complete response has none to come.
      assert.equal(inner.response.listenerCount('data'), 1, 'a drain listener was added to a complete response');
      await guard(new Promise((resolve) => (inner.response.readableEnded ? resolve(undefined) : inner.response.once('end', resolve))), 'the cancelled response to end');
    }
    // One connection for all three: each went back to the pool once its response ended.
    assert.equal(s.connections.length, 1, `${s.connections.length} connections for 3 requests in a row`);
    assert.equal(s.open(), 1);
  });

  test('node: the headers time limit ends with the headers: a body slower than it is read whole; one client times many requests', async (t) => {
    // The limit is one queue of deadlines for the client (util/deadlines.ts): an answered request must leave it.
    const s = await serve(t, (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('a');
      // The headers go out with 'a' at once; the body takes three times the limit (a limit this wide leaves a loaded
      // machine time to send the headers, which the test is not about).
      setTimeout(() => res.write('b'), 300);
      setTimeout(() => res.end(req.url === '/last' ? 'z' : 'c'), 600);
    });
    const client = nodeHttpClient({ headersTimeoutMs: 200 });
    t.after(() => client.close());
    const bodies = await guard(Promise.all(['/1', '/2', '/3', '/last'].map(async (path) => (await readAll(await client.request(new URL(`http://127.0.0.1:${s.port}${path}`), get()))).toString())), 'four slow bodies');
    assert.deepEqual(bodies, ['abc', 'abc', 'abc', 'abz']);
  });

  for (const kind of PATHS) {
    test(`${kind}: an abort before the response headers rejects with the signal's reason (and frees the socket)`, async (t) => {
      let arrived!: () => void;
      const seen = new Promise<void>((resolve) => (arrived = resolve));
      const s = await serve(t, () => arrived()); // never answers
      const client = clientFor(kind, t);
      const controller = new AbortController();
      const pending = client.request(new URL(s.url), get(controller.signal));
      await guard(seen, 'the request to reach the server');
      const reason = new Error('given up');
      controller.abort(reason);
      await assert.rejects(guard(pending, 'the aborted request to settle'), (error) => error === reason || (error as Error).name === 'AbortError');
      if (kind === 'node') await guard(s.allClosed(), 'the aborted request’s socket to close');
    });

    test(`${kind}: a POST body with multi-byte UTF-8 arrives whole (its length counted in bytes)`, async (t) => {
      const text = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/x', params: { s: 'ü✓😀'.repeat(500) } });
      let received = '';
      let length = '';
      const s = await serve(t, (req, res) => {
        length = String(req.headers['content-length'] ?? '');
        req.setEncoding('utf8').on('data', (c: string) => (received += c));
        req.on('end', () => res.writeHead(202).end());
      });
      const client = clientFor(kind, t);
      const answer = await client.request(new URL(s.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: text, signal: new AbortController().signal });
      assert.equal(answer.status, 202);
      await readAll(answer);
      assert.equal(received, text);
      assert.equal(length, String(Buffer.byteLength(text)));
    });
  }
});

// The body idle timeout and the headers time limit, set from the transport's options (#20 item 2, SPEC T3/W2):
// a JSON answer that stops mid-way fails at bodyIdleTimeoutMs, naming the server and the option, instead of waiting
// for the call's own timeout; an SSE answer is exempt (its quiet is the server's to keep); a body's first byte
// starts the clock (a slow tool is the request timeout's business). The calls here have a long timeout (GUARD_MS * 4)
// that the guard (GUARD_MS) would meet first: a test that passes was cut by the option, not by the call's timeout.
describe('T3/W2 (#20): the body idle timeout and the headers time limit, on both request paths', () => {
  const IDLE_MS = 100;
  const LONG = { timeoutMs: GUARD_MS * 4 };
  const connectTo = async (t: TestContext, url: string, kind: HttpClientKind, options: Record<string, unknown>) => {
    const client = new McpClient(new StreamableHttpTransport({ url, server: 'stall-fixture', httpClient: kind, ...options }), { connectTimeoutMs: GUARD_MS });
    t.after(() => client.close().catch(() => {}));
    await client.connect();
    return client;
  };
  const failure = async (call: Promise<unknown>, what: string): Promise<unknown> => {
    let caught: unknown;
    await guard(
      call.then(
        () => assert.fail('answered'),
        (error: unknown) => void (caught = error),
      ),
      what,
    );
    return caught;
  };

  for (const kind of PATHS) {
    test(`${kind}: a JSON answer that stalls mid-way fails at bodyIdleTimeoutMs: a ClosedError naming the server and the option; its socket closed`, async (t) => {
      let stalled: Socket | undefined;
      const s = await serve(
        t,
        mcpHandler((message, res) => {
          if (message.method !== 'tools/list') return false;
          stalled = res.socket ?? undefined;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"jsonrpc":"2.0","id":'); // and nothing more
          return true;
        }),
      );
      const client = await connectTo(t, s.url, kind, { bodyIdleTimeoutMs: IDLE_MS });
      const caught = await failure(client.listTools(LONG), 'the stalled body to fail the call');
      assert.ok(caught instanceof ClosedError, inspect(caught));
      assert.equal(caught.reason, 'transport');
      assert.ok(caught.message.includes('stall-fixture'), caught.message);
      assert.match(causeChain(caught), /stalled: no byte for 100 ms \(raise the transport option bodyIdleTimeoutMs/, causeChain(caught));
      await guard(new Promise<void>((resolve) => (stalled!.destroyed ? resolve() : stalled!.once('close', () => resolve()))), 'the stalled body’s socket to close');
    });

    test(`${kind}: an SSE answer quiet for longer than bodyIdleTimeoutMs is not cut; nor is a JSON answer whose first byte is late`, async (t) => {
      const s = await serve(
        t,
        mcpHandler((message, res) => {
          if (message.method !== 'tools/list' && message.method !== 'tools/call') return false;
          const answer = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: message.method === 'tools/list' ? resultFor('tools/list') : { content: [] } });
          if (message.method === 'tools/list') {
            // SSE: headers and a priming comment at once, then quiet for four idle periods, then the answer.
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            res.write(': priming\n\n');
            setTimeout(() => res.end(`event: message\ndata: ${answer}\n\n`), IDLE_MS * 4);
          } else {
            // JSON: the headers out at once, the whole body four idle periods later (a slow tool behind an early flush).
            res.writeHead(200, { 'content-type': 'application/json' });
            res.flushHeaders();
            setTimeout(() => res.end(answer), IDLE_MS * 4);
          }
          return true;
        }),
      );
      const client = await connectTo(t, s.url, kind, { bodyIdleTimeoutMs: IDLE_MS });
      const tools = await guard(client.listTools(LONG), 'the quiet SSE answer');
      assert.deepEqual(tools.tools.map((tool) => tool.name), ['echo']);
      const result = await guard(client.callTool('echo', {}, LONG), 'the late JSON answer');
      assert.deepEqual(result.content, []);
    });

    test(`${kind}: headersTimeoutMs from the transport options bounds the wait for the response headers`, async (t) => {
      const s = await serve(
        t,
        mcpHandler((message) => message.method === 'tools/list'), // never answered
      );
      const client = await connectTo(t, s.url, kind, { headersTimeoutMs: IDLE_MS });
      const caught = await failure(client.listTools(LONG), 'the headers time limit to fail the call');
      assert.ok(caught instanceof ClosedError, inspect(caught));
      assert.ok(caught.message.includes('stall-fixture'), caught.message);
      assert.match(causeChain(caught), new RegExp(`no response headers from 127\\.0\\.0\\.1:${s.port} within ${IDLE_MS} ms`), causeChain(caught));
    });
  }

  test('a time limit that is not a whole number of milliseconds from 1 is refused at connect (ConfigError naming the option)', async () => {
    for (const [key, value] of [
      ['bodyIdleTimeoutMs', 0],
      ['headersTimeoutMs', -5],
      ['bodyIdleTimeoutMs', 1.5],
      ['headersTimeoutMs', 2 ** 31],
    ] as const) {
      const client = new McpClient(new StreamableHttpTransport({ url: 'http://127.0.0.1:9/mcp', server: 'bad-limit', [key]: value }));
      await assert.rejects(client.connect(), (error: unknown) => error instanceof ConfigError && error.message.includes(key), `${key}: ${value}`);
    }
  });
});

describe('T3 (#20): a POST\'s SSE answer keeps its connection', () => {
  test('node: a call answered over SSE whose end of stream comes after the answer keeps its connection for the next; a stream the server keeps open is closed', async (t) => {
    // The server writes the JSON-RPC answer at once and ends the stream 30 ms later (its last chunk on its way when
    // the client has what it wants). The client used to close the connection there, and every call paid a new one
    // (a TLS handshake over https); now it reads the rest and the connection goes back to the pool. An answer for
    // `hold` never ends: that connection is closed after the drain's bound.
    const held: http.ServerResponse[] = [];
    const ends: Promise<void>[] = [];
    // The sockets tools/call requests came on (the optional GET stream, if the client opens one, has its own).
    const callSockets = new Set<Socket>();
    const s = await serve(
      t,
      mcpHandler((message, res) => {
        if (message.method !== 'tools/call') return false;
        callSockets.add(res.socket as Socket);
        ends.push(new Promise<void>((resolve) => res.once('close', () => resolve())));
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'ok' }] } })}\n\n`);
        const name = (message as { params?: { name?: string } }).params?.name;
        if (name === 'hold') held.push(res);
        else setTimeout(() => res.end(), 30);
        return true;
      }),
    );
    t.after(() => {
      for (const res of held) res.end();
    });
    const client = new McpClient(new StreamableHttpTransport({ url: s.url, server: 'sse-answers', httpClient: 'node' }), { connectTimeoutMs: GUARD_MS });
    t.after(() => client.close().catch(() => {}));
    await client.connect();
    for (let i = 0; i < 4; i++) {
      assert.deepEqual((await guard(client.callTool('echo', {}), `call ${i}`)).content, [{ type: 'text', text: 'ok' }]);
      // Each answer's stream has ended (or its connection was closed) before the next call.
      await guard(ends[i]!, `the end of answer ${i}`);
    }
    const closed = [...callSockets].filter((socket) => socket.destroyed).length;
    assert.equal(closed, 0, `${closed} of ${callSockets.size} connections were closed after their answer instead of kept`);

    // A stream left open after its answer is not drained for ever: its connection closes.
    assert.deepEqual((await guard(client.callTool('hold', {}), 'the held call')).content, [{ type: 'text', text: 'ok' }]);
    const holding = held[0]!.socket as Socket;
    await guard(new Promise((resolve) => (holding.destroyed ? resolve(undefined) : holding.once('close', resolve))), 'the connection of a stream that never ends to close');
    assert.deepEqual((await guard(client.callTool('echo', {}), 'the call after')).content, [{ type: 'text', text: 'ok' }]);
  });
});

describe('T2/T3 (#20): the node body hands an SSE reader its chunks from its own \'data\' events (pushChunks), no promise per read', () => {
  /** The node body as a ChunkPusher (what readSse checks for), its read() made to fail the test: readSse must not take it. */
  const pusher = (answer: HttpAnswer): HttpAnswer['body'] & ChunkPusher => {
    const body = answer.body as NonNullable<HttpAnswer['body']> & Partial<ChunkPusher>;
    assert.equal(typeof body.pushChunks, 'function', 'the node body is a ChunkPusher');
    body.read = () => assert.fail('readSse read the node body through read(), not pushChunks()');
    return body as HttpAnswer['body'] & ChunkPusher;
  };
  /** Resolves once `body` holds chunks it has not handed out and has paused its socket (its queue is full). */
  const pausedWithQueue = async (body: unknown) => {
    const inner = body as { queue: Buffer[]; response: http.IncomingMessage };
    while (!(inner.queue.length > 0 && inner.response.isPaused())) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  test('node: chunks queued before the reader came go first, in order; a body paused on a full queue flows again; the end resolves', async (t) => {
    const big = Buffer.alloc(3 * 1024 * 1024, 'x');
    const s = await serve(t, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // More than the body queues (1 MiB) before anyone reads: it pauses the socket, and only resume() brings the rest.
      res.end(Buffer.concat([Buffer.from('data: first\n\ndata: '), big, Buffer.from('\n\ndata: last\n\n')]));
    });
    const answer = await clientFor('node', t).request(new URL(s.url), get());
    const body = pusher(answer);
    await guard(pausedWithQueue(body), 'the body to queue and pause');
    const events: string[] = [];
    const end = await guard(readSse(body, 8 * 1024 * 1024, { onEvent: (e) => events.push(e.data.length > 10 ? `${e.data.length} x` : e.data) }), 'the paused body to be read to its end');
    assert.equal(end, 'ended');
    assert.deepEqual(events, ['first', `${big.length} x`, 'last']);
  });

  test('node: a reader that stops (false) is handed nothing more, and the body is cancelled; pushChunks on an ended or failed body hands over what was queued, then resolves or rejects', async (t) => {
    let finish!: () => void;
    const s = await serve(t, (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (req.url === '/ended') return void res.end('data: a\n\ndata: b\n\n');
      if (req.url === '/two') return void res.write('data: a\n\n', () => setTimeout(() => res.end('data: b\n\n'), 20));
      if (req.url === '/reset') return void res.write('data: a\n\n', () => setImmediate(() => res.socket?.resetAndDestroy?.() ?? res.socket?.destroy()));
      res.write('data: a\n\n');
      finish = () => res.end('data: b\n\n');
    });
    const client = clientFor('node', t);
    const at = (path: string) => client.request(new URL(`http://127.0.0.1:${s.port}${path}`), get());
    // Stopped at the first chunk: the rest, written after, never reaches the reader; the body reads as done.
    const stopped = (await at('/mcp')).body!;
    const handed: string[] = [];
    const pushed = (stopped as unknown as ChunkPusher).pushChunks((chunk) => {
      handed.push(Buffer.from(chunk).toString());
      finish();
      return false;
    });
    await guard(pushed, 'pushChunks to resolve once stopped');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(handed, ['data: a\n\n']);
    assert.deepEqual(await stopped.read(), { done: true }, 'the stopped body is cancelled');
    // An ended body: its queued chunks, then resolved, and no chunk twice.
    const ended = (await at('/ended')).body!;
    const endedResponse = (ended as unknown as { response: http.IncomingMessage }).response;
    await guard(new Promise((resolve) => (endedResponse.readableEnded ? resolve(undefined) : endedResponse.once('end', resolve))), 'the body to end');
    const all: string[] = [];
    await guard((ended as unknown as ChunkPusher).pushChunks((chunk) => all.push(Buffer.from(chunk).toString()) > 0), 'pushChunks on an ended body');
    assert.equal(all.join(''), 'data: a\n\ndata: b\n\n');
    // A reader that stops at the first of two queued chunks is not handed the second.
    const two = (await at('/two')).body!;
    const twoResponse = (two as unknown as { response: http.IncomingMessage }).response;
    await guard(new Promise((resolve) => (twoResponse.readableEnded ? resolve(undefined) : twoResponse.once('end', resolve))), 'the two-chunk body to end');
    let calls = 0;
    await guard((two as unknown as ChunkPusher).pushChunks(() => ++calls > 1), 'pushChunks stopped on a queued chunk');
    assert.equal(calls, 1);
    // A failed body: its queued chunk, then its failure.
    const reset = (await at('/reset')).body!;
    const resetResponse = (reset as unknown as { response: http.IncomingMessage }).response;
    await guard(new Promise((resolve) => (resetResponse.destroyed ? resolve(undefined) : resetResponse.once('close', resolve))), 'the reset to reach the body');
    const before: string[] = [];
    await assert.rejects(
      guard((reset as unknown as ChunkPusher).pushChunks((chunk) => before.push(Buffer.from(chunk).toString()) > 0), 'pushChunks on a failed body'),
      (error: unknown) => /ECONNRESET/.test(causeChain(error)),
    );
    assert.equal(before.join(''), 'data: a\n\n');
  });

  test('node: an abort while readSse reads the pushed chunks rejects it with the signal\'s reason; a reset, with ECONNRESET', async (t) => {
    const s = await serve(t, (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (req.url === '/reset') return void res.write('data: a\n\n', () => setTimeout(() => res.socket?.resetAndDestroy?.() ?? res.socket?.destroy(), 20));
      res.write('data: a\n\n'); // and never ends
    });
    const client = clientFor('node', t);
    const controller = new AbortController();
    const reason = new Error('stop reading');
    const aborted = pusher(await client.request(new URL(s.url), get(controller.signal)));
    const events: string[] = [];
    const reading = readSse(aborted, 1000, { onEvent: (e) => (events.push(e.data), controller.abort(reason)) });
    await assert.rejects(guard(reading, 'the aborted read to settle'), (error) => error === reason);
    assert.deepEqual(events, ['a']);
    const reset = pusher(await client.request(new URL(`http://127.0.0.1:${s.port}/reset`), get()));
    await assert.rejects(guard(readSse(reset, 1000, { onEvent: () => {} }), 'the reset read to settle'), (error: unknown) => /ECONNRESET/.test(causeChain(error)));
  });
});

describe('T3 (#20): requests that share a signal share one listener on it', () => {
  test('node: 16 requests in flight on the transport\'s signal add one abort listener to it, not 16; its abort fails all 16 with its reason, a request\'s own signal only that one, and those that ended leave nothing behind', async (t) => {
    const held: http.ServerResponse[] = [];
    const s = await serve(t, (_req, res) => {
      held.push(res);
    });
    const client = nodeHttpClient();
    t.after(() => client.close());
    const shared = new AbortController();
    const own = new AbortController();
    const before = getEventListeners(shared.signal, 'abort').length;
    const requests = Array.from({ length: 16 }, (_, i) =>
      client.request(new URL(s.url), { method: 'POST', headers: {}, body: '{}', signal: shared.signal, ...(i === 0 ? { requestSignal: own.signal } : {}) }).then(
        () => 'answered',
        (error: unknown) => error,
      ),
    );
    await until(() => held.length === 16, 'the server saw all 16 requests');
    assert.equal(getEventListeners(shared.signal, 'abort').length - before, 1, 'one listener for the 16');
    const ownReason = new Error('this one given up');
    own.abort(ownReason);
    assert.equal(await requests[0], ownReason, 'the request\'s own signal fails that request with its reason');
    // One more answered before the shared abort: it must not be failed by it.
    held[1]!.writeHead(204).end();
    assert.equal(await requests[1], 'answered');
    const sharedReason = new Error('transport closed');
    shared.abort(sharedReason);
    const rest = await guard(Promise.all(requests.slice(2)), 'the shared abort failed the rest');
    assert.deepEqual(new Set(rest), new Set([sharedReason]), 'the 14 left fail with the shared signal\'s reason');
    // A later request on a fresh shared signal starts from no listeners: the first one took itself off (once).
    assert.equal(getEventListeners(shared.signal, 'abort').length, before);
  });
});
