// Unit tests for header resolution (T4): what is refused at load, and which values count as secrets.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../errors.js';
import { resolveHeaders } from './http-headers.js';

test('a header value with CR, LF or NUL is a ConfigError naming the header, never the value', () => {
  // RFC 9110 §5.5: field values never contain CR, LF or NUL; fetch would reject NUL only at send time, as a transport error.
  for (const bad of ['a\rb', 'a\nb', 'a\0b', '\0']) {
    assert.throws(
      () => resolveHeaders('srv', { headers: { 'X-Value': `secret-${bad}` } }),
      (e: unknown) => e instanceof ConfigError && e.message.includes('X-Value') && !e.message.includes('secret-'),
      JSON.stringify(bad),
    );
  }
});

test('an auth value is a secret whatever the header is called; a plain static header is not', () => {
  const { headers, secrets } = resolveHeaders('srv', { auth: { type: 'header', headerName: 'X-Plain', value: 'v4lue-1' }, headers: { 'X-Feature': 'beta' } });
  assert.deepEqual(headers, { 'x-feature': 'beta', 'x-plain': 'v4lue-1' });
  assert.ok(secrets.includes('v4lue-1'));
  assert.ok(!secrets.includes('beta'));
});
