// The token endpoint (RFC 6749 §4.1.3, §6; RFC 7636 §4.5; RFC 8707 §2): the
// code exchange and the refresh, with the client authentication the
// registration chose. Requests go to the authorization server only, and never
// carry the MCP server's bearer. Nothing secret (codes, verifiers, tokens,
// client secrets) reaches an error message: the AS's `error` code and
// description are reported, its body otherwise is not.

import { OAuthError, type ErrorSite } from '../errors.js';
import type { FetchLike } from './discovery.js';
import { jsonObjectBody, oauthErrorCode } from './json-body.js';

/** How the client proves itself at the token endpoint (RFC 7591 §2 token_endpoint_auth_method). */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface OAuthClientCredentials {
  client_id: string;
  client_secret?: string;
  /** Chosen at registration, or from the AS's list for a pre-registered client. */
  token_endpoint_auth_method: ClientAuthMethod;
}

/** RFC 6749 §5.1, with the time it was received so expiry can be computed. */
export interface TokenSet {
  access_token: string;
  token_type: string;
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

/** RFC 6749 §2.3.1: id and secret form-urlencoded, then Basic. */
function basic(client: OAuthClientCredentials): string {
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(client.client_id)}:${encode(client.client_secret ?? '')}`).toString('base64')}`;
}

async function tokenRequest(endpoint: string, client: OAuthClientCredentials, body: URLSearchParams, options: TokenRequestOptions): Promise<TokenSet> {
  const site = options.site ?? { server: '' };
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (client.token_endpoint_auth_method === 'client_secret_basic') headers.authorization = basic(client);
  else {
    body.set('client_id', client.client_id);
    if (client.token_endpoint_auth_method === 'client_secret_post' && client.client_secret) body.set('client_secret', client.client_secret);
  }
  const grant = body.get('grant_type');
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(endpoint, { method: 'POST', headers, body: body.toString(), redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS) });
  } catch (error) {
    throw new OAuthError(site, 'token', `the token request (${grant}) to ${new URL(endpoint).origin} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const json = await jsonObjectBody(response, MAX_TOKEN_RESPONSE_BYTES);
  if (!response.ok || !json || typeof json.access_token !== 'string') {
    // RFC 6749 §5.2: `error` is an ASCII code; the description is the AS's words (never our secrets), capped.
    const code = oauthErrorCode(json);
    // The AS may echo what it was sent (a code, a refresh token): those are cut out of its words before they are shown.
    const sent = [body.get('code'), body.get('code_verifier'), body.get('refresh_token'), client.client_secret].filter((v): v is string => typeof v === 'string' && v !== '');
    const said = typeof json?.error_description === 'string' ? sent.reduce((text, secret) => text.split(secret).join('[redacted]'), json.error_description) : undefined;
    const description = said === undefined ? '' : `: ${JSON.stringify(said.slice(0, 200))}`;
    const what = code ? `${code}${description}` : response.ok ? 'an answer without an access_token' : `HTTP ${response.status}`;
    throw Object.assign(new OAuthError(site, 'token', `the authorization server refused the ${grant} grant (${what})`), { oauthError: code });
  }
  const tokenType = typeof json.token_type === 'string' ? json.token_type : 'Bearer';
  if (tokenType.toLowerCase() !== 'bearer') throw new OAuthError(site, 'token', `the authorization server issued a ${JSON.stringify(tokenType.slice(0, 40))} token; mcpwire sends Bearer tokens only`);
  const tokens: TokenSet = { access_token: json.access_token, token_type: 'Bearer' };
  options.onSecret?.(tokens.access_token);
  if (typeof json.expires_in === 'number' && Number.isFinite(json.expires_in) && json.expires_in > 0) tokens.expires_at = Date.now() + json.expires_in * 1000;
  if (typeof json.refresh_token === 'string') {
    tokens.refresh_token = json.refresh_token;
    options.onSecret?.(json.refresh_token);
  }
  if (typeof json.scope === 'string') tokens.scope = json.scope;
  return tokens;
}
