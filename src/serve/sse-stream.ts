// One Server-Sent Events response of `mcpwire serve` (a POST's stream, or a
// session's GET stream) with a bound on what its client has not read yet.
// res.write() never refuses: a client that stops reading while an upstream
// floods progress would make the process hold every byte. Waiting for
// 'drain' would only move that queue here (the upstream cannot be paused),
// so the stream is closed instead once the unread bytes pass the bound, and
// the caller is told why (its 'close' then cancels what was waiting on it).

import type { ServerResponse } from 'node:http';
import type { JsonRpcMessage } from '../jsonrpc/message.js';

/** Bytes a stream may hold unread before its client is taken to have stopped reading (#21 item 1, G1). */
export const DEFAULT_MAX_UNREAD_BYTES = 8 * 1024 * 1024;

export class SseStream {
  constructor(
    private readonly res: ServerResponse,
    private readonly maxUnreadBytes: number,
    private readonly onOverflow: (why: string) => void,
  ) {}

  get open(): boolean {
    return !this.res.writableEnded && !this.res.destroyed;
  }

  /**
   * Writes one message as an `event: message`. The bound is checked before
   * the write, on what earlier writes left unread: one message larger than
   * the bound still goes out to a client that keeps up. False when the
   * stream is (now) closed.
   */
  send(message: JsonRpcMessage): boolean {
    if (!this.open) return false;
    const unread = this.res.writableLength;
    if (unread > this.maxUnreadBytes) {
      // Destroyed, not ended: end() would queue behind the unread bytes and keep them.
      this.res.destroy();
      this.onOverflow(`its client stopped reading (${unread} bytes unread, over the limit of ${this.maxUnreadBytes})`);
      return false;
    }
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    return true;
  }

  end(): void {
    if (this.open) this.res.end();
  }
}
