// T2/T3 (W2 for the cap): the byte-level SSE parser (src/transport/sse-parser.ts)
// that replaced eventsource-parser on both HTTP transports' read path. The
// behaviours of eventsource-parser that MCP relies on, one by one, and then
// eventsource-parser itself as the oracle: arbitrary SSE-shaped bytes, cut
// arbitrarily, must give the same events, ids and retries from both.

import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { createParser } from 'eventsource-parser';
import { createSseParser, type SseEvent } from '../src/transport/sse-parser.js';
import { readSse } from '../src/transport/sse-stream.js';
import { check, describeReport, runs } from './helpers/property.js';

type Seen = { events: SseEvent[]; ids: string[]; retries: number[]; fits: boolean };

/** The new parser over the given reads. */
function parse(reads: readonly Uint8Array[], maxEventBytes = 1 << 20): Seen {
  const seen: Seen = { events: [], ids: [], retries: [], fits: true };
  const parser = createSseParser({
    maxEventBytes,
    onEvent: (event) => seen.events.push(event),
    onId: (id) => seen.ids.push(id),
    onRetry: (ms) => seen.retries.push(ms),
  });
  for (const read of reads) if (!parser.push(read)) seen.fits = false;
  return seen;
}

/** eventsource-parser 4 as mcpwire used it before: the stream decoded as UTF-8 (a BOM left in), fed as text. */
function oracle(bytes: Uint8Array): Seen {
  const seen: Seen = { events: [], ids: [], retries: [], fits: true };
  const parser = createParser({
    onEvent: (event) => seen.events.push({ id: event.id, event: event.event, data: event.data }),
    onId: (id) => seen.ids.push(id),
    onRetry: (ms) => seen.retries.push(ms),
  });
  parser.feed(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes));
  return seen;
}

const bytesOf = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

/** `bytes` cut at every offset into two reads, and into single bytes. */
function* everyCut(bytes: Uint8Array): Generator<Uint8Array[]> {
  for (let i = 0; i <= bytes.length; i++) yield [bytes.subarray(0, i), bytes.subarray(i)];
  yield Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
}

/** The events of `text`, the same however the reads cut it. */
function eventsOf(text: string | Uint8Array, maxEventBytes?: number): Seen {
  const bytes = typeof text === 'string' ? bytesOf(text) : text;
  const whole = parse([bytes], maxEventBytes);
  for (const reads of everyCut(bytes)) assert.deepEqual(parse(reads, maxEventBytes), whole, `reads of ${reads.map((r) => r.length).join('+')} bytes`);
  return whole;
}

const ev = (data: string, event?: string, id?: string): SseEvent => ({ id, event, data });

describe('T2/T3 SSE parser: the event-stream grammar', () => {
  test('fields: data, event, id; one leading space dropped from a value, a second kept', () => {
    assert.deepEqual(eventsOf('event: message\ndata: {"a":1}\nid: 7\n\nevent:custom\ndata:  two spaces\n\n').events, [ev('{"a":1}', 'message', '7'), ev(' two spaces', 'custom')]);
  });

  test('multi-line data is joined with \\n; an empty data line adds an empty line', () => {
    assert.deepEqual(eventsOf('data: a\ndata: b\ndata\ndata:\ndata: c\n\n').events, [ev('a\nb\n\n\nc')]);
  });

  test('a block without data dispatches no event but still reports its id (the priming event)', () => {
    const seen = eventsOf('id: prime-1\n\ndata: x\nid: 2\n\n');
    assert.deepEqual(seen.events, [ev('x', undefined, '2')]);
    assert.deepEqual(seen.ids, ['prime-1', '2']);
  });

  test('an id with a NUL is ignored; an empty id is an id', () => {
    const seen = eventsOf('id: a\0b\ndata: x\n\nid\ndata: y\n\n');
    assert.deepEqual(seen.events, [ev('x'), ev('y', undefined, '')]);
    assert.deepEqual(seen.ids, ['']);
  });

  test('retry: digits only; anything else is ignored', () => {
    assert.deepEqual(eventsOf('retry: 1500\nretry: 15x\nretry:\nretry\nretry: -1\nretry:250\n\n').retries, [1500, 250]);
  });

  test('comments and unknown fields are ignored, and do not end an event', () => {
    assert.deepEqual(eventsOf(': hello\ndata: a\n:\nfoo: bar\ndataa: no\nDATA: no\n data: no\ndata: b\n\n').events, [ev('a\nb')]);
  });

  test('an empty event type is the default type', () => {
    assert.deepEqual(eventsOf('event: x\nevent:\ndata: a\n\nevent\ndata: b\n\n').events, [ev('a'), ev('b')]);
  });

  test('LF, CR and CRLF each end a line, mixed in one stream, wherever the reads cut a CRLF', () => {
    assert.deepEqual(eventsOf('data: a\r\n\r\ndata: b\r\rdata: c\n\ndata: d\r\ndata: e\r\r\n').events, [ev('a'), ev('b'), ev('c'), ev('d\ne')]);
  });

  test('one BOM at the start is dropped, even cut across reads; a second one, or one later, is data', () => {
    assert.deepEqual(eventsOf('\ufeffdata: a\n\n').events, [ev('a')]);
    assert.deepEqual(eventsOf('\ufeff\ufeffdata: a\n\n').events, [], 'the second BOM makes the first line an unknown field');
    assert.deepEqual(eventsOf('data: \ufeffb\n\n').events, [ev('\ufeffb')]);
    // A start that looks like a BOM for one or two bytes, then is not one: those bytes are input.
    const almost = Buffer.concat([Buffer.from([0xef, 0xbb]), Buffer.from('\ndata: c\n\n')]);
    assert.deepEqual(eventsOf(new Uint8Array(almost)).events, [ev('c')]);
  });

  test('multi-byte characters and invalid UTF-8 come out as a one-shot decoder gives them', () => {
    const body = Buffer.concat([Buffer.from('data: é€𝄞 '), Buffer.from([0xff, 0xe2, 0x82]), Buffer.from('\n\n')]);
    assert.deepEqual(eventsOf(new Uint8Array(body)).events, [ev('é€𝄞 \ufffd\ufffd')]);
  });

  test('an event the stream ends in the middle of is not dispatched', () => {
    assert.deepEqual(eventsOf('data: a\n\ndata: b\n').events, [ev('a')]);
    assert.deepEqual(eventsOf('data: a\n\ndata: b').events, [ev('a')]);
  });
});

describe('W2 SSE parser: the cap counts the bytes of an event\'s data', () => {
  test('data of exactly the cap fits, one byte more does not, wherever the reads cut it', () => {
    const cap = 64;
    for (const [text, fits] of [
      [`data: ${'x'.repeat(cap)}\n\n`, true],
      [`data: ${'x'.repeat(cap + 1)}\n\n`, false],
      // Two lines: their bytes and the '\n' that joins them.
      [`data: ${'x'.repeat(31)}\ndata: ${'y'.repeat(32)}\n\n`, true],
      [`data: ${'x'.repeat(32)}\ndata: ${'y'.repeat(32)}\n\n`, false],
      // Multi-byte characters count as their bytes: 32 two-byte characters are 64 bytes.
      [`data: ${'é'.repeat(32)}\n\n`, true],
      [`data: ${'é'.repeat(32)}x\n\n`, false],
    ] as const) {
      for (const reads of everyCut(bytesOf(text))) {
        const seen = parse(reads, cap);
        assert.equal(seen.fits, fits, `${text.length} chars in reads of ${reads.map((r) => r.length).join('+')} bytes`);
        assert.equal(seen.events.length, fits ? 1 : 0);
      }
    }
  });

  test('W2: an event fits exactly when its data\'s UTF-8 bytes are within the cap, for any lines, characters, cap and cut', (t) => {
    const char = fc.constantFrom('x', 'é', '€', '𝄞');
    const dataLine = fc.array(char, { maxLength: 12 }).map((chars) => chars.join(''));
    const property = fc.property(fc.array(dataLine, { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 120 }), fc.nat(), (values, cap, rawCut) => {
      const bytes = bytesOf(`${values.map((v) => `data: ${v}\n`).join('')}\n`);
      const cut = rawCut % (bytes.length + 1);
      const seen = parse([bytes.subarray(0, cut), bytes.subarray(cut)], cap);
      const fits = Buffer.byteLength(values.join('\n')) <= cap;
      assert.equal(seen.fits, fits);
      assert.deepEqual(seen.events, fits ? [ev(values.join('\n'))] : []);
    });
    t.diagnostic(`cap against Buffer.byteLength: ${describeReport(check(property, runs(5_000, 50_000)))}`);
  });

  test('the cap is per event: many events each under it all fit', () => {
    const seen = parse([bytesOf(`data: ${'x'.repeat(60)}\n\n`.repeat(50))], 64);
    assert.equal(seen.fits, true);
    assert.equal(seen.events.length, 50);
  });

  test('a line that never ends is refused once it is past the cap, and nothing is taken after that', () => {
    const parser = createSseParser({ maxEventBytes: 1000, onEvent: () => assert.fail('no event') });
    let pushes = 0;
    while (parser.push(bytesOf('x'.repeat(100)))) pushes++;
    assert.ok(pushes >= 9 && pushes <= 10, `refused after ${pushes} reads of 100 bytes`);
    assert.equal(parser.push(bytesOf('\n\n')), false);
  });
});

describe('T2/T3 SSE parser against eventsource-parser', () => {
  const token = fc.constantFrom(
    'data: ', 'data:', 'data', 'data: {"jsonrpc":"2.0","id":1}', 'event: message', 'event:', 'event', 'event: endpoint',
    'id: 7', 'id:', 'id', 'id: a\0b', 'retry: 10', 'retry: x', 'retry', ': comment', ':', 'foo: bar', 'dat', 'x',
    ' ', '\n', '\n', '\n', '\r', '\r\n', 'é', '€', '𝄞', '\ufeff',
  );
  const raw = fc.constantFrom(Buffer.from([0xff]), Buffer.from([0xe2, 0x82]), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from([0xc3]));
  const body = fc
    .array(fc.oneof({ weight: 9, arbitrary: token.map((t) => Buffer.from(t, 'utf8')) }, { weight: 1, arbitrary: raw }), { maxLength: 40 })
    .map((parts) => new Uint8Array(Buffer.concat(parts)));

  test('T2/T3: the same events, ids and retries as eventsource-parser, for any cut of any SSE-shaped bytes', (t) => {
    const property = fc.property(body, fc.array(fc.nat(), { maxLength: 6 }), (bytes, rawCuts) => {
      const cuts = [...new Set(rawCuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
      const reads: Uint8Array[] = [];
      let from = 0;
      for (const cut of [...cuts, bytes.length]) {
        reads.push(bytes.subarray(from, cut));
        from = cut;
      }
      assert.deepEqual(parse(reads), oracle(bytes));
    });
    t.diagnostic(`against eventsource-parser: ${describeReport(check(property, runs(20_000, 200_000)))}`);
  });
});

describe('T2/T3 readSse reads any async iterable of chunks, as it reads a web stream', () => {
  test('a Node Readable: events delivered, and a refused event destroys the stream', async () => {
    const events: SseEvent[] = [];
    const end = await readSse(Readable.from([Buffer.from('event: message\ndata: a\n'), Buffer.from('\ndata: b\n\n')]), 100, { onEvent: (e) => events.push(e) });
    assert.equal(end, 'ended');
    assert.deepEqual(events, [ev('a', 'message'), ev('b')]);

    const endless = Readable.from((function* () {
      for (;;) yield Buffer.from('x'.repeat(64));
    })());
    assert.equal(await readSse(endless, 1000, { onEvent: () => assert.fail('no event') }), 'too-large');
    assert.equal(endless.destroyed, true, 'the body was cancelled');
  });

  test('a handler that throws rejects the read and cancels the body (web stream and Node Readable)', async () => {
    let cancelled = false;
    const web = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(bytesOf('data: x\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const boom = () => {
      throw new Error('handler failed');
    };
    await assert.rejects(readSse(web, 100, { onEvent: boom }), /handler failed/);
    assert.equal(cancelled, true, 'the web body was cancelled');
    const node = Readable.from((function* () {
      for (;;) yield Buffer.from('data: x\n\n');
    })());
    await assert.rejects(readSse(node, 100, { onEvent: boom }), /handler failed/);
    assert.equal(node.destroyed, true, 'the Node body was destroyed');
  });

  test('done() ends the read after the chunk that satisfied it, and cancels the body', async () => {
    let cancelled = false;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(bytesOf(`data: ${sent++}\n\n`));
      },
      cancel() {
        cancelled = true;
      },
    });
    const events: SseEvent[] = [];
    assert.equal(await readSse(body, 100, { onEvent: (e) => events.push(e), done: () => events.length === 3 }), 'ended');
    assert.deepEqual(events.map((e) => e.data), ['0', '1', '2']);
    assert.equal(cancelled, true);
  });
});
