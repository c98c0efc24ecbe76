// The OAuth key of the client configs (#19 item 2): what the MCP clients
// write beside a remote server, mapped onto ServerParams.oauth.
// - Claude Code (.mcp.json, ~/.claude.json): `"oauth": {clientId,
//   callbackPort, scopes}` (scopes one space-separated string there; a list
//   is taken too). Its `authServerMetadataUrl` is not followed: discovery
//   runs as the MCP specification says.
// - Cursor: `"auth": {CLIENT_ID, CLIENT_SECRET, scopes}` (a static client).
// - Codex: `scopes = [...]` on the server and an `[mcp_servers.x.oauth]`
//   table with `client_id`.
// mcpwire's own keys for machine clients (SPEC A1) go in the same object,
// camelCase in JSON (grant, clientSecret, privateKey, privateKeyFile,
// signingAlgorithm, assertion, assertionFile, idp, dpop) and snake_case with
// Codex's `*_env_var` convention in TOML. Keys nobody defines are ignored, as
// the clients ignore each other's. Credentials come from the environment
// (`${env:VAR}`, `*_env_var`) or a file; every resolved one is a secret to
// scrub, and no problem quotes a value.

import path from 'node:path';
import type { OAuthSettings } from '../../auth/settings.js';
import { SIGNING_ALGORITHMS, type SigningAlgorithm } from '../../auth/jwt.js';
import { isObject } from '../../jsonrpc/message.js';
import { readPemFile } from './pem-file.js';
import type { KeyPath } from './yaml-source.js';

/** What is wrong, at which key (relative to the server entry); never a value. */
export interface OAuthKeyProblem {
  field: KeyPath;
  detail: string;
}

/**
 * How a format resolves a string: `${…}` in JSON, literally in TOML.
 * `secret`: a credential, added to the values every output is scrubbed of.
 */
export type ResolveValue = (text: string, keys: KeyPath, secret: boolean) => string;

const GRANTS = ['authorization_code', 'client_credentials', 'jwt_bearer'] as const;
/** A PEM is a few KiB; a much larger file is not one. */

/** The JSON forms: Claude Code's and mcpwire's `oauth`, or Cursor's `auth`. Undefined: the entry has neither. */
export function readJsonOAuth(entry: Record<string, unknown>, resolve: ResolveValue, folder: string): OAuthSettings | OAuthKeyProblem | undefined {
  if (entry.oauth !== undefined && entry.auth !== undefined) return { field: ['auth'], detail: 'give "oauth" or Cursor\'s "auth", not both' };
  if (entry.auth !== undefined) return readCursorAuth(entry.auth, resolve);
  if (entry.oauth === undefined || entry.oauth === false) return undefined;
  if (entry.oauth === true) return {};
  const raw = entry.oauth;
  if (!isObject(raw)) return { field: ['oauth'], detail: 'expected true or an object such as {"clientId": "…", "scopes": "read write"}' };
  const settings: OAuthSettings = {};
  const str = (key: string, secret: boolean): string | OAuthKeyProblem | undefined => {
    const value = raw[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return { field: ['oauth', key], detail: 'expected a string' };
    const got = resolve(value, ['oauth', key], secret);
    return got === '' ? undefined : got;
  };
  for (const [key, secret] of [['clientId', false], ['clientSecret', true], ['privateKey', true], ['assertion', true]] as const) {
    const got = str(key, secret);
    if (isProblem(got)) return got;
    if (got !== undefined) settings[key] = got;
  }
  const scopes = readScopes(raw.scopes, ['oauth', 'scopes']);
  if (isProblem(scopes)) return scopes;
  if (scopes) settings.scopes = scopes;
  const common = readCommon(raw, ['oauth'], { grant: 'grant', signingAlgorithm: 'signingAlgorithm', dpop: 'dpop', callbackPort: 'callbackPort' });
  if (isProblem(common)) return common;
  Object.assign(settings, common);
  for (const [key, into] of [['privateKeyFile', 'privateKey'], ['assertionFile', 'assertion']] as const) {
    const file = str(key, false);
    if (isProblem(file)) return file;
    if (file === undefined) continue;
    if (settings[into] !== undefined) return { field: ['oauth', key], detail: `give "${into}" or "${key}", not both` };
    const problem = fromFile(settings, into, path.resolve(folder, file), ['oauth', key]);
    if (problem) return problem;
  }
  if (raw.idp !== undefined) {
    const idp = raw.idp;
    if (!isObject(idp)) return { field: ['oauth', 'idp'], detail: 'expected {"tokenEndpoint", "clientId", "idToken" or "idTokenFile"}' };
    const get = (key: string, secret: boolean): string | OAuthKeyProblem | undefined => {
      const value = idp[key];
      if (value === undefined) return undefined;
      if (typeof value !== 'string') return { field: ['oauth', 'idp', key], detail: 'expected a string' };
      return resolve(value, ['oauth', 'idp', key], secret) || undefined;
    };
    const [tokenEndpoint, clientId, clientSecret, idToken, idTokenFile] = [get('tokenEndpoint', false), get('clientId', false), get('clientSecret', true), get('idToken', true), get('idTokenFile', false)];
    for (const v of [tokenEndpoint, clientId, clientSecret, idToken, idTokenFile]) if (isProblem(v)) return v;
    const s = (v: unknown) => v as string | undefined;
    if (!s(tokenEndpoint) || !URL.canParse(s(tokenEndpoint)!) || !/^https?:$/.test(new URL(s(tokenEndpoint)!).protocol)) return { field: ['oauth', 'idp', 'tokenEndpoint'], detail: 'expected the identity provider\'s token endpoint, an http(s) URL' };
    if (!s(clientId)) return { field: ['oauth', 'idp', 'clientId'], detail: 'expected the client id at the identity provider' };
    if (!s(idToken) && !s(idTokenFile)) return { field: ['oauth', 'idp'], detail: 'needs "idToken" (such as "${env:ID_TOKEN}") or "idTokenFile"' };
    settings.idp = { tokenEndpoint: s(tokenEndpoint)!, clientId: s(clientId)!, ...(s(clientSecret) ? { clientSecret: s(clientSecret)! } : {}), idToken: s(idToken) ?? { file: path.resolve(folder, s(idTokenFile)!) } };
  }
  return checked(settings, ['oauth']);
}

/** Cursor's static client: `"auth": {"CLIENT_ID": "…", "CLIENT_SECRET": "${env:…}", "scopes": [...]}`. */
function readCursorAuth(raw: unknown, resolve: ResolveValue): OAuthSettings | OAuthKeyProblem {
  if (!isObject(raw)) return { field: ['auth'], detail: 'expected an object such as {"CLIENT_ID": "…", "CLIENT_SECRET": "${env:SECRET}", "scopes": ["read"]}' };
  const settings: OAuthSettings = {};
  for (const [key, into, secret] of [['CLIENT_ID', 'clientId', false], ['CLIENT_SECRET', 'clientSecret', true]] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') return { field: ['auth', key], detail: 'expected a string' };
    const got = resolve(value, ['auth', key], secret);
    if (got !== '') settings[into] = got;
  }
  const scopes = readScopes(raw.scopes, ['auth', 'scopes']);
  if (isProblem(scopes)) return scopes;
  if (scopes) settings.scopes = scopes;
  return settings;
}

/**
 * Codex: `scopes` on the server, `[mcp_servers.x.oauth]` with `client_id` and
 * mcpwire's machine keys (`grant`, `client_secret_env_var`,
 * `private_key_env_var`, `private_key_file`, `assertion_env_var`,
 * `assertion_file`, `signing_algorithm`, `dpop`). Undefined: neither is there.
 */
export function readCodexOAuth(entry: Record<string, unknown>, fromEnv: (variable: string, keys: KeyPath, what: string) => string, folder: string): OAuthSettings | OAuthKeyProblem | undefined {
  const scopes = readScopes(entry.scopes, ['scopes']);
  if (isProblem(scopes)) return scopes;
  const raw = entry.oauth;
  if (raw === undefined) return scopes ? { scopes } : undefined;
  if (!isObject(raw)) return { field: ['oauth'], detail: 'expected a table such as [mcp_servers.NAME.oauth] with client_id' };
  const settings: OAuthSettings = scopes ? { scopes } : {};
  if (raw.client_id !== undefined) {
    if (typeof raw.client_id !== 'string' || raw.client_id === '') return { field: ['oauth', 'client_id'], detail: 'expected the client id, a string' };
    settings.clientId = raw.client_id;
  }
  for (const [key, into, what] of [['client_secret_env_var', 'clientSecret', 'the OAuth client secret'], ['private_key_env_var', 'privateKey', 'the PEM private key'], ['assertion_env_var', 'assertion', 'the JWT-bearer assertion']] as const) {
    const variable = raw[key];
    if (variable === undefined) continue;
    if (typeof variable !== 'string' || variable === '') return { field: ['oauth', key], detail: 'expected the name of an environment variable' };
    const value = fromEnv(variable, ['oauth', key], what);
    if (value !== '') settings[into] = value;
  }
  const common = readCommon(raw, ['oauth'], { grant: 'grant', signingAlgorithm: 'signing_algorithm', dpop: 'dpop', callbackPort: 'callback_port' });
  if (isProblem(common)) return common;
  Object.assign(settings, common);
  for (const [key, into] of [['private_key_file', 'privateKey'], ['assertion_file', 'assertion']] as const) {
    const file = raw[key];
    if (file === undefined) continue;
    if (typeof file !== 'string' || file === '') return { field: ['oauth', key], detail: 'expected a file path' };
    if (settings[into] !== undefined) return { field: ['oauth', key], detail: `give ${key} or the *_env_var key, not both` };
    const problem = fromFile(settings, into, path.resolve(folder, file), ['oauth', key]);
    if (problem) return problem;
  }
  return checked(settings, ['oauth']);
}

/** The keys both forms spell alike but for case: the grant, the signing algorithm, DPoP, a fixed callback port. */
function readCommon(raw: Record<string, unknown>, at: KeyPath, names: { grant: string; signingAlgorithm: string; dpop: string; callbackPort: string }): Partial<OAuthSettings> | OAuthKeyProblem {
  const out: Partial<OAuthSettings> = {};
  const grant = raw[names.grant];
  if (grant !== undefined) {
    if (typeof grant !== 'string' || !(GRANTS as readonly string[]).includes(grant)) return { field: [...at, names.grant], detail: `expected ${GRANTS.join(', ')}` };
    out.grant = grant as OAuthSettings['grant'];
  }
  const alg = raw[names.signingAlgorithm];
  if (alg !== undefined) {
    if (typeof alg !== 'string' || !(SIGNING_ALGORITHMS as readonly string[]).includes(alg)) return { field: [...at, names.signingAlgorithm], detail: `expected a JWS algorithm: ${SIGNING_ALGORITHMS.join(', ')}` };
    out.signingAlgorithm = alg as SigningAlgorithm;
  }
  const dpop = raw[names.dpop];
  if (dpop !== undefined) {
    if (typeof dpop !== 'boolean') return { field: [...at, names.dpop], detail: 'expected true or false' };
    out.dpop = dpop;
  }
  const port = raw[names.callbackPort];
  if (port !== undefined) {
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65_535) return { field: [...at, names.callbackPort], detail: 'expected a port number, 1 to 65535 (the login\'s redirect is http://127.0.0.1:PORT/callback)' };
    out.callbackPort = port;
  }
  return out;
}

/** A list of scopes, or Claude Code's one space-separated string. */
function readScopes(raw: unknown, at: KeyPath): string[] | OAuthKeyProblem | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'string') return raw.split(/\s+/).filter(Boolean);
  if (Array.isArray(raw) && raw.every((s) => typeof s === 'string' && s !== '' && !/\s/.test(s))) return raw as string[];
  return { field: at, detail: 'expected a list of scopes, or one string of scopes separated by spaces' };
}

/** The grant's needs, checked here so that the problem points at the config rather than surfacing at the first request. */
function checked(settings: OAuthSettings, at: KeyPath): OAuthSettings | OAuthKeyProblem {
  const grant = settings.grant ?? 'authorization_code';
  const machineOnly = settings.privateKey !== undefined || settings.assertion !== undefined || settings.idp !== undefined;
  if (grant === 'authorization_code' && machineOnly) return { field: [...at, 'grant'], detail: 'a private key, an assertion and an idp are for machine clients: set the grant to client_credentials or jwt_bearer' };
  if (grant === 'client_credentials' && (!settings.clientId || (!settings.clientSecret && settings.privateKey === undefined))) return { field: [...at, 'grant'], detail: 'client_credentials needs the client id and its secret or private key' };
  if (grant === 'jwt_bearer' && settings.assertion === undefined && !settings.idp) return { field: [...at, 'grant'], detail: 'jwt_bearer needs an assertion (a value, or a file) or an idp' };
  return settings;
}

/** A private key is read now (PEM, so a bad file fails the config); an assertion file is read afresh at each grant. */
function fromFile(settings: OAuthSettings, into: 'privateKey' | 'assertion', file: string, at: KeyPath): OAuthKeyProblem | undefined {
  if (into === 'assertion') {
    settings.assertion = { file };
    return undefined;
  }
  // Read now, a disabled server's too (the reader does not know yet); the problem names the file, never its contents.
  const pem = readPemFile(file);
  if ('problem' in pem) return { field: at, detail: pem.problem };
  settings.privateKey = pem.text;
  return undefined;
}

/** Every credential the settings hold, for the scrubber (a key read from a file too). */
export function oauthSecrets(settings: OAuthSettings): string[] {
  const values = [settings.clientSecret, settings.privateKey, settings.assertion, settings.idp?.clientSecret, settings.idp?.idToken];
  return values.filter((v): v is string => typeof v === 'string' && v !== '');
}

export function isProblem(value: unknown): value is OAuthKeyProblem {
  return isObject(value) && Array.isArray(value.field) && typeof value.detail === 'string';
}
