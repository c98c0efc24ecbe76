// readSse: the byte → event path both HTTP transports share. Lines are
// found on bytes and each value decoded whole (see sse-parser.ts), so
// these tests cut real bodies at every byte and check
// that what comes out never depends on where the reads fall.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readSse, type SseEvent } from './sse-stream.js';

function bodyOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

async function eventsOf(chunks: readonly Uint8Array[], maxEventChars = 1 << 20): Promise<{ events: SseEvent[]; end: string }> {
  const events: SseEvent[] = [];
  const end = await readSse(bodyOf(chunks), maxEventChars, { onEvent: (event) => events.push(event) });
  return { events, end };
}

/** Every way of cutting `bytes` into two or three reads (three only at the given stride, to stay quick). */
function* cuts(bytes: Uint8Array, stride = 1): Generator<Uint8Array[]> {
  for (let i = 0; i <= bytes.length; i++) yield [bytes.subarray(0, i), bytes.subarray(i)];
  for (let i = 1; i < bytes.length; i += stride) {
    for (let j = i + 1; j < bytes.length; j += stride) yield [bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)];
  }
}

// Two-, three- and four-byte characters, next to ASCII, at the end of lines and of events.
const MULTIBYTE = 'é€𝄞 naïve — 日本語';

test('multi-byte characters come out whole wherever the reads cut them', async () => {
  const body = Buffer.from(`event: message\ndata: {"text":"${MULTIBYTE}"}\n\ndata: ${MULTIBYTE}\nid: ü-1\n\n`);
  const expected = [
    { id: undefined, event: 'message', data: `{"text":"${MULTIBYTE}"}` },
    { id: 'ü-1', event: undefined, data: MULTIBYTE },
  ];
  let checked = 0;
  for (const reads of cuts(body, 3)) {
    const { events, end } = await eventsOf(reads);
    assert.equal(end, 'ended');
    assert.deepEqual(events, expected, `reads of ${reads.map((r) => r.length).join('+')} bytes`);
    checked++;
  }
  assert.ok(checked > body.length, 'cut the body in more ways than it has bytes');
});

test('a read that ends inside a character, then one that ends on ASCII, then one-shot reads again', async () => {
  // 'é' is C3 A9: the first read ends on C3, the streaming decoder holds it, the second
  // read completes it and ends on ASCII, and the third read goes back to one-shot decoding.
  const first = Buffer.from('data: caf\xc3', 'latin1');
  const second = Buffer.from('\xa9\n\n', 'latin1');
  const third = Buffer.from(`data: ${MULTIBYTE}\n\n`);
  const { events } = await eventsOf([first, second, third]);
  assert.deepEqual(events.map((e) => e.data), ['café', MULTIBYTE]);
});

test('a BOM at the start of the stream is dropped; a U+FEFF later on is data', async () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const later = Buffer.from('data: \ufeffkept\n\n');
  for (const reads of [
    // A read that starts with U+FEFF mid-stream.
    [Buffer.from('data: a\n\ndata: '), Buffer.from('\ufeffkept\n\n')],
    [Buffer.concat([bom, Buffer.from('data: a\n\n')]), later],
    [bom.subarray(0, 1), bom.subarray(1), Buffer.from('data: a\n\n'), later],
    [Buffer.concat([bom, Buffer.from('data: a\n\n'), later])],
  ]) {
    const { events } = await eventsOf(reads);
    assert.deepEqual(events.map((e) => e.data), ['a', '\ufeffkept'], `reads of ${reads.map((r) => r.length).join('+')} bytes`);
  }
});

test('invalid UTF-8 becomes U+FFFD, the same whichever decoder met it', async () => {
  const body = Buffer.concat([Buffer.from('data: a'), Buffer.from([0xff, 0xc3]), Buffer.from('b\n\n')]);
  for (const reads of cuts(body)) {
    const { events } = await eventsOf(reads);
    assert.deepEqual(events.map((e) => e.data), ['a\ufffd\ufffdb'], `reads of ${reads.map((r) => r.length).join('+')} bytes`);
  }
});

test('a body that stops inside a character flushes it as U+FFFD and still delivers what is complete', async () => {
  const { events, end } = await eventsOf([Buffer.from('data: ok\n\n'), Buffer.from([0x64, 0x61, 0xe2, 0x82])]);
  assert.equal(end, 'ended');
  assert.deepEqual(events.map((e) => e.data), ['ok']);
});

test('an event longer than the cap ends the read as too-large', async () => {
  const { events, end } = await eventsOf([Buffer.from('data: small\n\n'), Buffer.from(`data: ${'x'.repeat(5000)}`), Buffer.from('\n\n')], 1000);
  assert.equal(end, 'too-large');
  assert.deepEqual(events.map((e) => e.data), ['small']);
});

test('a pushing body (ChunkPusher) is read through pushChunks: its events, a handler that throws, and a pushChunks that throws all settle its one promise (readSse rejects, never throws)', async () => {
  const pushing = (push: (onChunk: (chunk: Uint8Array) => boolean) => Promise<void>) =>
    Object.assign(bodyOf([]), { pushChunks: push }) as unknown as ReadableStream<Uint8Array>;
  const events: string[] = [];
  const end = await readSse(
    pushing((onChunk) => {
      onChunk(Buffer.from('data: one\n\nda'));
      onChunk(Buffer.from('ta: two\n\n'));
      return Promise.resolve();
    }),
    1024,
    { onEvent: (event) => events.push(event.data) },
  );
  assert.deepEqual([end, events], ['ended', ['one', 'two']]);

  // A handler that throws stops the body (onChunk answers false) and rejects the read with the handler's error.
  const bug = new Error('handler bug');
  let answered: boolean | undefined;
  await assert.rejects(
    readSse(
      pushing((onChunk) => {
        answered = onChunk(Buffer.from('data: x\n\n'));
        return Promise.resolve();
      }),
      1024,
      { onEvent: () => { throw bug; } },
    ),
    (error: unknown) => error === bug,
  );
  assert.equal(answered, false);

  // A body whose pushChunks throws: a rejection like any read failure, so a caller's .catch sees it.
  const broken = new Error('pushChunks threw');
  let read: Promise<unknown> | undefined;
  assert.doesNotThrow(() => {
    read = readSse(pushing(() => { throw broken; }), 1024, { onEvent: () => {} });
  });
  await assert.rejects(read!, (error: unknown) => error === broken);
});
