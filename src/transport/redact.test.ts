import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cutTail, redact } from './redact.js';

const SECRET = 'sk-canary-0123456789abcdef';

test('redact: the secret is removed raw, base64 (padded or not, url-safe), hex (either case), URL-encoded and JSON-escaped', () => {
  const forms = [SECRET, Buffer.from(SECRET).toString('base64'), Buffer.from(SECRET).toString('base64url'), Buffer.from(SECRET).toString('hex'), Buffer.from(SECRET).toString('hex').toUpperCase()];
  for (const form of forms) assert.equal(redact(`a ${form} b`, [SECRET]), 'a [redacted] b', form);
  assert.equal(redact('x a"b\\c y', ['a"b\\c']), 'x a"b\\c y'.replace('a"b\\c', '[redacted]'));
  assert.equal(redact(JSON.stringify({ v: 'a"b\\c' }), ['a"b\\c']), '{"v":"[redacted]"}');
  assert.equal(redact('pq%20rs', ['pq rs']), '[redacted]');
  assert.equal(redact('abc abc', ['abc']), 'abc abc', 'values under 4 characters are left alone');
});

test('cutTail: a text cut inside a secret (any form) loses the part of it that is left', () => {
  for (let k = 1; k < SECRET.length; k++) assert.equal(cutTail(`denied: ${SECRET.slice(0, k)}`, [SECRET]), 'denied: ', `k=${k}`);
  const hex = Buffer.from(SECRET).toString('hex');
  assert.equal(cutTail(`dump ${hex.slice(0, 9)}`, [SECRET]), 'dump ');
  assert.equal(cutTail('nothing to see', [SECRET]), 'nothing to see');
  assert.equal(cutTail(`whole ${SECRET}`, [SECRET]), `whole ${SECRET}`, 'a whole secret is for redact()');
});
