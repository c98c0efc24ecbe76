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

/**
 * The pipeline with the framer watched: what the gate hands on, read by read, before the framer sees it. The
 * gate's one job is where a line's reads wait (W2): in the framer while the line is short, in the gate, as
 * the reads that brought them, once it reaches half the cap; that is not visible in the messages, only here.
 */
function watchedPipeline(cap = CAP) {
  const messages: unknown[] = [];
  const overflows: string[] = [];
  const framer = createLineFramer({ maxMessageBytes: cap, onMessage: (v) => messages.push(v), onOverflow: () => overflows.push('framer') });
  const handedOn: number[] = [];
  const watched = {
    push: (chunk: Uint8Array) => {
      handedOn.push(chunk.length);
      framer.push(chunk);
    },
    end: () => framer.end(),
    get pendingBytes() {
      return framer.pendingBytes;
    },
  };
  const gate = createLongLineGate(watched, cap, () => overflows.push('gate'));
  return { gate, messages, overflows, handedOn };
}

test('W2 audit: the reads of a line shorter than half the cap reach the framer as they come, not held in the gate', () => {
  const { gate, messages, handedOn } = watchedPipeline();
  gate.push(Buffer.from('"'));
  for (let i = 0; i < 100; i++) {
    gate.push(Buffer.alloc(1000, 'x'));
    assert.equal(handedOn.length, i + 2, `read ${i + 2} of a 100 KB line was held back`);
  }
  gate.push(Buffer.from('"\n'));
  assert.deepEqual(messages, ['x'.repeat(100_000)]);
});

test('W2 audit: once a line reaches half the cap its reads wait in the gate, as they came, until the line ends', () => {
  const { gate, messages, overflows, handedOn } = watchedPipeline();
  const half = CAP / 2;
  const first = Buffer.alloc(MiB, 'x');
  first[0] = 0x22; // '"'
  gate.push(first);
  assert.deepEqual(handedOn, [MiB], 'the first MiB: the line is short, straight to the framer');
  gate.push(Buffer.alloc(half - MiB, 'x'));
  assert.deepEqual(handedOn, [MiB], 'the line is now exactly half the cap: this read is held');
  gate.push(Buffer.alloc(1000, 'x'));
  assert.deepEqual(handedOn, [MiB], 'and so is every further read without a line break');
  gate.push(Buffer.from('"\n'));
  assert.deepEqual(handedOn, [MiB, half - MiB, 1000, 2], 'the line ends: the held reads follow in order, then the read that ends it');
  assert.deepEqual(overflows, []);
  assert.equal(messages.length, 1);
  assert.equal((messages[0] as string).length, half + 1000 - 1);
});

test('W2 audit: with a cap under 2 MiB a line is held from 1 MiB on, not from half the cap', () => {
  const { gate, messages, handedOn } = watchedPipeline(MiB + 100_000);
  const line = Buffer.alloc(MiB - 1, 'x');
  line[0] = 0x22;
  for (let at = 0; at < line.length; at += 64 * 1024) gate.push(line.subarray(at, at + 64 * 1024));
  assert.equal(handedOn.length, 16, 'a line just under 1 MiB went to the framer read by read');
  gate.push(Buffer.from('x'));
  assert.equal(handedOn.length, 16, 'the read that takes it to 1 MiB is held');
  gate.push(Buffer.from('"\n'));
  assert.equal(handedOn.length, 18);
  assert.equal((messages[0] as string).length, MiB - 1);
});
