// Newline-delimited JSON decoding over byte chunks (MCP stdio framing, W1–W3).
// Lines are found on the 0x0A byte before anything is decoded, so a UTF-8
// character cut across chunks is never mis-decoded. Does NOT know JSON-RPC:
// it hands every parsed JSON value on, and every line that is not JSON to
// `onNoise`.
//
// Where the cost goes, per chunk: the complete lines between its first and
// last newline are decoded with ONE toString call and split as text (one
// call per chunk beats one per line); the line it completes and the line it
// starts are held as bytes, small pieces copied into a reusable block, large
// ones kept by reference, and decoded once when their newline arrives. So a
// 16 MiB message in 64 KiB reads is decoded once, and a server that writes a
// few bytes at a time costs a copy of those bytes, not a decoder call (a
// streaming text decoder per read measured 3.1x the bytes floor there, this
// 2.2x).

import { StringDecoder } from 'node:string_decoder';

/** Default cap on one message: large enough for real tool results (W2). */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

export interface LineFramerOptions {
  /** Largest message accepted, in bytes, not counting the line break (`\n` or `\r\n`). Default 32 MiB. */
  maxMessageBytes?: number;
  /** Called once per line that parses as JSON, synchronously inside push(). */
  onMessage: (value: unknown) => void;
  /** Called with the text of a non-blank line that is not JSON (a banner, a stray log). The line is skipped. */
  onNoise?: (line: string) => void;
  /**
   * Called once when a message grows past maxMessageBytes. The framer then
   * drops what it holds and ignores all further input: the stream cannot be
   * resynchronised safely, so the owner should close the connection.
   */
  onOverflow?: (limitBytes: number) => void;
}

export interface LineFramer {
  /** Feeds bytes. The framer may keep a reference to `chunk` (a large partial line): do not mutate it afterwards. */
  push(chunk: Uint8Array): void;
  /** The stream ended: a last line without a line break is still delivered if it is JSON. */
  end(): void;
  /** Bytes held for an incomplete line. */
  readonly pendingBytes: number;
}

const NEWLINE = 0x0a;
const CR = 0x0d;
/** Size of the reusable block that small partial lines are copied into. */
const BLOCK_BYTES = 64 * 1024;
/**
 * A held line past this size is decoded as it arrives (a streaming decoder
 * keeps a character cut between reads) instead of being kept as chunks and
 * joined at the end: the reads can then be freed at once, so a 16 MiB
 * message peaks at about its text twice (pieces + the flattened string JSON.parse
 * reads) instead of chunks + joined copy + text.
 */
const DECODE_AS_IT_COMES_BYTES = 1024 * 1024;
// Where a 16 MiB line's cost above the bytes floor goes on Node 20 (CPU and
// page faults in-process, --trace-gc, --cpu-prof): not the decoding (256
// decodes of 64 KiB cost a third of the floor's one toString of 16 MiB), nor
// the flatten in JSON.parse (the same copy as the floor's toString), but the
// pieces' life: V8 11.3's young generation holds 16 MiB, so the pieces of a
// line past ~12 MiB are copied by one scavenge and promoted by the next into
// freshly mapped old-space pages, ~708 page faults per MiB against the floor's
// ~509 (Node 22 pools those pages: 509 for the same code, 1.15-1.25x). Moving the
// text out of the young generation any other way touches as much fresh memory:
// pieces of 192 KiB-1 MiB decoded from a reused staging block, a growing or
// resizable byte buffer decoded once, external latin1 strings, a flatten every
// 4-8 MiB measured 0-0.15x under this code, within this box's noise and none
// at 1.3x. Flattening once at 4 MiB gave 1.45x -> 1.26x at 16 MiB but
// 1.14x -> 1.32x at 8 MiB and 1.17x -> 1.41x at 12 (a bet on the size, not
// taken); holding the first 4-8 MiB as reads, decoded as one string, 1.5x at
// 1-4 MiB; keeping all the reads and decoding them once at the end 1.23-1.28x
// but 4.0x the size in memory (reads + joined copy + text + value).
/** Pieces shorter than this are copied into the block; longer ones are kept by reference. */
const COPY_BELOW_BYTES = BLOCK_BYTES / 4;
// (Scanning and copying tiny chunks with JavaScript loops instead of the native
// indexOf/copy was tried: it measured slower, 3.2x against 2.2x the bytes
// floor for 4 KiB messages in 1-100 B reads.)

export function createLineFramer(options: LineFramerOptions): LineFramer {
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const { onMessage, onNoise, onOverflow } = options;

  // The incomplete line: `fragments` (kept by reference) followed by
  // block[0, blockLen) (copied). `lastHeldByte` tells whether it ends in a
  // '\r' that belongs to a CRLF line break rather than to the message.
  let fragments: Buffer[] = [];
  let fragmentBytes = 0;
  let block: Buffer | undefined;
  let blockLen = 0;
  let lastHeldByte = 0;
  // A long held line is text instead (see DECODE_AS_IT_COMES_BYTES): what is
  // decoded so far, its size in bytes, and the decoder holding a cut character.
  let heldText = '';
  let textBytes = 0;
  let textDecoder: StringDecoder | undefined;
  let stopped = false;

  function parse(text: string): void {
    let value: unknown;
    try {
      // JSON.parse accepts trailing whitespace, so a CRLF line's '\r' needs no stripping.
      value = JSON.parse(text);
    } catch {
      // Blank lines (and a lone '\r') are skipped without a report.
      if (onNoise && text.trim() !== '') onNoise(text);
      return;
    }
    onMessage(value);
  }

  /** Size of a line in bytes not counting a final '\r'; `last` is its last byte. */
  function overCap(bytes: number, last: number | undefined): boolean {
    return bytes - (last === CR ? 1 : 0) > maxBytes;
  }

  function heldBytes(): number {
    return fragmentBytes + blockLen + textBytes;
  }

  function dropHeld(): void {
    fragments = [];
    fragmentBytes = 0;
    heldText = '';
    textBytes = 0;
    textDecoder = undefined;
  }

  function overflow(): void {
    stopped = true;
    dropHeld();
    block = undefined;
    blockLen = 0;
    onOverflow?.(maxBytes);
  }

  /** Switches a long held line to text: the held chunks are decoded now and let go. */
  function decodeHeldSoFar(): void {
    moveBlockToFragments();
    textDecoder = new StringDecoder('utf8');
    for (const fragment of fragments) heldText += textDecoder.write(fragment);
    textBytes = fragmentBytes;
    fragments = [];
    fragmentBytes = 0;
  }

  function moveBlockToFragments(): void {
    if (block && blockLen > 0) {
      fragments.push(block.subarray(0, blockLen));
      fragmentBytes += blockLen;
      block = undefined; // handed over by reference; a new block is allocated when needed
      blockLen = 0;
    }
  }

  /**
   * Holds bytes[start..] as the (start of the) incomplete line, or overflows when that breaks the cap.
   * Only ever called with the rest of a read: its whole (a read without a line break) or what follows
   * its last line break. So in text mode (a held line, which a line break would have ended) it is
   * always a whole read.
   */
  function hold(bytes: Buffer, start: number): void {
    const length = bytes.length - start;
    lastHeldByte = bytes[bytes.length - 1]!;
    if (overCap(heldBytes() + length, lastHeldByte)) return overflow();
    if (textDecoder && length >= COPY_BELOW_BYTES) {
      flushBlockToText();
      heldText += textDecoder.write(bytes);
      textBytes += length;
      return;
    }
    const piece = start === 0 ? bytes : bytes.subarray(start);
    if (length < COPY_BELOW_BYTES) {
      // Small pieces are batched in the block in text mode too: a rope of
      // one-byte strings would cost far more memory than the bytes.
      if (textDecoder && block && blockLen + length > block.length) flushBlockToText();
      if (block && blockLen + length > block.length) moveBlockToFragments();
      block ??= Buffer.allocUnsafe(BLOCK_BYTES);
      // TypedArray#set skips Buffer#copy's argument checks, which cost as much as the copy at these sizes.
      block.set(piece, blockLen);
      blockLen += length;
    } else {
      moveBlockToFragments();
      fragments.push(piece);
      fragmentBytes += length;
    }
    if (!textDecoder && fragmentBytes > DECODE_AS_IT_COMES_BYTES) decodeHeldSoFar();
  }

  /** Text mode: decodes what the block holds onto the held text; the block is reused. */
  function flushBlockToText(): void {
    if (!textDecoder || !block || blockLen === 0) return;
    heldText += textDecoder.write(block.subarray(0, blockLen));
    textBytes += blockLen;
    blockLen = 0;
  }

  /** The held line ends at bytes[newline]: join it with the chunk's head, decode once, parse. */
  function finishHeld(bytes: Buffer, newline: number): void {
    const total = heldBytes() + newline;
    if (overCap(total, newline > 0 ? bytes[newline - 1] : lastHeldByte)) return overflow();
    if (textDecoder) {
      flushBlockToText();
      // V8 keeps `heldText + …` as a rope; JSON.parse flattens it once.
      const text = heldText + textDecoder.write(bytes.subarray(0, newline)) + textDecoder.end();
      dropHeld();
      return parse(text);
    }
    if (fragments.length === 0 && block && blockLen + newline <= block.length) {
      // Small messages: assemble in the block, decode in place, reuse the block.
      block.set(bytes.subarray(0, newline), blockLen);
      blockLen = 0;
      return parse(block.toString('utf8', 0, total));
    }
    moveBlockToFragments();
    if (newline > 0) fragments.push(bytes.subarray(0, newline));
    const joined = fragments.length === 1 ? fragments[0]! : Buffer.concat(fragments, total);
    fragments = [];
    fragmentBytes = 0;
    parse(joined.toString('utf8'));
  }

  /** The complete lines of bytes(start, end): decoded in one call, split as text. */
  function parseLines(bytes: Buffer, start: number, end: number): void {
    const text = bytes.toString('utf8', start, end);
    let from = 0;
    let newline = text.indexOf('\n');
    // Where line number `lineAt` starts in `bytes`: found only for lines near the cap (see below).
    let lineAt = 0;
    let byteAt = start;
    for (let line = 0; ; line++) {
      if (stopped) return; // onMessage may have ended the framer re-entrantly
      const to = newline === -1 ? text.length : newline;
      if (to > from) {
        // The cap counts the bytes received, not those of the decoded text: a malformed byte
        // decodes to U+FFFD, three bytes, and a held line (see hold()) is measured in raw bytes.
        // A UTF-16 unit comes from one to three bytes, so only a line longer than a third of
        // the cap can be over it; for one, its bytes are found by walking the newlines (each
        // 0x0A is a '\n' in the text and vice versa), from the last line so measured.
        if ((to - from) * 3 > maxBytes) {
          for (; lineAt < line; lineAt++) byteAt = bytes.indexOf(NEWLINE, byteAt) + 1;
          const lineEnd = newline === -1 ? end : bytes.indexOf(NEWLINE, byteAt);
          if (overCap(lineEnd - byteAt, bytes[lineEnd - 1])) return overflow();
        }
        parse(from === 0 && to === text.length ? text : text.slice(from, to));
      }
      if (newline === -1) return;
      from = newline + 1;
      newline = text.indexOf('\n', from);
    }
  }

  return {
    push(chunk: Uint8Array): void {
      if (stopped) return;
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      const length = bytes.length;
      const first = bytes.indexOf(NEWLINE);
      if (first === -1) {
        if (length > 0) hold(bytes, 0);
        return;
      }
      if (heldBytes() > 0) finishHeld(bytes, first);
      else if (first > 0) parseLines(bytes, 0, first);
      if (stopped) return;
      const last = bytes.lastIndexOf(NEWLINE);
      if (last > first + 1) parseLines(bytes, first + 1, last);
      if (!stopped && last + 1 < length) hold(bytes, last + 1);
    },

    end(): void {
      if (stopped) return;
      stopped = true;
      if (textDecoder) {
        flushBlockToText();
        const text = heldText + textDecoder.end();
        dropHeld();
        return parse(text);
      }
      if (fragmentBytes + blockLen === 0) return;
      moveBlockToFragments();
      const joined = Buffer.concat(fragments, fragmentBytes);
      fragments = [];
      fragmentBytes = 0;
      parse(joined.toString('utf8'));
    },

    get pendingBytes(): number {
      return heldBytes();
    },
  };
}
