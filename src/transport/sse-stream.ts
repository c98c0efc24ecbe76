// Server-Sent Events decoding for both HTTP transports: bytes → UTF-8 (a
// character split across reads is held by the streaming TextDecoder) →
// eventsource-parser, with a cap on how much one event may buffer. The only
// module that imports eventsource-parser.

import { createParser, type EventSourceMessage } from 'eventsource-parser';

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
 * body, 'too-large' when one event grows past `maxEventChars` (the body is
 * cancelled then, holding no more than about that much). Rejects when the
 * connection fails mid-stream (or the fetch's signal aborts it).
 */
export async function readSse(body: ReadableStream<Uint8Array>, maxEventChars: number, handlers: SseHandlers): Promise<SseEnd> {
  let tooLarge = false;
  const parser = createParser({
    onEvent: handlers.onEvent,
    onRetry: handlers.onRetry,
    onId: handlers.onId,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') tooLarge = true;
      // 'unknown-field' and 'invalid-retry' are ignored, as the SSE standard says.
    },
    maxBufferSize: maxEventChars,
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      if (tooLarge) {
        await reader.cancel().catch(() => {});
        return 'too-large';
      }
      if (handlers.done?.()) {
        await reader.cancel().catch(() => {});
        return 'ended';
      }
    }
    const rest = decoder.decode();
    if (rest) parser.feed(rest);
    return 'ended';
  } finally {
    reader.releaseLock();
  }
}
