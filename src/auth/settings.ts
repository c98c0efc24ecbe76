// What a server description says about OAuth (#19 item 3), as config
// readers write it and hosts extend it: plain data (scopes, a pre-registered
// client) from a config file, and the host's parts (where credentials are
// kept, who takes the user through a login) given in code. createTransport
// turns it into an OAuthProvider.

import type { KeyObject } from 'node:crypto';
import type { FetchLike } from './discovery.js';
import type { SigningAlgorithm } from './jwt.js';
import type { MachineGrant, OAuthGrant, TokenSource } from './machine.js';
import type { Authorizer, OAuthProviderOptions } from './oauth-provider.js';
import type { CredentialStore } from './store.js';

export interface OAuthSettings {
  /** Asked for when neither the server's challenge nor its metadata names scopes. */
  scopes?: readonly string[];
  /** A client registered with the provider beforehand (the ADR's provider registry; for ASes without registration). */
  clientId?: string;
  clientSecret?: string;
  /** The provider's name in the config, for messages. */
  provider?: string;
  /** A Client ID Metadata Document URL this host serves. */
  clientMetadataUrl?: string;
  /** Default: a FileCredentialStore at defaultCredentialsFile(). */
  store?: CredentialStore;
  /** Who takes the user through the login. Without one (a daemon), a server that needs a login fails with an OAuthError saying to run `mcpwire login`. */
  authorize?: Authorizer;
  /** The redirect URI the authorizer receives (a loopback receiver's). Default: http://127.0.0.1/callback, for hosts without one. */
  redirectUri?: string;
  fetch?: FetchLike;
  /**
   * How tokens are obtained (#19, SPEC A1). `authorization_code` (default):
   * a user logs in through a browser. Machine clients never open one:
   * `client_credentials` authenticates as the client itself (clientId with
   * clientSecret or privateKey); `jwt_bearer` presents a JWT (assertion: a
   * workload identity token) or, with `idp`, an ID-JAG obtained by token
   * exchange at the enterprise identity provider (SEP-990).
   */
  grant?: OAuthGrant;
  /** private_key_jwt client authentication (RFC 7523 §2.2): a PEM private key (or KeyObject); never logged, never stored. */
  privateKey?: string | KeyObject;
  /** Default: the key's own (ES256 for a P-256 key, RS256 for RSA, EdDSA for Ed25519). */
  signingAlgorithm?: SigningAlgorithm;
  /** jwt_bearer: the JWT, `{ file }` to read it afresh for each grant (a rotated workload token), or a function. */
  assertion?: TokenSource;
  /** jwt_bearer through Enterprise-Managed Authorization: the IdP's token endpoint, the client there, and the user's ID token. */
  idp?: { tokenEndpoint: string; clientId: string; clientSecret?: string; idToken: TokenSource };
  /** DPoP-bound tokens (RFC 9449): true always, false never; unset, when the server asks for them. */
  dpop?: boolean;
  /** A fixed port for the login's loopback receiver (a pre-registered client whose redirect URI names one); default: any free port. */
  callbackPort?: number;
}

/**
 * The OAuthProvider options the settings' client and grant make: a
 * pre-registered client for the user's flow, or the machine grant.
 */
export function grantOptions(settings: OAuthSettings): Pick<OAuthProviderOptions, 'preRegistered' | 'machine' | 'dpop'> {
  const dpop = settings.dpop === undefined ? {} : { dpop: settings.dpop };
  const grant = settings.grant ?? 'authorization_code';
  if (grant === 'authorization_code') {
    if (settings.privateKey !== undefined || settings.assertion !== undefined || settings.idp !== undefined) {
      throw new TypeError('oauth.privateKey, oauth.assertion and oauth.idp are for machine clients: set oauth.grant to client_credentials or jwt_bearer');
    }
    return { ...dpop, ...(settings.clientId ? { preRegistered: { client_id: settings.clientId, ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}) } } : {}) };
  }
  if (grant !== 'client_credentials' && grant !== 'jwt_bearer') throw new TypeError(`oauth.grant must be authorization_code, client_credentials or jwt_bearer, not ${JSON.stringify(String(grant).slice(0, 40))}`);
  const machine: MachineGrant = {
    grant,
    ...(settings.clientId ? { clientId: settings.clientId } : {}),
    ...(settings.clientSecret ? { clientSecret: settings.clientSecret } : {}),
    ...(settings.privateKey !== undefined ? { privateKey: settings.privateKey } : {}),
    ...(settings.signingAlgorithm ? { signingAlgorithm: settings.signingAlgorithm } : {}),
    ...(settings.assertion !== undefined ? { assertion: settings.assertion } : {}),
    ...(settings.idp ? { idp: settings.idp } : {}),
  };
  return { ...dpop, machine };
}

/** For a host without a receiver: registration needs a redirect URI, and a loopback one with any port is what RFC 8252 §7.3 has ASes accept. */
export const DEFAULT_REDIRECT_URI = 'http://127.0.0.1/callback';
