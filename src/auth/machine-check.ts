// A machine grant's settings checked when the OAuthProvider is made (#19,
// SPEC A1), apart from machine.ts, whose grants (and the token endpoint code
// behind them) load with the rest of the flow on the first 401 (#20 item 2,
// X4: import-cold).

import { isLoopback } from '../util/addresses.js';
import { algorithmFits, privateKeyFrom } from './jwt.js';
import type { MachineGrant } from './machine.js';

/** Checks a machine grant's settings before anything is sent: a TypeError naming what is missing (never a value). */
export function checkMachineGrant(m: MachineGrant): void {
  if (m.grant === 'client_credentials' && !m.clientId) throw new TypeError('oauth.grant client_credentials needs oauth.clientId (and oauth.clientSecret or oauth.privateKey)');
  if (m.grant === 'client_credentials' && !m.clientSecret && !m.privateKey) throw new TypeError('oauth.grant client_credentials needs oauth.clientSecret or oauth.privateKey to authenticate the client');
  if (m.grant === 'jwt_bearer' && m.assertion === undefined && !m.idp) throw new TypeError('oauth.grant jwt_bearer needs oauth.assertion (a JWT, or a file holding one) or oauth.idp (token exchange at the identity provider)');
  if (m.idp && !m.clientId) throw new TypeError('oauth.idp (Enterprise-Managed Authorization) needs oauth.clientId, the client as the MCP server\'s authorization server knows it');
  // The user's ID token goes there: over https only (http to loopback aside), as metadata is fetched (discovery.ts).
  if (m.idp) {
    const endpoint = URL.canParse(m.idp.tokenEndpoint) ? new URL(m.idp.tokenEndpoint) : undefined;
    if (!endpoint || !(endpoint.protocol === 'https:' || (endpoint.protocol === 'http:' && isLoopback(endpoint.hostname)))) throw new TypeError('oauth.idp.tokenEndpoint must be an https URL (http only to loopback): the ID token is sent there');
  }
  if (m.privateKey !== undefined) {
    const key = privateKeyFrom(m.privateKey);
    if (m.signingAlgorithm && !algorithmFits(key, m.signingAlgorithm)) throw new TypeError(`oauth.signingAlgorithm ${m.signingAlgorithm} does not fit the private key (a ${key.asymmetricKeyType} key)`);
  }
}
