// Signed JWTs with Node's own crypto (#19, SPEC A1): what the machine grants
// and DPoP need, and no more: a compact JWS (RFC 7515) signed with ES256/384/
// 512, RS256/384/512, PS256 or EdDSA, the public JWK of a key (RFC 7517), and
// its SHA-256 thumbprint (RFC 7638). No verification: mcpwire only signs.
// Keys are KeyObjects; a private key is never exported from here, only used.

import type { KeyObject } from 'node:crypto';
import { nodeCrypto } from '../util/node-builtins.js';

export type SigningAlgorithm = 'ES256' | 'ES384' | 'ES512' | 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'EdDSA';
export const SIGNING_ALGORITHMS: readonly SigningAlgorithm[] = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'EdDSA'];

export function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString('base64url');
}

/** A private key from PEM (PKCS#8, SEC1 or PKCS#1); throws a TypeError that never quotes the key. */
export function privateKeyFrom(pem: string | KeyObject): KeyObject {
  if (typeof pem !== 'string') {
    if (pem.type !== 'private') throw new TypeError('the signing key is not a private key');
    return pem;
  }
  try {
    return nodeCrypto().createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    // Node's message may hold the key's first bytes: not passed on.
    throw new TypeError('the private key is not a PEM private key (PKCS#8 "BEGIN PRIVATE KEY", or "BEGIN EC/RSA PRIVATE KEY")');
  }
}

/** The algorithm a key signs with when none is configured: ES256 for P-256, RS256 for RSA, EdDSA for Ed25519. */
export function defaultAlgorithm(key: KeyObject): SigningAlgorithm {
  const type = key.asymmetricKeyType;
  if (type === 'rsa' || type === 'rsa-pss') return type === 'rsa' ? 'RS256' : 'PS256';
  if (type === 'ed25519') return 'EdDSA';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  return curve === 'secp384r1' ? 'ES384' : curve === 'secp521r1' ? 'ES512' : 'ES256';
}

/** Whether `alg` can be made with `key` (an EC key of the right curve, an RSA key, an Ed25519 key). */
export function algorithmFits(key: KeyObject, alg: SigningAlgorithm): boolean {
  const type = key.asymmetricKeyType;
  if (alg === 'EdDSA') return type === 'ed25519';
  if (alg.startsWith('RS')) return type === 'rsa';
  if (alg === 'PS256') return type === 'rsa' || type === 'rsa-pss';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  return type === 'ec' && curve === { ES256: 'prime256v1', ES384: 'secp384r1', ES512: 'secp521r1' }[alg as 'ES256'];
}

/** The public half as a JWK: never a private member. */
export function publicJwk(key: KeyObject): Record<string, string> {
  const pub = key.type === 'private' ? nodeCrypto().createPublicKey(key) : key;
  const jwk = pub.export({ format: 'jwk' }) as Record<string, string>;
  // Only the members RFC 7638 names for each key type (export gives no private ones for a public key, but be exact).
  if (jwk.kty === 'EC') return { kty: 'EC', crv: jwk.crv!, x: jwk.x!, y: jwk.y! };
  if (jwk.kty === 'RSA') return { kty: 'RSA', n: jwk.n!, e: jwk.e! };
  return { kty: jwk.kty!, crv: jwk.crv!, x: jwk.x! };
}

/** RFC 7638: SHA-256 over the required members in lexicographic order, base64url. */
export function jwkThumbprint(jwk: Record<string, string>): string {
  const members = jwk.kty === 'EC' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y } : jwk.kty === 'RSA' ? { e: jwk.e, kty: jwk.kty, n: jwk.n } : { crv: jwk.crv, kty: jwk.kty, x: jwk.x };
  return nodeCrypto().createHash('sha256').update(JSON.stringify(members)).digest('base64url');
}

const HASH: Record<SigningAlgorithm, string | null> = { ES256: 'sha256', ES384: 'sha384', ES512: 'sha512', RS256: 'sha256', RS384: 'sha384', RS512: 'sha512', PS256: 'sha256', EdDSA: null };

/** A compact JWS over `payload` with header {alg, ...header}. ECDSA signatures in JOSE's r||s form (RFC 7518 §3.4). */
export function signJwt(key: KeyObject, alg: SigningAlgorithm, header: Record<string, unknown>, payload: Record<string, unknown>): string {
  if (!algorithmFits(key, alg)) throw new TypeError(`the key cannot sign ${alg} (it is a ${key.asymmetricKeyType} key)`);
  const input = `${base64url(JSON.stringify({ alg, ...header }))}.${base64url(JSON.stringify(payload))}`;
  const options = alg.startsWith('ES') ? { key, dsaEncoding: 'ieee-p1363' as const } : alg === 'PS256' ? { key, padding: 6 /* RSA_PKCS1_PSS_PADDING */, saltLength: 32 } : { key };
  const signature = nodeCrypto().sign(HASH[alg], Buffer.from(input), options);
  return `${input}.${signature.toString('base64url')}`;
}

/** A fresh JWT id: a random UUID (122 random bits), never reused. */
export function newJti(): string {
  return nodeCrypto().randomUUID();
}
