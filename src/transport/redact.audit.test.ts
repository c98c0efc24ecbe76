// Audit tests for the secret scrubber (T4: "Secret values never appear in
// any log, error or diagnostic"; issue #20 item 3): each pins a decision of
// redact.ts the mutation audit found no test for: the 4-character floor,
// longest form first, the unpadded base64 form, cutHead() (the mirror of
// cutTail(), for a ring buffer's cut-off start), a cut that uncovers
// another, URL userinfo, and a URL's credentials. Text in, text out.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cutHead, cutTail, redact, redactUrlCredentials, secretForms, urlCredentials } from './redact.js';

const SECRET = 'sk-canary-0123456789abcdef';
// Longer than every form of SECRET (its hex is 52 characters): a cut may never reach past the secret's own length.
const REST = ' and then the rest of the line, which is longer than any form of the secret above';

test('T4 audit: secretForms keeps only forms of 4 characters or more; the floor is inclusive', () => {
  // 'abc': raw and URL forms are 3 characters, the base64 'YWJj' is 4, the hex '616263' 6.
  assert.deepEqual(secretForms('abc').sort(), ['616263', 'YWJj']);
  assert.ok(secretForms('abcd').includes('abcd'));
  assert.deepEqual(secretForms('ab').sort(), ['6162', 'YWI=']);
});

test('T4 audit: redact leaves a secret under 4 characters alone, in every form, and scrubs one of exactly 4', () => {
  assert.equal(redact('YWJj 616263 abc', ['abc']), 'YWJj 616263 abc');
  assert.equal(redact('x abcd y', ['abcd']), 'x [redacted] y');
});

test('T4 audit: redact replaces the longest form first, so a form inside another leaves no piece behind', () => {
  // The URL-encoded form of 'abcd%' is 'abcd%25', which holds the raw form: raw first would leave "25".
  assert.equal(redact('x abcd%25 y', ['abcd%']), 'x [redacted] y');
  // The JSON-escaped form of 'abcd\' is 'abcd\\', which holds the raw one.
  assert.equal(redact('x abcd\\\\ y', ['abcd\\']), 'x [redacted] y');
});

test('T4 audit: the unpadded base64 of a secret is scrubbed even where it differs from base64url (the secret encodes to + or /)', () => {
  // '>>>?x' encodes to 'Pj4+P3g=': padded, with a '+', so its unpadded form 'Pj4+P3g' is neither the padded nor the url-safe form.
  const secret = '>>>?x';
  const base64 = Buffer.from(secret).toString('base64');
  assert.equal(base64, 'Pj4+P3g=');
  assert.notEqual(Buffer.from(secret).toString('base64url'), base64.replace(/=+$/, ''));
  assert.equal(redact('token Pj4+P3gZ', [secret]), 'token [redacted]Z');
  // Two '=' of padding: both go.
  assert.equal(Buffer.from('>>>?').toString('base64'), 'Pj4+Pw==');
  assert.equal(redact('token Pj4+PwZ', ['>>>?']), 'token [redacted]Z');
});

test('T4 audit: cutTail ignores a secret under 4 characters and honours one of exactly 4', () => {
  assert.equal(cutTail('x YW', ['abc']), 'x YW');
  assert.equal(cutTail('x ab', ['abcd']), 'x ');
});

test('T4 audit: cutTail and cutHead go on until no cut uncovers another secret piece', () => {
  // The second secret's piece hides the first's: once it is cut, the first's is at the edge.
  assert.equal(cutTail('x QQQZZZ', ['QQQQQQQQ', 'ZZZZZZZZ']), 'x ');
  assert.equal(cutHead('ZZZQQQ y', ['QQQQQQQQ', 'ZZZZZZZZ']), ' y');
});

test('T4 audit: cutHead drops a head that is the end of a secret (any form), however short, and only that', () => {
  for (let k = 1; k < SECRET.length; k++) assert.equal(cutHead(`${SECRET.slice(-k)}${REST}`, [SECRET]), REST, `k=${k}`);
  const hex = Buffer.from(SECRET).toString('hex');
  assert.equal(cutHead(`${hex.slice(-9)}${REST}`, [SECRET]), REST);
  assert.equal(cutHead(`${hex.toUpperCase().slice(-9)}${REST}`, [SECRET]), REST);
  assert.equal(cutHead(`nothing to see${REST}`, [SECRET]), `nothing to see${REST}`);
  assert.equal(cutHead(`${SECRET}${REST}`, [SECRET]), `${SECRET}${REST}`, 'a whole secret is for redact()');
  assert.equal(cutHead('cdef', [SECRET]), '', 'the whole text can be a piece');
  // 'abc' is under 4 characters: not even its 4-character base64 'YWJj' counts.
  assert.equal(cutHead('Jj rest', ['abc']), 'Jj rest', 'a secret under 4 characters is ignored');
  assert.equal(cutHead('cd rest', ['abcd']), ' rest', 'one of exactly 4 is not');
});

test('T4 audit: cutTail drops a tail however short, and never more than the piece', () => {
  assert.equal(cutTail(`${REST}s`, [SECRET]), REST);
  assert.equal(cutTail('sk-c', [SECRET]), '');
});

test('T4 audit: redactUrlCredentials replaces the userinfo of every URL in text, whatever the scheme', () => {
  assert.equal(redactUrlCredentials('GET https://user:pa55word@host.example/mcp failed'), 'GET https://[redacted]@host.example/mcp failed');
  assert.equal(redactUrlCredentials('a http://u@h/ and wss+x.y-z://longer-user:pw@h/'), 'a http://[redacted]@h/ and wss+x.y-z://[redacted]@h/');
  assert.equal(redactUrlCredentials('HTTPS://USER:PW@HOST/'), 'HTTPS://[redacted]@HOST/', 'the scheme in capitals');
  assert.equal(redactUrlCredentials('s3://key:secret@bucket/'), 's3://[redacted]@bucket/', 'a scheme with a digit');
  // Not userinfo: an @ after the path, a query or a fragment, or after a space.
  for (const text of ['https://host/path@x', 'https://host?q=a@b', 'https://host#a@b', 'https:// user@host', 'mail me@example', 'no at sign here']) {
    assert.equal(redactUrlCredentials(text), text, text);
  }
});

test('T4 audit: urlCredentials: user and password, as written and decoded, none when empty, the raw form when malformed', () => {
  assert.deepEqual(urlCredentials(new URL('https://host/')), []);
  assert.deepEqual(urlCredentials(new URL('https://alice:s3cret@host/')), ['alice', 's3cret']);
  assert.deepEqual(urlCredentials(new URL('https://al%40ce:p%2Fw@host/')), ['al%40ce', 'al@ce', 'p%2Fw', 'p/w']);
  assert.deepEqual(urlCredentials(new URL('https://:only-pw@host/')), ['only-pw']);
  assert.deepEqual(urlCredentials(new URL('https://only-user@host/')), ['only-user']);
  assert.deepEqual(urlCredentials(new URL('https://bad%zzescape@host/')), ['bad%zzescape']);
});
