// Enterprise-Managed Authorization (SEP-990, #19, SPEC A1), its first leg:
// at the enterprise's identity provider, the user's ID token is exchanged
// (RFC 8693 token exchange) for an Identity Assertion JWT Authorization
// Grant (ID-JAG) naming the MCP server's authorization server (audience)
// and the MCP server (resource). The second leg is the JWT-bearer grant
// (tokens.ts jwtBearerGrant) with the ID-JAG as its assertion. No browser:
// the host already holds the ID token from the user's single sign-on.

import { OAuthError, type ErrorSite } from '../errors.js';
import { postForm, refusal, type OAuthClientCredentials, type TokenRequestOptions } from './tokens.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

export interface IdJagRequest {
  /** The IdP's token endpoint. */
  tokenEndpoint: string;
  /** The client as the IdP knows it (its own client_id there, and secret if it has one). */
  client: OAuthClientCredentials;
  /** The user's ID token (or another subject token of `subjectTokenType`). */
  subjectToken: string;
  subjectTokenType?: string;
  /** The MCP server's authorization server (its issuer). */
  audience: string;
  /** The MCP server (the PRM's resource). */
  resource: string;
  scope?: string;
}

/** The ID-JAG the IdP issued for `request.audience` and `request.resource`. Throws OAuthError (step token), never quoting a token. */
export async function requestIdJag(request: IdJagRequest, options: TokenRequestOptions = {}): Promise<string> {
  const site: ErrorSite = options.site ?? { server: '' };
  options.onSecret?.(request.subjectToken);
  const body = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE_GRANT,
    requested_token_type: ID_JAG_TOKEN_TYPE,
    subject_token: request.subjectToken,
    subject_token_type: request.subjectTokenType ?? ID_TOKEN_TYPE,
    audience: request.audience,
    resource: request.resource,
  });
  if (request.scope) body.set('scope', request.scope);
  // The proof of possession binds tokens for the MCP server, not the assertion: no DPoP at the IdP.
  const { response, json, sent } = await postForm(request.tokenEndpoint, request.client, body, { ...options, dpop: undefined });
  if (!response.ok || !json || typeof json.access_token !== 'string') throw refusal(site, 'token-exchange', response, json, sent);
  // RFC 8693 §2.2.1: issued_token_type says what access_token holds; anything but an ID-JAG is not a grant for the AS.
  if (json.issued_token_type !== ID_JAG_TOKEN_TYPE) {
    throw new OAuthError(site, 'token', `the identity provider issued ${JSON.stringify(String(json.issued_token_type).slice(0, 80))}, not an ID-JAG (${ID_JAG_TOKEN_TYPE}); check that it supports Enterprise-Managed Authorization`);
  }
  options.onSecret?.(json.access_token);
  return json.access_token;
}
