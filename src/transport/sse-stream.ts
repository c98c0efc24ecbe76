// Server-Sent Events decoding for both HTTP transports: a response body's
// reads → sse-parser.ts (bytes in, events out), with a cap on how much one
// event may buffer. The body is a web ReadableStream (fetch, on every
// runtime) or any async iterable of byte chunks (a Node Readable), both
// read the same way, or a body that pushes its chunks as they come
// (node-http.ts's, Node's default request path): no promise per read.

import { createSseParser, type SseEvent, type SseParser } from './sse-parser.js';

export type { SseEvent } from './sse-parser.js';

/**
 * Kept for callers that preloaded the former SSE dependency before their
 * first stream: the parser is part of this module now, nothing to load.
 */
export function preloadSseParser(): Promise<unknown> {
  return Promise.resolve();
}

export interface SseHandlers {
  onEvent(event: SseEvent): void;
  /** The server's `retry:` field, in ms. */
  onRetry?(ms: number): void;
  /** The last `id:` of each event block, including blocks without data (the spec's priming event). */
  onId?(id: string): void;
  /** Checked after each chunk: once it returns true the body is cancelled and the read ends as 'ended'. */
  done?(): boolean;
}

export type SseEnd = 'ended' | 'too-large';

/**
 * A body that hands its chunks over as they come, in order, instead of one
 * promise per read (node-http.ts's: each 'data' event goes straight to the
 * parser). `onChunk` must not throw; once it returns false the body is
 * cancelled (as its cancel(): nothing more is handed over) before the next
 * chunk could come. The promise resolves when the body ends or is stopped
 * (by onChunk or a cancel), and rejects when it fails (a read error, an
 * abort, the connection lost).
 */
export interface ChunkPusher {
  pushChunks(onChunk: (chunk: Uint8Array) => boolean): Promise<void>;
}

/**
 * Reads an SSE body to its end. Resolves 'ended' when the server ends the
 * body, 'too-large' when one event grows past `maxEventBytes` (the body is
 * cancelled then, holding no more than about that much, as the reads that
 * brought it). Rejects when the connection fails mid-stream (or the fetch's
 * signal aborts it), or when a handler throws (the body is cancelled first,
 * so its connection is let go). An event the body ends in the middle of is
 * dropped, as the SSE standard says.
 *
 * The body is any async iterable of byte chunks: fetch's ReadableStream, or
 * a Node Readable from a node:http request path, which needs no web stream;
 * one that is also a ChunkPusher is read through pushChunks().
 */
export function readSse(body: AsyncIterable<Uint8Array>, maxEventBytes: number, handlers: SseHandlers): Promise<SseEnd> {
  const parser = createSseParser({ maxEventBytes, onEvent: handlers.onEvent, onId: handlers.onId, onRetry: handlers.onRetry });
  const { done } = handlers;
  // Not an async function: a pushed body's read is one promise, not three (#20: this runs for every request over HTTP).
  return isChunkPusher(body) ? readPushed(body, parser, done) : readPulled(body, parser, done);
}

/** readSse over a body read chunk by chunk. */
async function readPulled(body: AsyncIterable<Uint8Array>, parser: SseParser, done: (() => boolean) | undefined): Promise<SseEnd> {
  // A web stream is read through its reader: one promise per read, where its async iterator adds a result object and a frame.
  const source = isReadableStream(body) ? readerOf(body) : iteratorOf(body);
  try {
    for (;;) {
      const read = await source.next();
      if (read.done) return 'ended';
      const end = afterChunk(parser.push(read.value), done);
      if (end) {
        await source.cancel();
        return end;
      }
    }
  } catch (error) {
    // A handler that threw (or a read that failed): the body is not read on, so let go of its connection.
    await source.cancel();
    throw error;
  } finally {
    source.release();
  }
}

/** readSse over a ChunkPusher: the parser runs in the body's own callback, and the body stops itself when told. */
function readPushed(body: ChunkPusher, parser: SseParser, done: (() => boolean) | undefined): Promise<SseEnd> {
  let end: SseEnd | undefined;
  let thrown: { error: unknown } | undefined;
  let pushed: Promise<void>;
  try {
    pushed = body.pushChunks((chunk) => {
      try {
        end = afterChunk(parser.push(chunk), done);
      } catch (error) {
        // A handler that threw: the body is cancelled (false) before the error goes on.
        thrown = { error };
        return false;
      }
      return end === undefined;
    });
  } catch (error) {
    return Promise.reject(error); // readSse rejects, never throws
  }
  return pushed.then(() => {
    if (thrown) throw thrown.error;
    return end ?? 'ended';
  });
}

/** The reads of a body, and how to give it up: the same three calls for a web stream and an async iterator. */
interface ChunkSource {
  next(): Promise<IteratorResult<Uint8Array, unknown>>;
  /** Never rejects: a body that fails while being cancelled is given up all the same. */
  cancel(): Promise<void>;
  release(): void;
}

function readerOf(body: ReadableStream<Uint8Array>): ChunkSource {
  const reader = body.getReader();
  return {
    next: () => reader.read() as Promise<IteratorResult<Uint8Array, unknown>>,
    cancel: () => reader.cancel().catch(() => {}),
    release: () => reader.releaseLock(),
  };
}

function iteratorOf(body: AsyncIterable<Uint8Array>): ChunkSource {
  const iterator = body[Symbol.asyncIterator]();
  return {
    next: () => iterator.next(),
    // return() is how an async iterable is cancelled: a Node Readable is destroyed by it.
    cancel: async () => {
      try {
        await iterator.return?.();
      } catch {
        // given up all the same
      }
    },
    release: () => {},
  };
}

/** How the read ends after a chunk, or undefined to go on. */
function afterChunk(fits: boolean, done: (() => boolean) | undefined): SseEnd | undefined {
  if (!fits) return 'too-large';
  if (done?.()) return 'ended';
  return undefined;
}

function isChunkPusher(body: AsyncIterable<Uint8Array>): body is AsyncIterable<Uint8Array> & ChunkPusher {
  return typeof (body as Partial<ChunkPusher>).pushChunks === 'function';
}

function isReadableStream(body: AsyncIterable<Uint8Array>): body is ReadableStream<Uint8Array> {
  return typeof (body as Partial<ReadableStream<Uint8Array>>).getReader === 'function';
}
