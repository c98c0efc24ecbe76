// A plain node:http server on 127.0.0.1 (port 0) for the request-path tests
// (node-http.test.ts, request-signal.test.ts) that counts its own sockets,
// so keep-alive, close() and abort are checked by what the server saw, not
// by timing; and the guard that turns a hang into a failure.

import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { TestContext } from 'node:test';

export const GUARD_MS = 4_000;

/** Rejects with `what` if `promise` has not settled within the guard: a hang is a failure, not a stuck test. */
export function guard<T>(promise: Promise<T>, what: string, ms = GUARD_MS): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export interface CountingServer {
  url: string;
  port: number;
  /** Every connection the server accepted. */
  connections: Socket[];
  /** Resolves once every connection accepted so far has closed. */
  allClosed(): Promise<void>;
  open(): number;
}

/** A node:http server on 127.0.0.1 running `handler`; every socket destroyed and the server closed after the test. */
export async function serveCounting(t: TestContext, handler: http.RequestListener, options: http.ServerOptions = {}): Promise<CountingServer> {
  const server = http.createServer({ keepAliveTimeout: 30_000, ...options }, handler);
  const connections: Socket[] = [];
  const closed = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.push(socket);
    socket.on('error', () => {});
    socket.once('close', () => closed.add(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const socket of connections) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    connections,
    open: () => connections.length - closed.size,
    allClosed: () => Promise.all(connections.map((s) => (closed.has(s) ? undefined : new Promise((r) => s.once('close', r))))).then(() => {}),
  };
}
