// Child process of memory-sse-endless: reads one SSE event that never ends
// (a `data:` line without a line break, in fresh 64 KiB reads) with a cap,
// and prints the peak extra memory as JSON. A fresh process per measurement.
// Run: node --expose-gc --import tsx bench/workloads/memory-sse-child.ts CONTENDER CAP
//
// The reads are fresh allocations, like a socket's; a reader that keeps them
// is charged for them, and those it drops are garbage that counts until the
// GC takes it. The body is a web ReadableStream, as fetch gives one.

import { READ_64K } from '../data.js';
import { readSse } from '../../src/transport/sse-stream.js';

const [contender, capArg] = process.argv.slice(2) as [string, string];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('memory-sse-child: run with --expose-gc');
const cap = Number(capArg);

function usage() {
  const u = process.memoryUsage();
  return { heap: u.heapUsed + u.arrayBuffers, rss: u.rss };
}

gc();
gc();
const base = usage();
const peak = { ...base };
function sample(): void {
  const u = usage();
  if (u.heap > peak.heap) peak.heap = u.heap;
  if (u.rss > peak.rss) peak.rss = u.rss;
}

/** The body: an event's start, then reads of 'x' up to three times the cap; sampled when each next read is asked for. */
function endlessBody(): ReadableStream<Uint8Array> {
  let sent = -1;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      sample();
      if (sent === -1) {
        controller.enqueue(Buffer.from('event: message\ndata: '));
        sent = 0;
      } else if (sent < 3 * cap) {
        const read = Buffer.allocUnsafeSlow(READ_64K).fill(0x78);
        sent += read.length;
        controller.enqueue(read);
      } else {
        controller.close();
      }
    },
  });
}

let outcome: string;
switch (contender) {
  case 'mcpwire':
    outcome = await readSse(endlessBody(), cap, {
      onEvent: () => {
        throw new Error('memory-sse-child: an event was delivered from a body that never ends one');
      },
    });
    break;
  case 'floor-bytes': {
    // The least a reader delivering any event up to the cap must hold: every read, until they pass it.
    const reader = endlessBody().getReader();
    const held: Uint8Array[] = [];
    let bytes = 0;
    while (bytes <= cap) {
      const { value, done } = await reader.read();
      if (done) break;
      held.push(value);
      bytes += value.byteLength;
    }
    sample();
    await reader.cancel();
    outcome = bytes > cap ? 'too-large' : 'ended';
    break;
  }
  default:
    throw new Error(`memory-sse-child: ${contender} has no SSE reader to measure`);
}
sample();
if (outcome !== 'too-large') throw new Error(`memory-sse-child: ${contender} ended as ${outcome}, expected too-large`);
process.stdout.write(`${JSON.stringify({ contender, cap, heapExtra: peak.heap - base.heap, rssExtra: peak.rss - base.rss })}\n`);
