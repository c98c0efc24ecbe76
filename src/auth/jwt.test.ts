// A1 (#19): the JWS signing the machine grants and DPoP use (jwt.ts), each
// algorithm checked by verifying with Node's crypto as an AS would; the
// JWK and its RFC 7638 thumbprint; keys that do not fit are refused without
// quoting the key.

import assert from 'node:assert/strict';
import { constants, createPublicKey, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { test } from 'node:test';
import { algorithmFits, defaultAlgorithm, jwkThumbprint, privateKeyFrom, publicJwk, signJwt, SIGNING_ALGORITHMS, type SigningAlgorithm } from './jwt.js';

const keys = {
  p256: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
  p384: generateKeyPairSync('ec', { namedCurve: 'P-384' }),
  p521: generateKeyPairSync('ec', { namedCurve: 'P-521' }),
  rsa: generateKeyPairSync('rsa', { modulusLength: 2048 }),
  ed: generateKeyPairSync('ed25519'),
};
const KEY_FOR: Record<SigningAlgorithm, keyof typeof keys> = { ES256: 'p256', ES384: 'p384', ES512: 'p521', RS256: 'rsa', RS384: 'rsa', RS512: 'rsa', PS256: 'rsa', EdDSA: 'ed' };

function verifies(jwt: string, alg: SigningAlgorithm, publicKey: KeyObject): boolean {
  const [h, p, s] = jwt.split('.');
  const data = Buffer.from(`${h}.${p}`);
  const sig = Buffer.from(s!, 'base64url');
  const hash = alg === 'EdDSA' ? null : `sha${alg.slice(2)}`;
  if (alg.startsWith('ES')) return verify(hash, data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, sig);
  if (alg === 'PS256') return verify(hash, data, { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, sig);
  return verify(hash, data, publicKey, sig);
}

for (const alg of SIGNING_ALGORITHMS) {
  test(`A1: ${alg}: the compact JWS verifies with the public key; header alg and claims as given`, () => {
    const { privateKey, publicKey } = keys[KEY_FOR[alg]];
    const jwt = signJwt(privateKey, alg, { typ: 'JWT' }, { iss: 'c', jti: 'j1' });
    assert.ok(verifies(jwt, alg, publicKey), `${alg} signature`);
    const [header, claims] = jwt.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);
    assert.deepEqual(header, { alg, typ: 'JWT' });
    assert.deepEqual(claims, { iss: 'c', jti: 'j1' });
  });
}

test('A1: the default algorithm is the key\'s own; a mismatched one is refused', () => {
  assert.equal(defaultAlgorithm(keys.p256.privateKey), 'ES256');
  assert.equal(defaultAlgorithm(keys.p384.privateKey), 'ES384');
  assert.equal(defaultAlgorithm(keys.rsa.privateKey), 'RS256');
  assert.equal(defaultAlgorithm(keys.ed.privateKey), 'EdDSA');
  assert.equal(algorithmFits(keys.p384.privateKey, 'ES256'), false, 'a P-384 key cannot sign ES256');
  assert.throws(() => signJwt(keys.rsa.privateKey, 'ES256', {}, {}), /cannot sign ES256/);
});

test('A1: the public JWK has no private member; its thumbprint is RFC 7638\'s (the RFC\'s own example)', () => {
  const jwk = publicJwk(keys.p256.privateKey);
  assert.deepEqual(Object.keys(jwk).sort(), ['crv', 'kty', 'x', 'y']);
  assert.equal(createPublicKey({ key: jwk as never, format: 'jwk' }).asymmetricKeyType, 'ec');
  // RFC 7638 §3.1's RSA key and thumbprint.
  const n =
    '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw';
  assert.equal(jwkThumbprint({ kty: 'RSA', n, e: 'AQAB', alg: 'RS256', kid: '2011-04-29' }), 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs');
});

test('A1: a private key that is not PEM is a TypeError that does not quote it', () => {
  const secret = 'MIIE-CANARY-not-a-key-but-secret';
  assert.throws(
    () => privateKeyFrom(`-----BEGIN PRIVATE KEY-----\n${secret}\n-----END PRIVATE KEY-----`),
    (error: Error) => error instanceof TypeError && !error.message.includes(secret) && !(error.stack ?? '').includes(secret),
  );
  assert.throws(() => privateKeyFrom(keys.p256.publicKey), /not a private key/);
});
