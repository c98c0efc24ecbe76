// Surviving mutants of the mutation audit that no test can kill because
// they do not change what the code does (issue #20 item 3: "every surviving
// mutant is either killed by a new test or listed as equivalent with one
// line saying why"). scripts/audit-report.mjs matches each survivor against
// this list by file, mutator, replacement and a piece of its source line
// (`near`, so that the entry survives lines moving), lists the matches in
// docs/AUDIT.md with their reason, and reports any entry that matches no
// survivor any more (stale: the code changed, or a test now kills it).
// Source files are not annotated with Stryker's disable comments: the list
// lives here, beside the audit, and the code stays as it is.

/** @type {{ file: string, mutator: string, replacement: string, near: string, why: string }[]} */
export const EQUIVALENTS = [
  {
    file: 'src/transport/redact.ts',
    mutator: 'Regex',
    replacement: '/=+/',
    near: "base64.replace(/=+$/, '')",
    why: "base64 has '=' only at its end, so the first run of '=' is the last: anchoring at the end changes nothing.",
  },
  {
    file: 'src/transport/redact.ts',
    mutator: 'ConditionalExpression',
    replacement: 'true',
    near: 'if (out.includes(form)) out = out.split(form).join(REDACTED);',
    why: 'split and join of a text that does not hold the form give the text back: the includes() test only saves work.',
  },
  {
    file: 'src/transport/redact.ts',
    mutator: 'StringLiteral',
    replacement: '""',
    near: "return text.includes('@') ? text.replace(URL_USERINFO",
    why: "every text includes '', so the replace always runs; it finds nothing without an '@', so the text comes back unchanged: the test only saves work.",
  },
  {
    file: 'src/transport/redact.ts',
    mutator: 'ArithmeticOperator',
    replacement: 'text.length + start',
    near: 'for (let k = Math.min(form.length - 1, text.length - start); k > 0; k--) {',
    why: 'a larger bound only adds lengths k longer than the text left, whose startsWith() is false: the loop goes on down to the same first match.',
  },
];

// The framing path. Most of these are the framer's and the reader's speed
// and memory choices (copy a small piece or keep it by reference, decode a
// long line as it comes or at its end, skip a search when a read ends on a
// line break): each path gives the same bytes in the same order, so the
// same messages; a mutant that takes the other path changes cost, not
// output. The speed and memory figures are pinned by bench/ and by
// spec-tests/W1 (bytes joined and decoded once) and W2 (RSS), not here.
const LF_FILE = 'src/jsonrpc/line-framer.ts';
const GATE = 'src/transport/long-line-gate.ts';
const SSE = 'src/transport/sse-stream.ts';
const SAME_BYTES = 'the two branches hand over the same bytes (the whole buffer, or a subarray of all of it): only a copy or a view differs.';
EQUIVALENTS.push(
  { file: LF_FILE, mutator: 'ArithmeticOperator', replacement: '64 / 1024', near: 'const BLOCK_BYTES = 64 * 1024;', why: 'the copy threshold is a quarter of the block, so with a block of under a byte no piece is copied and every piece is kept by reference: same bytes, same lines.' },
  { file: LF_FILE, mutator: 'ArithmeticOperator', replacement: '1024 / 1024', near: 'const DECODE_AS_IT_COMES_BYTES = 1024 * 1024;', why: 'switching a held line to decoding as it comes after 1 byte instead of 1 MiB: a streaming decoder gives the same text; only memory differs.' },
  { file: LF_FILE, mutator: 'BlockStatement', replacement: '{}', near: 'function decodeHeldSoFar(): void {', why: 'never switching to decoding as it comes: the held line is joined and decoded at its end instead; same text, more memory.' },
  { file: LF_FILE, mutator: 'CallExpression', replacement: ';', near: 'moveBlockToFragments();', prev: 'function decodeHeldSoFar(): void {', why: 'bytes left in the block come after the fragments either way: the next flushBlockToText() decodes them onto the text in the same order.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'blockLen >= 0'], near: 'if (block && blockLen > 0) {', why: 'moving an empty block hands over an empty piece and drops the block, which is allocated again when needed.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'length > COPY_BELOW_BYTES'], near: 'if (textDecoder && length >= COPY_BELOW_BYTES) {', why: 'in text mode a small piece decoded at once instead of batched in the block gives the same text (the batching saves memory: no rope of tiny strings).' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'LogicalOperator', 'EqualityOperator'], replacement: ['true', 'false', 'start === 0 || end === bytes.length', 'start !== 0', 'end !== bytes.length'], near: 'heldText += textDecoder.write(start === 0 && end === bytes.length ? bytes : bytes.subarray', why: 'in text mode hold() only ever gets a whole read (a read with a line break ends the held line, which leaves text mode), so start is 0 and end the length, and ' + SAME_BYTES },
  { file: LF_FILE, mutator: 'EqualityOperator', replacement: 'length <= COPY_BELOW_BYTES', near: 'if (length < COPY_BELOW_BYTES) {', why: 'a piece of exactly 16 KiB copied into the block instead of kept by reference: the same bytes in the same place.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'blockLen + length >= block.length'], near: 'if (textDecoder && block && blockLen + length > block.length) flushBlockToText();', why: 'emptying the block onto the text sooner keeps the bytes in order: same text.' },
  { file: LF_FILE, mutator: 'EqualityOperator', replacement: 'blockLen + length >= block.length', near: 'if (block && blockLen + length > block.length) moveBlockToFragments();', why: 'handing over a block the piece would exactly fill, and starting a new one: the same bytes in order.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['false', 'true', 'end !== bytes.length'], near: 'block.set(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end), blockLen);', why: 'hold() is only ever called up to the end of the read, so ' + SAME_BYTES },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['false', 'true', 'end !== bytes.length'], near: 'fragments.push(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));', why: 'hold() is only ever called up to the end of the read, so ' + SAME_BYTES },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'LogicalOperator', 'BooleanLiteral', 'EqualityOperator'], replacement: ['false', 'true', '!textDecoder || fragmentBytes > DECODE_AS_IT_COMES_BYTES', 'textDecoder', 'fragmentBytes >= DECODE_AS_IT_COMES_BYTES', 'fragmentBytes <= DECODE_AS_IT_COMES_BYTES'], near: 'if (!textDecoder && fragmentBytes > DECODE_AS_IT_COMES_BYTES) decodeHeldSoFar();', why: 'when (or whether) a held line switches to decoding as it comes changes memory, not text; in text mode no fragment is held, so switching again never happens.' },
  { file: LF_FILE, mutator: 'ConditionalExpression', replacement: 'false', near: 'if (!textDecoder || !block || blockLen === 0) return;', why: 'decoding an empty block adds nothing to the text.' },
  { file: LF_FILE, mutator: ['EqualityOperator', 'BlockStatement'], replacement: ['blockLen + newline < block.length', '{}'], near: 'if (fragments.length === 0 && block && blockLen + newline <= block.length) {', why: 'the line is assembled by joining instead of in the block: the same bytes, decoded once.' },
  { file: LF_FILE, mutator: 'ConditionalExpression', replacement: 'false', near: 'block.set(newline === bytes.length ? bytes : bytes.subarray(0, newline), blockLen);', why: 'a newline is an index inside the read, never its length: the condition is always false already.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'newline >= 0'], near: 'if (newline > 0) fragments.push(bytes.subarray(0, newline));', why: 'an empty piece adds nothing to the join.' },
  { file: LF_FILE, mutator: 'ConditionalExpression', replacement: 'false', near: 'const joined = fragments.length === 1 ? fragments[0]! : Buffer.concat(fragments, total);', why: 'concat of one buffer is a copy of the same bytes.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'to >= from'], near: 'if (to > from) {', why: "an empty line parses to nothing: JSON.parse('') fails and ''.trim() is empty, so nothing is reported." },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator', 'ArithmeticOperator'], replacement: ['true', '(to - from) * 3 >= maxBytes', 'to + from'], near: 'if ((to - from) * 3 > maxBytes) {', why: 'the test only skips measuring lines too short to be over the cap; measuring them finds they are not.' },
  { file: LF_FILE, mutator: 'ConditionalExpression', replacement: 'false', near: 'const lineEnd = newline === -1 ? end : bytes.indexOf(NEWLINE, byteAt);', why: 'a range handed to parseLines() always ends just before a newline byte, so the search finds `end`.' },
  { file: LF_FILE, mutator: 'ConditionalExpression', replacement: 'false', near: 'parse(from === 0 && to === text.length ? text : text.slice(from, to));', why: 'slice(0, length) is the same string.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'heldBytes() >= 0'], near: 'if (heldBytes() > 0) finishHeld(bytes, first);', why: 'finishHeld() with nothing held parses the first line as parseLines() would, with the same cap check on its exact bytes.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'first >= 0'], near: 'else if (first > 0) parseLines(bytes, 0, first);', why: 'an empty range holds no line.' },
  { file: LF_FILE, mutator: 'ConditionalExpression', replacement: 'false', near: 'if (stopped) return;', prev: 'else if (first > 0) parseLines(bytes, 0, first);', why: 'parseLines() checks `stopped` before each line and hold() is guarded by `!stopped`: nothing more is delivered either way.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator', 'ArithmeticOperator'], replacement: ['true', 'last >= first + 1', 'first - 1'], near: 'if (last > first + 1) parseLines(bytes, first + 1, last);', why: 'the extra ranges are empty (or end before they start) and decode to no line.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator', 'ArithmeticOperator'], replacement: ['true', 'last + 1 <= length', 'last - 1'], near: 'if (!stopped && last + 1 < length) hold(bytes, last + 1, length);', why: 'holding the empty rest of a read holds no byte; the next read finds nothing held.' },
  { file: LF_FILE, mutator: 'ConditionalExpression', replacement: 'false', near: 'if (stopped) return;', prev: 'end(): void {', why: 'a second end(), or end() after an overflow, finds nothing held (both let go of it) and returns at the empty check.' },
  { file: LF_FILE, mutator: 'ConditionalExpression', replacement: 'false', near: 'if (fragmentBytes + blockLen === 0) return;', why: "joining nothing parses '', which reports nothing." },
  { file: GATE, mutator: 'ArithmeticOperator', replacement: '1024 / 1024', near: 'export const HOLD_AS_BYTES_FROM = 1024 * 1024;', why: 'where the gate starts holding changes memory only: held reads reach the framer in order when the line ends, and the gate refuses only lines the framer would refuse (stdio.ts passes both the same overflow handler).' },
  { file: GATE, mutator: 'MethodExpression', replacement: 'Math.min(HOLD_AS_BYTES_FROM, maxMessageBytes / 2)', near: 'const holdFrom = Math.max(HOLD_AS_BYTES_FROM, maxMessageBytes / 2);', why: 'as for HOLD_AS_BYTES_FROM: an earlier start of holding changes memory, not what comes out.' },
  { file: GATE, mutator: ['ConditionalExpression', 'EqualityOperator', 'ArithmeticOperator'], replacement: ['false', 'framer.pendingBytes + chunk.length <= holdFrom', 'framer.pendingBytes + chunk.length >= holdFrom', 'framer.pendingBytes - chunk.length'], near: 'if (heldBytes === 0 && framer.pendingBytes + chunk.length < holdFrom) return framer.push(chunk);', why: 'taking the holding path for a short line gives the framer the same reads in the same order (a read with a line break releases what is held first).' },
  { file: GATE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'heldBytes >= 0'], near: 'if (heldBytes > 0) release();', why: 'releasing nothing is a no-op.' },
  { file: SSE, mutator: 'ConditionalExpression', replacement: 'false', near: 'if (value.byteLength === 0) continue;', why: 'an empty read has no byte to cut or hold; the one difference is an extra done() call with no event since the last one.' },
  { file: SSE, mutator: 'ArithmeticOperator', replacement: 'bytes.length + 1', near: 'const last = bytes[bytes.length - 1]!;', why: '`last` is then undefined and the cut is found by searching, which finds the same last line break: the test is a shortcut.' },
  { file: SSE, mutator: 'ConditionalExpression', replacement: 'false', near: 'const cut = last === LF || last === CR ? bytes.length : lastLineBreak(bytes) + 1;', why: 'searching for the last line break of a read that ends on one finds its last byte: the test is a shortcut.' },
  { file: SSE, mutator: 'ConditionalExpression', replacement: 'false', near: 'const lines = cut === bytes.length ? bytes : bytes.subarray(0, cut);', why: 'subarray(0, length) is the same bytes.' },
  { file: SSE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'heldBytes >= 0'], near: 'if (heldBytes > 0) feedHeld();', why: 'feeding nothing held is a no-op.' },
  { file: SSE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'cut <= bytes.length'], near: 'if (cut < bytes.length) {', why: 'holding the empty rest of a read (cut = length) holds no byte, so the cap check and the next feed see the same.' },
  { file: SSE, mutator: 'ConditionalExpression', replacement: 'false', near: 'held.push(cut === 0 ? bytes : bytes.subarray(cut));', why: 'subarray(0) is the same bytes.' },
  { file: SSE, mutator: ['ArithmeticOperator', 'EqualityOperator'], replacement: ['bytes.length + 1', 'i >= lf'], near: 'for (let i = bytes.length - 1; i > lf; i--) if (bytes[i] === CR) return i;', why: 'the search looks at more bytes (two past the end, which are undefined, or the LF itself), none of them a CR behind the last LF.' },
);
