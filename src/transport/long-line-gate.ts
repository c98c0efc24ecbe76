// Sits between a byte stream and the line framer, for the case where memory
// matters most: a line that grows toward the size cap (W2). Once an
// unfinished line is half the cap long, it keeps the further reads as they
// came (off the JS heap, no copy) instead of feeding them on, and hands them
// over only when the line ends. So a line that breaks the cap costs half
// the cap as text and half as raw bytes, where decoding all of it as it
// comes puts the whole cap on the JS heap as text with the reads as garbage
// beside it. Measured for a 1 GiB line at the default 32 MiB cap: +55-67 MiB
// RSS decoded as it comes, +35-42 MiB held this way. A 16 MiB message is not
// held at all; a 30 MiB one peaks ~5% higher (its held half is decoded at
// the end instead of as it came).
// Does NOT parse or decide anything the framer decides: near the cap the
// framer's own check makes the call.

import type { LineFramer } from '../jsonrpc/line-framer.js';

/** An unfinished line is held back once it is this long, or half the cap if that is more. */
export const HOLD_AS_BYTES_FROM = 1024 * 1024;

const NEWLINE = 0x0a;

export interface LongLineGate {
  push(chunk: Buffer): void;
  end(): void;
}

/**
 * `onOverflow` is called once when the held line is certainly over
 * `maxMessageBytes`; the gate then drops what it holds and ignores further
 * input, as the framer does.
 */
export function createLongLineGate(framer: LineFramer, maxMessageBytes: number, onOverflow: (limitBytes: number) => void): LongLineGate {
  let held: Buffer[] = [];
  let heldBytes = 0;
  let stopped = false;
  const holdFrom = Math.max(HOLD_AS_BYTES_FROM, maxMessageBytes / 2);

  /** Hands the held reads to the framer in order, letting go of each as it goes. */
  function release(): void {
    const reads = held;
    held = [];
    heldBytes = 0;
    for (let i = 0; i < reads.length && !stopped; i++) {
      const read = reads[i]!;
      reads[i] = EMPTY; // the framer keeps what it needs; the array must not keep the rest alive
      framer.push(read);
    }
  }

  return {
    push(chunk: Buffer): void {
      if (stopped) return;
      // The common case, nothing held and a line that stays short even if this read does not end it:
      // straight to the framer, which is the one to look for newlines in it.
      if (heldBytes === 0 && framer.pendingBytes + chunk.length < holdFrom) return framer.push(chunk);
      if (chunk.indexOf(NEWLINE) !== -1) {
        if (heldBytes > 0) release();
        framer.push(chunk);
        return;
      }
      const lineBytes = framer.pendingBytes + heldBytes + chunk.length;
      // The framer excludes a final '\r' (of a CRLF to come) from the size: one byte over may still fit.
      if (lineBytes > maxMessageBytes + 1) {
        stopped = true;
        held = [];
        heldBytes = 0;
        onOverflow(maxMessageBytes);
        return;
      }
      held.push(chunk);
      heldBytes += chunk.length;
    },
    end(): void {
      if (stopped) return;
      release();
      framer.end();
    },
  };
}

const EMPTY = Buffer.alloc(0);
