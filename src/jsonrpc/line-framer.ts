// Newline-delimited JSON decoding over byte chunks (MCP stdio framing, W1–W3).
// Each chunk is decoded once, as a whole, by a streaming UTF-8 decoder that
// holds back a character cut across chunks; lines are then cut from the
// text. Does NOT know JSON-RPC: it hands every parsed JSON value on, and
// every line that is not JSON to `onNoise`.

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
  /** Feeds bytes. The chunk is decoded before push() returns; the framer keeps no reference to it. */
  push(chunk: Uint8Array): void;
  /** The stream ended: a last line without a line break is still delivered if it is JSON. */
  end(): void;
  /** Bytes held for an incomplete line. */
  readonly pendingBytes: number;
}

const NEWLINE = 0x0a;
const CR = 13;

export function createLineFramer(options: LineFramerOptions): LineFramer {
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const { onMessage, onNoise, onOverflow } = options;
  const decoder = new StringDecoder('utf8');

  // The incomplete line: its text so far (V8 keeps `held += piece` as a rope
  // and flattens it once, in JSON.parse) and its exact size in bytes, counted
  // from byte positions rather than re-encoding the text.
  let held = '';
  let heldBytes = 0;
  let stopped = false;

  /** Bytes of a line, not counting a final '\r' (part of a CRLF line break). */
  function overCap(line: string, bytes: number): boolean {
    return bytes - (line.charCodeAt(line.length - 1) === CR ? 1 : 0) > maxBytes;
  }

  function decode(line: string): void {
    let value: unknown;
    try {
      // JSON.parse accepts trailing whitespace, so a CRLF line's '\r' needs no stripping.
      value = JSON.parse(line);
    } catch {
      // Blank lines (and a lone '\r') are skipped without a report.
      if (onNoise && line.trim() !== '') onNoise(line);
      return;
    }
    onMessage(value);
  }

  function overflow(): void {
    stopped = true;
    held = '';
    heldBytes = 0;
    onOverflow?.(maxBytes);
  }

  return {
    push(chunk: Uint8Array): void {
      if (stopped) return;
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      // One decode per chunk is cheaper than one per line (fewer calls into the
      // decoder), and 0x0A never occurs inside a multi-byte UTF-8 sequence, so
      // '\n' in the text stands exactly where the newline bytes stand.
      const text = decoder.write(bytes);
      let start = 0;
      let newline = text.indexOf('\n');
      if (newline !== -1 && heldBytes > 0) {
        const line = held + text.slice(0, newline);
        const lineBytes = heldBytes + bytes.indexOf(NEWLINE);
        held = '';
        heldBytes = 0;
        if (overCap(line, lineBytes)) return overflow();
        decode(line);
        start = newline + 1;
        newline = text.indexOf('\n', start);
      }
      while (newline !== -1) {
        if (stopped) return; // onMessage may have ended the framer re-entrantly
        if (newline > start) {
          const line = text.slice(start, newline);
          // A UTF-16 unit is at least one byte and at most three, so the byte
          // length needs computing only for lines of more than a third of the cap.
          if (line.length * 3 > maxBytes && overCap(line, Buffer.byteLength(line))) return overflow();
          decode(line);
        }
        start = newline + 1;
        newline = text.indexOf('\n', start);
      }
      if (stopped) return;
      // What follows the last newline byte is the new incomplete line (with
      // any bytes of a split character that the decoder holds back).
      const tailBytes = start === 0 ? bytes.length : bytes.length - bytes.lastIndexOf(NEWLINE) - 1;
      if (tailBytes === 0) return;
      heldBytes += tailBytes;
      // A tail ending in '\r' may be waiting for the '\n' of a CRLF: that byte is not the message's.
      if (heldBytes - (bytes[bytes.length - 1] === CR ? 1 : 0) > maxBytes) return overflow();
      if (start < text.length) held += start === 0 ? text : text.slice(start);
    },

    end(): void {
      if (stopped) return;
      stopped = true;
      const line = held + decoder.end();
      held = '';
      heldBytes = 0;
      if (line !== '') decode(line);
    },

    get pendingBytes(): number {
      return heldBytes;
    },
  };
}
