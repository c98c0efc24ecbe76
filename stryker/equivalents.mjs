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

/** @type {{ file: string, mutator: string | string[], replacement: string | string[], near: string, prev?: string, code?: string, why: string }[]} */
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

// The framing path. What is left here changes no output, no error, no order,
// no memory bound and no order of growth: dead branches (a condition that the
// callers make always true or always false), a copy of the same bytes or a
// view of all of them, an empty range handled instead of skipped, the exact
// boundary of a tuning threshold. The mutants that only "changed cost or
// memory" but in a way a caller can see (a read kept by reference past
// 1 MiB, a line copied before decoding, a 64 KiB block per message, one
// decoder call per small read, a gate that holds short lines or none, a line
// split that scans to the same far line break for every line) were reviewed
// on 2026-12-06 and are killed by tests that watch the runtime calls:
// src/jsonrpc/line-framer.audit.test.ts «... memory and copies»,
// src/transport/long-line-gate.audit.test.ts and
// src/transport/sse-parser.audit.test.ts (docs/AUDIT.md, "How the
// equivalents were reviewed").
const LF_FILE = 'src/jsonrpc/line-framer.ts';
const GATE = 'src/transport/long-line-gate.ts';
const SSE = 'src/transport/sse-stream.ts';
const SAME_BYTES = 'the two branches hand over the same bytes (the whole buffer, or a subarray of all of it): only a copy or a view differs.';
EQUIVALENTS.push(
  { file: LF_FILE, mutator: 'ArithmeticOperator', replacement: '1024 / 1024', near: 'const DECODE_AS_IT_COMES_BYTES = 1024 * 1024;', why: 'a tuning threshold: a held line switched to decoding as it comes after 1 byte instead of 1 MiB gives the same text, and lets its reads go sooner (the audit test checks that none is kept past 1 MiB); the cost is one decoder per held line, a constant.' },
  { file: LF_FILE, mutator: 'CallExpression', replacement: ';', near: 'moveBlockToFragments();', prev: 'function decodeHeldSoFar(): void {', why: 'bytes left in the block come after the fragments either way: the next flushBlockToText() decodes them onto the text in the same order (the block, 64 KiB at most, is kept until then; the reads are let go all the same).' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'blockLen >= 0'], near: 'if (block && blockLen > 0) {', why: 'moving an empty block hands over an empty piece and drops the block, which is allocated again when needed: one more 64 KiB block per line that has a piece of 16 KiB or more, so at most 4 bytes allocated per byte received (linear; not per message, which the audit test counts).' },
  { file: LF_FILE, mutator: 'EqualityOperator', replacement: 'length > COPY_BELOW_BYTES', near: 'if (textDecoder && length >= COPY_BELOW_BYTES) {', why: 'the boundary of a tuning choice: in text mode a piece of exactly 16 KiB is batched in the block instead of decoded at once; the same text, and at most one more decoder call per 16 KiB (the batching that the audit test counts is kept).' },
  { file: LF_FILE, mutator: 'ConditionalExpression', replacement: 'false', near: 'const piece = start === 0 ? bytes : bytes.subarray(start);', why: SAME_BYTES },
  { file: LF_FILE, mutator: 'EqualityOperator', replacement: 'length <= COPY_BELOW_BYTES', near: 'if (length < COPY_BELOW_BYTES) {', why: 'a piece of exactly 16 KiB copied into the block instead of kept by reference: the same bytes in the same place.' },
  { file: LF_FILE, mutator: 'EqualityOperator', replacement: 'blockLen + length >= block.length', near: 'if (textDecoder && block && blockLen + length > block.length) flushBlockToText();', why: 'the boundary: a block the piece would exactly fill is decoded onto the text one piece early; the bytes stay in order, and the decoder calls are still one per block.' },
  { file: LF_FILE, mutator: 'EqualityOperator', replacement: 'blockLen + length >= block.length', near: 'if (block && blockLen + length > block.length) moveBlockToFragments();', why: 'handing over a block the piece would exactly fill, and starting a new one: the same bytes in order.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'fragmentBytes >= DECODE_AS_IT_COMES_BYTES', 'fragmentBytes <= DECODE_AS_IT_COMES_BYTES'], code: 'fragmentBytes > DECODE_AS_IT_COMES_BYTES', near: 'if (!textDecoder && fragmentBytes > DECODE_AS_IT_COMES_BYTES) decodeHeldSoFar();', why: 'switching to decoding as it comes at once (or at exactly 1 MiB) instead of past 1 MiB: the same text, and the reads are let go sooner, not later (what the audit test checks: none kept past 1 MiB); a tuning threshold, as DECODE_AS_IT_COMES_BYTES.' },
  { file: LF_FILE, mutator: 'LogicalOperator', replacement: '!textDecoder || fragmentBytes > DECODE_AS_IT_COMES_BYTES', near: 'if (!textDecoder && fragmentBytes > DECODE_AS_IT_COMES_BYTES) decodeHeldSoFar();', why: 'in text mode no fragment is ever held (large pieces are decoded at once, small ones go to the block), so fragmentBytes is 0 there and the `||` is false whenever the `&&` is.' },
  { file: LF_FILE, mutator: 'ConditionalExpression', replacement: 'false', near: 'if (!textDecoder || !block || blockLen === 0) return;', why: 'decoding an empty block adds nothing to the text.' },
  { file: LF_FILE, mutator: 'EqualityOperator', replacement: 'blockLen + newline < block.length', near: 'if (fragments.length === 0 && block && blockLen + newline <= block.length) {', why: 'the boundary: a message that exactly fills the block is joined by Buffer.concat instead of assembled in it; the same bytes decoded once, one copy of at most 64 KiB.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'to >= from'], near: 'if (to > from) {', why: "an empty line parses to nothing: JSON.parse('') fails and ''.trim() is empty, so nothing is reported." },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator', 'ArithmeticOperator'], replacement: ['true', '(to - from) * 3 >= maxBytes', 'to + from'], near: 'if ((to - from) * 3 > maxBytes) {', why: 'the test only skips measuring lines too short to be over the cap; measuring them finds they are not.' },
  { file: LF_FILE, mutator: 'ConditionalExpression', replacement: 'false', near: 'const lineEnd = newline === -1 ? end : bytes.indexOf(NEWLINE, byteAt);', why: 'a range handed to parseLines() always ends just before a newline byte, so the search finds `end`.' },
  { file: LF_FILE, mutator: 'ConditionalExpression', replacement: 'false', near: 'parse(from === 0 && to === text.length ? text : text.slice(from, to));', why: 'slice(0, length) is the same string.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'heldBytes() >= 0'], near: 'if (heldBytes() > 0) finishHeld(bytes, first);', why: 'finishHeld() with nothing held parses the first line as parseLines() would, with the same cap check on its exact bytes.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'first >= 0'], near: 'else if (first > 0) parseLines(bytes, 0, first);', why: 'an empty range holds no line.' },
  { file: LF_FILE, mutator: 'ConditionalExpression', replacement: 'false', near: 'if (stopped) return;', prev: 'else if (first > 0) parseLines(bytes, 0, first);', why: 'parseLines() checks `stopped` before each line and hold() is guarded by `!stopped`: nothing more is delivered either way.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator', 'ArithmeticOperator'], replacement: ['true', 'last >= first + 1', 'first - 1'], near: 'if (last > first + 1) parseLines(bytes, first + 1, last);', why: 'the extra ranges are empty (or end before they start) and decode to no line.' },
  { file: LF_FILE, mutator: ['ConditionalExpression', 'EqualityOperator', 'ArithmeticOperator'], replacement: ['true', 'last + 1 <= length', 'last - 1'], near: 'if (!stopped && last + 1 < length) hold(bytes, last + 1);', why: 'holding the empty rest of a read holds no byte; the next read finds nothing held.' },
  { file: LF_FILE, mutator: 'ConditionalExpression', replacement: 'false', near: 'if (stopped) return;', prev: 'end(): void {', why: 'a second end(), or end() after an overflow, finds nothing held (both let go of it) and returns at the empty check.' },
  { file: LF_FILE, mutator: 'ConditionalExpression', replacement: 'false', near: 'if (fragmentBytes + blockLen === 0) return;', why: "joining nothing parses '', which reports nothing." },
  { file: GATE, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'heldBytes >= 0'], near: 'if (heldBytes > 0) release();', why: 'releasing nothing is a no-op.' },
);

// The byte-level SSE parser (sse-parser.ts). Most of these are its fast paths
// (a `data:` line recognised before the general field split, a held data line
// decoded past its field name, a read without a CR split on LF only, a search
// skipped when a read ends on a line break, a bound of 3 bytes per UTF-16 unit
// instead of measuring): the general path they skip gives the same events,
// ids, retries and push() results; only cost differs. The killed ones are
// pinned by src/transport/sse-parser.audit.test.ts.
const SP = 'src/transport/sse-parser.ts';
const DATA_FAST = "if (first === 0x64 && text.charCodeAt(start + 4) === 0x3a && start + 4 < end && text.startsWith('data', start)) {";
EQUIVALENTS.push(
  { file: SP, mutator: 'EqualityOperator', replacement: '(end - from) * MAX_BYTES_PER_UNIT >= maxEventBytes', near: 'if (text.charCodeAt(end + 1) !== 0x0a || (end - from) * MAX_BYTES_PER_UNIT > maxEventBytes) return at;', why: 'the boundary of the whole-event fast path: an event whose bound of 3 bytes per unit is exactly the cap is read by the general split instead, which measures its bytes (at most the bound, so within the cap) and dispatches the same event.' },
  { file: SP, mutator: 'StringLiteral', replacement: '"Stryker was here!"', near: "let data = '';", why: '`data` is only read once a data line has set it (dataLines > 0 guards both reads): its first value is never seen.' },
  { file: SP, mutator: 'StringLiteral', replacement: '"Stryker was here!"', near: "data = '';", prev: 'heldBytes = 0;', why: 'after an overflow the parser is stopped and never reads `data` again.' },
  { file: SP, mutator: 'StringLiteral', replacement: '"Stryker was here!"', near: "data = '';", prev: 'eventType = undefined;', why: 'dataLines is 0 after a dispatch, and `data` is only read when dataLines > 0 (the next data line replaces it).' },
  { file: SP, mutator: 'BooleanLiteral', replacement: 'true', near: 'let skipLf = false;', why: 'skipping a LF at the very start of the stream skips an empty line that would dispatch an empty block: nothing either way.' },
  { file: SP, mutator: ['ConditionalExpression', 'EqualityOperator', 'ArithmeticOperator', 'MethodExpression', 'BlockStatement'], replacement: ['false', 'true', 'first !== 0x64', 'start - 4', 'start + 4 <= end', 'start + 4 >= end', "text.endsWith('data', start)", '{}'], near: DATA_FAST, why: 'the `data:` fast path: a data line it does not take goes to the general split, which reads it the same (field "data", one optional space); a line it takes by these edits still starts with "data:" (startsWith checks every letter; the colon is never the line break).' },
  { file: SP, mutator: ['ConditionalExpression', 'EqualityOperator', 'ArithmeticOperator'], replacement: ['true', 'start + 5 <= end', 'start - 5'], near: 'const from = start + 5 < end && text.charCodeAt(start + 5) === 0x20 ? start + 6 : start + 5;', why: 'at start + 5 = end the character there is the line break (or past the text: NaN), never a space, so the bound check decides nothing.' },
  { file: SP, mutator: ['ConditionalExpression', 'EqualityOperator', 'ArithmeticOperator'], replacement: ['true', 'false', 'lineBytes <= 0', 'lineBytes >= 0', 'lineBytes + (from - start)', 'from + start'], near: 'return addData(text, from, end, lineBytes < 0 ? -1 : lineBytes - (from - start));', why: 'line() gets a byte count only from heldLine(), which takes every held "data:" line itself, so here lineBytes is always -1; any negative value means "unknown" to addData().' },
  { file: SP, mutator: ['ConditionalExpression', 'EqualityOperator', 'ArithmeticOperator', 'UnaryOperator'], replacement: ['true', 'false', 'lineBytes <= 0', 'lineBytes >= 0', '+1', 'lineBytes + (from - start)', 'from + start'], near: "if (text.startsWith('data', start)) return addData(text, from, end, lineBytes < 0 ? -1 : lineBytes - (from - start));", why: 'unreachable arguments: every line starting "data:" was taken by the fast path above, so this addData() never runs.' },
  { file: SP, mutator: 'ConditionalExpression', replacement: 'false', near: 'if (first === 0x3a) return true; // a comment', why: 'a comment left to the general split has a field name of length 0, which the switch ignores.' },
  { file: SP, mutator: 'EqualityOperator', replacement: 'i <= stop', near: 'for (let i = start, stop = Math.min(end, start + 6); i < stop; i++) {', why: 'the extra character is the line break (or NaN past the text), or the 7th of a line, whose colon would make a 6-letter field name, which is ignored as the colon-less line is.' },
  { file: SP, mutator: 'ConditionalExpression', replacement: 'false', near: 'if (colon === end && end - start > 5) return true; // an unknown field without a colon', why: 'a colon-less line of more than 5 characters left to the switch has a name length over 5, which it ignores: the test is a shortcut.' },
  { file: SP, mutator: 'EqualityOperator', replacement: 'colon + 1 <= end', near: 'const from = colon + 1 < end && text.charCodeAt(colon + 1) === 0x20', why: 'at colon + 1 = end the character is the line break (or NaN past the text), never a space.' },
  { file: SP, mutator: ['ConditionalExpression', 'ArithmeticOperator', 'MethodExpression'], replacement: ['false', 'end + from', "text.endsWith('message', from)"], near: "end - from === 7 && text.startsWith('message', from) ? 'message'", why: "the shortcut only returns the literal 'message' for a value that is 'message' (slice gives an equal string); the edits either never take it or take it for none else (the 7 characters before `from` are \"event: \" or hold a line break)." },
  { file: SP, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['false', 'true', 'end !== text.length'], near: 'const value = from === 0 && end === text.length ? text : text.slice(from, end);', why: 'slice(0, length) is the same string.' },
  { file: SP, mutator: 'EqualityOperator', replacement: 'valueBytes > 0', near: 'let size = valueBytes >= 0 ? valueBytes : (end - from) * MAX_BYTES_PER_UNIT;', why: 'a value of 0 bytes is empty, so its bound (end - from) * 3 is 0 as well.' },
  { file: SP, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'dataLines >= 0'], near: 'dataBytes = dataLines > 0 ? Buffer.byteLength(data) : 0;', why: "with no data line yet `data` is '', whose byte length is 0." },
  { file: SP, mutator: 'EqualityOperator', replacement: 'valueBytes <= 0', near: 'if (measured && valueBytes < 0) size = Buffer.byteLength(value);', why: 'a value of 0 bytes is empty: measuring it gives 0 again.' },
  { file: SP, mutator: ['ConditionalExpression', 'EqualityOperator', 'BlockStatement'], replacement: ['false', 'lineBytes >= 4', 'lineBytes <= 4', '{}'], near: 'if (lineBytes > 4 && joined[0] === 0x64 && joined[1] === 0x61', why: 'the held-data-line fast path: a held line it does not take goes to line(), which reads it the same with the same exact byte count; `joined` is exactly lineBytes long, so joined[4] is undefined unless lineBytes > 4.' },
  { file: SP, mutator: 'ConditionalExpression', replacement: 'true', code: 'lineBytes > 4', near: 'if (lineBytes > 4 && joined[0] === 0x64 && joined[1] === 0x61', why: '`joined` is exactly lineBytes long, so joined[4] === 0x3a already implies lineBytes > 4.' },
  { file: SP, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'lineBytes >= 5'], near: 'const from = lineBytes > 5 && joined[5] === 0x20 ? 6 : 5;', why: '`joined` is exactly lineBytes long: joined[5] is undefined, not a space, when lineBytes is 5.' },
  { file: SP, mutator: ['ConditionalExpression', 'BlockStatement'], replacement: ['false', '{}'], near: 'if (cr === -1) {', why: 'the LF-only loop is a fast path: the general loop splits a text without CR at the same LFs.' },
  { file: SP, mutator: 'UnaryOperator', replacement: '+1', near: 'if (!line(text, at, end, -1)) return false;', why: 'line() uses the byte count only on a data line, as lineBytes - (from - start) with from - start >= 5: 1 gives a negative count, which means "unknown" as -1 does.' },
  { file: SP, mutator: 'EqualityOperator', replacement: 'cr <= at', near: "if (cr !== -1 && cr < at) cr = text.indexOf('\\r', at);", why: 'the CR found is at `at` only for an empty line ending in CR: searching again from there finds it at once (no character passed), so the search stays linear; the edits that search again from farther back are killed by the audit test that counts the characters searched.' },
  { file: SP, mutator: 'EqualityOperator', replacement: 'lf <= at', near: "if (lf !== -1 && lf < at) lf = text.indexOf('\\n', at);", why: 'the LF found is at `at` only for an empty line: searching again from there finds it at once (no character passed), so the search stays linear (as for the CR above).' },
  { file: SP, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'at <= length'], near: 'if (end === cr && at < length && text.charCodeAt(at) === 0x0a) at++;', why: 'charCodeAt(length) is NaN, never a LF: the bound check decides nothing.' },
  { file: SP, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['false', 'matched < 0'], near: 'if (matched <= 0) return bytes;', why: 'with nothing matched in earlier reads the concat prepends BOM.slice(0, 0), no byte: a copy of the same bytes, made once per stream (only the first read can get here) and parsed or held instead of the read, which stays the caller\'s: no line is held twice.' },
  { file: SP, mutator: 'ConditionalExpression', replacement: 'true', near: 'if (bomAt >= 0) {', why: 'skipBom() past the start (bomAt -1) compares bytes[0] with BOM[-1], undefined, and returns the bytes unchanged (matched -1).' },
  { file: SP, mutator: 'ConditionalExpression', replacement: 'false', near: 'const cut = last === LF || last === CR ? length : lastLineBreak(bytes, at) + 1;', why: 'searching for the last line break of a read that ends on one finds its last byte: the test is a shortcut.' },
  { file: SP, mutator: 'ArithmeticOperator', replacement: 'heldBytes + end + at', near: 'const lineBytes = heldBytes + end - at;', why: 'with a line held `at` is 0: a read that ended on a CR (the only way at becomes 1) holds nothing.' },
  { file: SP, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'at <= length'], near: 'if (bytes[end] === CR && at < length && bytes[at] === LF) at++;', why: 'bytes[length] is undefined, never a LF: the bound check decides nothing.' },
  { file: SP, mutator: ['ConditionalExpression', 'EqualityOperator'], replacement: ['true', 'cut >= at'], near: "if (cut > at && !lines(bytes.toString('utf8', at, cut))) return overflow();", why: "cut is never below at, and decoding the empty range gives '', which holds no line." },
  { file: SP, mutator: 'ConditionalExpression', replacement: 'true', near: 'skipLf = cut === length && last === CR;', why: 'the edit drops only `cut === length`, and a read whose last byte is a CR is always cut at its length: `last === CR` alone decides the same.' },
  { file: SP, mutator: 'ConditionalExpression', replacement: 'false', near: 'return found < from ? from - 1 : found;', why: 'found is below from only when from is 1 and the read starts with the LF of a CRLF, so found is 0 = from - 1.' },
);

// Two survivors that a hand-applied edit was said to be killed by: both
// survive the same edit by hand too (checked on a scratch copy, 12:05 UTC,
// against the group's message, line-framer, W1 and W2 tests); the hand edit
// was a neighbouring mutant (the whole `number && finite` test, or the whole
// flush condition to false), which the tests do kill.
EQUIVALENTS.push(
  { file: 'src/jsonrpc/message.ts', mutator: 'ConditionalExpression', replacement: 'true', code: "typeof value === 'number'", near: "return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));", why: 'Number.isFinite() does not coerce: it is false for every value that is not a number, so the typeof test is implied by it.' },
  { file: SSE, mutator: 'ConditionalExpression', replacement: 'false', near: "return typeof (body as Partial<ReadableStream<Uint8Array>>).getReader === 'function';", why: 'a web ReadableStream is also async-iterable on every supported runtime; its iterator gives the same reads, cancels it on return() and releases its lock as the reader path does (which only saves a result object per read).' },
);

// The connection group (src/client/connection.ts; audit3). Mostly guards a
// pending request cannot reach: a request is in `pending` only while the
// connection is open (ending() empties the map in the same synchronous step
// that changes the state), and an outage timer is cleared by settle() and
// endOutage() before its request can be settled or sent. The killed ones
// are pinned by src/client/connection.audit2.test.ts.
const CONN = 'src/client/connection.ts';
const ONLY_WHILE_OPEN = 'a request is pending only while the connection is open (ending() empties the map as it changes the state), so this code, reached only for a pending request, always finds it open.';
EQUIVALENTS.push(
  { file: CONN, mutator: 'BooleanLiteral', replacement: 'true', near: 'private expiredDuringRenewal = false;', why: 'read only in a renewal\'s catch, and every pass of the renewal loop sets it to false before anything can read it.' },
  { file: CONN, mutator: 'ArrowFunction', replacement: '() => undefined', near: "this.handlers.set('ping', () => ({}));", why: 'a handler\'s undefined result is answered as {} (`result ?? {}` in onRequest, `?? {}` for an input_required round): the same empty result.' },
  { file: CONN, mutator: ['ObjectLiteral', 'BooleanLiteral'], replacement: ['{}', 'false'], near: "signal.addEventListener('abort', onAbort, { once: true });", why: 'the listener\'s first call abandons the request, whose settle() removes the listener: it can run once either way.' },
  { file: CONN, mutator: 'ConditionalExpression', replacement: 'true', near: "this.settle(id, entry).reject(this.currentState === 'open' ? this.siteError(entry.method, error) : this.closedError(entry.method));", why: 'reached only past the check that the request is still pending: ' + ONLY_WHILE_OPEN },
  { file: CONN, mutator: ['ConditionalExpression', 'LogicalOperator'], replacement: ['false', '(this.pending.get(id) !== entry || entry.sent) && !this.outage', 'this.pending.get(id) !== entry && entry.sent'], near: 'if (this.pending.get(id) !== entry || entry.sent || !this.outage) return;', why: 'giveUp() only ever runs for a request still pending, unsent and in an outage: settle() and endOutage() clear its timer, a held request is sent only once the outage is over, and the reconnectWaitMs 0 path calls it from inside the outage for a request just put in pending.' },
  { file: CONN, mutator: 'UpdateOperator', replacement: 'this.sessionEpoch--', near: 'this.sessionEpoch++;', why: 'the epoch is only compared for equality with a value read before: counting down changes it just as well.' },
  { file: CONN, mutator: 'ConditionalExpression', replacement: 'true', near: "if (this.currentState === 'open') this.ending({ reason: 'closed' }, 'closing');", why: 'in any other state (closing, closed) the connection has ended already, and a second ending() leaves a closing or closed state as it is.' },
  { file: CONN, mutator: 'ConditionalExpression', replacement: 'true', near: 'if (entry.outageTimer) clearTimeout(entry.outageTimer);', why: 'clearTimeout(undefined) does nothing: the test only saves a call.' },
  { file: CONN, mutator: 'ConditionalExpression', replacement: 'true', code: "this.currentState === 'open'", near: "if (entry.method !== 'initialize' && entry.sent && this.currentState === 'open') {", why: 'abandon() acts only on a pending request: ' + ONLY_WHILE_OPEN },
  { file: CONN, mutator: 'ConditionalExpression', replacement: 'true', near: "if (this.options.onDiagnostic) this.diagnose({ kind: 'invalid-message'", why: 'without a hook diagnose() delivers nothing, so building the excerpt first changes nothing (the value is decoded JSON, by the Transport contract, so JSON.stringify cannot throw): the test only saves work.' },
  { file: CONN, mutator: 'ConditionalExpression', replacement: 'false', near: "if (this.currentState !== 'open') return;", prev: 'private respond(response: JsonRpcResponse): void {', why: 'transmit() throws a ClosedError itself on a connection that is not open, before sending anything, and respond() swallows it: nothing is sent either way.' },
  { file: CONN, mutator: 'ConditionalExpression', replacement: 'false', code: "this.currentState !== 'closing'", near: "if (this.currentState !== 'closing') this.currentState = 'closed';", why: 'a second ending() finds the state the first one set, closing or closed: closing is skipped either way, and setting closed to closed changes nothing.' },
  { file: CONN, mutator: 'CallExpression', replacement: ';', near: 'this.serverRequests.clear();', why: 'every controller in the map was aborted just above and each is deleted when its handler settles; a later lookup (a late cancellation) aborts an aborted controller: nothing changes, not even what is kept alive.' },
  { file: CONN, mutator: 'ConditionalExpression', replacement: 'true', near: 'if (this.envelope || hooked || options.meta) params = withMeta(params, this.envelope, hooked, options.meta);', why: 'withMeta() with no entries returns params itself: the test only saves a call.' },
);
