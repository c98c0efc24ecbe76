// Finding who authorizes a protected MCP server (#19 item 1): its Protected
// Resource Metadata (RFC 9728), then its authorization server's metadata
// (RFC 8414, or OpenID Connect Discovery), in the order the MCP
// authorization spec (2025-11-25, "Authorization Server Discovery") lists,
// with the checks it and the RFCs make before anything is sent to them:
//
// - the PRM's `resource` names this server (same origin, and a path the
//   server's URL lies under), so one server cannot send us to another's AS;
// - the AS metadata's `issuer` is the issuer asked for (RFC 8414 §3.3: a
//   mix-up defence);
// - `S256` is in `code_challenge_methods_supported` (MCP: clients MUST
//   refuse otherwise, and an absent field counts as no);
// - no metadata URL of a public server points into loopback, private or
//   link-local addresses (SSRF), and metadata is fetched over https unless
//   the host is loopback;
// - bodies are bounded, and every fetch has a deadline.

import { OAuthError, type ErrorSite } from '../errors.js';
import { boundedText } from './json-body.js';
import { isLoopback } from '../util/addresses.js';

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface DiscoveryOptions {
  fetch?: FetchLike;
  /** Sent as MCP-Protocol-Version on metadata requests, as the spec asks. */
  protocolVersion?: string;
  /** Per request. Default 10 s. */
  timeoutMs?: number;
  /** For error messages. */
  site?: ErrorSite;
  /** Refuse an AS without PKCE S256 (default). A machine grant (no authorization request) does not need it. */
  requirePkce?: boolean;
}

/** RFC 9728 §2, the fields mcpwire reads. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  [key: string]: unknown;
}

/** RFC 8414 §2, the fields mcpwire reads. */
export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  registration_endpoint?: string;
  scopes_supported?: string[];
  code_challenge_methods_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  grant_types_supported?: string[];
  client_id_metadata_document_supported?: boolean;
  authorization_response_iss_parameter_supported?: boolean;
  [key: string]: unknown;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** Metadata is a few KiB; a server that sends megabytes is not sending metadata. */
const MAX_METADATA_BYTES = 256 * 1024;
/** Same-origin redirects followed on a metadata fetch; a cross-origin one is refused. */
const MAX_REDIRECTS = 3;

/**
 * The PRM URLs to try, in the spec's order: the challenge's
 * `resource_metadata` if given, else the path-based well-known URI, then the
 * root one.
 */
export function protectedResourceMetadataUrls(serverUrl: string, fromChallenge?: string): string[] {
  if (fromChallenge) return [fromChallenge];
  const url = new URL(serverUrl);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const root = `${url.origin}/.well-known/oauth-protected-resource`;
  return path ? [`${root}${path}`, root] : [root];
}

/** The AS metadata URLs for an issuer, in the spec's order (RFC 8414 §3.1 and OIDC Discovery, with and without a path). */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  if (!path) return [`${url.origin}/.well-known/oauth-authorization-server`, `${url.origin}/.well-known/openid-configuration`];
  return [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${url.origin}/.well-known/openid-configuration${path}`, `${url.origin}${path}/.well-known/openid-configuration`];
}

/**
 * Does the PRM's `resource` name the server at `serverUrl`? Same origin,
 * and the server's path equal to or under the resource's (RFC 9728 §3.3
 * asks for identity with the URL the client used; MCP servers commonly name
 * their origin or a path prefix, which is still this server).
 */
export function resourceNamesServer(resource: string, serverUrl: string): boolean {
  let r: URL;
  let s: URL;
  try {
    r = new URL(resource);
    s = new URL(serverUrl);
  } catch {
    return false;
  }
  if (r.origin !== s.origin || r.search !== '' || r.hash !== '') return false;
  const prefix = r.pathname.replace(/\/$/, '');
  const path = s.pathname.replace(/\/$/, '');
  return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
}

/** Loopback, private, link-local, unspecified or CGNAT: an address a public server has no business sending us to. */
export function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  // An IPv4-mapped IPv6 address is the IPv4 one; URL writes it in hex (::ffff:c0a8:101).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  const dotted = mapped ? [parseInt(mapped[1]!, 16) >> 8, parseInt(mapped[1]!, 16) & 255, parseInt(mapped[2]!, 16) >> 8, parseInt(mapped[2]!, 16) & 255].join('.') : host.startsWith('::ffff:') ? host.slice(7) : host;
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(dotted);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (host.includes(':')) return host === '::1' || host === '::' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  return false;
}

export { isLoopback }; // in util/addresses.ts, so checking a machine grant needs no discovery code (#20)

/**
 * Whether mcpwire may fetch `target` on behalf of the server at `serverUrl`:
 * https (or http to loopback), and nothing internal for a server that is not
 * itself internal. Undefined when allowed; else why not.
 */
export function refusedTarget(target: string, serverUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'it is not a URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) return `it is ${url.protocol} and not https`;
  if (url.username || url.password) return 'it carries credentials';
  const server = new URL(serverUrl);
  if (isInternalHost(url.hostname) && !isInternalHost(server.hostname)) return 'it points into a loopback, private or link-local network, and the server is not there';
  return undefined;
}

/** A bounded JSON GET: the parsed object, or undefined with why (404 and friends are "not here", not errors). */
async function getJson(target: string, serverUrl: string, options: DiscoveryOptions): Promise<{ value: Record<string, unknown> } | { missing: string }> {
  const fetchImpl = options.fetch ?? fetch;
  let url = target;
  for (let hop = 0; ; hop++) {
    const refused = refusedTarget(url, serverUrl);
    if (refused) return { missing: `${url} was not fetched: ${refused}` };
    let response: Response;
    try {
      response = await fetchImpl(url, {
        headers: { accept: 'application/json', ...(options.protocolVersion ? { 'mcp-protocol-version': options.protocolVersion } : {}) },
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
    } catch (error) {
      return { missing: `${url}: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const location = response.headers.get('location');
      const next = location ? new URL(location, url) : undefined;
      if (!next || next.origin !== new URL(url).origin || hop >= MAX_REDIRECTS) return { missing: `${url} redirected ${next ? `to another origin (${next.origin})` : 'without a Location'}; not followed` };
      url = next.href;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      return { missing: `${url} answered HTTP ${response.status}` };
    }
    const text = await boundedText(response, MAX_METADATA_BYTES);
    if (text === undefined) return { missing: `${url} sent more than ${MAX_METADATA_BYTES} bytes` };
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { value: value as Record<string, unknown> };
    } catch {
      // fall through
    }
    return { missing: `${url} did not answer a JSON object` };
  }
}

/** Whether discovery found nothing (as against finding something it refused). */
export function nothingFound(error: unknown): boolean {
  return error instanceof OAuthError && (error as OAuthError & { notFound?: boolean }).notFound === true;
}

/**
 * The 2025-03-26 revision's fallbacks, for a server with no Protected
 * Resource Metadata: its origin is the authorization server; without
 * metadata there either, the default endpoints /authorize, /token and
 * /register on that origin (PKCE S256 assumed: that revision requires it).
 */
export async function legacyAuthorizationServer(serverUrl: string, options: DiscoveryOptions = {}): Promise<AuthorizationServerMetadata> {
  const origin = new URL(serverUrl).origin;
  try {
    return await discoverAuthorizationServer(origin, serverUrl, options);
  } catch (error) {
    if (!nothingFound(error)) throw error;
    return {
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      code_challenge_methods_supported: ['S256'],
    };
  }
}

/** The server's PRM, checked: its `resource` names this server. Throws OAuthError (step resource-metadata) with every URL tried and why. */
export async function discoverProtectedResource(serverUrl: string, fromChallenge: string | undefined, options: DiscoveryOptions = {}): Promise<ProtectedResourceMetadata> {
  const site = options.site ?? { server: '' };
  const tried: string[] = [];
  for (const url of protectedResourceMetadataUrls(serverUrl, fromChallenge)) {
    const got = await getJson(url, serverUrl, options);
    if ('missing' in got) {
      tried.push(got.missing);
      continue;
    }
    const prm = got.value;
    if (typeof prm.resource !== 'string') {
      tried.push(`${url} has no "resource"`);
      continue;
    }
    if (!resourceNamesServer(prm.resource, serverUrl)) {
      throw new OAuthError(site, 'resource-metadata', `the protected resource metadata at ${url} names ${JSON.stringify(prm.resource)}, not this server (${new URL(serverUrl).origin}); no authorization is started for a resource that is not this one`);
    }
    if (prm.authorization_servers !== undefined && (!Array.isArray(prm.authorization_servers) || !prm.authorization_servers.every((s) => typeof s === 'string'))) {
      throw new OAuthError(site, 'resource-metadata', `the protected resource metadata at ${url} has an "authorization_servers" that is not a list of URLs`);
    }
    return prm as ProtectedResourceMetadata;
  }
  throw Object.assign(new OAuthError(site, 'resource-metadata', `no protected resource metadata found (${tried.join('; ')})`), { notFound: true });
}

/** The issuer's metadata, checked: issuer identical, PKCE S256 supported. Throws OAuthError (step authorization-server). */
export async function discoverAuthorizationServer(issuer: string, serverUrl: string, options: DiscoveryOptions = {}): Promise<AuthorizationServerMetadata> {
  const site = options.site ?? { server: '' };
  const tried: string[] = [];
  for (const url of authorizationServerMetadataUrls(issuer)) {
    const got = await getJson(url, serverUrl, options);
    if ('missing' in got) {
      tried.push(got.missing);
      continue;
    }
    const meta = got.value;
    if (meta.issuer !== issuer && meta.issuer !== issuer.replace(/\/$/, '')) {
      throw new OAuthError(site, 'authorization-server', `the metadata at ${url} is for issuer ${JSON.stringify(meta.issuer)}, not ${JSON.stringify(issuer)} (RFC 8414 §3.3); refusing it`);
    }
    const methods = meta.code_challenge_methods_supported;
    if (options.requirePkce !== false && (!Array.isArray(methods) || !methods.includes('S256'))) {
      throw new OAuthError(site, 'authorization-server', `the authorization server ${issuer} does not list PKCE S256 in code_challenge_methods_supported, which MCP requires; no authorization request is made`);
    }
    for (const key of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint'] as const) {
      const endpoint = meta[key];
      if (endpoint === undefined) continue;
      const refused = typeof endpoint === 'string' ? refusedTarget(endpoint, serverUrl) : 'it is not a string';
      if (refused) throw new OAuthError(site, 'authorization-server', `the authorization server's ${key} is refused: ${refused}`);
    }
    return meta as AuthorizationServerMetadata;
  }
  throw Object.assign(new OAuthError(site, 'authorization-server', `no authorization server metadata found for ${issuer} (${tried.join('; ')})`), { notFound: true });
}
