// #18 item 8: a network failure says what happened, in the library's own
// errors (so hosts get it, not only the CLI): fetch()'s "fetch failed" is
// unwrapped into its cause chain — the refused address, a reset, the TLS
// verdict — for Streamable HTTP and legacy SSE alike. Real sockets on
// 127.0.0.1: a port nobody listens on, a server that drops every connection,
// a plain TCP server spoken to over https.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ClosedError, causeChain, connect, type ServerParams } from '../src/index.js';

/** A port that was free a moment ago: listened on, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP server on 127.0.0.1 that does `onSocket` with every connection; stopped after the test. */
async function tcpServer(t: TestContext, onSocket: (socket: net.Socket) => void): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {}).on('close', () => sockets.delete(socket));
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // close() waits for open connections: the client may keep its half, so ours are destroyed first.
  t.after(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as net.AddressInfo).port;
}

async function failure(params: ServerParams): Promise<ClosedError> {
  let caught: unknown;
  await assert.rejects(connect(params, { timeoutMs: 10_000 }), (error) => ((caught = error), true));
  assert.ok(caught instanceof ClosedError, `a ClosedError, got ${String(caught)}`);
  return caught;
}

const TRANSPORTS = ['streamable-http', 'sse'] as const;
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** Both request paths (#20): node:http words its failures as Node's sockets do; fetch wraps the same words in "fetch failed". */
const PATHS = [
  { httpClient: 'node', prefix: '' },
  { httpClient: 'fetch', prefix: 'fetch failed: ' },
] as const;

describe('#18 item 8: network failures carry their cause chain', () => {
  for (const transport of TRANSPORTS) {
    for (const { httpClient, prefix } of PATHS) {
      test(`T3/T2 (${transport}, ${httpClient}): connection refused names ECONNREFUSED and the address`, async () => {
        const port = await closedPort();
        const error = await failure({ transport, url: `http://127.0.0.1:${port}/mcp`, httpClient });
        assert.match(error.message, new RegExp(`\\(${prefix}connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)`));
      });

      // Node 20's fetch (undici 6) never settles when the server drops the connection before answering:
      // the request then ends at the client's timeout instead. Node 22, the engines floor, reports it; node:http does on any.
      const fetchHangs = httpClient === 'fetch' && NODE_MAJOR < 22;
      test(`T3/T2 (${transport}, ${httpClient}): a server that drops the connection reads as a reset, not just "fetch failed"`, { skip: fetchHangs ? `Node ${process.versions.node}'s fetch never settles on a dropped connection (the request times out instead); Node 22 reports it` : false }, async (t) => {
        const port = await tcpServer(t, (socket) => socket.destroy());
        const error = await failure({ transport, url: `http://127.0.0.1:${port}/mcp`, httpClient });
        assert.match(error.message, new RegExp(`${prefix}(other side closed|.*ECONNRESET|socket hang up)`));
      });

      test(`T3/T2 (${transport}, ${httpClient}): https to a server that does not speak TLS gives the TLS verdict with its code`, async (t) => {
        const port = await tcpServer(t, (socket) => socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'));
        const error = await failure({ transport, url: `https://127.0.0.1:${port}/mcp`, httpClient });
        assert.match(error.message, new RegExp(`${prefix}.*\\[ERR_SSL_[A-Z_]+\\]|${prefix}.*(ssl|tls|wrong version)`, 'i'));
      });
    }
  }

  test('causeChain: outermost first, codes added where the message lacks them, repeats and cycles left out, AggregateError listed once each', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:3000'), { code: 'ECONNREFUSED' });
    const refused4 = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3000'), { code: 'ECONNREFUSED' });
    const tls = Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    assert.equal(causeChain(new TypeError('fetch failed', { cause: new AggregateError([refused, refused4, refused]) })), 'fetch failed: connect ECONNREFUSED ::1:3000; connect ECONNREFUSED 127.0.0.1:3000');
    assert.equal(causeChain(new TypeError('fetch failed', { cause: tls })), 'fetch failed: self-signed certificate [DEPTH_ZERO_SELF_SIGNED_CERT]');
    const looped: Error & { cause?: unknown } = new Error('outer');
    looped.cause = new Error('inner', { cause: looped });
    assert.equal(causeChain(looped), 'outer: inner');
    assert.equal(causeChain(new Error('same', { cause: new Error('same') })), 'same');
    assert.equal(causeChain('plain words'), 'plain words');
  });

  test('U1: the CLI shows the refused address without -v, and in the --json envelope', async () => {
    const port = await closedPort();
    const root = fileURLToPath(new URL('..', import.meta.url));
    const run = spawnSync(process.execPath, [path.join(root, 'bin', 'mcpwire.js'), 'tools', '--url', `http://127.0.0.1:${port}/mcp`, '--json'], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 4, run.stderr);
    const envelope = JSON.parse(run.stderr.trim().split('\n').at(-1)!) as { error: { message: string } };
    assert.match(envelope.error.message, new RegExp(`ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
  });
});
