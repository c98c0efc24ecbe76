// Newline-delimited JSON decoding over byte chunks (MCP stdio framing, W1–W3).
// Splits on the 0x0A byte before decoding, so a UTF-8 character cut across
// chunks is never mis-decoded, and decodes each line exactly once. Does NOT
// know JSON-RPC: it hands every parsed JSON value on, and every line that is
// not JSON to `onNoise`.

/** Default cap on one message: large enough for real tool results (W2). */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/**
 * Partial lines shorter than this are copied into a scratch block instead of
 * being kept as separate chunk references. A server that drips one byte per
 * read would otherwise leave one Buffer object (~100 bytes of overhead) per
 * byte of message, and memory would no longer be bounded by the cap.
 */
const BLOCK_BYTES = 64 * 1024;

export interface LineFramerOptions {
  /** Largest message accepted, in bytes, not counting the line break. Default 32 MiB. */
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
  /** Feeds bytes. The framer may keep a reference to `chunk`: do not mutate it afterwards. */
  push(chunk: Uint8Array): void;
  /** The stream ended: a last line without a line break is still delivered if it is JSON. */
  end(): void;
  /** Bytes held for an incomplete line. */
  readonly pendingBytes: number;
}

export function createLineFramer(options: LineFramerOptions): LineFramer {
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const { onMessage, onNoise, onOverflow } = options;

  // An incomplete line is `fragments` (large pieces, kept by reference)
  // followed by `block[0, blockLen)` (small pieces, copied). Invariant: the
  // block's bytes come after every fragment.
  let fragments: Buffer[] = [];
  let fragmentBytes = 0;
  let block: Buffer | undefined;
  let blockLen = 0;
  let stopped = false;

  function decode(bytes: Buffer, start: number, end: number): void {
    // JSON.parse accepts trailing whitespace, so a CRLF line's '\r' needs no
    // stripping; only blank lines are skipped without a report.
    const text = bytes.toString('utf8', start, end);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (text.trim() !== '' && onNoise) onNoise(text);
      return;
    }
    onMessage(value);
  }

  /** Whether a line of `length` bytes ending in `lastByte` breaks the cap; a '\r' before the '\n' is part of the line break (W1). */
  function tooLong(length: number, lastByte: number | undefined): boolean {
    return length - (lastByte === 0x0d ? 1 : 0) > maxBytes;
  }

  function overflow(): void {
    stopped = true;
    fragments = [];
    fragmentBytes = 0;
    block = undefined;
    blockLen = 0;
    onOverflow?.(maxBytes);
  }

  function moveBlockToFragments(): void {
    if (block && blockLen > 0) {
      fragments.push(block.subarray(0, blockLen));
      fragmentBytes += blockLen;
      block = undefined; // handed over by reference; a fresh block is allocated when needed
      blockLen = 0;
    }
  }

  function holdPartial(piece: Buffer): void {
    if (piece.length < BLOCK_BYTES / 4) {
      if (block && blockLen + piece.length > block.length) moveBlockToFragments();
      block ??= Buffer.allocUnsafe(BLOCK_BYTES);
      piece.copy(block, blockLen);
      blockLen += piece.length;
    } else {
      moveBlockToFragments();
      fragments.push(piece);
      fragmentBytes += piece.length;
    }
  }

  /** Completes the held line with `head` (the chunk up to its first line break) and decodes it. */
  function finishHeldLine(head: Buffer): void {
    if (fragments.length === 0 && block && blockLen + head.length <= block.length) {
      // Common case for small messages: assemble in the block, decode in place, reuse the block.
      head.copy(block, blockLen);
      const length = blockLen + head.length;
      blockLen = 0;
      decode(block, 0, length);
      return;
    }
    moveBlockToFragments();
    fragments.push(head);
    const total = fragmentBytes + head.length;
    const joined = Buffer.concat(fragments, total);
    fragments = [];
    fragmentBytes = 0;
    decode(joined, 0, total);
  }

  return {
    push(chunk: Uint8Array): void {
      if (stopped) return;
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      let start = 0;
      let newline = bytes.indexOf(0x0a);
      if (newline !== -1 && fragmentBytes + blockLen > 0) {
        // newline 0: the held line was checked when it was held.
        if (newline > 0 && tooLong(fragmentBytes + blockLen + newline, bytes[newline - 1])) return overflow();
        finishHeldLine(bytes.subarray(0, newline));
        start = newline + 1;
        newline = bytes.indexOf(0x0a, start);
      }
      while (newline !== -1) {
        if (stopped) return; // onMessage may have closed the connection
        if (tooLong(newline - start, bytes[newline - 1])) return overflow();
        if (newline > start) decode(bytes, start, newline);
        start = newline + 1;
        newline = bytes.indexOf(0x0a, start);
      }
      if (stopped || start === bytes.length) return;
      if (tooLong(fragmentBytes + blockLen + (bytes.length - start), bytes[bytes.length - 1])) return overflow();
      holdPartial(start === 0 ? bytes : bytes.subarray(start));
    },

    end(): void {
      if (stopped) return;
      stopped = true;
      if (fragmentBytes + blockLen === 0) return;
      moveBlockToFragments();
      const joined = Buffer.concat(fragments, fragmentBytes);
      fragments = [];
      fragmentBytes = 0;
      decode(joined, 0, joined.length);
    },

    get pendingBytes(): number {
      return fragmentBytes + blockLen;
    },
  };
}
