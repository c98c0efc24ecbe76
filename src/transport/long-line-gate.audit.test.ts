// Audit tests for the long-line gate (W2; issue #20 item 3): the edges of
// its own cap check, which the mutation audit found untested: the one byte
// of slack for a CR that arrives in a read of its own, the read on which an
// endless line is refused, and silence after that. Bytes in through gate and
// framer, messages, noise and overflows out.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLineFramer } from '../jsonrpc/line-framer.js';
import { createLongLineGate } from './long-line-gate.js';

const MiB = 1024 * 1024;
const CAP = 4 * MiB;

function pipeline() {
  const messages: unknown[] = [];
  const noise: string[] = [];
  const overflows: string[] = [];
  const framer = createLineFramer({ maxMessageBytes: CAP, onMessage: (v) => messages.push(v), onNoise: (n) => noise.push(n), onOverflow: () => overflows.push('framer') });
  const gate = createLongLineGate(framer, CAP, () => overflows.push('gate'));
  return { gate, messages, noise, overflows };
}

test('W2 audit: a line of exactly the cap whose CR comes in a read of its own, then the LF, goes through', () => {
  const { gate, messages, overflows } = pipeline();
  const line = Buffer.from(`"${'x'.repeat(CAP - 2)}"`);
  for (let i = 0; i < line.length; i += 64 * 1024) gate.push(line.subarray(i, i + 64 * 1024));
  gate.push(Buffer.from('\r'));
  assert.deepEqual(overflows, [], 'cap + 1 bytes without a line break yet: the CR may belong to a CRLF');
  gate.push(Buffer.from('\n'));
  assert.deepEqual(overflows, []);
  assert.equal(messages.length, 1);
  assert.equal((messages[0] as string).length, CAP - 2);
});

test('W2 audit: an endless line is refused on the read that takes it past the cap, once, and end() then delivers nothing', () => {
  const { gate, messages, noise, overflows } = pipeline();
  const read = Buffer.alloc(MiB, 'x');
  for (let n = 1; n <= 4; n++) {
    gate.push(read);
    assert.deepEqual(overflows, [], `after ${n} MiB of a ${CAP / MiB} MiB cap`);
  }
  gate.push(read);
  assert.deepEqual(overflows, ['gate'], 'the fifth MiB breaks the cap');
  gate.push(read);
  gate.push(Buffer.from('\n"late"\n'));
  gate.end();
  assert.deepEqual(overflows, ['gate']);
  assert.deepEqual(messages, []);
  assert.deepEqual(noise, [], 'the start of the refused line is never reported');
});
