import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLineCopy } from './line-copy.js';

test('lines split across chunks (inside a multi-byte character too) come out whole; non-JSON lines keep their exact bytes and break', () => {
  const seen: unknown[] = [];
  const copy = createLineCopy({ onMessage: (value) => seen.push(value), onBytes: (bytes) => seen.push(bytes.toString('utf8')) });
  const input = Buffer.from('banner ✓\r\n{"a":"é😀"}\r\n\n{"b":1}');
  const cut = input.indexOf(Buffer.from('😀')) + 1;
  copy.push(input.subarray(0, 3));
  copy.push(input.subarray(3, cut));
  copy.push(input.subarray(cut));
  assert.deepEqual(seen, ['banner ✓\r\n', { a: 'é😀' }, '\n']);
  copy.end();
  assert.deepEqual(seen.at(-1), { b: 1 }, 'a last line without a break counts at the end');
});
