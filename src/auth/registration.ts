// Who the client is to an authorization server (#19 item 1), by the spec's
// priority: credentials the host registered beforehand, else a Client ID
// Metadata Document URL when the AS says it takes one, else Dynamic Client
// Registration (RFC 7591) as a native public client (`application_type:
// native`, 2026-07-28; `token_endpoint_auth_method: none` when the AS allows
// it). The result is stored with the tokens, keyed by resource and issuer.

import { OAuthError, type ErrorSite } from '../errors.js';
import type { AuthorizationServerMetadata, FetchLike } from './discovery.js';
import { jsonObjectBody, oauthErrorCode } from './json-body.js';
import { chooseAuthMethod, type ClientAuthMethod, type OAuthClientCredentials } from './tokens.js';

export interface ClientIdentity {
  /** Registered beforehand (the ADR's provider registry): used as they are. */
  preRegistered?: { client_id: string; client_secret?: string };
  /** An https URL serving this client's metadata document (CIMD): its own client_id where the AS supports it. */
  clientMetadataUrl?: string;
  /** For registration: the name shown on the consent screen. Default "mcpwire". */
  clientName?: string;
}

export interface RegistrationOptions {
  fetch?: FetchLike;
  timeoutMs?: number;
  site?: ErrorSite;
  onSecret?: (value: string) => void;
}

export type RegisteredClient = OAuthClientCredentials & { redirect_uris: string[]; how: 'pre-registered' | 'metadata-document' | 'dynamic' };

const DEFAULT_TIMEOUT_MS = 15_000;
const MAX_REGISTRATION_RESPONSE_BYTES = 64 * 1024;

export async function obtainClient(meta: AuthorizationServerMetadata, redirectUri: string, identity: ClientIdentity, options: RegistrationOptions = {}): Promise<RegisteredClient> {
  const site = options.site ?? { server: '' };
  if (identity.preRegistered) {
    const { client_id, client_secret } = identity.preRegistered;
    if (client_secret) options.onSecret?.(client_secret);
    return { client_id, ...(client_secret ? { client_secret } : {}), token_endpoint_auth_method: chooseAuthMethod(client_secret !== undefined, meta.token_endpoint_auth_methods_supported), redirect_uris: [redirectUri], how: 'pre-registered' };
  }
  if (identity.clientMetadataUrl && meta.client_id_metadata_document_supported === true) {
    return { client_id: identity.clientMetadataUrl, token_endpoint_auth_method: 'none', redirect_uris: [redirectUri], how: 'metadata-document' };
  }
  if (!meta.registration_endpoint) {
    throw new OAuthError(site, 'registration', `the authorization server ${meta.issuer} offers no dynamic client registration and no client is configured for it; register one with the provider and give its client_id (and secret) in the config`);
  }
  const supported = meta.token_endpoint_auth_methods_supported;
  const method: ClientAuthMethod = !supported || supported.includes('none') ? 'none' : supported.includes('client_secret_basic') ? 'client_secret_basic' : 'client_secret_post';
  const request = {
    client_name: identity.clientName ?? 'mcpwire',
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: method,
    application_type: 'native',
  };
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(meta.registration_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request),
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
  } catch (error) {
    throw new OAuthError(site, 'registration', `client registration at ${new URL(meta.registration_endpoint).origin} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const json = await jsonObjectBody(response, MAX_REGISTRATION_RESPONSE_BYTES);
  if (!response.ok || !json || typeof json.client_id !== 'string') {
    const code = oauthErrorCode(json) ?? (response.ok ? 'no client_id in the answer' : `HTTP ${response.status}`);
    throw new OAuthError(site, 'registration', `the authorization server refused client registration (${code})`);
  }
  const secret = typeof json.client_secret === 'string' ? json.client_secret : undefined;
  if (secret) options.onSecret?.(secret);
  const granted = json.token_endpoint_auth_method;
  const chosen: ClientAuthMethod = granted === 'client_secret_basic' || granted === 'client_secret_post' || granted === 'none' ? granted : secret ? 'client_secret_basic' : 'none';
  return { client_id: json.client_id, ...(secret ? { client_secret: secret } : {}), token_endpoint_auth_method: chosen, redirect_uris: [redirectUri], how: 'dynamic' };
}
