// Audit tests for the line framer (W1–W3; issue #20 item 3): inputs the
// mutation audit showed no test sent, each at a size where the framer takes
// a different path (a piece copied into its 64 KiB block or kept by
// reference, a line decoded as it comes past 1 MiB, the end of input in
// each of those states). Bytes in, messages and noise out; every expected
// value is the plain JSON.parse of the line.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
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
