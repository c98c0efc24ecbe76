// PKCE S256 against RFC 7636 Appendix B's worked example, and the state check.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPkce, createState, s256, stateMatches } from './pkce.js';

test('S256 of the RFC 7636 Appendix B verifier is its published challenge', () => {
  assert.equal(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
});

test('a fresh verifier is 43 base64url characters, its challenge matches, and two are never equal', () => {
  const a = createPkce();
  const b = createPkce();
  assert.match(a.verifier, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(a.challenge, s256(a.verifier));
  assert.equal(a.method, 'S256');
  assert.notEqual(a.verifier, b.verifier);
});

test('state: 128 bits, and only the very value sent matches (missing, altered, replayed from another flow: no)', () => {
  const state = createState();
  assert.match(state, /^[A-Za-z0-9_-]{22}$/);
  assert.ok(stateMatches(state, state));
  assert.ok(!stateMatches(state, undefined));
  assert.ok(!stateMatches(state, null));
  assert.ok(!stateMatches(state, `${state}x`));
  assert.ok(!stateMatches(state, createState()));
});
