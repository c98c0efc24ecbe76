// X2 and #18 item 21: `mcpwire record --proxy --listen` is a recorder in front
// of one server, not a relay. Driven over real sockets on 127.0.0.1: raw
// requests with absolute-form and `//host` targets, forged Host and Origin
// headers, an oversized body and headers that never end, against the real
// binary. A second HTTP server stands for any other origin: the canary
// credential the client sends must never reach it.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect as netConnect, type AddressInfo } from 'node:net';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { connect } from '../src/index.js';
import { startEverythingHttp } from './helpers/interop.js';
import { tempDir } from './helpers/temp.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'bin', 'mcpwire.js');
const CANARY = 'sk-canary-relay-4e8b1d7a';

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

async function origin(t: TestContext): Promise<{ port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('upstream answered');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, seen };
}

async function startRecorder(t: TestContext, upstreamPort: number, extra: string[] = [], out = path.join(tempDir(t, 'record-guard'), 'guard.jsonl')): Promise<{ port: number; stderr: () => string; exited: Promise<number | null> }> {
  const recorder = spawn(process.execPath, [bin, 'record', '--proxy', '--listen', '127.0.0.1:0', ...extra, '--out', out, '--url', `http://127.0.0.1:${upstreamPort}/mcp`], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  t.after(() => {
    if (recorder.exitCode === null && recorder.signalCode === null) recorder.kill('SIGKILL');
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => recorder.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    recorder.stderr!.setEncoding('utf8');
    recorder.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    recorder.once('exit', (code) => reject(new Error(`mcpwire record exited ${code}: ${stderr}`)));
  });
  return { port, stderr: () => stderr, exited };
}

/** Sends `head` (and `body`) as they are on a fresh connection; resolves with what came back once the connection closes or `ms` pass. */
function raw(port: number, head: string, body?: Buffer, ms = 15_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = netConnect(port, '127.0.0.1');
    let answer = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(done, ms);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      // One answer is all a test needs: keep-alive would hold the connection open.
      if (/\r\n\r\n/.test(answer) && /^HTTP\/1\.1 (4|5)\d\d/.test(answer)) setTimeout(done, 50);
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(head);
    if (body) socket.write(body);
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
const credentials = `Authorization: Bearer ${CANARY}\r\nCookie: session=${CANARY}\r\n`;

test('#18 item 21: absolute-form and //host request-targets are refused; the canary never reaches the other origin', async (t) => {
  const upstream = await origin(t);
  const other = await origin(t);
  const proxy = await startRecorder(t, upstream.port);
  const host = `Host: 127.0.0.1:${proxy.port}\r\n`;
  for (const target of [`http://127.0.0.1:${other.port}/steal`, `//127.0.0.1:${other.port}/steal`, `/\\127.0.0.1:${other.port}/steal`, '*']) {
    const answer = await raw(proxy.port, `GET ${target} HTTP/1.1\r\n${host}${credentials}Connection: close\r\n\r\n`);
    assert.equal(statusOf(answer), 400, `${target}: ${answer}`);
  }
  // A Host naming the other origin does not make it the destination either.
  const forged = await raw(proxy.port, `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${other.port}\r\n${credentials}Connection: close\r\n\r\n`);
  assert.equal(statusOf(forged), 200, forged);
  assert.equal(other.seen.length, 0, `the other origin got requests: ${JSON.stringify(other.seen)}`);
  assert.deepEqual(upstream.seen.map((s) => s.url), ['/mcp'], 'only the path-form request reached the configured upstream');
  assert.equal(upstream.seen[0]!.headers.host, `127.0.0.1:${upstream.port}`, 'the upstream is sent its own authority');
  assert.equal(upstream.seen[0]!.headers.authorization, `Bearer ${CANARY}`, 'the configured upstream does get the credential');
  assert.ok(!proxy.stderr().includes(CANARY), 'the recorder does not print the credential');
});

test('#18 item 21: DNS rebinding: a Host that is not this machine, or a foreign Origin, is refused; loopback names and --allow-host/--allow-origin are accepted', async (t) => {
  const upstream = await origin(t);
  const proxy = await startRecorder(t, upstream.port, ['--allow-host', 'recorder.test', '--allow-origin', 'https://app.example']);
  const get = (headers: string) => raw(proxy.port, `GET /mcp HTTP/1.1\r\n${headers}${credentials}Connection: close\r\n\r\n`);
  assert.equal(statusOf(await get(`Host: attacker.example:${proxy.port}\r\n`)), 421);
  assert.equal(statusOf(await get(`Host: 127.0.0.1.attacker.example\r\n`)), 421);
  assert.equal(statusOf(await get('')), 400, 'HTTP/1.1 without Host is refused (by Node, before the recorder)');
  assert.equal(statusOf(await get(`Host: 127.0.0.1:${proxy.port}\r\nOrigin: http://attacker.example\r\n`)), 403);
  assert.equal(statusOf(await get(`Host: 127.0.0.1:${proxy.port}\r\nOrigin: null\r\n`)), 403);
  assert.equal(upstream.seen.length, 0, 'nothing refused reached the upstream');
  for (const headers of [`Host: localhost:${proxy.port}\r\n`, `Host: [::1]:${proxy.port}\r\n`, `Host: 127.0.0.1:${proxy.port}\r\nOrigin: http://localhost:5173\r\n`, 'Host: recorder.test\r\n', `Host: 127.0.0.1:${proxy.port}\r\nOrigin: https://app.example\r\n`]) {
    assert.equal(statusOf(await get(headers)), 200, headers);
  }
  assert.equal(upstream.seen.length, 5);
});

test('#18 item 21: a body over the client message limit is refused (by its Content-Length and when it streams); headers that never end are cut off', async (t) => {
  const upstream = await origin(t);
  const proxy = await startRecorder(t, upstream.port);
  const host = `Host: 127.0.0.1:${proxy.port}\r\n`;
  const declared = await raw(proxy.port, `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: ${300 * 1024 * 1024}\r\n\r\n`);
  assert.equal(statusOf(declared), 413, declared);
  // Chunked: no length up front, so the limit is counted as the bytes arrive (32 MiB, the client's own W2 limit).
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  const chunks = Buffer.concat(Array.from({ length: 34 }, () => Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])));
  const streamed = await raw(proxy.port, `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`, chunks);
  assert.equal(statusOf(streamed), 413, streamed.slice(0, 200));
  assert.equal(upstream.seen.length, 0, 'no oversized body was forwarded');
  // Headers started and never finished: the connection is answered 408 and closed after the header timeout (10 s), not held.
  const started = Date.now();
  const slow = await raw(proxy.port, `GET /mcp HTTP/1.1\r\n${host}X-Slow: 1\r\n`, undefined, 40_000);
  assert.ok(Date.now() - started < 35_000, 'closed before the test gave up');
  assert.equal(statusOf(slow), 408, slow);
});

test('#18 item 21: --listen on every interface is refused unless --allow-wildcard is given', () => {
  for (const listen of ['0.0.0.0:0', '[::]:0', ':0']) {
    const run = spawnSync(process.execPath, [bin, 'record', '--proxy', '--listen', listen, '--out', 'x.jsonl', '--url', 'http://127.0.0.1:9/mcp'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /binds every interface.*--allow-wildcard/);
  }
  const stray = spawnSync(process.execPath, [bin, 'record', '--proxy', '--allow-host', 'x', '--out', 'x.jsonl', '--', 'node'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
  assert.equal(stray.status, 2, stray.stderr);
});

test('#18 item 22: the recorder keeps every header the config layer calls secret out of the transcript (X-Auth-Key, X-Custom-Auth, X-Access-Key, ...)', async (t) => {
  const { port } = await startEverythingHttp(t, 'streamableHttp');
  const out = path.join(tempDir(t, 'record-names'), 'names.jsonl');
  const proxy = await startRecorder(t, port, [], out);
  const canaries: Record<string, string> = {
    'X-Auth-Key': 'canary-auth-key-91c3e7',
    'X-Custom-Auth': 'canary-custom-auth-5d2a8f',
    'X-Access-Key': 'canary-access-key-7b4e10',
    'X-Client-Credential': 'canary-credential-3f6c92',
  };
  const client = await connect({ transport: 'streamable-http', url: `http://127.0.0.1:${proxy.port}/mcp`, headers: canaries });
  const echo = await client.callTool('echo', { message: `values ${Object.values(canaries).join(' ')}` });
  assert.deepEqual(echo.content, [{ type: 'text', text: `Echo: values ${Object.values(canaries).join(' ')}` }], 'the client sees what the server sent');
  await client.close();
  assert.equal(await proxy.exited, 0, proxy.stderr());
  const text = readFileSync(out, 'utf8');
  for (const [name, value] of Object.entries(canaries)) assert.ok(!text.includes(value), `${name}'s value is not in the transcript`);
  assert.match(text, /"Echo: values \[redacted\] \[redacted\] \[redacted\] \[redacted\]"/);
});
