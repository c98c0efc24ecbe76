// Unit tests for ByteTail, the bounded stderr tail (T1): it never holds more
// than its limit and never shows a character cut at the front.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ByteTail } from './ring-text.js';

describe('ByteTail', () => {
  test('empty tail is empty text', () => {
    assert.equal(new ByteTail(16).text(), '');
  });

  test('keeps everything while under the limit', () => {
    const tail = new ByteTail(16);
    tail.push(Buffer.from('abc'));
    tail.push(Buffer.from('def'));
    assert.equal(tail.text(), 'abcdef');
  });

  test('keeps exactly the last N bytes, across many small chunks', () => {
    const tail = new ByteTail(10);
    let all = '';
    for (let i = 0; i < 100; i++) {
      const piece = `${i},`;
      all += piece;
      tail.push(Buffer.from(piece));
      assert.equal(tail.text(), all.slice(-10), `after ${i}`);
    }
  });

  test('a chunk larger than the limit keeps only its end', () => {
    const tail = new ByteTail(5);
    tail.push(Buffer.from('first'));
    tail.push(Buffer.from('0123456789'));
    assert.equal(tail.text(), '56789');
    tail.push(Buffer.from('ab'));
    assert.equal(tail.text(), '789ab');
  });

  test('a chunk of exactly the limit replaces everything', () => {
    const tail = new ByteTail(4);
    tail.push(Buffer.from('xy'));
    tail.push(Buffer.from('abcd'));
    assert.equal(tail.text(), 'abcd');
  });

  test('memory stays bounded: the held chunks never add up to much more than the limit', () => {
    const tail = new ByteTail(1000);
    for (let i = 0; i < 10_000; i++) tail.push(Buffer.alloc(7, 0x61));
    // Held bytes are at most limit + one chunk; reach in to check, since it is the point of the class.
    const held = (tail as unknown as { bytes: number }).bytes;
    assert.ok(held < 1000 + 7, `held ${held}`);
    assert.equal(tail.text(), 'a'.repeat(1000));
  });

  test('a multi-byte character cut at the front is dropped, not shown as U+FFFD', () => {
    // '€' is 3 bytes; keep 4 bytes of '€€': the front one is cut to its last byte.
    const tail = new ByteTail(4);
    tail.push(Buffer.from('€€'));
    assert.equal(tail.text(), '€');
    const emoji = new ByteTail(6);
    emoji.push(Buffer.from('x😀😀')); // 9 bytes; the last 6 start 2 bytes into the first emoji
    assert.equal(emoji.text(), '😀');
    assert.equal(emoji.text().includes('\uFFFD'), false);
  });

  test('a multi-byte character split across chunks is joined correctly', () => {
    const tail = new ByteTail(64);
    const bytes = Buffer.from('漢字 error');
    tail.push(bytes.subarray(0, 1));
    tail.push(bytes.subarray(1, 4));
    tail.push(bytes.subarray(4));
    assert.equal(tail.text(), '漢字 error');
  });
});
