// Server-Sent Events decoding for both HTTP transports: bytes → UTF-8 →
// eventsource-parser, with a cap on how much one event may buffer. The only
// module that imports eventsource-parser.

import type { EventSourceMessage, createParser as CreateParser } from 'eventsource-parser';

/** Loaded with the first stream, not with mcpwire: a host that only runs stdio servers never needs it. */
let parserModule: Promise<typeof CreateParser> | undefined;
function loadParser(): Promise<typeof CreateParser> {
  return (parserModule ??= import('eventsource-parser').then((module) => module.createParser));
}

/** Loads the SSE parser now, so that a later readSse() starts parsing without waiting for a module load. */
export function preloadSseParser(): Promise<unknown> {
  return loadParser();
}

export type SseEvent = EventSourceMessage;

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
 * Reads an SSE body to its end. Resolves 'ended' when the server ends the
 * body, 'too-large' when one event grows past `maxEventBytes` (the body is
 * cancelled then, holding no more than about that much). Rejects when the
 * connection fails mid-stream (or the fetch's signal aborts it).
 *
 * The parser is fed whole lines only: the bytes after a read's last line
 * break are held as they came (by reference, not decoded) until the break
 * that ends them. An event that never ends is then held once, as the reads
 * that brought it, and not also as the text the parser would build from
 * them: at the 32 MiB default that is the difference between about 1x and
 * 2-3x the cap in resident memory.
 */
export async function readSse(body: AsyncIterable<Uint8Array>, maxEventBytes: number, handlers: SseHandlers): Promise<SseEnd> {
  const createParser = await loadParser();
  let tooLarge = false;
  const parser = createParser({
    onEvent: handlers.onEvent,
    onRetry: handlers.onRetry,
    onId: handlers.onId,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') tooLarge = true;
      // 'unknown-field' and 'invalid-retry' are ignored, as the SSE standard says.
    },
    maxBufferSize: maxEventBytes,
  });
  // Neither strips a BOM: eventsource-parser strips the one at the stream's start, and a U+FEFF anywhere else is data.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const held: Uint8Array[] = [];
  let heldBytes = 0;
  /**
   * The held bytes go to the parser once their line break has come, each
   * piece decoded on its own (a streaming decode keeps a character cut
   * between pieces for the next one, which ends the line): joining them
   * first would copy each read once more, 30% of the time per event with
   * 64 KiB reads of small events.
   */
  // Once the parser has overflowed it throws on any further feed: stop there and report 'too-large'.
  const feed = (text: string) => {
    if (!tooLarge) parser.feed(text);
  };
  const feedHeld = () => {
    for (const piece of held) feed(decoder.decode(piece, { stream: true }));
    held.length = 0;
    heldBytes = 0;
  };
  // Any AsyncIterable: a web ReadableStream, or the node:http path's body (http-client.ts), read without a web stream (#20).
  const reader = body[Symbol.asyncIterator]();
  const cancel = () => reader.return?.();
  try {
    for (;;) {
      const { value, done } = await reader.next();
      if (done) break;
      if (value.byteLength === 0) continue;
      const bytes = value;
      const last = bytes[bytes.length - 1]!;
      // A server flushing one event per write ends each read on a line break: no search then.
      const cut = last === LF || last === CR ? bytes.length : lastLineBreak(bytes) + 1;
      if (cut > 0) {
        const lines = cut === bytes.length ? bytes : bytes.subarray(0, cut);
        if (heldBytes > 0) feedHeld();
        feed(decoder.decode(lines));
      }
      if (cut < bytes.length) {
        held.push(cut === 0 ? bytes : bytes.subarray(cut));
        heldBytes += bytes.length - cut;
        // One line past the cap cannot belong to an event within it.
        if (heldBytes > maxEventBytes) tooLarge = true;
      }
      if (tooLarge) {
        held.length = 0;
        await cancel()?.catch(() => {});
        return 'too-large';
      }
      if (handlers.done?.()) {
        await cancel()?.catch(() => {});
        return 'ended';
      }
    }
    if (heldBytes > 0) feedHeld();
    feed(decoder.decode());
    return tooLarge ? 'too-large' : 'ended';
  } catch (error) {
    // A handler that threw: the body is not read on, so let go of its connection.
    await cancel()?.catch(() => {});
    throw error;
  }
}

const LF = 0x0a;
const CR = 0x0d;

/** The index of the last LF or CR in `bytes`, or -1. A CR is looked for only behind the last LF: the common stream has none. */
function lastLineBreak(bytes: Uint8Array): number {
  const lf = bytes.lastIndexOf(LF);
  for (let i = bytes.length - 1; i > lf; i--) if (bytes[i] === CR) return i;
  return lf;
}
