// encode-small's contenders hand each line to streamBytes, the encoding Node's
// stream does for a string write (#20 item 2, SPEC X4/W1): it must write the
// text's own UTF-8, as Buffer.from does, for every kind of text, small (the
// stack buffer) and large (storage of the bound, or of the exact count).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { streamBytes } from './workloads/encode.js';

function sameAsBufferFrom(text: string): void {
  let written: Buffer | undefined;
  const length = streamBytes(text, (bytes, n) => void (written = Buffer.from(bytes.subarray(0, n))));
  const expected = Buffer.from(text);
  assert.equal(length, expected.length);
  assert.ok(written!.equals(expected), `bytes of ${JSON.stringify(text.slice(0, 40))} (${text.length} units)`);
}

test('streamBytes writes the same UTF-8 as Buffer.from: ASCII, 2-, 3- and 4-byte characters, lone surrogates, a newline', () => {
  for (const text of ['', '{"jsonrpc":"2.0","id":1}\n', 'é', '€', '😀', '\ud800', 'a\udc00b', '\udbff\udfff', `${JSON.stringify({ text: 'naïve ☃ 😀 \ud83d' })}\n`]) sameAsBufferFrom(text);
});

test('streamBytes at the stack buffer\'s edge and past it, and past 65,535 units (the exact-count branch)', () => {
  for (const units of [5_461, 5_462, 20_000, 65_535, 65_536, 300_000]) {
    sameAsBufferFrom('x'.repeat(units));
    sameAsBufferFrom('€'.repeat(units));
    sameAsBufferFrom('😀'.repeat(units >> 1));
  }
});

test('streamBytes, random strings of any UTF-16 units against Buffer.from (seeded)', () => {
  let seed = 0x5eed;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) >>> 0);
  for (let i = 0; i < 2_000; i++) {
    const length = next() % (i % 50 === 0 ? 40_000 : 300);
    let text = '';
    for (let k = 0; k < length; k++) {
      const kind = next() % 8;
      text += String.fromCharCode(kind < 5 ? next() % 0x80 : kind < 6 ? next() % 0x800 : kind < 7 ? 0xd800 + (next() % 0x800) : next() % 0x10000);
    }
    sameAsBufferFrom(text);
  }
});
