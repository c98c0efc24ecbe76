// C5: the JSON-with-comments dialect of VS Code and Cursor configs. Each
// test names the case it pins; positions are checked against the original
// text, comments included.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { JsoncSyntaxError, MAX_JSONC_DEPTH, parseJsonc } from './jsonc.js';

function syntaxError(text: string): JsoncSyntaxError {
  try {
    parseJsonc(text);
  } catch (error) {
    assert.ok(error instanceof JsoncSyntaxError, String(error));
    return error;
  }
  assert.fail(`parsed: ${text}`);
}

test('plain JSON parses as JSON.parse does', () => {
  const text = '{"a": [1, -2.5e3, true, false, null], "b": {"c": "d\\n\\u00e9"}, "": 0}';
  assert.deepEqual(parseJsonc(text).value, JSON.parse(text));
});

test('line and block comments are skipped, before, between and after values', () => {
  const text = '// head\n{ /* a */ "a" /* b */ : /* c */ 1 // d\n, "b": 2 /* multi\nline */ }\n// tail';
  assert.deepEqual(parseJsonc(text).value, { a: 1, b: 2 });
});

test('trailing commas in objects and arrays are accepted, also before a comment', () => {
  assert.deepEqual(parseJsonc('{"a": [1, 2, ], "b": {"c": 1,}, // x\n}').value, { a: [1, 2], b: { c: 1 } });
});

test('// and /* inside strings are text, not comments', () => {
  const text = '{"url": "https://example.test/mcp", "glob": "src/**/*.ts", "note": "a /* b */ c // d", "q": "\\"//"}';
  assert.deepEqual(parseJsonc(text).value, { url: 'https://example.test/mcp', glob: 'src/**/*.ts', note: 'a /* b */ c // d', q: '"//' });
});

test('a byte order mark is skipped', () => {
  assert.deepEqual(parseJsonc('\ufeff{"a": 1}').value, { a: 1 });
});

test('"__proto__" is an ordinary key, as with JSON.parse', () => {
  const value = parseJsonc('{"__proto__": {"polluted": true}}').value as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.deepEqual(Object.keys(value), ['__proto__']);
});

test('a syntax error points at the line and column of the original text, comments counted', () => {
  const error = syntaxError('{\n  // a comment, "with": "quotes"\n  "a": 1\n  "b": 2\n}');
  assert.equal(error.reason, 'expected , or } after the value');
  assert.deepEqual([error.line, error.column], [4, 3]);
  const missing = syntaxError('{\n  /* x */ "a": ,\n}');
  assert.deepEqual([missing.line, missing.column], [2, 16]);
});

test('errors: unterminated string and comment, raw line break in a string, bad escape, text after the end, empty input', () => {
  assert.equal(syntaxError('{"a": "sk-canary-0123').reason, 'unterminated string');
  assert.equal(syntaxError('{"a": 1 /* never closed').reason, 'unterminated /* comment');
  assert.match(syntaxError('{"a": "x\ny"}').reason, /line break/);
  assert.equal(syntaxError('{"a": "\\x"}').reason, 'invalid escape sequence in a string');
  assert.equal(syntaxError('{} {}').reason, 'unexpected text after the end of the document');
  assert.equal(syntaxError('').reason, 'unexpected end of the file; expected a value');
  assert.equal(syntaxError('{a: 1}').reason, 'expected a "quoted" key or }', 'bare keys are JSON5, not JSONC');
});

test('a syntax error never quotes the text (a config line may hold a token)', () => {
  const error = syntaxError('{"token": "sk-canary-5f3a9c" "next": 1}');
  assert.doesNotMatch(error.message, /sk-canary/);
});

test('locate() gives the position of the deepest key present', () => {
  const doc = parseJsonc('{\n  // c\n  "servers": {\n    "a": { "args": ["x", 1] }\n  }\n}');
  assert.deepEqual(doc.locate(['servers', 'a']), { line: 4, column: 5 });
  assert.deepEqual(doc.locate(['servers', 'a', 'args', 1]), { line: 4, column: 26 });
  assert.deepEqual(doc.locate(['servers', 'a', 'missing']), { line: 4, column: 5 });
  assert.equal(doc.locate(['nothing']), undefined);
});

test('any JSON text parses to what JSON.parse gives (numbers, escapes, nesting, "__proto__" as data)', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(0, 2), (value, indent) => {
      const text = JSON.stringify(value, null, indent);
      assert.deepEqual(parseJsonc(text).value, JSON.parse(text));
    }),
    { numRuns: 300 },
  );
  assert.deepEqual(Object.keys(parseJsonc('{"__proto__": {"a": 1}}').value as object), ['__proto__']);
});

test(`nesting deeper than ${MAX_JSONC_DEPTH} levels is a syntax error at the first level too deep, not a RangeError`, () => {
  for (const text of ['['.repeat(5000) + ']'.repeat(5000), '{"a":'.repeat(5000), '['.repeat(200_000)]) {
    assert.throws(
      () => parseJsonc(text),
      (e: unknown) => e instanceof JsoncSyntaxError && e.line === 1 && e.column === MAX_JSONC_DEPTH + 1 + (text[0] === '{' ? MAX_JSONC_DEPTH * 4 : 0) && /nested deeper than 100 levels/.test(e.reason),
    );
  }
  const ok = '['.repeat(MAX_JSONC_DEPTH) + ']'.repeat(MAX_JSONC_DEPTH);
  assert.doesNotThrow(() => parseJsonc(ok));
});

test('locate() finds keys and elements by path after a parse that kept no positions', () => {
  const doc = parseJsonc('{\n  "a": {\n    "b": [1, {"c": 2}]\n  }\n}');
  assert.deepEqual(doc.locate(['a', 'b', 1, 'c']), { line: 3, column: 15 });
  assert.deepEqual(doc.locate(['a', 'b', 1, 'zz']), { line: 3, column: 14 });
  assert.deepEqual(doc.locate(['a']), { line: 2, column: 3 });
  assert.equal(doc.locate(['nope']), undefined);
});
