// What a server description says about OAuth (#19 item 3), as config
// readers write it and hosts extend it: plain data (scopes, a pre-registered
// client) from a config file, and the host's parts (where credentials are
// kept, who takes the user through a login) given in code. createTransport
// turns it into an OAuthProvider.

import type { FetchLike } from './discovery.js';
import type { Authorizer } from './oauth-provider.js';
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
}

/** For a host without a receiver: registration needs a redirect URI, and a loopback one with any port is what RFC 8252 §7.3 has ASes accept. */
export const DEFAULT_REDIRECT_URI = 'http://127.0.0.1/callback';
