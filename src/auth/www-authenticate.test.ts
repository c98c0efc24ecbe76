// The WWW-Authenticate parser against the shapes servers send (RFC 9110
// §11.6.1, RFC 6750 §3, RFC 9728 §5.1) and the ones a comma split gets wrong.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bearerChallenge, parseWwwAuthenticate } from './www-authenticate.js';

test('a Bearer challenge with resource_metadata, error and a scope list', () => {
  assert.deepEqual(parseWwwAuthenticate('Bearer realm="mcp", error="invalid_token", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read files:write"'), [
    {
      scheme: 'Bearer',
      params: { realm: 'mcp', error: 'invalid_token', resource_metadata: 'https://mcp.example.com/.well-known/oauth-protected-resource', scope: 'files:read files:write' },
    },
  ]);
});

test('quoted strings may hold commas, equals signs and escaped quotes', () => {
  const [c] = parseWwwAuthenticate('Bearer error_description="a, b = \\"c\\"", scope="x,y"');
  assert.deepEqual(c!.params, { error_description: 'a, b = "c"', scope: 'x,y' });
});

test('several challenges in one header, params kept apart; names are case-insensitive, schemes kept as sent', () => {
  const challenges = parseWwwAuthenticate('Basic realm="simple", Newauth realm="apps", type=1, title="Login to \\"apps\\"", BEARER Resource_Metadata="https://a/prm"');
  assert.deepEqual(
    challenges.map((c) => [c.scheme, c.params]),
    [
      ['Basic', { realm: 'simple' }],
      ['Newauth', { realm: 'apps', type: '1', title: 'Login to "apps"' }],
      ['BEARER', { resource_metadata: 'https://a/prm' }],
    ],
  );
  assert.deepEqual(bearerChallenge('Basic realm="x", Bearer scope="a"'), { scope: 'a' });
});

test('token68 challenges, a bare scheme, spaces around "=", and the first of duplicate params', () => {
  assert.deepEqual(parseWwwAuthenticate('Basic dXNlcjpwYXNz==, Bearer'), [
    { scheme: 'Basic', params: {}, token68: 'dXNlcjpwYXNz==' },
    { scheme: 'Bearer', params: {} },
  ]);
  assert.deepEqual(parseWwwAuthenticate('Bearer scope = "a" , scope="b"')[0]!.params, { scope: 'a' });
});

test('malformed headers give what could be read, never throw, and stay bounded', () => {
  assert.deepEqual(parseWwwAuthenticate(''), []);
  assert.deepEqual(parseWwwAuthenticate('Bearer scope="unterminated')[0]!.params, { scope: 'unterminated' });
  assert.deepEqual(parseWwwAuthenticate('"junk" Bearer realm=x').map((c) => c.scheme), ['junk', 'Bearer']);
  assert.equal(bearerChallenge(undefined), undefined);
  assert.equal(bearerChallenge('Basic realm="x"'), undefined);
  const huge = `Bearer scope="${'a'.repeat(1_000_000)}"`;
  assert.ok(parseWwwAuthenticate(huge)[0]!.params.scope!.length < 20_000);
});
