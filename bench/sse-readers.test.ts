// The SSE bench contenders read mcpwire through the transport's own request
// paths (#20 item 2, SPEC X4): checks that the node:http contender's body is
// node-http.ts's body object, read as the transport reads it (its chunks
// pushed to the parser, not one read() each), that both paths deliver every event (cut
// across reads, and past the node body's 1 MiB queue, where it pauses the
// message), and that the bench leaves http.request as it found it.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import type { BenchRecord } from './harness.js';
import { fetchSsePath, mcpwireSse, nodeSsePath } from './sse-readers.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `count` message events of about 300 bytes each, cut into reads of `readBytes` (a read boundary lands inside events). */
function body(count: number, readBytes: number): Buffer[] {
  const events = Array.from({ length: count }, (_, i) => `event: message\ndata: {"jsonrpc":"2.0","id":${i},"result":{"text":"${'é'.repeat(i % 7)}${'x'.repeat(250)}"}}\n\n`);
  const bytes = Buffer.from(events.join(''));
  const reads: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += readBytes) reads.push(bytes.subarray(at, at + readBytes));
  return reads;
}

test('the mcpwire SSE contender reads node-http.ts\'s own body object through pushChunks(), and http.request is put back', async () => {
  const real = http.request;
  const path = nodeSsePath();
  try {
    const reads = body(10, 97);
    const opened = await path.open(reads);
    assert.equal(http.request, real);
    assert.equal(opened.constructor.name, 'NodeBody');
    assert.equal(typeof (opened as { pushChunks?: unknown }).pushChunks, 'function');
    opened.read = () => assert.fail('readSse took the node body one read() at a time, not through pushChunks()');
    assert.equal(await mcpwireSse(opened), 10);
  } finally {
    path.close();
  }
});

test('both request paths deliver every event: cut across reads, one event per read, and more than the node body queues (1 MiB)', async () => {
  const node = nodeSsePath();
  const fetch = fetchSsePath();
  try {
    for (const [count, readBytes] of [[50, 7], [5_000, 64 * 1024], [12_000, 311]] as const) {
      const reads = body(count, readBytes);
      assert.equal(await mcpwireSse(await node.open(reads)), count, `node:http, ${count} events in reads of ${readBytes} B`);
      const webBody = await fetch.open(reads);
      assert.equal(typeof (webBody as { getReader?: unknown }).getReader, 'undefined', 'the fetch path hands readSse its HttpBody wrapper, as the transport does');
      assert.equal(await mcpwireSse(webBody), count, `fetch, ${count} events in reads of ${readBytes} B`);
    }
  } finally {
    node.close();
    fetch.close();
  }
});

test('sse-per-event --quick: mcpwire (node:http) and mcpwire-fetch beside the floors and the SDK, against the JSON.parse floor', async () => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--json', '--only', 'sse-per-event'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  const records = JSON.parse(stdout) as BenchRecord[];
  assert.deepEqual(records.map((r) => r.contender).sort(), ['floor-bytes', 'floor-string', 'mcpwire', 'mcpwire-fetch', 'sdk', 'sdk-novalidate']);
  for (const r of records) assert.ok(r.baseline === 'floor-string' && r.unit === 'ns/event' && r.median > 0, JSON.stringify(r));
});
