// Unit tests for the newline-delimited JSON framer (W1–W3): one test per
// boundary, each with a line on why the boundary matters.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createLineFramer, type LineFramerOptions } from './line-framer.js';

/** A framer that records everything it reports. */
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

// CJK (3 bytes per character) and an emoji outside the BMP (4 bytes, a surrogate pair in JS).
const TEXT = '漢字テスト 😀 done';
const MESSAGE = { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: TEXT }] } };
const LINE = Buffer.from(`${JSON.stringify(MESSAGE)}\n`, 'utf8');

describe('createLineFramer', () => {
  test('the test message really contains multi-byte characters', () => {
    // Guards the tests below: a split inside a character only happens if there are such characters.
    assert.ok(LINE.length > JSON.stringify(MESSAGE).length + 1);
    assert.ok(LINE.includes(Buffer.from('😀', 'utf8')));
  });

  test('a message split at every byte boundary decodes identically', () => {
    // Splitting inside a UTF-8 sequence is where decoding per chunk goes wrong (U+FFFD).
    for (let cut = 0; cut <= LINE.length; cut++) {
      const { framer, messages, noise } = recorder();
      framer.push(LINE.subarray(0, cut));
      framer.push(LINE.subarray(cut));
      assert.deepEqual(messages, [MESSAGE], `split at byte ${cut}`);
      assert.deepEqual(noise, []);
      assert.equal(framer.pendingBytes, 0);
    }
  });

  test('three-way splits at every pair of boundaries decode identically', () => {
    for (let a = 1; a < LINE.length; a += 3) {
      for (let b = a; b < LINE.length; b += 5) {
        const { framer, messages } = recorder();
        framer.push(LINE.subarray(0, a));
        framer.push(LINE.subarray(a, b));
        framer.push(LINE.subarray(b));
        assert.deepEqual(messages, [MESSAGE], `split at ${a} and ${b}`);
      }
    }
  });

  test('1-byte chunks decode, twice in a row', () => {
    // A server that drips its output: the held line is rebuilt from many tiny pieces.
    const { framer, messages } = recorder();
    const twice = Buffer.concat([LINE, LINE]);
    for (let i = 0; i < twice.length; i++) framer.push(twice.subarray(i, i + 1));
    assert.deepEqual(messages, [MESSAGE, MESSAGE]);
    assert.equal(framer.pendingBytes, 0);
  });

  test('\\r\\n line endings are accepted, also when \\r and \\n arrive in different chunks', () => {
    const crlf = Buffer.from(`${JSON.stringify(MESSAGE)}\r\n${JSON.stringify({ a: 1 })}\r\n`, 'utf8');
    const whole = recorder();
    whole.framer.push(crlf);
    assert.deepEqual(whole.messages, [MESSAGE, { a: 1 }]);
    const cr = crlf.indexOf(0x0d);
    const split = recorder();
    split.framer.push(crlf.subarray(0, cr + 1));
    split.framer.push(crlf.subarray(cr + 1));
    assert.deepEqual(split.messages, [MESSAGE, { a: 1 }]);
    assert.deepEqual([...whole.noise, ...split.noise], []);
  });

  test('blank lines (empty, spaces, a lone \\r) are skipped without a report', () => {
    const { framer, messages, noise } = recorder();
    framer.push(Buffer.from('\n\n   \n\r\n{"a":1}\n\t\n'));
    assert.deepEqual(messages, [{ a: 1 }]);
    assert.deepEqual(noise, []);
  });

  test('a non-JSON line goes to onNoise and the messages after it still arrive', () => {
    // W3: a server banner on stdout must not kill the session.
    const { framer, messages, noise } = recorder();
    framer.push(Buffer.from('{"a":1}\nServer v1.2 starting…\n{"b":'));
    framer.push(Buffer.from('2}\n{not json}\n{"c":3}\n'));
    assert.deepEqual(messages, [{ a: 1 }, { b: 2 }, { c: 3 }]);
    assert.deepEqual(noise, ['Server v1.2 starting…', '{not json}']);
  });

  test('non-object JSON values are handed on: sorting them out is the connection’s job', () => {
    const { framer, messages, noise } = recorder();
    framer.push(Buffer.from('42\n"text"\nnull\n[1,2]\n'));
    assert.deepEqual(messages, [42, 'text', null, [1, 2]]);
    assert.deepEqual(noise, []);
  });

  test('without onNoise a non-JSON line is skipped silently', () => {
    const messages: unknown[] = [];
    const framer = createLineFramer({ onMessage: (v) => messages.push(v) });
    framer.push(Buffer.from('banner\n{"a":1}\n'));
    assert.deepEqual(messages, [{ a: 1 }]);
  });

  test('many small messages in one chunk all arrive, in order', () => {
    const count = 5_000;
    const text = Array.from({ length: count }, (_, i) => JSON.stringify({ jsonrpc: '2.0', method: 'n', params: { i } })).join('\n') + '\n';
    const { framer, messages } = recorder();
    framer.push(Buffer.from(text));
    assert.equal(messages.length, count);
    assert.deepEqual(
      messages.map((m) => (m as { params: { i: number } }).params.i),
      Array.from({ length: count }, (_, i) => i),
    );
    assert.equal(framer.pendingBytes, 0);
  });

  test('a chunk passed as a plain Uint8Array (not a Buffer), also a view into a larger buffer', () => {
    const { framer, messages } = recorder();
    framer.push(new Uint8Array(LINE));
    // A view with a non-zero byteOffset: only the viewed bytes may be read.
    const backing = new Uint8Array(LINE.length + 20).fill(0x20);
    backing.set(LINE, 10);
    backing[9] = 0x7b; // '{' right before the view: would corrupt the line if read
    framer.push(new Uint8Array(backing.buffer, 10, LINE.length));
    assert.deepEqual(messages, [MESSAGE, MESSAGE]);
  });

  test('end() delivers a final line that has no newline', () => {
    const { framer, messages } = recorder();
    framer.push(Buffer.from('{"a":1}\n{"b":'));
    framer.push(Buffer.from('2}'));
    assert.deepEqual(messages, [{ a: 1 }]);
    framer.end();
    assert.deepEqual(messages, [{ a: 1 }, { b: 2 }]);
    assert.equal(framer.pendingBytes, 0);
  });

  test('end() reports an unfinished non-JSON tail as noise, and push() after end() is ignored', () => {
    const { framer, messages, noise } = recorder();
    framer.push(Buffer.from('{"a":'));
    framer.end();
    framer.push(Buffer.from('{"b":2}\n'));
    assert.deepEqual(messages, []);
    assert.deepEqual(noise, ['{"a":']);
  });

  describe('the size cap (W2)', () => {
    const MAX = 100;
    /** A JSON line whose text is exactly `bytes` long: a string literal padded with x. */
    const jsonOfLength = (bytes: number) => `"${'x'.repeat(bytes - 2)}"`;

    test('a line of exactly maxMessageBytes passes, whole or in pieces', () => {
      const line = jsonOfLength(MAX);
      assert.equal(Buffer.byteLength(line), MAX);
      const whole = recorder({ maxMessageBytes: MAX });
      whole.framer.push(Buffer.from(`${line}\n`));
      const pieces = recorder({ maxMessageBytes: MAX });
      pieces.framer.push(Buffer.from(line.slice(0, 30)));
      pieces.framer.push(Buffer.from(line.slice(30)));
      pieces.framer.push(Buffer.from('\n'));
      for (const r of [whole, pieces]) {
        assert.deepEqual(r.messages, [JSON.parse(line)]);
        assert.deepEqual(r.overflows, []);
      }
    });

    test('one byte over triggers onOverflow once with the limit, and push() is ignored afterwards', () => {
      const line = jsonOfLength(MAX + 1);
      for (const feed of [
        (f: { push(c: Uint8Array): void }) => f.push(Buffer.from(`${line}\n`)), // whole line in one chunk
        (f: { push(c: Uint8Array): void }) => {
          f.push(Buffer.from(line.slice(0, 50)));
          f.push(Buffer.from(`${line.slice(50)}\n`)); // completed by a chunk with the newline
        },
        (f: { push(c: Uint8Array): void }) => f.push(Buffer.from(line)), // held, never completed
      ]) {
        const { framer, messages, overflows } = recorder({ maxMessageBytes: MAX });
        framer.push(Buffer.from('{"before":1}\n'));
        feed(framer);
        assert.deepEqual(overflows, [MAX]);
        framer.push(Buffer.from('{"after":1}\n'));
        framer.push(Buffer.from(`${line}\n`));
        framer.end();
        assert.deepEqual(messages, [{ before: 1 }]);
        assert.deepEqual(overflows, [MAX], 'onOverflow fires once');
        assert.equal(framer.pendingBytes, 0, 'the held bytes are dropped');
      }
    });

    test('with \\r\\n the \\r is part of the line break, not of the message', () => {
      // The option counts the message "not counting the line break"; a CRLF server gets the same cap.
      const line = jsonOfLength(MAX);
      const whole = recorder({ maxMessageBytes: MAX });
      whole.framer.push(Buffer.from(`${line}\r\n`));
      const held = recorder({ maxMessageBytes: MAX });
      held.framer.push(Buffer.from(`${line}\r`));
      held.framer.push(Buffer.from('\n'));
      for (const r of [whole, held]) {
        assert.deepEqual(r.messages, [JSON.parse(line)]);
        assert.deepEqual(r.overflows, []);
      }
      const over = recorder({ maxMessageBytes: MAX });
      over.framer.push(Buffer.from(`${jsonOfLength(MAX + 1)}\r\n`));
      assert.deepEqual(over.overflows, [MAX]);
      const overHeld = recorder({ maxMessageBytes: MAX });
      overHeld.framer.push(Buffer.from(`${jsonOfLength(MAX + 1)}\r`));
      assert.deepEqual(overHeld.overflows, [MAX]);
    });

    test('a never-ending line in 64 KiB chunks stops at the cap; pendingBytes never exceeds it', () => {
      const cap = 1024 * 1024;
      const { framer, overflows } = recorder({ maxMessageBytes: cap });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let maxPending = 0;
      let pushes = 0;
      while (overflows.length === 0 && pushes < 1000) {
        framer.push(chunk);
        pushes++;
        maxPending = Math.max(maxPending, framer.pendingBytes);
      }
      assert.deepEqual(overflows, [cap]);
      assert.ok(maxPending <= cap, `held ${maxPending} bytes, cap ${cap}`);
      assert.equal(pushes, cap / chunk.length + 1, 'stops on the first chunk that crosses the cap');
      for (let i = 0; i < 10; i++) framer.push(chunk);
      assert.equal(framer.pendingBytes, 0);
    });

    test('a never-ending line in 1-byte chunks is bounded by the cap too', () => {
      const cap = 200_000;
      const { framer, overflows } = recorder({ maxMessageBytes: cap });
      const one = Buffer.from('a');
      let maxPending = 0;
      for (let i = 0; i <= cap + 10; i++) {
        framer.push(one);
        maxPending = Math.max(maxPending, framer.pendingBytes);
      }
      assert.deepEqual(overflows, [cap]);
      assert.equal(maxPending, cap);
    });
  });

  test('a long line switches to decoding as it comes: multi-byte text cut anywhere, in tiny and large reads, stays exact', () => {
    // Past 1 MiB the held line is decoded on arrival (so the reads can be freed);
    // characters cut between reads must survive that switch and what follows it.
    const text = '€漢😀a'.repeat(300_000); // ~3.6 MiB of 1-, 3- and 4-byte characters
    const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text } })}\n`);
    for (const sizes of [[1, 7, 100, 3], [65_536, 1, 20_000, 5]]) {
      const { framer, messages } = recorder();
      for (let i = 0, k = 0; i < line.length; k++) {
        const size = sizes[k % sizes.length]!;
        framer.push(line.subarray(i, i + size));
        i += size;
      }
      assert.equal(messages.length, 1, `reads of ${sizes.join('/')}`);
      assert.equal((messages[0] as { result: { text: string } }).result.text, text);
      assert.equal(framer.pendingBytes, 0);
    }
  });

  test('a never-ending line dripped in small reads past the switch to text stays bounded by the cap', () => {
    const cap = 3 * 1024 * 1024;
    const { framer, overflows } = recorder({ maxMessageBytes: cap });
    const piece = Buffer.alloc(37, 0x61);
    let maxPending = 0;
    for (let pushed = 0; overflows.length === 0 && pushed < cap * 2; pushed += piece.length) {
      framer.push(piece);
      maxPending = Math.max(maxPending, framer.pendingBytes);
    }
    assert.deepEqual(overflows, [cap]);
    assert.ok(maxPending <= cap, `held ${maxPending} bytes, cap ${cap}`);
  });

  test('a 16 MiB message in 64 KiB chunks decodes', () => {
    // W1: linear cost. The framer must hold the pieces and join once, not concat per chunk.
    const big = { jsonrpc: '2.0', id: 1, result: { text: '€'.repeat((16 * 1024 * 1024) / 3) } };
    const bytes = Buffer.from(`${JSON.stringify(big)}\n`);
    assert.ok(bytes.length > 16 * 1024 * 1024);
    const { framer, messages, overflows } = recorder();
    // 64 KiB is not a multiple of 3, so many chunks end inside a '€'.
    for (let i = 0; i < bytes.length; i += 64 * 1024) framer.push(bytes.subarray(i, i + 64 * 1024));
    assert.equal(messages.length, 1);
    assert.deepEqual(overflows, []);
    assert.equal((messages[0] as typeof big).result.text, big.result.text);
    assert.equal(framer.pendingBytes, 0);
  });

  test('the cap counts the bytes received, malformed UTF-8 included, however the line is cut', () => {
    // A malformed byte decodes to U+FFFD, three bytes: measuring the decoded text made a 12-byte
    // line overflow a 15-byte cap when it arrived whole and pass when it arrived in pieces.
    const line = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xff, 0xff, 0xff]), Buffer.from('"}\n')]);
    assert.equal(line.length - 1, 12);
    for (const cap of [11, 12, 15]) {
      for (let cut = 0; cut <= line.length; cut++) {
        const { framer, messages, overflows } = recorder({ maxMessageBytes: cap });
        framer.push(line.subarray(0, cut));
        framer.push(line.subarray(cut));
        assert.deepEqual(overflows, cap < 12 ? [cap] : [], `cap ${cap}, cut at ${cut}`);
        assert.equal(messages.length, cap < 12 ? 0 : 1, `cap ${cap}, cut at ${cut}`);
      }
    }
  });

  test('a line near the cap after many short ones in the same chunk is measured at its own bytes', () => {
    // The near-cap measure walks the chunk's newlines: lines before it, multi-byte ones too, must not shift it.
    const short = `${JSON.stringify({ t: '漢字' })}\n`.repeat(5);
    const near = `{"a":"${'\u00e9'.repeat(10)}"}`; // 28 bytes, 18 UTF-16 units
    const chunk = Buffer.from(`${short}${near}\n${short}`);
    for (const [cap, overflow] of [[28, false], [27, true]] as const) {
      const { framer, messages, overflows } = recorder({ maxMessageBytes: cap });
      framer.push(chunk);
      assert.equal(overflows.length, overflow ? 1 : 0, `cap ${cap}`);
      assert.equal(messages.length, overflow ? 5 : 11, `cap ${cap}`);
    }
  });

  test('a message that finishes in the same chunk as the start of the next is split correctly', () => {
    const { framer, messages } = recorder();
    framer.push(Buffer.from('{"a":'));
    framer.push(Buffer.from('1}\n{"b":2}\n{"c":'));
    framer.push(Buffer.from('3}\n'));
    assert.deepEqual(messages, [{ a: 1 }, { b: 2 }, { c: 3 }]);
  });

  test('onMessage may call end() re-entrantly: nothing after it is delivered', () => {
    const messages: unknown[] = [];
    const framer = createLineFramer({
      onMessage: (v) => {
        messages.push(v);
        framer.end();
      },
    });
    framer.push(Buffer.from('{"a":1}\n{"b":2}\n'));
    assert.deepEqual(messages, [{ a: 1 }]);
  });
});
