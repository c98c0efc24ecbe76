// Machine clients (#19, SPEC A1): grants with no user and no browser, chosen
// by configuration, never by what a server offers. `client_credentials`
// (OAuth 2.1 §4.2, SEP-1046) authenticates with a client secret or a signed
// private_key_jwt assertion (RFC 7523 §2.2); `jwt_bearer` (RFC 7523 §2.1)
// presents a JWT the host has: a workload identity token (SEP-1933), or an
// ID-JAG obtained from the enterprise IdP by token exchange (SEP-990). A
// refused grant is reported as it is, never retried with another grant.

import { readFile } from 'node:fs/promises';
import type { KeyObject } from 'node:crypto';
import { OAuthError, type ErrorSite } from '../errors.js';
import type { AuthorizationServerMetadata } from './discovery.js';
import { defaultAlgorithm, newJti, privateKeyFrom, signJwt, type SigningAlgorithm } from './jwt.js';
import { requestIdJag } from './token-exchange.js';
import { chooseAuthMethod, clientCredentialsGrant, jwtBearerGrant, type OAuthClientCredentials, type TokenRequestOptions, type TokenSet } from './tokens.js';

export type OAuthGrant = 'authorization_code' | 'client_credentials' | 'jwt_bearer';

/** Where a JWT comes from: the value itself, a file read afresh for each grant (a rotated workload token), or a function. */
export type TokenSource = string | { file: string } | (() => string | Promise<string>);

export interface MachineGrant {
  grant: 'client_credentials' | 'jwt_bearer';
  clientId?: string;
  clientSecret?: string;
  /** For private_key_jwt client authentication: a PEM private key or a KeyObject. */
  privateKey?: string | KeyObject;
  /** Default: the key's own (ES256 for P-256, RS256 for RSA, EdDSA for Ed25519). */
  signingAlgorithm?: SigningAlgorithm;
  /** jwt_bearer: the assertion (a workload identity JWT). */
  assertion?: TokenSource;
  /** jwt_bearer through the enterprise IdP (SEP-990): the ID token is exchanged there for an ID-JAG, which is the assertion. */
  idp?: { tokenEndpoint: string; clientId: string; clientSecret?: string; idToken: TokenSource };
}

/** Reads a source's current value; a file's contents are trimmed (a token file ends with a newline). Errors never quote the value. */
export async function readSource(source: TokenSource, what: string, site: ErrorSite): Promise<string> {
  let value: string;
  try {
    value = typeof source === 'string' ? source : typeof source === 'function' ? await source() : (await readFile(source.file, 'utf8')).trim();
  } catch (error) {
    const where = typeof source === 'object' ? ` from ${source.file}` : '';
    throw new OAuthError(site, 'token', `the ${what} could not be read${where}: ${error instanceof Error && 'code' in error ? String((error as NodeJS.ErrnoException).code) : 'the source failed'}`);
  }
  if (typeof value !== 'string' || value.trim() === '') throw new OAuthError(site, 'token', `the ${what} is empty; give it in the config (a \${VAR}, or a file)`);
  return value.trim();
}

/** The client as the AS knows it, and how it authenticates: private_key_jwt with a key, else basic/post with a secret, else its id alone. */
export function machineClient(m: MachineGrant, meta: AuthorizationServerMetadata): OAuthClientCredentials {
  const client_id = m.clientId ?? '';
  if (m.privateKey !== undefined) return { client_id, token_endpoint_auth_method: 'private_key_jwt' };
  return { client_id, ...(m.clientSecret ? { client_secret: m.clientSecret } : {}), token_endpoint_auth_method: chooseAuthMethod(m.clientSecret !== undefined, meta.token_endpoint_auth_methods_supported) };
}

/**
 * RFC 7523 §2.2 / §3: a client assertion for private_key_jwt: iss and sub the
 * client_id, aud the authorization server's issuer, a short exp, a fresh jti.
 */
export function clientAssertionSigner(m: MachineGrant, issuer: string): ((tokenEndpoint: string) => string) | undefined {
  if (m.privateKey === undefined) return undefined;
  const key = privateKeyFrom(m.privateKey);
  const alg = m.signingAlgorithm ?? defaultAlgorithm(key);
  return () => {
    const now = Math.floor(Date.now() / 1000);
    return signJwt(key, alg, { typ: 'JWT' }, { iss: m.clientId, sub: m.clientId, aud: issuer, iat: now, exp: now + 300, jti: newJti() });
  };
}

/** Runs the configured grant at the AS's token endpoint. Throws OAuthError (step token) with the AS's error code. */
export async function machineTokens(
  m: MachineGrant,
  meta: AuthorizationServerMetadata,
  request: { resource: string; scope?: string },
  options: TokenRequestOptions & { site: ErrorSite },
): Promise<TokenSet> {
  if (!meta.token_endpoint) throw new OAuthError(options.site, 'authorization-server', `the authorization server ${meta.issuer} lists no token_endpoint`);
  const client = machineClient(m, meta);
  if (client.client_secret) options.onSecret?.(client.client_secret);
  const signer = clientAssertionSigner(m, meta.issuer);
  const tokenOptions: TokenRequestOptions = { ...options, ...(signer ? { clientAssertion: signer } : {}) };
  const scope = request.scope ? { scope: request.scope } : {};
  if (m.grant === 'client_credentials') return clientCredentialsGrant(meta.token_endpoint, client, { resource: request.resource, ...scope }, tokenOptions);
  let assertion: string;
  if (m.idp) {
    const idToken = await readSource(m.idp.idToken, 'identity provider ID token (oauth.idp.idToken)', options.site);
    const idpClient: OAuthClientCredentials = { client_id: m.idp.clientId, ...(m.idp.clientSecret ? { client_secret: m.idp.clientSecret } : {}), token_endpoint_auth_method: m.idp.clientSecret ? 'client_secret_basic' : 'none' };
    if (m.idp.clientSecret) options.onSecret?.(m.idp.clientSecret);
    assertion = await requestIdJag({ tokenEndpoint: m.idp.tokenEndpoint, client: idpClient, subjectToken: idToken, audience: meta.issuer, resource: request.resource, ...scope }, options);
  } else {
    assertion = await readSource(m.assertion!, 'JWT-bearer assertion (oauth.assertion)', options.site);
  }
  options.onSecret?.(assertion);
  return jwtBearerGrant(meta.token_endpoint, client, { assertion, resource: request.resource, ...scope }, tokenOptions);
}
