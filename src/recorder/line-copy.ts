// Splits a copy of a byte stream into lines for the record, without touching
// the stream itself: the proxy forwards the original chunks as they came and
// feeds them here too. A line is its bytes up to and including "\n" (a "\r"
// before it stays part of the line); what is left at the end is a last line
// without a break. JSON lines become messages; any other line is handed on
// as its exact bytes.

export interface LineCopyHandlers {
  onMessage(value: unknown): void;
  /** A line that is not JSON (a banner, a blank line), with its line break. */
  onBytes(bytes: Buffer): void;
}

export interface LineCopy {
  push(chunk: Buffer): void;
  /** The stream ended: a last line without a break is handed on too. */
  end(): void;
}

const LF = 0x0a;

export function createLineCopy(handlers: LineCopyHandlers): LineCopy {
  let held: Buffer[] = [];

  function line(bytes: Buffer): void {
    let value: unknown;
    try {
      // Whitespace around a message (the "\r" of CRLF) is not part of it (JSON allows it; W1 accepts CRLF).
      value = JSON.parse(bytes.toString('utf8'));
    } catch {
      handlers.onBytes(bytes);
      return;
    }
    handlers.onMessage(value);
  }

  return {
    push(chunk: Buffer): void {
      let start = 0;
      for (let at = chunk.indexOf(LF); at !== -1; at = chunk.indexOf(LF, start)) {
        const piece = chunk.subarray(start, at + 1);
        line(held.length === 0 ? Buffer.from(piece) : Buffer.concat([...held, piece]));
        held = [];
        start = at + 1;
      }
      // Copied: the caller forwards the chunk and may reuse its memory.
      if (start < chunk.length) held.push(Buffer.from(chunk.subarray(start)));
    },
    end(): void {
      if (held.length > 0) line(Buffer.concat(held));
      held = [];
    },
  };
}
