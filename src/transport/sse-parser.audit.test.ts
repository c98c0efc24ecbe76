// T2/T3 audit (issue #20 item 3, SPEC G5): behaviours of the byte-level SSE
// parser (sse-parser.ts) that the mutation audit found unpinned. Real bytes
// in, events, ids, retries and push() results out; each test names the rule
// it pins, not the code line, so it survives rewrites of the parser.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSseParser, type SseEvent } from './sse-parser.js';

type Seen = { events: SseEvent[]; ids: string[]; retries: number[]; pushes: boolean[] };

/** Feeds the reads in order (strings as UTF-8, or raw bytes) and records everything the parser says. */
function parse(reads: readonly (string | Uint8Array)[], maxEventBytes = 1 << 20): Seen {
  const seen: Seen = { events: [], ids: [], retries: [], pushes: [] };
  const parser = createSseParser({
    maxEventBytes,
    onEvent: (event) => seen.events.push(event),
    onId: (id) => seen.ids.push(id),
    onRetry: (ms) => seen.retries.push(ms),
  });
  for (const read of reads) seen.pushes.push(parser.push(typeof read === 'string' ? Buffer.from(read) : read));
  return seen;
}

const ev = (data: string, event?: string, id?: string): SseEvent => ({ id, event, data });

test('T2/T3 audit: a field is data only if its name is exactly "data", in one read or cut across reads', () => {
  // Five-letter names with a colon after four characters, and near-misses of "data" byte by byte.
  const names = ['dogs', 'xata', 'dxta', 'daxa', 'datx'];
  const stream = names.map((name) => `${name}: no\ndata: yes\n\n`).join('');
  assert.deepEqual(parse([stream]).events, names.map(() => ev('yes')));
  // The same lines held across reads (each read ends inside the near-miss line).
  const reads: string[] = [];
  for (const name of names) reads.push(`${name}: n`, `o\ndata: yes\n\n`);
  assert.deepEqual(parse(reads).events, names.map(() => ev('yes')));
});

test('T2/T3 audit: an "id" field must be named exactly id; "xd" and "ix" are unknown fields', () => {
  const seen = parse(['xd: 1\ndata: a\n\nix: 2\ndata: b\n\nid: 3\ndata: c\n\n']);
  assert.deepEqual(seen.events, [ev('a'), ev('b'), ev('c', undefined, '3')]);
  assert.deepEqual(seen.ids, ['3']);
});

test('T2/T3 audit: an event type of seven characters other than "message" is kept as sent', () => {
  const seen = parse(['event: update7\ndata: a\n\nevent: message\ndata: b\n\n']);
  assert.deepEqual(seen.events, [ev('a', 'update7'), ev('b', 'message')]);
});

test('T2/T3 audit: a field name with no colon has an empty value, whatever the next line starts with', () => {
  // "event" alone sets no type (empty value: undefined); "retry" alone is not digits: ignored.
  // The line after each starts with a space, which must not be read as part of the value.
  const seen = parse(['data: a\nevent\n z\nretry\n 5\n\n']);
  assert.deepEqual(seen.events, [ev('a')]);
  assert.deepEqual(seen.retries, []);
  // "event" alone is the field event with an empty value: it clears a type set earlier in the block.
  assert.deepEqual(parse(['event: a\nevent\ndata: x\n\n']).events, [ev('x')]);
});

test('T2/T3 audit: retry takes any string of ASCII digits, 0 to 9 included', () => {
  const seen = parse(['retry: 19\nretry: 90\nretry: 0\nretry: 1a\nretry: /\nretry: :\n\n']);
  assert.deepEqual(seen.retries, [19, 90, 0]);
});

test('T2/T3 audit: an empty read between a CR and its LF keeps them one line break', () => {
  // "x\r" then "" then "\ny": a CRLF cut by an empty read is still one line break, so x and y are one event.
  const seen = parse(['data: x\r', new Uint8Array(0), '\ndata: y\n\n']);
  assert.deepEqual(seen.events, [ev('x\ny')]);
});

test('T2/T3 audit: with CR line breaks an event over the cap is refused as with LF', () => {
  const big = 'a'.repeat(30);
  for (const nl of ['\r', '\r\n', '\n']) {
    const seen = parse([`data: ${big}${nl}${nl}data: after${nl}${nl}`], 20);
    assert.deepEqual(seen.pushes, [false], JSON.stringify(nl));
    assert.deepEqual(seen.events, [], JSON.stringify(nl));
  }
});

test('T2/T3 audit: a BOM that turns out not to be one is input: the bytes of it that came are kept, once', () => {
  // EF BB then "data: x": not a BOM; the first line's field name starts with those bytes, so it is no data line.
  const head = Buffer.from([0xef, 0xbb]);
  for (const reads of [[head, 'data: x\n\ndata: y\n\n'], [Buffer.concat([head, Buffer.from('data: x\n\ndata: y\n\n')])]]) {
    assert.deepEqual(parse(reads).events, [ev('y')]);
  }
  // Counted as the bytes that came, no more: a held first line of exactly cap + 7 bytes is still held.
  // (Cap 10: 17 bytes may be held; EF BB + 15 bytes is 17, in one read or after a read of EF alone.)
  const line = 'x'.repeat(15);
  assert.deepEqual(parse([Buffer.concat([head, Buffer.from(line)]), '\ndata: ok\n\n'], 10).events, [ev('ok')]);
  assert.deepEqual(parse([Buffer.from([0xef]), `x${line}`, '\ndata: ok\n\n'], 10).events, [ev('ok')]);
  // One byte more is past it.
  assert.deepEqual(parse([Buffer.concat([head, Buffer.from(`${line}x`)]), '\ndata: ok\n\n'], 10).pushes, [false, false]);
});

test('T2/T3 audit: invalid UTF-8 in a line that came in one read counts as its U+FFFD (3 bytes each); in a held line as the bytes received', () => {
  const bad = Buffer.alloc(10, 0xff);
  // One read: the data is ten U+FFFD, 30 UTF-8 bytes: over a cap of 20.
  assert.deepEqual(parse([Buffer.concat([Buffer.from('data: '), bad, Buffer.from('\n\n')])], 20).pushes, [false]);
  // Cut across reads: the cap counts the 10 bytes that came (sse-parser.ts's documented rule), so it passes.
  const held = parse([Buffer.concat([Buffer.from('data: '), bad]), '\n\n'], 20);
  assert.deepEqual(held.events, [ev('\ufffd'.repeat(10))]);
  // The same after an earlier data line of the event was measured exactly (its bound, 3 x 7, was over the cap).
  const after = parse([Buffer.concat([Buffer.from('data: aaaaaaa\ndata: '), Buffer.alloc(5, 0xff)]), '\n\n'], 20);
  assert.deepEqual(after.events, [ev(`aaaaaaa\n${'\ufffd'.repeat(5)}`)]);
});

test('T2/T3 audit: an unfinished line is held up to the cap + 7 bytes, and refused at the read that takes it past', () => {
  // Cap 10: an id line of exactly 17 bytes, held, is still read.
  const id = 'x'.repeat(13);
  const at = parse([`id: ${id}`, '\ndata: a\n\n'], 10);
  assert.deepEqual(at.events, [ev('a', undefined, id)]);
  // Cap 10, 5 data bytes so far: an unfinished data line of 13 bytes cannot end within the cap; the read that brings it says so.
  const past = parse(['data: aaaaa\ndata: bbbbbbb', '\n\n'], 10);
  assert.deepEqual(past.pushes, [false, false]);
  assert.deepEqual(past.events, []);
  // Cap 300, 90 bytes of data so far (its bound, 270, left it unmeasured): an unfinished line of 226 bytes is past 307.
  assert.deepEqual(parse([`data: ${'a'.repeat(90)}\ndata: ${'b'.repeat(220)}`, '\n\n'], 300).pushes, [false, false]);
});

test('T2/T3 audit: the early refusal of an unfinished line counts the data so far by its characters, not by the position of the line in the read', () => {
  // Cap 300: a long comment, then one short data line, then an unfinished data line of 256 bytes (6 + 250).
  // The event is 1 + 1 + 250 = 252 bytes: within the cap, so it must be held and delivered.
  const b = 'b'.repeat(250);
  const seen = parse([`: ${'c'.repeat(40)}\ndata: a\ndata: ${b}`, '\n\n'], 300);
  assert.deepEqual(seen.pushes, [true, true]);
  assert.deepEqual(seen.events, [ev(`a\n${b}`)]);
});

test('T2/T3 audit: an unfinished id line after multi-byte data is judged by the data at its least, event after event', () => {
  // Cap 90: 30 x "é" is 60 bytes of data (a bound of 90 before measuring); an unfinished id line of 54 bytes
  // held after it: 54 + 60 = 114 would be past 97, but the event's data is 60 bytes, within the cap.
  const data = 'é'.repeat(30);
  const id = 'i'.repeat(50);
  const block = [`data: ${data}\nid: ${id}`, '\n\n'];
  const seen = parse([...block, ...block], 90);
  assert.deepEqual(seen.pushes, [true, true, true, true]);
  assert.deepEqual(seen.events, [ev(data, undefined, id), ev(data, undefined, id)]);
});

test('W2/T2: whether an event fits the cap never depends on where the reads fall: an id line held across reads adds nothing to the data', () => {
  // Found by the audit: the unfinished id line was counted together with the event's data so far.
  const bytes = 'data: a\nid: xxxxxxxxxxxxx\ndata: b\n\n';
  const whole = parse([bytes], 10);
  assert.deepEqual(whole.events, [ev('a\nb', undefined, 'xxxxxxxxxxxxx')]);
  for (let cut = 1; cut < bytes.length; cut++) {
    const split = parse([bytes.slice(0, cut), bytes.slice(cut)], 10);
    assert.deepEqual(split.events, whole.events, `cut at ${cut}`);
    assert.deepEqual(split.pushes, [true, true], `cut at ${cut}`);
  }
  // A data line held across reads still counts: over the cap however it is cut.
  const over = 'data: aaaaa\ndata: bbbbbbb\n\n';
  for (let cut = 1; cut < over.length; cut++) assert.deepEqual(parse([over.slice(0, cut), over.slice(cut)], 10).events, [], `cut at ${cut}`);
});

// What the parser does per byte, observed rather than timed (issue #20 item 3: mutants that change only cost
// were listed as equivalent; these are the ones that change its order of growth, or hold a line twice).

/** Runs `run` with String#indexOf watched: each search is told to `seen` (the text, what, from where, what it found). */
function watchStringSearches(run: () => void, seen: (text: string, search: string, position: number, found: number) => void): void {
  const original = String.prototype.indexOf;
  String.prototype.indexOf = function (this: string, search: string, position?: number): number {
    const found = original.call(this, search, position);
    seen(this, search, Math.max(0, position ?? 0), found);
    return found;
  };
  try {
    run();
  } finally {
    String.prototype.indexOf = original;
  }
}

/** Runs `run` with String#indexOf watched: how many characters the searches for a CR or a LF looked at. */
function lineBreakSearchLength(run: () => void): number {
  let looked = 0;
  watchStringSearches(run, (text, search, position, found) => {
    if (search === '\r' || search === '\n') looked += (found === -1 ? text.length : found + 1) - position;
  });
  return looked;
}

test('T2/T3 audit: splitting a read into lines is linear whatever its mix of CR and LF: each line break is searched for past the last one only', () => {
  const n = 2000;
  const reads = {
    // The one CR far ahead (and, after it, none left): a CR search per line would scan to it, or to the end, each time.
    'LF lines, one CR at the end': `${'data: a\n'.repeat(n)}\r\n`,
    'one CR at the start, then LF lines': `\r${'data: a\n'.repeat(n)}\n`,
    // The same with the roles of CR and LF swapped.
    'CR lines, one LF at the end': `${'data: a\r'.repeat(n)}\r\n`,
    'one LF at the start, then CR lines': `\n${'data: a\r'.repeat(n)}\r`,
  };
  for (const [name, text] of Object.entries(reads)) {
    let seen: Seen | undefined;
    const looked = lineBreakSearchLength(() => {
      seen = parse([text]);
    });
    assert.equal(seen!.events.length, 1, name);
    assert.equal(seen!.events[0]!.data.length, 2 * n - 1, name);
    assert.ok(looked <= 3 * text.length, `${name}: ${looked} characters searched for ${text.length} (quadratic)`);
  }
});

test('T2/T3 audit: a data line held as one read is decoded from it, not copied first (the line is held once)', () => {
  const value = 'x'.repeat(100_000);
  const parser = createSseParser({ maxEventBytes: 1 << 20, onEvent: (event) => events.push(event) });
  const events: SseEvent[] = [];
  parser.push(Buffer.from(`data: ${value}`));
  const original = Buffer.concat;
  let copied = 0;
  Buffer.concat = ((list: readonly Uint8Array[], total?: number) => {
    const out = original(list, total);
    copied += out.length;
    return out;
  }) as typeof Buffer.concat;
  try {
    parser.push(Buffer.from('\n\n'));
  } finally {
    Buffer.concat = original;
  }
  assert.equal(copied, 0, 'Buffer.concat copied the held line');
  assert.deepEqual(events, [ev(value)]);
});

test('W2/T2 audit: an id line held after a read that ended on a line break adds nothing to the data either (the stream cut in three anywhere)', () => {
  // Found by reviewing the equivalents: a read ending exactly on a line break left an empty piece held,
  // which the next unfinished line was then judged by (an empty start "may be" a data line).
  const bytes = 'data: a\nid: xxxxxxxxxxxxx\ndata: b\n\n';
  const whole = parse([bytes], 10);
  assert.deepEqual(whole.events, [ev('a\nb', undefined, 'xxxxxxxxxxxxx')]);
  for (let i = 1; i < bytes.length; i++) {
    for (let j = i + 1; j < bytes.length; j++) {
      const split = parse([bytes.slice(0, i), bytes.slice(i, j), bytes.slice(j)], 10);
      assert.deepEqual(split.events, whole.events, `cut at ${i} and ${j}`);
      assert.deepEqual(split.pushes, [true, true, true], `cut at ${i} and ${j}`);
    }
  }
});

/** Runs `run` with Buffer#indexOf watched: how many bytes the searches for a CR looked at. */
function crSearchBytes(run: () => void): number {
  const original = Buffer.prototype.indexOf;
  let looked = 0;
  Buffer.prototype.indexOf = function (this: Buffer, value: unknown, byteOffset?: unknown, encoding?: BufferEncoding): number {
    const found = original.call(this, value as number, byteOffset as number, encoding);
    if (value === 0x0d) looked += (found === -1 ? this.length : found + 1) - Math.max(0, typeof byteOffset === 'number' ? byteOffset : 0);
    return found;
  };
  try {
    run();
  } finally {
    Buffer.prototype.indexOf = original;
  }
  return looked;
}

test('T2/T3 audit: the end of a line held across reads is found without scanning the rest of the read for a CR', () => {
  const parser = createSseParser({ maxEventBytes: 1 << 20, onEvent: (event) => events.push(event) });
  const events: SseEvent[] = [];
  parser.push(Buffer.from('data: a'));
  // A 64 KiB-sized read: the held line ends at its first LF; a CR search from there to the end would look at all of it.
  const read = Buffer.from(`bc\n\n${'data: x\n\n'.repeat(7000)}`);
  const looked = crSearchBytes(() => parser.push(read));
  assert.equal(events.length, 7001);
  assert.deepEqual(events[0], ev('abc'));
  assert.ok(looked <= 8, `${looked} bytes of a ${read.length}-byte read searched for a CR`);
  // A CR before the first LF is still the line's end.
  assert.deepEqual(parse(['data: a', 'b\r\n\ndata: c\n\n']).events, [ev('ab'), ev('c')]);
  assert.deepEqual(parse(['data: a', 'b\rc\n\n']).events, [ev('ab')]);
  assert.deepEqual(parse(['data: a', 'b\r\r']).events, [ev('ab')]);
});

/** Runs `run` with String#indexOf watched: how many searches for a LF it made. */
function lfSearches(run: () => void): number {
  let searches = 0;
  watchStringSearches(run, (_text, search) => {
    if (search === '\n') searches++;
  });
  return searches;
}

test('T2/T3 audit: an event of the common shape (event: message, one data line, a blank line) is dispatched on one LF search, not split into three lines', () => {
  const n = 1000;
  for (const shape of [(i: number) => `event: message\ndata: {"n":${i}}\n\n`, (i: number) => `data: {"n":${i}}\n\n`]) {
    const text = Array.from({ length: n }, (_, i) => shape(i)).join('');
    let seen: Seen | undefined;
    // A cap just above each event's own bound (3 bytes a character): the bound is the event's, not its place in the read.
    const searches = lfSearches(() => {
      seen = parse([text], 32);
    });
    assert.equal(seen!.events.length, n);
    assert.deepEqual(seen!.events[7], ev('{"n":7}', shape(0).startsWith('event') ? 'message' : undefined));
    assert.ok(searches <= n + 2, `${searches} LF searches for ${n} events`);
  }
});

test('T2/T3 audit: what is not exactly the common event shape is read field by field as before', () => {
  const cases: [string, SseEvent[], string[]?][] = [
    // Not followed by a blank line: a second data line, an id after the data.
    ['data: a\ndata: b\n\n', [ev('a\nb')]],
    ['event: message\ndata: a\nid: 7\n\n', [ev('a', 'message', '7')], ['7']],
    // Something before the data line: an id, a comment, another type, a type longer than "message".
    ['id: 1\ndata: a\n\n', [ev('a', undefined, '1')], ['1']],
    [': hi\ndata: a\n\n', [ev('a')]],
    ['event: messages\ndata: a\n\n', [ev('a', 'messages')]],
    ['event: other\ndata: a\n\n', [ev('a', 'other')]],
    // No space after the colon, two spaces, an empty value, a value with a colon.
    ['data:a\n\n', [ev('a')]],
    ['data:  a\n\n', [ev(' a')]],
    ['data: \n\n', [ev('')]],
    ['event: message\ndata: a: b\n\n', [ev('a: b', 'message')]],
    // A block cut before its blank line by the read is finished by the next one.
    ['data: a\n', []],
  ];
  for (const [text, events, ids = []] of cases) {
    const seen = parse([text]);
    assert.deepEqual(seen.events, events, JSON.stringify(text));
    assert.deepEqual(seen.ids, ids, JSON.stringify(text));
  }
  assert.deepEqual(parse(['data: a\n', '\ndata: b\n\n']).events, [ev('a'), ev('b')]);
  assert.deepEqual(parse(['event: message\n', 'data: a\n\n']).events, [ev('a', 'message')]);
  // The cap, exactly: an event of the common shape at the cap is delivered, one byte over is refused.
  assert.deepEqual(parse(['data: abcd\n\n'], 4).events, [ev('abcd')]);
  assert.deepEqual(parse(['data: €\n\n'], 3).events, [ev('€')]);
  assert.deepEqual(parse(['data: abcde\n\n'], 4).pushes, [false]);
  assert.deepEqual(parse(['event: message\ndata: €\n\n'], 2).pushes, [false]);
});

test('T2/T3 audit: the search for the next `event: message` event reads each stretch of a read once, and a match that is not at a line start is not an event start', () => {
  // A read of blocks that are not of the common shape (an id each) between common events: the parser finds
  // the next common event with one search and must not search again for every block before it.
  const uncommon = 'id: 9\ndata: x\n\n'.repeat(2000);
  const text = `event: message\ndata: first\n\n${uncommon}event: message\ndata: last\n\n${uncommon}`;
  let looked = 0;
  let seen: Seen | undefined;
  watchStringSearches(
    () => {
      seen = parse([text]);
    },
    (searched, search, position, found) => {
      if (search.startsWith('event: message')) looked += (found === -1 ? searched.length : found + search.length) - position;
    },
  );
  assert.equal(seen!.events.length, 4002);
  assert.deepEqual(seen!.events.at(-2), ev('x', undefined, '9'));
  assert.deepEqual([seen!.events[0], seen!.events[2001]], [ev('first', 'message'), ev('last', 'message')]);
  assert.ok(looked <= text.length + 64, `${looked} characters searched in a ${text.length}-character read`);

  // The search finds `event: message\ndata: ` inside a line (a data value ending in "event: message"): not an event start.
  assert.deepEqual(parse(['data: xevent: message\ndata: y\n\nevent: message\ndata: z\n\n']).events, [ev('xevent: message\ny'), ev('z', 'message')]);
  // Near misses of the prefix at a line start, each followed by a common event.
  for (const miss of ['event: messag\ndata: a\n\n', 'event: messagex\ndata: a\n\n', 'event: message\ndata:a\n\n', 'Event: message\ndata: a\n\n']) {
    const events = parse([`${miss}event: message\ndata: b\n\n`]).events;
    assert.deepEqual(events.at(-1), ev('b', 'message'), JSON.stringify(miss));
    assert.deepEqual(events.slice(0, -1), parse([miss]).events, JSON.stringify(miss));
  }
  assert.deepEqual(parse(['event: message\ndata:a\n\n']).events, [ev('a', 'message')]);
  assert.deepEqual(parse(['event: messag\ndata: a\n\n']).events, [ev('a', 'messag')]);
});

test('T2/T3 audit: an `event: message` block found by the search is not searched for again when the parser reaches it', () => {
  // Each common event follows a block read line by line: the search that passes that block finds the event,
  // and reaching it must use that result. Searching again there would cost a search per event.
  const text = 'id: 9\ndata: x\n\nevent: message\ndata: y\n\n'.repeat(500);
  let searches = 0;
  let seen: Seen | undefined;
  watchStringSearches(
    () => {
      seen = parse([text]);
    },
    (_searched, search) => {
      if (search.startsWith('event: message')) searches++;
    },
  );
  assert.equal(seen!.events.length, 1000);
  assert.deepEqual(seen!.events.slice(0, 2), [ev('x', undefined, '9'), ev('y', 'message')]);
  assert.ok(searches <= 501, `${searches} searches for 500 common events`);
});
