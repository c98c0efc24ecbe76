// Audit tests for readSse() (T2/T3; issue #20 item 3): the decisions the
// mutation audit found untested: where a read is cut when its line breaks
// are lone CRs, the cap at its exact edge, an event the body cuts short, parser errors that are not the cap, a
// U+FEFF that starts a later read, done(), and what is left of the body
// afterwards (cancelled, unlocked). Reads in, events and the end reason out.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readSse, type SseEvent } from './sse-stream.js';

/** A body of these reads, which records whether it was cancelled and how many reads were pulled. */
function bodyOf(chunks: readonly (Uint8Array | string)[], options: { endless?: Uint8Array } = {}) {
  let i = 0;
  const state = { cancelled: false, pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled++;
      if (i < chunks.length) {
        const chunk = chunks[i++]!;
        controller.enqueue(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      } else if (options.endless && state.pulled < 10_000) controller.enqueue(options.endless);
      else controller.close();
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

async function read(chunks: readonly (Uint8Array | string)[], cap = 1 << 20, done?: (events: SseEvent[]) => boolean) {
  const events: SseEvent[] = [];
  const { body, state } = bodyOf(chunks);
  const end = await readSse(body, cap, { onEvent: (e) => events.push(e), ...(done ? { done: () => done(events) } : {}) });
  return { end, data: events.map((e) => e.data), state, body };
}

test('T2/T3 audit: CR, LF and CRLF line breaks, cut anywhere, give the same events', async () => {
  const events = Array.from({ length: 30 }, (_, i) => `e${i}`);
  for (const br of ['\n', '\r', '\r\n']) {
    const text = events.map((e) => `data: ${e}${br}${br}`).join('');
    // Every read ends just after a line break's first byte and one more: never on the break itself.
    const reads: string[] = [];
    let from = 0;
    for (let at = text.indexOf(`${br}${br}d`); at !== -1; at = text.indexOf(`${br}${br}d`, at + 1)) {
      reads.push(text.slice(from, at + br.length * 2 + 1));
      from = at + br.length * 2 + 1;
    }
    reads.push(text.slice(from));
    // The body is ten times the cap; each event is far under it: nothing may pile up between reads.
    const got = await read(reads, 40);
    assert.deepEqual(got, { ...got, end: 'ended', data: events }, JSON.stringify(br));
    for (let cut = 1; cut < 40; cut++) assert.deepEqual((await read([text.slice(0, cut), text.slice(cut)])).data, events, `${JSON.stringify(br)} cut at ${cut}`);
  }
});

test('T2/T3 audit: an event within the cap held across reads is still read; one far past it is too-large and cancels the body', async () => {
  const within = await read(['data: a\n\n', `data: ${'x'.repeat(60)}`, '\n\n'], 100);
  assert.equal(within.end, 'ended');
  assert.deepEqual(within.data, ['a', 'x'.repeat(60)]);
  const over = await read(['data: a\n\n', `data: ${'x'.repeat(200)}`, '\n\n'], 100);
  assert.equal(over.end, 'too-large');
  assert.deepEqual(over.data, ['a']);
  assert.equal(over.state.cancelled, true, 'the body is cancelled');
  // What is held is only what follows the read's last line break, however long the lines before it were.
  const longFirst = await read([`data: ${'a'.repeat(80)}\n\ndata: bb`, '\n\n'], 100);
  assert.deepEqual(longFirst, { ...longFirst, end: 'ended', data: ['a'.repeat(80), 'bb'] });
});

test('T2/T3 audit: a body that never ends is cancelled once a line breaks the cap, not read on', async () => {
  const events: SseEvent[] = [];
  const { body, state } = bodyOf(['data: a\n\n'], { endless: Buffer.alloc(64, 'x') });
  const end = await readSse(body, 1000, { onEvent: (e) => events.push(e) });
  assert.equal(end, 'too-large');
  assert.equal(state.cancelled, true);
  assert.ok(state.pulled < 40, `read on after the cap: ${state.pulled} reads pulled`);
  assert.deepEqual(events.map((e) => e.data), ['a']);
});

test('T2/T3 audit: empty reads change nothing; an event the body ends in the middle of is dropped', async () => {
  const empty = new Uint8Array(0);
  const withEmpty = await read([empty, 'data: a', empty, '\n\n', empty, 'data: b\n\n', empty]);
  assert.deepEqual(withEmpty, { ...withEmpty, end: 'ended', data: ['a', 'b'] });
  // SSE dispatches an event at the blank line after it: one the body cuts short is not delivered, whole or in part.
  for (const tail of ['data: c', 'data: c\n', 'data: c\r', 'data: c\ndata: d\n']) {
    const cut = await read(['data: a\n\n', tail]);
    assert.deepEqual(cut, { ...cut, end: 'ended', data: ['a'] }, JSON.stringify(tail));
  }
});

test('T2/T3 audit: an unknown field and an invalid retry are ignored, not taken for the cap', async () => {
  const retries: number[] = [];
  const { body } = bodyOf(['foo: bar\nretry: soon\ndata: a\n\n', 'retry: 250\ndata: b\n\n']);
  const events: SseEvent[] = [];
  const end = await readSse(body, 1000, { onEvent: (e) => events.push(e), onRetry: (ms) => retries.push(ms) });
  assert.equal(end, 'ended');
  assert.deepEqual(events.map((e) => e.data), ['a', 'b']);
  assert.deepEqual(retries, [250]);
});

test('T2/T3 audit: a U+FEFF at the start of a later read is not a BOM: only the stream\'s first is dropped', async () => {
  const got = await read(['\uFEFFdata: a\n\n', '\uFEFFdata: b\n\n', 'data: c\n\n']);
  // The second read's U+FEFF is part of a field name, "\uFEFFdata", which SSE ignores.
  assert.deepEqual(got.data, ['a', 'c']);
});

test('T2/T3 audit: done() ends the read after the chunk that satisfied it and cancels the body', async () => {
  const got = await read(['data: a\n\n', 'data: b\n\n', 'data: c\n\n'], 1 << 20, (events) => events.length >= 1);
  assert.equal(got.end, 'ended');
  assert.deepEqual(got.data, ['a']);
  assert.equal(got.state.cancelled, true);
});

test('T2/T3 audit: the body is unlocked once the read is over, however it ended', async () => {
  for (const chunks of [['data: a\n\n'], [`data: ${'x'.repeat(200)}`]]) {
    const got = await read(chunks, 100);
    assert.equal(got.body.locked, false, got.end);
  }
});

test('T2/T3 audit: a body that is an async iterable (a Node Readable) is read the same way; cancelling it returns the iterator, and one whose return() throws is given up all the same', async () => {
  const { preloadSseParser } = await import('./sse-stream.js');
  await preloadSseParser();
  const { Readable } = await import('node:stream');
  const events: SseEvent[] = [];
  assert.equal(await readSse(Readable.from([Buffer.from('data: a\n\n'), Buffer.from('data: b\n\n')]), 1000, { onEvent: (e) => events.push(e) }), 'ended');
  assert.deepEqual(events.map((e) => e.data), ['a', 'b']);
  let returned = 0;
  const throwing: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => ({ done: false, value: Buffer.from(`data: ${'x'.repeat(500)}\n\n`) }),
      return: async () => {
        returned++;
        throw new Error('cannot stop');
      },
    }),
  };
  assert.equal(await readSse(throwing, 100, { onEvent: () => {} }), 'too-large');
  assert.equal(returned, 1);
});

/**
 * A ChunkPusher body (as node-http.ts's): hands its reads to pushChunks()'s callback as it goes, stops at the first
 * false (and counts that as its cancel), and ends as told: 'end' resolves, an error rejects. It has an async
 * iterator too (every HttpBody does), which fails the test if readSse takes it instead.
 */
function pusherOf(chunks: readonly string[], ending: { error: unknown } | 'end' = 'end') {
  const state = { handed: 0, stopped: false };
  const body = {
    async pushChunks(onChunk: (chunk: Uint8Array) => boolean): Promise<void> {
      await Promise.resolve();
      for (const chunk of chunks) {
        state.handed++;
        if (!onChunk(Buffer.from(chunk))) {
          state.stopped = true;
          return;
        }
      }
      if (ending !== 'end') throw ending.error;
    },
    [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
      throw new Error('read through its iterator, not pushChunks()');
    },
  };
  return { body, state };
}

test('T2/T3 audit: a body that pushes its chunks (ChunkPusher) is read through pushChunks(): to its end, stopped at the cap or at done(), its failure passed on', async () => {
  const read = async (chunks: string[], cap: number, options: { done?: (events: SseEvent[]) => boolean; ending?: { error: unknown } } = {}) => {
    const events: SseEvent[] = [];
    const { body, state } = pusherOf(chunks, options.ending);
    const done = options.done;
    const end = await readSse(body, cap, { onEvent: (e) => events.push(e), ...(done ? { done: () => done(events) } : {}) });
    return { end, data: events.map((e) => e.data), ...state };
  };
  assert.deepEqual(await read(['data: a\n\n', 'data: ', 'b\n\n'], 100), { end: 'ended', data: ['a', 'b'], handed: 3, stopped: false });
  // The cap: the chunk that breaks it is the last one handed over, and the body is told to stop.
  assert.deepEqual(await read(['data: a\n\n', `data: ${'x'.repeat(200)}`, '\n\n', 'data: c\n\n'], 100), { end: 'too-large', data: ['a'], handed: 2, stopped: true });
  // done(): checked after each chunk, the read ends 'ended' with the body stopped.
  assert.deepEqual(await read(['data: a\n\n', 'data: b\n\n', 'data: c\n\n'], 100, { done: (events) => events.length >= 2 }), { end: 'ended', data: ['a', 'b'], handed: 2, stopped: true });
  // A body that fails mid-stream: its error, after the events before it.
  const lost = new Error('the connection closed before the response body ended');
  const events: SseEvent[] = [];
  await assert.rejects(readSse(pusherOf(['data: a\n\n', 'data: b'], { error: lost }).body, 100, { onEvent: (e) => events.push(e) }), (error) => error === lost);
  assert.deepEqual(events.map((e) => e.data), ['a']);
});

test('T2/T3 audit: a handler that throws while a ChunkPusher body is read stops the body first, then the error goes on', async () => {
  for (const where of ['onEvent', 'done'] as const) {
    const boom = new Error(`${where} failed`);
    const { body, state } = pusherOf(['data: a\n\n', 'data: b\n\n', 'data: c\n\n']);
    let seen = 0;
    const handlers =
      where === 'onEvent'
        ? { onEvent: () => { if (++seen === 2) throw boom; } }
        : { onEvent: () => void seen++, done: () => { if (seen === 2) throw boom; return false; } };
    await assert.rejects(readSse(body, 100, handlers), (error) => error === boom, where);
    assert.deepEqual(state, { handed: 2, stopped: true }, where);
  }
});
