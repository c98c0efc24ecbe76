// Audit tests for the line framer (W1–W3; issue #20 item 3): inputs the
// mutation audit showed no test sent, each at a size where the framer takes
// a different path (a piece copied into its 64 KiB block or kept by
// reference, a line decoded as it comes past 1 MiB, the end of input in
// each of those states). Bytes in, messages and noise out; every expected
// value is the plain JSON.parse of the line.

import assert from 'node:assert/strict';
import { StringDecoder } from 'node:string_decoder';
import { describe, test } from 'node:test';
import { fullGc } from '../testing/gc.js';
import { createLineFramer, type LineFramerOptions } from './line-framer.js';

function recorder(options: Partial<LineFramerOptions> = {}) {
  const messages: unknown[] = [];
  const noise: string[] = [];
  const overflows: number[] = [];
  const framer = createLineFramer({
    onMessage: (value) => messages.push(value),
    onNoise: (line) => noise.push(line),
    onOverflow: (limit) => overflows.push(limit),
    ...options,
  });
  return { framer, messages, noise, overflows };
}

/** A JSON string literal of exactly `bytes` bytes, its text, and the value it parses to. */
function jsonString(bytes: number, fill = 'x'): { line: Buffer; value: string } {
  const value = fill.repeat(bytes - 2);
  return { line: Buffer.from(JSON.stringify(value)), value };
}

/** `bytes` cut into pieces of the given sizes, the last piece taking the rest. */
function pieces(bytes: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  for (const size of sizes) {
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  if (at < bytes.length) out.push(bytes.subarray(at));
  return out;
}

const NL = Buffer.from('\n');

describe('line framer audit', () => {
  test('W3 audit: a BOM before a message makes that line noise; the next line is read as usual', () => {
    const { framer, messages, noise } = recorder();
    framer.push(Buffer.from('\uFEFF{"a":1}\n{"b":2}\n'));
    assert.deepEqual(messages, [{ b: 2 }]);
    assert.deepEqual(noise, ['\uFEFF{"a":1}']);
  });

  test('W1 audit: a 100 KB read that does not end its line is kept whole (larger than the 64 KiB block)', () => {
    const { line, value } = jsonString(100_000);
    const { framer, messages } = recorder();
    framer.push(line);
    assert.equal(framer.pendingBytes, 100_000);
    framer.push(NL);
    assert.deepEqual(messages, [value]);
    assert.equal(framer.pendingBytes, 0);
  });

  test('W1 audit: a short held start, then a read of more than 64 KiB that ends the line', () => {
    const { line, value } = jsonString(80_000);
    const { framer, messages } = recorder();
    const [head, rest] = pieces(line, [10]);
    framer.push(head!);
    framer.push(Buffer.concat([rest!, NL]));
    assert.deepEqual(messages, [value]);
  });

  test('W1 audit: a short held start, then a read that ends it at once and carries 70 KB of further lines', () => {
    const { framer, messages } = recorder();
    framer.push(Buffer.from('{"a":'));
    const more = Array.from({ length: 700 }, (_, i) => JSON.stringify({ i, pad: 'p'.repeat(80) })).join('\n');
    framer.push(Buffer.from(`1}\n${more}\n`));
    assert.equal(messages.length, 701);
    assert.deepEqual(messages[0], { a: 1 });
    assert.deepEqual(messages[700], { i: 699, pad: 'p'.repeat(80) });
  });

  test('W1 audit: two lines past 1 MiB one after the other, in 64 KiB reads, both exact', () => {
    const { framer, messages } = recorder();
    const first = jsonString(1_500_000, 'a');
    const second = jsonString(1_200_000, 'b');
    for (const piece of pieces(Buffer.concat([first.line, NL, second.line, NL]), Array(60).fill(64 * 1024))) framer.push(piece);
    assert.equal(messages.length, 2);
    assert.ok(messages[0] === first.value, 'the first long line');
    assert.ok(messages[1] === second.value, 'the second long line, with nothing of the first');
  });

  test('W1 audit: end() delivers a line past 1 MiB that ends in small reads without a newline, and holds nothing after', () => {
    const { framer, messages } = recorder();
    const { line, value } = jsonString(1_300_000);
    const big = line.subarray(0, line.length - 300);
    for (const piece of pieces(big, Array(30).fill(64 * 1024))) framer.push(piece);
    for (const piece of pieces(line.subarray(big.length), [100, 100])) framer.push(piece);
    framer.end();
    assert.equal(messages.length, 1);
    assert.ok(messages[0] === value);
    assert.equal(framer.pendingBytes, 0);
  });

  test('W1 audit: a line past 1 MiB that goes on in more than 64 KiB of small reads, then ends, is exact', () => {
    const { framer, messages } = recorder();
    const { line, value } = jsonString(1_300_000);
    const big = line.subarray(0, 1_200_000);
    for (const piece of pieces(big, Array(20).fill(64 * 1024))) framer.push(piece);
    // 100,000 bytes in 1,000-byte reads: more than the block holds, so it fills and is emptied onto the text.
    for (let at = big.length; at < line.length; at += 1000) framer.push(line.subarray(at, Math.min(at + 1000, line.length)));
    framer.push(NL);
    assert.equal(messages.length, 1);
    assert.ok(messages[0] === value);
  });

  test('W1 audit: end() delivers a last line held as one large read and small ones of the same total size', () => {
    // 20,000 bytes kept by reference, then 2 x 10,000 copied into the block: the two halves are the same size.
    const { line, value } = jsonString(40_000);
    const { framer, messages } = recorder();
    for (const piece of pieces(line, [20_000, 10_000])) framer.push(piece);
    assert.equal(framer.pendingBytes, 40_000);
    framer.end();
    assert.deepEqual(messages, [value]);
  });

  test('W1 audit: onMessage may call end() on a line in the middle of a read: the lines after it are not delivered', () => {
    const messages: unknown[] = [];
    const framer = createLineFramer({
      onMessage: (v) => {
        messages.push(v);
        if ((v as { n: number }).n === 2) framer.end();
      },
    });
    framer.push(Buffer.from('{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}\n'));
    assert.deepEqual(messages, [{ n: 1 }, { n: 2 }]);
  });
});

// What the framer holds and copies, observed rather than timed (issue #20 item 3: the mutants that change only
// cost or memory were listed as equivalent; these are the ones whose difference a caller can see). Each probe
// wraps a runtime function for the length of one call: the references the framer keeps (a WeakRef and a full GC),
// the bytes it copies (Buffer.concat), the blocks it allocates (Buffer.allocUnsafe), the decoder calls it makes.

/** Runs `run` with `owner[name]` wrapped so that `seen` gets each call's arguments and result; restores it after. */
function watching<T extends object, K extends keyof T>(owner: T, name: K, seen: (args: unknown[], result: unknown) => void, run: () => void): void {
  const original = owner[name] as (...args: unknown[]) => unknown;
  (owner as Record<K, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
    const result = original.apply(this, args);
    seen(args, result);
    return result;
  };
  try {
    run();
  } finally {
    (owner as Record<K, unknown>)[name] = original;
  }
}

describe('line framer audit: memory and copies (W1, W2)', () => {
  test('W2 audit: small reads are copied, not kept: a caller may reuse its read buffer for pieces under 16 KiB', () => {
    // The contract (LineFramer.push) lets the framer keep a reference only to a large partial line; a held
    // Buffer per tiny read would also cost far more memory than its bytes.
    const { line, value } = jsonString(5000);
    const { framer, messages } = recorder();
    const reused = Buffer.alloc(100);
    for (let at = 0; at < line.length; at += 100) {
      const n = line.copy(reused, 0, at, Math.min(at + 100, line.length));
      framer.push(reused.subarray(0, n));
    }
    framer.push(NL);
    assert.deepEqual(messages, [value]);
  });

  test('W2 audit: past 1 MiB a held line keeps no read: the reads it came in can be freed before it ends', async () => {
    const gc = fullGc();
    const { line, value } = jsonString(1_500_000);
    const { framer, messages } = recorder();
    // 64 KiB reads, each its own allocation, of which the test keeps only weak references.
    const reads = ((): WeakRef<Buffer>[] => {
      const refs: WeakRef<Buffer>[] = [];
      for (let at = 0; at < line.length; at += 64 * 1024) {
        const read = Buffer.from(line.subarray(at, Math.min(at + 64 * 1024, line.length)));
        refs.push(new WeakRef(read));
        framer.push(read);
      }
      return refs;
    })();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    const kept = reads.filter((ref) => ref.deref() !== undefined).length;
    assert.equal(kept, 0, `${kept} of ${reads.length} reads still reachable: the held line is kept as reads besides its text`);
    framer.push(NL);
    assert.equal(messages.length, 1);
    assert.ok(messages[0] === value);
  });

  test('W2 audit: past 1 MiB, small reads are batched in the block before decoding: not one decoder call (one string) per read', () => {
    const { line, value } = jsonString(1_400_000);
    const { framer, messages } = recorder();
    const big = line.subarray(0, 1_200_000);
    for (let at = 0; at < big.length; at += 64 * 1024) framer.push(big.subarray(at, Math.min(at + 64 * 1024, big.length)));
    let writes = 0;
    let reads = 0;
    watching(StringDecoder.prototype, 'write', () => writes++, () => {
      // 200,000 bytes in 1,000-byte reads: about three blocks' worth.
      for (let at = big.length; at < line.length; at += 1000, reads++) framer.push(line.subarray(at, Math.min(at + 1000, line.length)));
    });
    assert.equal(reads, 200);
    assert.ok(writes <= 4, `${writes} decoder calls for ${reads} small reads: the text is a rope of one string per read`);
    framer.push(NL);
    assert.ok(messages[0] === value);
  });

  test('W1 audit: a line held as one read is decoded from it, not copied first (the line is held once)', () => {
    const { line, value } = jsonString(100_000);
    const { framer, messages } = recorder();
    framer.push(line);
    let copied = 0;
    watching(Buffer, 'concat', (_args, result) => (copied += (result as Buffer).length), () => framer.push(NL));
    assert.equal(copied, 0, 'Buffer.concat copied the held line');
    assert.deepEqual(messages, [value]);
  });

  test('W1 audit: small held messages are assembled in one reused block, not a new 64 KiB block each', () => {
    const { framer, messages } = recorder();
    let blocks = 0;
    watching(Buffer, 'allocUnsafe', (args) => {
      if ((args[0] as number) >= 64 * 1024) blocks++;
    }, () => {
      // Each message cut in two reads: its first half is held, its second half and line break end it.
      for (let i = 0; i < 1000; i++) {
        const text = `${JSON.stringify({ i, pad: 'p'.repeat(40) })}\n`;
        framer.push(Buffer.from(text.slice(0, 20)));
        framer.push(Buffer.from(text.slice(20)));
      }
    });
    assert.equal(messages.length, 1000);
    assert.deepEqual(messages[999], { i: 999, pad: 'p'.repeat(40) });
    assert.ok(blocks <= 1, `${blocks} blocks of 64 KiB allocated for 1000 small messages`);
  });
});
