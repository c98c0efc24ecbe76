// PKCE (RFC 7636) with S256 only, and the authorization request's `state`:
// both from Node's CSPRNG, both single-use. The verifier and state are
// secrets until the exchange is done: the caller registers them for
// scrubbing, and nothing here logs them.

import { nodeCrypto } from '../util/node-builtins.js';

export interface Pkce {
  /** 43 characters of base64url: 256 bits (RFC 7636 §4.1 allows 43–128). */
  verifier: string;
  /** BASE64URL(SHA256(verifier)). */
  challenge: string;
  method: 'S256';
}

export function createPkce(): Pkce {
  const verifier = nodeCrypto().randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier), method: 'S256' };
}

export function s256(verifier: string): string {
  return nodeCrypto().createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** A 128-bit state value (the floor), base64url. */
export function createState(): string {
  return nodeCrypto().randomBytes(16).toString('base64url');
}

/** Compares a returned state with the one sent, in constant time; a missing or differently sized one is false. */
export function stateMatches(sent: string, returned: string | null | undefined): boolean {
  if (typeof returned !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(returned);
  return a.length === b.length && nodeCrypto().timingSafeEqual(a, b);
}
