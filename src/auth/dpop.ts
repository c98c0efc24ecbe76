// DPoP, RFC 9449 (#19, SPEC A1): a key pair that binds the access token to
// this process, and a proof JWT for each request signed with it. The key is
// made here (P-256, ES256), lives in a KeyObject for the provider's life and
// is never exported, stored or logged: only its public JWK (in each proof's
// header) and its thumbprint (to tell whether stored tokens were bound to
// it) leave this module. Nonces (§8, §9) are remembered per origin, the
// authorization server's and the resource server's apart.

import type { KeyObject } from 'node:crypto';
import { nodeCrypto } from '../util/node-builtins.js';
import { jwkThumbprint, newJti, publicJwk, signJwt } from './jwt.js';

export class DpopKey {
  readonly #privateKey: KeyObject;
  readonly #jwk: Record<string, string>;
  /** RFC 7638 thumbprint of the public key: what a bound token's cnf.jkt holds. */
  readonly thumbprint: string;
  readonly #nonces = new Map<string, string>();

  constructor() {
    const { privateKey } = nodeCrypto().generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#privateKey = privateKey;
    this.#jwk = publicJwk(privateKey);
    this.thumbprint = jwkThumbprint(this.#jwk);
  }

  /**
   * The proof for one request: typ dpop+jwt, the public JWK, a fresh jti, htm,
   * htu without query or fragment (§4.2), iat, and ath (the access token's
   * SHA-256) when a token is presented, nonce when the origin gave one.
   */
  proof(method: string, url: string | URL, accessToken?: string): string {
    const target = new URL(url);
    const htu = `${target.origin}${target.pathname}`;
    const nonce = this.#nonces.get(target.origin);
    const payload: Record<string, unknown> = { jti: newJti(), htm: method.toUpperCase(), htu, iat: Math.floor(Date.now() / 1000) };
    if (accessToken !== undefined) payload.ath = nodeCrypto().createHash('sha256').update(accessToken, 'ascii').digest('base64url');
    if (nonce !== undefined) payload.nonce = nonce;
    return signJwt(this.#privateKey, 'ES256', { typ: 'dpop+jwt', jwk: this.#jwk }, payload);
  }

  /**
   * Remembers the nonce `origin` sent (a DPoP-Nonce header). True when it is
   * new, so that a request refused for want of it is worth sending again; a
   * server that refuses the nonce it just gave is not asked again.
   */
  setNonce(origin: string, nonce: string | null | undefined): boolean {
    // RFC 9449 §8.1: nonce = 1*NQCHAR; anything else (or a header of megabytes) is not echoed back.
    if (!nonce || nonce.length > 512 || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(nonce)) return false;
    const before = this.#nonces.get(origin);
    this.#nonces.set(origin, nonce);
    return before !== nonce;
  }

  nonceFor(origin: string): string | undefined {
    return this.#nonces.get(origin);
  }

  /** Never the key: a DPoP key in a log or a JSON dump would defeat the binding. */
  toJSON(): Record<string, string> {
    return { thumbprint: this.thumbprint };
  }
}
