// Server-Sent Events parsing over byte chunks, for both HTTP transports
// (the WHATWG "event stream" grammar: fields, `data` lines joined with
// '\n', `id` without NUL, `retry` of digits only, comments, LF / CR / CRLF
// line breaks, one BOM at the start). Does NOT know JSON or MCP.
//
// How: a read is cut after its last line break (0x0A / 0x0D, bytes that never
// occur inside a UTF-8 character). The complete lines before the cut are
// decoded with one toString and split as text (String indexOf and slice are
// engine builtins; a Buffer search or decode per line is a call into the
// runtime's C++ each, which measured slower than the decode they save). The
// event nearly every server sends, `event: message` (or no type), one `data: `
// line and a blank line, is recognised whole at the start of a block and
// dispatched on one LF search (wholeEvent; where the next `event: message`
// prefix starts is one forward search for a run of blocks, not a compare per
// event); anything else is split line by line. The bytes after the cut are
// held as the reads that brought them (by reference, not copied) until their
// line ends, then joined and decoded once: a character cut across reads needs
// no streaming decoder, a 16 MiB data line is one concat and one toString, and
// an event that never ends is held once, as bytes, up to the cap.

/** One dispatched event: the same shape eventsource-parser gives (`id` and `event` undefined when absent). */
export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

export interface SseParserOptions {
  /**
   * Largest event accepted: the UTF-8 bytes of its data (lines joined with
   * '\n'; a line longer than one read counts as the bytes that came, the
   * same figure unless they are not valid UTF-8).
   */
  maxEventBytes: number;
  onEvent(event: SseEvent): void;
  /** The last `id:` of each event block, including blocks without data. */
  onId?(id: string): void;
  /** A `retry:` field of ASCII digits, in ms (any other value is ignored, as the standard says). */
  onRetry?(ms: number): void;
}

export interface SseParser {
  /**
   * Feeds bytes; false once an event has grown past the cap (the parser
   * then holds nothing and ignores further input). The parser may keep a
   * reference to `chunk` (a line that has not ended): do not mutate it afterwards.
   */
  push(chunk: Uint8Array): boolean;
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf] as const;
/**
 * An unfinished line may be this much longer than the cap and still end as
 * an event within it: "data: " and a CR. Checked exactly once the line ends.
 */
const LINE_SLACK = 7;
/** A UTF-16 code unit is 1 to 3 UTF-8 bytes (a surrogate pair, two units, is 4). */
const MAX_BYTES_PER_UNIT = 3;

export function createSseParser(options: SseParserOptions): SseParser {
  const { maxEventBytes, onEvent, onId, onRetry } = options;

  // The event being built.
  let id: string | undefined;
  let eventType: string | undefined;
  let data = '';
  let dataLines = 0;
  /**
   * The data's size against the cap: an upper bound (3 bytes per UTF-16
   * unit of a line decoded with others) until `measured`, exact bytes after:
   * the common event, far below the cap, is never measured byte by byte.
   */
  let dataBytes = 0;
  let measured = false;
  // The line that has not ended yet, as the reads that brought it.
  let held: Buffer[] = [];
  let heldBytes = 0;
  // The last read ended on a CR: a LF starting the next read belongs to it.
  let skipLf = false;
  // How many bytes of a BOM have been seen at the stream's start; -1 once the start is past.
  let bomAt = 0;
  let stopped = false;

  function overflow(): false {
    stopped = true;
    held = [];
    heldBytes = 0;
    data = '';
    return false;
  }

  function dispatch(): void {
    if (id !== undefined) onId?.(id);
    if (dataLines > 0) onEvent({ id, event: eventType, data });
    id = undefined;
    eventType = undefined;
    data = '';
    dataLines = 0;
    dataBytes = 0;
    measured = false;
  }

  /**
   * One complete line, text[start, end) without its line break. `lineBytes`
   * is its size in bytes when known (a held line), else -1. False when it
   * breaks the cap.
   */
  function line(text: string, start: number, end: number, lineBytes: number): boolean {
    if (start === end) {
      dispatch();
      return true;
    }
    const first = text.charCodeAt(start);
    // The two shapes of nearly every line, `data:` and `event:`, before the general field split.
    if (first === 0x64 && text.charCodeAt(start + 4) === 0x3a && start + 4 < end && text.startsWith('data', start)) {
      const from = start + 5 < end && text.charCodeAt(start + 5) === 0x20 ? start + 6 : start + 5;
      return addData(text, from, end, lineBytes < 0 ? -1 : lineBytes - (from - start));
    }
    if (first === 0x3a) return true; // a comment
    // Only a colon within the longest field name we read ("event", "retry") matters: a search of the whole
    // text would scan past this line to the next colon, for every colon-less line (quadratic in the read).
    let colon = end;
    for (let i = start, stop = Math.min(end, start + 6); i < stop; i++) {
      if (text.charCodeAt(i) === 0x3a) {
        colon = i;
        break;
      }
    }
    if (colon === end && end - start > 5) return true; // an unknown field without a colon
    const from = colon + 1 < end && text.charCodeAt(colon + 1) === 0x20 ? colon + 2 : Math.min(colon + 1, end);
    switch (colon - start) {
      case 4: // data
        if (text.startsWith('data', start)) return addData(text, from, end, lineBytes < 0 ? -1 : lineBytes - (from - start));
        return true;
      case 5: // event, retry
        if (text.startsWith('event', start)) {
          eventType = from === end ? undefined : end - from === 7 && text.startsWith('message', from) ? 'message' : text.slice(from, end);
        } else if (text.startsWith('retry', start)) {
          retry(text, from, end);
        }
        return true;
      case 2: // id
        if (first === 0x69 && text.charCodeAt(start + 1) === 0x64) {
          const value = text.slice(from, end);
          // A value with a NUL is ignored (the standard's rule; it cannot be sent back as Last-Event-ID).
          if (!value.includes('\0')) id = value;
        }
        return true;
      default:
        return true; // an unknown field is ignored
    }
  }

  /** A data line's value, text[from, end); `valueBytes` its exact size when known, else -1. */
  function addData(text: string, from: number, end: number, valueBytes: number): boolean {
    const value = from === 0 && end === text.length ? text : text.slice(from, end);
    const joiner = dataLines > 0 ? 1 : 0;
    let size = valueBytes >= 0 ? valueBytes : (end - from) * MAX_BYTES_PER_UNIT;
    if (!measured && dataBytes + size + joiner > maxEventBytes) {
      // The bound no longer settles it: count the event's bytes, once for what came before, then line by line.
      dataBytes = dataLines > 0 ? Buffer.byteLength(data) : 0;
      measured = true;
    }
    if (measured && valueBytes < 0) size = Buffer.byteLength(value);
    dataBytes += size + joiner;
    if (dataBytes > maxEventBytes) return false;
    data = dataLines === 0 ? value : `${data}\n${value}`;
    dataLines++;
    return true;
  }

  function retry(text: string, from: number, end: number): void {
    if (from === end) return;
    for (let i = from; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x30 || c > 0x39) return;
    }
    onRetry?.(Number.parseInt(text.slice(from, end), 10));
  }

  /**
   * A line that came in more than one read, now whole. A data line's value
   * is decoded on its own, past the field name: a slice of the decoded line
   * would be a view into it, which JSON.parse reads slower at 16 MiB.
   */
  function heldLine(joined: Buffer, lineBytes: number): boolean {
    if (lineBytes > 4 && joined[0] === 0x64 && joined[1] === 0x61 && joined[2] === 0x74 && joined[3] === 0x61 && joined[4] === 0x3a) {
      const from = lineBytes > 5 && joined[5] === 0x20 ? 6 : 5;
      const value = joined.toString('utf8', from, lineBytes);
      return addData(value, 0, value.length, lineBytes - from);
    }
    const text = joined.toString('utf8', 0, lineBytes);
    return line(text, 0, text.length, lineBytes);
  }

  /**
   * The shape nearly every event has, `event: message` (or nothing) then one
   * `data: ` line then a blank line, all in text[at...] with LF breaks:
   * dispatched as line() would, without splitting it into three lines.
   * `typed` says whether text[at...] starts with `event: message\ndata: `
   * (the caller knows, see lines()). Returns where the next block starts, or
   * `at` when the text there is not of that shape (or its size needs
   * measuring), for line() to read it.
   */
  function wholeEvent(text: string, at: number, typed: boolean): number {
    let from: number;
    let type: string | undefined;
    if (typed) {
      from = at + EVENT_MESSAGE_DATA.length;
      type = 'message';
    } else if (text.startsWith(DATA_SPACE, at)) {
      from = at + DATA_SPACE.length;
    } else return at;
    const end = text.indexOf('\n', from);
    if (text.charCodeAt(end + 1) !== 0x0a || (end - from) * MAX_BYTES_PER_UNIT > maxEventBytes) return at;
    onEvent({ id: undefined, event: type, data: text.slice(from, end) });
    return end + 2;
  }

  /** Complete lines: `text` ends with a line break. False when one breaks the cap. */
  function lines(text: string): boolean {
    const length = text.length;
    let at = 0;
    let cr = text.indexOf('\r');
    if (cr === -1) {
      // No CR, the common stream: every line ends at the next LF.
      // Where `event: message\ndata: ` starts next, at or after `at`, or `length`: one search finds it for
      // the event it starts, and tells every block before it that it is not one (startsWith per event cost
      // more than the search, ~50 ns an event on Node 20). Searches cover disjoint stretches of the text.
      let typedAt = -1;
      while (at < length) {
        // An event of the common shape, whole, at the start of a block: dispatched at once.
        if (dataLines === 0 && id === undefined && eventType === undefined) {
          if (typedAt < at) {
            typedAt = text.indexOf(EVENT_MESSAGE_DATA, at);
            if (typedAt === -1) typedAt = length;
          }
          const next = wholeEvent(text, at, typedAt === at);
          if (next > at) {
            at = next;
            continue;
          }
        }
        const end = text.indexOf('\n', at);
        if (!line(text, at, end, -1)) return false;
        at = end + 1;
      }
      return true;
    }
    let lf = text.indexOf('\n');
    while (at < length) {
      if (cr !== -1 && cr < at) cr = text.indexOf('\r', at);
      if (lf !== -1 && lf < at) lf = text.indexOf('\n', at);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (!line(text, at, end, -1)) return false;
      at = end + 1;
      if (end === cr && at < length && text.charCodeAt(at) === 0x0a) at++;
    }
    return true;
  }

  /** Strips a BOM at the stream's start, even one cut across reads; returns the bytes left to parse. */
  function skipBom(bytes: Buffer): Buffer | undefined {
    let i = 0;
    while (i < bytes.length && bomAt < BOM.length) {
      if (bytes[i] !== BOM[bomAt]) {
        // Not a BOM after all: the bytes matched so far (only in earlier reads) are input.
        const matched = bomAt - i;
        bomAt = -1;
        if (matched <= 0) return bytes;
        return Buffer.concat([Buffer.from(BOM.slice(0, matched)), bytes]);
      }
      i++;
      bomAt++;
    }
    if (bomAt === BOM.length) {
      bomAt = -1;
      return bytes.subarray(i);
    }
    return undefined; // every byte so far could still be a BOM's
  }

  return {
    push(chunk: Uint8Array): boolean {
      if (stopped) return false;
      let bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (bomAt >= 0) {
        const rest = skipBom(bytes);
        if (rest === undefined) return true;
        bytes = rest;
      }
      const length = bytes.length;
      if (length === 0) return true;
      let at = 0;
      if (skipLf) {
        skipLf = false;
        if (bytes[0] === LF) at = 1;
      }
      const last = bytes[length - 1];
      // A server flushing one event per write ends each read on a line break: no search then.
      const cut = last === LF || last === CR ? length : lastLineBreak(bytes, at) + 1;
      if (cut > at) {
        if (heldBytes > 0) {
          // The held line ends at this read's first line break: joined once, decoded once.
          const end = firstLineBreak(bytes, at);
          if (end > at) held.push(bytes.subarray(at, end));
          const lineBytes = heldBytes + end - at;
          const joined = held.length === 1 ? held[0]! : Buffer.concat(held, lineBytes);
          held = [];
          heldBytes = 0;
          if (!heldLine(joined, lineBytes)) return overflow();
          at = end + 1;
          if (bytes[end] === CR && at < length && bytes[at] === LF) at++;
        }
        if (cut > at && !lines(bytes.toString('utf8', at, cut))) return overflow();
        skipLf = cut === length && last === CR;
      }
      const from = Math.max(at, cut);
      if (from < length) {
        const tail = from === 0 ? bytes : bytes.subarray(from);
        heldBytes += length - from;
        // One unfinished line past the cap (and the room a data line's field name takes) cannot end within it.
        // Only a data line adds to the event's data so far (counted at its least: a bound counts 3 bytes per
        // unit, which an ASCII event has 1 of); an id, event or comment line is bounded on its own, so whether
        // an event fits never depends on where the reads fall.
        const soFar = mayBeDataLine(held.length > 0 ? held[0]! : tail) ? (measured ? dataBytes : dataBytes / MAX_BYTES_PER_UNIT) : 0;
        if (heldBytes + soFar > maxEventBytes + LINE_SLACK) return overflow();
        held.push(tail);
      }
      return true;
    },
  };
}

/** Whether a line starting with these bytes can still be a `data:` line (a start shorter than `data:` is a prefix of it). */
function mayBeDataLine(start: Buffer): boolean {
  const n = Math.min(start.length, DATA_FIELD.length);
  for (let i = 0; i < n; i++) if (start[i] !== DATA_FIELD[i]) return false;
  return true;
}
const DATA_FIELD = Buffer.from('data:');
const EVENT_MESSAGE_DATA = 'event: message\ndata: ';
const DATA_SPACE = 'data: ';

/**
 * The index of the first LF or CR in bytes[from...], which has one. A CR is
 * looked for only before the first LF: the common stream has none, and a
 * search to the end would scan the whole read for it (64 KiB per read).
 */
function firstLineBreak(bytes: Buffer, from: number): number {
  const lf = bytes.indexOf(LF, from);
  const cr = (lf === -1 ? bytes : bytes.subarray(0, lf)).indexOf(CR, from);
  return cr === -1 ? lf : cr;
}

/** The index of the last LF or CR in bytes[from...], or from - 1. A CR is looked for only behind the last LF: the common stream has none. */
function lastLineBreak(bytes: Buffer, from: number): number {
  const lf = bytes.lastIndexOf(LF);
  const cr = bytes.indexOf(CR, Math.max(lf + 1, from));
  const found = cr === -1 ? lf : bytes.lastIndexOf(CR);
  return found < from ? from - 1 : found;
}
