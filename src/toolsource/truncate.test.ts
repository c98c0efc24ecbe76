// R5 (ADR-0043 §6): what the size of a result is, and how it is cut.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CallToolResult } from '../client/results.js';
import { capResult, cutUtf8, resultBytes } from './truncate.js';

test('R5: size counts UTF-8 text, base64 data and blobs, resource link URIs and structuredContent JSON', () => {
  const result: CallToolResult = {
    content: [
      { type: 'text', text: 'é' }, // 2
      { type: 'image', data: 'AAAA', mimeType: 'image/png' }, // 4
      { type: 'resource', resource: { uri: 'x', blob: 'BBBBBB' } }, // 6
      { type: 'resource', resource: { uri: 'y', text: 'abc' } }, // 3
      { type: 'resource_link', uri: 'file:///a', name: 'a' }, // 9
    ],
    structuredContent: { a: 1 }, // 7
  };
  assert.equal(resultBytes(result), 2 + 4 + 6 + 3 + 9 + 7);
});

test('R5: a result within the cap is returned as it came', () => {
  const result: CallToolResult = { content: [{ type: 'text', text: 'abc' }], structuredContent: { ok: true } };
  const capped = capResult(result, 100);
  assert.equal(capped.truncated, false);
  assert.equal(capped.result, result);
});

test('R5: the text that crosses the cap is cut on a character boundary; later blocks and structuredContent go; the marker ends the text', () => {
  const result: CallToolResult = {
    content: [{ type: 'text', text: 'ab' }, { type: 'text', text: '€€€' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }],
    structuredContent: { big: true },
  };
  const capped = capResult(result, 6); // 2 + 4 of the 9 bytes of '€€€': one whole '€' (3), not half of the next
  assert.equal(capped.truncated, true);
  assert.deepEqual(capped.result.content, [
    { type: 'text', text: 'ab' },
    { type: 'text', text: '€\n[... truncated at 6 bytes]' },
  ]);
  assert.equal(capped.result.structuredContent, undefined);
});

test('R5: a binary part that does not fit is dropped whole, and the marker stands as its own text block', () => {
  const result: CallToolResult = { content: [{ type: 'image', data: 'A'.repeat(100), mimeType: 'image/png' }] };
  const capped = capResult(result, 50);
  assert.deepEqual(capped.result.content, [{ type: 'text', text: '[... truncated at 50 bytes]' }]);
  assert.equal(capped.sizeBytes, 100);
});

test('R5: structuredContent is kept when the content was not cut and it fits what is left', () => {
  const result: CallToolResult = { content: [{ type: 'text', text: 'a'.repeat(10) }, { type: 'image', data: 'A'.repeat(100), mimeType: 'image/png' }], structuredContent: { k: 1 } };
  const capped = capResult(result, 50);
  assert.equal(capped.result.structuredContent, undefined, 'the image was cut, so what follows goes');
  const fits = capResult({ content: [{ type: 'text', text: 'a'.repeat(10) }], structuredContent: { k: 'x'.repeat(100) } }, 50);
  assert.equal(fits.truncated, true);
  assert.equal(fits.result.structuredContent, undefined);
  assert.deepEqual(fits.result.content, [{ type: 'text', text: `${'a'.repeat(10)}\n[... truncated at 50 bytes]` }]);
});

test('R5: unknown keys of the result survive the cut (isError, _meta)', () => {
  const capped = capResult({ content: [{ type: 'text', text: 'abcdef' }], isError: true, _meta: { t: 1 } }, 3);
  assert.equal(capped.result.isError, true);
  assert.deepEqual(capped.result._meta, { t: 1 });
});

test('cutUtf8 never splits a character, whatever the byte budget', () => {
  const text = 'aé€😀b';
  for (let bytes = 0; bytes <= Buffer.byteLength(text); bytes++) {
    const cut = cutUtf8(text, bytes);
    assert.ok(Buffer.byteLength(cut) <= bytes);
    assert.ok(text.startsWith(cut));
    assert.ok(!cut.includes('\uFFFD'));
  }
});
