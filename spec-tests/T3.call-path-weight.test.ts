// T3 (#20): what one tools/call over Streamable HTTP costs the client in
// promises on Node's default request path. Each promise is an allocation
// and a microtask, and each async function adds two; the common path was
// made of promise chains (not six nested async functions), from 24 promises
// per call at 16 in flight to 11, which bench/ measures as CPU per call. A timing
// assertion would be noise on a shared machine; the count is exact, so this
// test fails as soon as an async frame or a wrapper promise comes back on the
// path. The server runs in a process of its own (its promises are not
// counted) and ends with the test.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { McpClient, StreamableHttpTransport } from '../src/index.js';
import { weighCalls } from './helpers/call-weight.js';

/** Promises per call, the caller's own await included (measured: 11 on Node 20, 22 and 24; 22 on the code before #20's promise chains, which fails here). */
const BUDGET = 12;

/** A bare Streamable HTTP echo: one SSE event per request, 202 for notifications; exits when its stdin ends. */
const SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  let body = '';
  req.setEncoding('utf8').on('data', (c) => (body += c)).on('end', () => {
    const m = JSON.parse(body);
    if (m.id === undefined) return void res.writeHead(202).end();
    const result = m.method === 'initialize'
      ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'weight', version: '1' } }
      : { content: [{ type: 'text', text: 'Echo: ' + (m.params?.arguments?.message ?? '') }] };
    res.writeHead(200, { 'content-type': 'text/event-stream' }).end('event: message\\ndata: ' + JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n\\n');
  });
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port + '/mcp' })));
process.stdin.resume().on('end', () => process.exit(0));
`;

test(`T3 (#20): a tools/call over Streamable HTTP (node:http path, SSE answer) creates at most ${BUDGET} promises on the client, the caller's await included, and no Node timer of its own`, async (t) => {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  t.after(() => {
    child.stdin.end();
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`the echo server exited (${code}) before it listened`)));
  });
  const client = new McpClient(new StreamableHttpTransport({ url, server: 'weight', httpClient: 'node', listen: false }));
  t.after(() => client.close().catch(() => {}));
  await client.connect();
  // Warm: the first calls load modules, open the connection and fill the pool.
  for (let i = 0; i < 20; i++) await client.callTool('echo', { message: `warm ${i}` });

  const calls = 50;
  const { promises: perCall, timers, results } = await weighCalls(calls, (i) => client.callTool('echo', { message: `m${i}` }));
  const texts = results.map((result) => (result.content[0] as { text: string }).text);
  assert.deepEqual(texts, Array.from({ length: calls }, (_, i) => `Echo: m${i}`));
  assert.ok(perCall <= BUDGET, `${perCall} promises per call (budget ${BUDGET}): an async frame or a wrapper promise came back on the HTTP call path`);
  // One Node timer per call is Node's own: the Agent re-arms a socket's free-socket timeout as it goes back to the
  // pool (Node 20, 22 and 24 alike). A timer of ours per request (the headers timeout had one) would make it two.
  assert.ok(timers <= 1, `${timers} Node timers per call: a timer per request came back on the HTTP call path`);
});
