// Child process of memory-16mib: frames one message with one contender and
// prints the peak extra memory as JSON. A fresh process per measurement, so
// no other contender's heap or garbage is in the figures.
// Run: node --expose-gc --import tsx bench/workloads/memory-child.ts CONTENDER BYTES
//
// The reads are fresh 64 KiB allocations, like a pipe's: a parser that keeps
// them is charged for them, and those it drops are garbage that counts until
// the GC takes it (as in a real process). The floors start from the input
// already split (the whole line as one Buffer; for floor-string, decoded),
// which exists before the baseline is taken and so is not counted.

import { bigMessageText, READ_64K } from '../data.js';
import { floorBytes, floorString, mcpwire, ndjsonParse, sdk, sdkNoValidate } from '../framers.js';
import { CONTENDERS, type ContenderId } from '../harness.js';

const [contender, bytesArg] = process.argv.slice(2) as [ContenderId, string];
if (!(CONTENDERS as readonly string[]).includes(contender)) throw new Error(`memory-child: unknown contender ${contender}`);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('memory-child: run with --expose-gc');

const size = Number(bytesArg);
const text = bigMessageText(size);
const line = Buffer.from(`${text}\n`);
// Decoded from bytes, so a flat string as a reader would hold (JSON.stringify's output is a rope JSON.parse would flatten first).
const decoded = contender === 'floor-string' ? line.toString('utf8', 0, line.length - 1) : undefined;

/** Heap plus Buffer memory (arrayBuffers are off-heap), and the resident set. */
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

/** Fresh reads of at most 64 KiB, sampled after each one is handed over. */
function* reads(): Generator<Buffer> {
  for (let i = 0; i < line.length; i += READ_64K) {
    const chunk = Buffer.allocUnsafeSlow(Math.min(READ_64K, line.length - i));
    line.copy(chunk, 0, i, i + chunk.length);
    yield chunk;
    sample();
  }
}

/** The reads, produced one at a time as the framer asks for them (the framers take any iterable). */
const lazyReads: Iterable<Buffer> = { [Symbol.iterator]: reads };
const originalParse = JSON.parse;
// Sample at the moment each contender holds its decoded line and the parsed value: right after JSON.parse returns.
JSON.parse = ((source: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
  const value: unknown = originalParse(source, reviver);
  sample();
  return value;
}) as typeof JSON.parse;

let delivered: number;
switch (contender) {
  case 'floor-bytes':
    delivered = floorBytes([line.subarray(0, line.length - 1)]);
    break;
  case 'floor-string':
    delivered = floorString([decoded!]);
    break;
  case 'mcpwire':
    delivered = mcpwire(lazyReads);
    break;
  case 'sdk':
    // The SDK's default cap (10 MiB) refuses this message; raised to measure its algorithm.
    delivered = sdk(lazyReads, size + READ_64K);
    break;
  case 'sdk-novalidate':
    delivered = sdkNoValidate(lazyReads, size + READ_64K);
    break;
  case 'ndjson':
    delivered = await ndjsonParse(lazyReads);
    break;
  default:
    throw new Error(`memory-child: ${contender} has no framing to measure`);
}
sample();
JSON.parse = originalParse;
if (delivered !== 1) throw new Error(`memory-child: ${contender} delivered ${delivered} messages, expected 1`);
process.stdout.write(`${JSON.stringify({ contender, bytes: size, heapExtra: peak.heap - base.heap, rssExtra: peak.rss - base.rss })}\n`);
