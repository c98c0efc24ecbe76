// The token endpoint (RFC 6749 §4.1.3, §6; RFC 7636 §4.5; RFC 8707 §2): the
// code exchange and the refresh, with the client authentication the
// registration chose. Requests go to the authorization server only, and never
// carry the MCP server's bearer. Nothing secret (codes, verifiers, tokens,
// client secrets) reaches an error message: the AS's `error` code and
// description are reported, its body otherwise is not.

import type { DpopKey } from './dpop.js';
import { OAuthError, type ErrorSite } from '../errors.js';
import type { FetchLike } from './discovery.js';
import { jsonObjectBody, oauthErrorCode } from './json-body.js';

/** How the client proves itself at the token endpoint (RFC 7591 §2 token_endpoint_auth_method). */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

export interface OAuthClientCredentials {
  client_id: string;
  client_secret?: string;
  /** Chosen at registration, or from the AS's list for a pre-registered client. */
  token_endpoint_auth_method: ClientAuthMethod;
}

/** RFC 6749 §5.1, with the time it was received so expiry can be computed. */
export interface TokenSet {
  access_token: string;
  /** Bearer, or DPoP for a token bound to a DPoP key (RFC 9449 §5): sent as `Authorization: DPoP` with a proof. */
  token_type: string;
  /** For a DPoP-bound token: the thumbprint of the key it is bound to (a token bound to another process's key is of no use). */
  dpop_jkt?: string;
  /** ms since the epoch; undefined when the AS gave no expires_in. */
  expires_at?: number;
  refresh_token?: string;
  scope?: string;
}

export interface TokenRequestOptions {
  fetch?: FetchLike;
  timeoutMs?: number;
  site?: ErrorSite;
  /** Told each new secret value (tokens), so the caller can scrub it from everything it reports. */
  onSecret?: (value: string) => void;
  /** For private_key_jwt (RFC 7523 §2.2): a fresh signed client assertion for each request (the key stays with the caller). */
  clientAssertion?: (tokenEndpoint: string) => string;
  /** Ask for a DPoP-bound token (RFC 9449 §5): a proof with each token request, a nonce the AS asks for honoured once. */
  dpop?: DpopKey;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

/**
 * The method for a pre-registered client: `none` without a secret;
 * otherwise basic unless the AS lists only post (RFC 8414 §2: absent means
 * client_secret_basic).
 */
export function chooseAuthMethod(hasSecret: boolean, supported: readonly string[] | undefined): ClientAuthMethod {
  if (!hasSecret) return 'none';
  if (!supported || supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'client_secret_basic';
}

export function exchangeCode(
  tokenEndpoint: string,
  client: OAuthClientCredentials,
  grant: { code: string; verifier: string; redirectUri: string; resource?: string },
  options: TokenRequestOptions = {},
): Promise<TokenSet> {
  const body = new URLSearchParams({ grant_type: 'authorization_code', code: grant.code, redirect_uri: grant.redirectUri, code_verifier: grant.verifier });
  if (grant.resource) body.set('resource', grant.resource);
  return tokenRequest(tokenEndpoint, client, body, options);
}

export function refreshTokens(tokenEndpoint: string, client: OAuthClientCredentials, refresh: { refreshToken: string; resource?: string; scope?: string }, options: TokenRequestOptions = {}): Promise<TokenSet> {
  const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refresh.refreshToken });
  if (refresh.resource) body.set('resource', refresh.resource);
  if (refresh.scope) body.set('scope', refresh.scope);
  return tokenRequest(tokenEndpoint, client, body, options);
}

/** RFC 6749 §4.4 (OAuth 2.1 §4.2): a machine client's own credentials, no user. */
export function clientCredentialsGrant(tokenEndpoint: string, client: OAuthClientCredentials, grant: { scope?: string; resource?: string }, options: TokenRequestOptions = {}): Promise<TokenSet> {
  const body = new URLSearchParams({ grant_type: 'client_credentials' });
  if (grant.resource) body.set('resource', grant.resource);
  if (grant.scope) body.set('scope', grant.scope);
  return tokenRequest(tokenEndpoint, client, body, options);
}

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** RFC 7523 §2.1: a JWT (a workload's identity token, an ID-JAG) as the authorization grant. */
export function jwtBearerGrant(tokenEndpoint: string, client: OAuthClientCredentials, grant: { assertion: string; scope?: string; resource?: string }, options: TokenRequestOptions = {}): Promise<TokenSet> {
  const body = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: grant.assertion });
  if (grant.resource) body.set('resource', grant.resource);
  if (grant.scope) body.set('scope', grant.scope);
  return tokenRequest(tokenEndpoint, client, body, options);
}

/** RFC 6749 §2.3.1: id and secret form-urlencoded, then Basic. */
function basic(client: OAuthClientCredentials): string {
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(client.client_id)}:${encode(client.client_secret ?? '')}`).toString('base64')}`;
}

async function tokenRequest(endpoint: string, client: OAuthClientCredentials, body: URLSearchParams, options: TokenRequestOptions): Promise<TokenSet> {
  const site = options.site ?? { server: '' };
  const { response, json, sent } = await postForm(endpoint, client, body, options);
  const grant = body.get('grant_type');
  if (!response.ok || !json || typeof json.access_token !== 'string') throw refusal(site, grant, response, json, sent);
  const tokenType = typeof json.token_type === 'string' ? json.token_type : 'Bearer';
  const dpop = options.dpop !== undefined && tokenType.toLowerCase() === 'dpop';
  if (tokenType.toLowerCase() !== 'bearer' && !dpop) throw new OAuthError(site, 'token', `the authorization server issued a ${JSON.stringify(tokenType.slice(0, 40))} token; mcpwire sends Bearer tokens${options.dpop ? ' and DPoP-bound ones' : ''} only`);
  // RFC 9449 §5: an AS that takes the proof but issues a Bearer token has not bound it; it is then sent as Bearer.
  const tokens: TokenSet = { access_token: json.access_token, token_type: dpop ? 'DPoP' : 'Bearer', ...(dpop ? { dpop_jkt: options.dpop!.thumbprint } : {}) };
  options.onSecret?.(tokens.access_token);
  if (typeof json.expires_in === 'number' && Number.isFinite(json.expires_in) && json.expires_in > 0) tokens.expires_at = Date.now() + json.expires_in * 1000;
  if (typeof json.refresh_token === 'string') {
    tokens.refresh_token = json.refresh_token;
    options.onSecret?.(json.refresh_token);
  }
  if (typeof json.scope === 'string') tokens.scope = json.scope;
  return tokens;
}

/** Values of a token request that must not come back in an error: codes, verifiers, tokens, assertions, secrets. */
function secretsOf(body: URLSearchParams, client: OAuthClientCredentials): string[] {
  return [body.get('code'), body.get('code_verifier'), body.get('refresh_token'), body.get('assertion'), body.get('client_assertion'), body.get('subject_token'), body.get('actor_token'), client.client_secret].filter(
    (v): v is string => typeof v === 'string' && v !== '',
  );
}

/** The OAuthError for a refused token request: the AS's `error` code and its description with everything we sent cut out. */
export function refusal(site: ErrorSite, grant: string | null, response: Response, json: Record<string, unknown> | undefined, sent: string[]): OAuthError {
  // RFC 6749 §5.2: `error` is an ASCII code; the description is the AS's words (never our secrets), capped.
  const code = oauthErrorCode(json);
  // The AS may echo what it was sent (a code, a refresh token, an assertion): those are cut out of its words before they are shown.
  const said = typeof json?.error_description === 'string' ? sent.reduce((text, secret) => text.split(secret).join('[redacted]'), json.error_description) : undefined;
  const description = said === undefined ? '' : `: ${JSON.stringify(said.slice(0, 200))}`;
  const what = code ? `${code}${description}` : response.ok ? 'an answer without an access_token' : `HTTP ${response.status}`;
  return Object.assign(new OAuthError(site, 'token', `the authorization server refused the ${grant} grant (${what})`), { oauthError: code });
}

/**
 * POSTs a form to a token endpoint with the client's authentication (basic,
 * post, a private_key_jwt assertion, or only its id) and, with a DPoP key, a
 * proof; a `use_dpop_nonce` refusal (RFC 9449 §8) is answered once with the
 * nonce the AS sent. Returns the answer and the secrets the request carried.
 */
export async function postForm(endpoint: string, client: OAuthClientCredentials, body: URLSearchParams, options: TokenRequestOptions): Promise<{ response: Response; json: Record<string, unknown> | undefined; sent: string[] }> {
  const site = options.site ?? { server: '' };
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const method = client.token_endpoint_auth_method;
  if (method === 'client_secret_basic') headers.authorization = basic(client);
  else {
    // A JWT-bearer grant may carry no client at all (RFC 7523 §3.1): then no empty client_id either.
    if (client.client_id !== '') body.set('client_id', client.client_id);
    if (method === 'client_secret_post' && client.client_secret) body.set('client_secret', client.client_secret);
  }
  const grant = body.get('grant_type');
  const origin = new URL(endpoint).origin;
  for (let attempt = 0; ; attempt++) {
    if (method === 'private_key_jwt') {
      if (!options.clientAssertion) throw new OAuthError(site, 'token', 'the client authenticates with private_key_jwt but has no private key configured; give oauth.privateKey');
      // A fresh assertion each time: its jti must not be seen twice (RFC 7523 §3).
      const assertion = options.clientAssertion(endpoint);
      options.onSecret?.(assertion);
      body.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      body.set('client_assertion', assertion);
    }
    if (options.dpop) headers.dpop = options.dpop.proof('POST', endpoint);
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(endpoint, { method: 'POST', headers, body: body.toString(), redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS) });
    } catch (error) {
      throw new OAuthError(site, 'token', `the token request (${grant}) to ${origin} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const json = await jsonObjectBody(response, MAX_TOKEN_RESPONSE_BYTES);
    const fresh = options.dpop ? options.dpop.setNonce(origin, response.headers.get('dpop-nonce')) : false;
    // Once: an AS that asks for a nonce again after getting the one it gave is not asked a third time.
    if (!response.ok && fresh && attempt === 0 && oauthErrorCode(json) === 'use_dpop_nonce') continue;
    return { response, json, sent: secretsOf(body, client) };
  }
}
