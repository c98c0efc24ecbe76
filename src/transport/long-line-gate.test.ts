// The gate in front of the framer must not change what the framer decides:
// the same messages, in the same order, and an overflow at exactly the same
// size (W2), with the line held as bytes past half the cap.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLineFramer } from '../jsonrpc/line-framer.js';
import { createLongLineGate } from './long-line-gate.js';

const MiB = 1024 * 1024;
const CAP = 4 * MiB;

/** A JSON string line of exactly `bytes` bytes (quotes included), without a line break. */
function jsonOf(bytes: number): Buffer {
  return Buffer.from(`"${'x'.repeat(bytes - 2)}"`);
}

/** Feeds `data` in 64 KiB reads through gate and framer; what came out. */
function run(...parts: Buffer[]): { messages: unknown[]; overflows: number[] } {
  const messages: unknown[] = [];
  const overflows: number[] = [];
  const framer = createLineFramer({ maxMessageBytes: CAP, onMessage: (v) => messages.push(v), onOverflow: (l) => overflows.push(l) });
  const gate = createLongLineGate(framer, CAP, (l) => overflows.push(l));
  const data = Buffer.concat(parts);
  for (let i = 0; i < data.length; i += 64 * 1024) gate.push(Buffer.from(data.subarray(i, i + 64 * 1024)));
  gate.end();
  return { messages, overflows };
}

const NL = Buffer.from('\n');
const CRLF = Buffer.from('\r\n');

test('a line of exactly the cap goes through, with \\n or \\r\\n, between short messages in order', () => {
  for (const end of [NL, CRLF]) {
    const { messages, overflows } = run(Buffer.from('1\n'), jsonOf(CAP), end, Buffer.from('2\n'));
    assert.deepEqual(overflows, []);
    assert.equal(messages.length, 3);
    assert.equal(messages[0], 1);
    assert.equal((messages[1] as string).length, CAP - 2);
    assert.equal(messages[2], 2);
  }
});

test('a line one byte over the cap overflows once, whether or not its line break has come', () => {
  assert.deepEqual(run(jsonOf(CAP + 1), NL).overflows, [CAP]);
  assert.deepEqual(run(jsonOf(CAP + 1), CRLF).overflows, [CAP]);
  const endless = run(Buffer.alloc(3 * CAP, 'x'));
  assert.deepEqual(endless.overflows, [CAP], 'reported once; the rest is ignored');
  assert.deepEqual(endless.messages, []);
});

test('a held line without a final line break is still delivered at the end of input', () => {
  const { messages, overflows } = run(jsonOf(3 * MiB));
  assert.deepEqual(overflows, []);
  assert.equal((messages[0] as string).length, 3 * MiB - 2);
});
