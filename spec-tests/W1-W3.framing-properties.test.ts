// W1–W3 as properties, seeded (helpers/property.ts): JSON messages and junk
// lines (text, whitespace, malformed UTF-8), LF or CRLF, serialized and cut
// at random byte offsets — inside multi-byte characters too — with a random
// size cap. Whatever the cuts: the messages come out in order, each junk line
// is reported once as it was, the cap is broken at the same line (the cap
// counts a line's bytes, less a final CR), and nothing throws. Then arbitrary
// bytes, arbitrarily cut, into the framer and into the SSE reader: nothing
// throws, nothing rejects.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { createLineFramer } from '../src/jsonrpc/line-framer.js';
import { readSse } from '../src/transport/sse-stream.js';
import { check, checkAsync, describeReport, runs } from './helpers/property.js';

/** One line's bytes, without its terminator. */
const lineBytes = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? 'null', 'utf8')) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => Buffer.from(s.replace(/\n/g, ' '), 'utf8')) },
  { weight: 1, arbitrary: fc.constantFrom(' ', '\t', '', '\r', 'banner: starting up').map((s) => Buffer.from(s)) },
  // Malformed UTF-8 and stray bytes (no 0x0A: that would be a line break).
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 24 }).map((b) => Buffer.from(b.map((x) => (x === 0x0a ? 0xff : x)))) },
);

interface Expected {
  messages: unknown[];
  noise: string[];
  overflow: boolean;
}

/** What the framer must report for these lines and this cap, worked out line by line with no cuts. */
function expected(lines: Buffer[], cap: number): Expected {
  const out: Expected = { messages: [], noise: [], overflow: false };
  for (const bytes of lines) {
    const size = bytes.length - (bytes.at(-1) === 0x0d ? 1 : 0);
    if (size > cap) {
      out.overflow = true;
      return out;
    }
    const text = bytes.toString('utf8');
    try {
      out.messages.push(JSON.parse(text));
    } catch {
      if (text.trim() !== '') out.noise.push(text);
    }
  }
  return out;
}

describe('W1–W3 framing properties', { timeout: 600_000 }, () => {
  test('W1–W3: messages and junk, cut anywhere, with any cap: the same messages, noise and cap decision as uncut', (t) => {
    const property = fc.property(
      fc.array(fc.tuple(lineBytes, fc.boolean()), { minLength: 1, maxLength: 12 }),
      fc.boolean(),
      fc.integer({ min: 1, max: 160 }),
      fc.array(fc.nat(), { maxLength: 8 }),
      (items, terminateLast, cap, rawCuts) => {
        // A line's content includes the '\r' of a CRLF ending, as the framer sees it.
        const lines = items.map(([bytes, crlf]) => (crlf ? Buffer.concat([bytes, Buffer.from('\r')]) : bytes));
        const wire = Buffer.concat(lines.flatMap((line, i) => (i < lines.length - 1 || terminateLast ? [line, Buffer.from('\n')] : [line])));
        const want = expected(lines, cap);

        const got: Expected = { messages: [], noise: [], overflow: false };
        let overflows = 0;
        const framer = createLineFramer({
          maxMessageBytes: cap,
          onMessage: (value) => got.messages.push(value),
          onNoise: (line) => got.noise.push(line),
          onOverflow: (limit) => {
            assert.equal(limit, cap);
            overflows++;
            got.overflow = true;
          },
        });
        const cuts = [...new Set(rawCuts.map((c) => c % (wire.length + 1)))].sort((a, b) => a - b);
        let from = 0;
        for (const cut of [...cuts, wire.length]) {
          framer.push(wire.subarray(from, cut));
          from = cut;
        }
        framer.end();
        assert.ok(overflows <= 1);
        assert.deepEqual(got, want);
      },
    );
    const report = check(property, runs(10_000, 200_000));
    t.diagnostic(`framing: ${describeReport(report)}`);
  });

  test('W3: arbitrary bytes, arbitrarily cut, into the framer: nothing throws', (t) => {
    const property = fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(), { maxLength: 6 }), fc.integer({ min: 1, max: 400 }), (bytes, rawCuts, cap) => {
      const framer = createLineFramer({ maxMessageBytes: cap, onMessage: () => {}, onNoise: () => {}, onOverflow: () => {} });
      const cuts = [...new Set(rawCuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
      let from = 0;
      for (const cut of [...cuts, bytes.length]) {
        framer.push(bytes.subarray(from, cut));
        from = cut;
      }
      framer.end();
    });
    const report = check(property, runs(30_000, 100_000));
    t.diagnostic(`framer, arbitrary bytes: ${describeReport(report)}`);
  });

  test('T2/T3: arbitrary bytes, arbitrarily cut, into the SSE reader: it resolves, never throws or rejects', async (t) => {
    const sseish = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc.array(fc.constantFrom('data: ', 'data:{"a":1}', 'event: message', 'id: 7', 'retry: 10', ': c', '\n', '\r', '\r\n', 'é', '\xff', 'x'), { maxLength: 30 }).map((parts) => new Uint8Array(Buffer.from(parts.join(''), 'latin1'))),
    );
    const property = fc.asyncProperty(sseish, fc.array(fc.nat(), { maxLength: 6 }), fc.integer({ min: 1, max: 300 }), async (bytes, rawCuts, cap) => {
      const cuts = [...new Set(rawCuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
      const pieces: Uint8Array[] = [];
      let from = 0;
      for (const cut of [...cuts, bytes.length]) {
        pieces.push(bytes.subarray(from, cut));
        from = cut;
      }
      let i = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (i < pieces.length) controller.enqueue(pieces[i++]!);
          else controller.close();
        },
      });
      const end = await readSse(body, cap, { onEvent: () => {}, onId: () => {}, onRetry: () => {} });
      assert.ok(end === 'ended' || end === 'too-large');
    });
    const report = await checkAsync(property, runs(10_000, 100_000));
    t.diagnostic(`SSE reader, arbitrary bytes: ${describeReport(report)}`);
  });
});
