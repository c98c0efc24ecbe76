// Audit tests for header resolution (T4; issue #20 item 3): each pins a
// decision of resolveHeaders()/checkHeader() that the mutation audit found
// no test for: which names are refused (the whole name, not a part of it),
// which values are recorded as secrets (exactly, in order), and where a
// ConfigError points. Pure functions: the values in, the headers and the
// secrets out.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../errors.js';
import { checkHeader, resolveHeaders } from './http-headers.js';

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a ConfigError, nothing was thrown');
}

test('T4 audit: a header name is refused unless every character of it is an RFC 9110 token character', () => {
  for (const bad of ['Bad Name', ' X-Lead', 'X-Trail ', 'X:Colon', '', 'Ünï']) {
    const e = configError(() => checkHeader('srv', bad, 'v', ['headers', bad]));
    assert.equal(e.server, 'srv');
    assert.deepEqual(e.path, ['headers', bad]);
    assert.ok(e.message.includes(`"${bad}" is not a valid HTTP header name`), e.message);
  }
  for (const good of ["X-Ok_1.2~!#$%&'*+^`|", 'a']) assert.doesNotThrow(() => checkHeader('srv', good, 'v', []));
});

test('T4 audit: a ConfigError from a static header points at headers.<name>, one from auth at auth', () => {
  const fromHeaders = configError(() => resolveHeaders('srv', { headers: { 'Bad Name': 'v' } }));
  assert.deepEqual(fromHeaders.path, ['headers', 'Bad Name']);
  assert.equal(fromHeaders.server, 'srv');
  const fromAuth = configError(() => resolveHeaders('srv', { auth: { type: 'header', headerName: 'Bad Name', value: 'v4lue' } }));
  assert.deepEqual(fromAuth.path, ['auth']);
});

test('T4 audit: no secret-named header and no auth: no secrets at all', () => {
  assert.deepEqual(resolveHeaders('srv', { headers: { 'X-Feature': 'beta' } }), { headers: { 'x-feature': 'beta' }, secrets: [] });
  assert.deepEqual(resolveHeaders('srv', {}), { headers: {}, secrets: [] });
});

test('T4 audit: a secret-named static header records its value; an Authorization one its credential as well', () => {
  assert.deepEqual(resolveHeaders('srv', { headers: { 'X-API-Key': 'k3y-value' } }).secrets, ['k3y-value']);
  // RFC 9110 §11.4 credentials: scheme, one or more spaces, the token; the token alone is a secret too.
  assert.deepEqual(resolveHeaders('srv', { headers: { Authorization: 'Bearer tok-123' } }).secrets, ['Bearer tok-123', 'tok-123']);
  assert.deepEqual(resolveHeaders('srv', { headers: { Authorization: 'Bearer   tok-123 x' } }).secrets, ['Bearer   tok-123 x', 'tok-123 x']);
  assert.deepEqual(resolveHeaders('srv', { headers: { 'Proxy-Authorization': 'Basic dXNlcjpwdw==' } }).secrets, ['Basic dXNlcjpwdw==', 'dXNlcjpwdw==']);
  // Only the whole name Authorization / Proxy-Authorization: other secret-named headers keep their value whole.
  assert.deepEqual(resolveHeaders('srv', { headers: { 'X-Authorization': 'Bearer tok-123' } }).secrets, ['Bearer tok-123']);
  assert.deepEqual(resolveHeaders('srv', { headers: { 'Authorization-Extra': 'Bearer tok-123' } }).secrets, ['Bearer tok-123']);
  // Not an auth-scheme followed by a token: the value is the only secret.
  assert.deepEqual(resolveHeaders('srv', { headers: { Authorization: '(Bearer tok-123' } }).secrets, ['(Bearer tok-123']);
  assert.deepEqual(resolveHeaders('srv', { headers: { Authorization: 'tok-123' } }).secrets, ['tok-123']);
  // A line separator is no line break to HTTP (checkHeader lets it through), but the credential must run to the end of the value.
  assert.deepEqual(resolveHeaders('srv', { headers: { Authorization: 'Bearer tok\u2028more' } }).secrets, ['Bearer tok\u2028more']);
});

test('T4 audit: auth values are secrets: the credential on its own, then the header value as sent', () => {
  assert.deepEqual(resolveHeaders('srv', { auth: { type: 'bearer', value: 'tok-123' } }), {
    headers: { authorization: 'Bearer tok-123' },
    secrets: ['tok-123', 'Bearer tok-123', 'tok-123'],
  });
  // A header auth under a name that is not secret-named: still a secret, because it is the auth.
  assert.deepEqual(resolveHeaders('srv', { auth: { type: 'header', headerName: 'X-Plain', value: 'v4lue-1' } }), {
    headers: { 'x-plain': 'v4lue-1' },
    secrets: ['v4lue-1', 'v4lue-1'],
  });
  assert.deepEqual(resolveHeaders('srv', { auth: { type: 'header', value: 'Token abc-1' } }).headers, { authorization: 'Token abc-1' });
  assert.deepEqual(resolveHeaders('srv', { auth: { type: 'none' } }), { headers: {}, secrets: [] });
});

test('T4 audit: a blank auth value sends no header and records no secret (bearer and header alike)', () => {
  for (const value of ['', '   ', '\t']) {
    assert.deepEqual(resolveHeaders('srv', { auth: { type: 'bearer', value } }), { headers: {}, secrets: [] }, JSON.stringify(value));
    assert.deepEqual(resolveHeaders('srv', { auth: { type: 'header', headerName: 'X-Key', value } }), { headers: {}, secrets: [] }, JSON.stringify(value));
  }
});
