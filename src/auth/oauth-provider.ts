// The OAuth flow as the HTTP transports meet it (#19 item 1): a
// HeaderProvider (src/transport/http-headers.ts), asked for headers before
// each request and told of each 401/403. On a 401 it finds the server's
// authorization server (discovery.ts), obtains a client (registration.ts),
// has the host take the user through the authorization request (PKCE S256,
// a checked state, RFC 8707 resource, RFC 9207 iss), exchanges the code
// (tokens.ts), stores the result (store.ts) and asks for the request to be
// sent again; a stored refresh token is used first. On a 403
// insufficient_scope it asks for a strict superset of the granted scopes,
// a bounded number of times.
//
// A machine client (options.machine: client_credentials, jwt_bearer) runs
// its grant where a user's client would authorize, and again when its token
// expires (machine.ts). With DPoP (RFC 9449, dpop.ts) the token is bound to
// a key pair made for this provider: each request carries a fresh proof and
// `Authorization: DPoP`, and a `use_dpop_nonce` refusal is answered with the
// nonce the server sent.
//
// The bearer goes only to the MCP server's origin: headers() answers nothing
// for any other URL (a redirect target, the AS, the PRM host). One refresh
// runs at a time per provider, however many requests meet the expiry or a
// 401 at once; a rotated refresh token is stored before the new access token
// is used.

import { OAuthError, type ErrorSite } from '../errors.js';
import type { HeaderProvider } from '../transport/http-headers.js';
import { DpopKey } from './dpop.js';
import { checkMachineGrant } from './machine-check.js';
import type { MachineGrant } from './machine.js';
import type { AuthorizationServerMetadata, FetchLike, ProtectedResourceMetadata } from './discovery.js';
import type { ClientIdentity, RegisteredClient } from './registration.js';
import { credentialKey, resourceOfKey, type CredentialStore, type StoredCredentials } from './store.js';
import type { TokenRequestOptions, TokenSet } from './tokens.js';
import { parseWwwAuthenticate } from './www-authenticate.js';

// The flow's network steps (discovery, registration, the token endpoint, PKCE, machine grants: ten modules) load
// when a server first asks for OAuth, not with the package: most hosts never meet a 401 (#20 item 2, X4).
const discoveryModule = () => import('./discovery.js');

/**
 * Takes the user through the authorization request: opens (or prints)
 * `url`, waits for the redirect to `redirectUri`, and resolves with the URL
 * the browser was sent back to (its query holds code, state, iss). A host
 * without a user rejects (or leaves the provider without an authorizer):
 * the request then fails with an OAuthError naming the server.
 */
export type Authorizer = (request: { url: URL; redirectUri: string; server: string }) => Promise<URL>;

export interface OAuthProviderOptions extends ClientIdentity {
  /** The MCP server's URL: the resource, and the only origin the bearer goes to. */
  serverUrl: string;
  /** The server's label, for errors. */
  server: string;
  store: CredentialStore;
  /** Without one, a server that needs a login fails with an OAuthError that says to log in. */
  authorize?: Authorizer;
  /** Where the authorization server sends the browser back; the authorizer must receive it. */
  redirectUri: string;
  /** Asked for when neither the challenge nor the PRM names scopes. */
  scopes?: readonly string[];
  fetch?: FetchLike;
  protocolVersion?: string;
  /** Each secret the flow learns (tokens, client secrets, codes, verifiers): for the transport's scrubber. */
  onSecret?: (value: string) => void;
  /** A machine client's grant (no user, no browser): run instead of an authorization. */
  machine?: MachineGrant;
  /**
   * DPoP-bound tokens (RFC 9449). true: always ask for them; false: never;
   * unset: when the server asks (a `DPoP` challenge, or its metadata's
   * dpop_bound_access_tokens_required).
   */
  dpop?: boolean;
}

/** The challenge a 401/403 carries for the schemes spoken here: Bearer, or DPoP (RFC 9449 §7.1). */
function tokenChallenge(header: string | undefined): { scheme: 'bearer' | 'dpop'; params: Record<string, string> } | undefined {
  if (!header) return undefined;
  const challenges = parseWwwAuthenticate(header);
  const dpop = challenges.find((c) => c.scheme.toLowerCase() === 'dpop');
  const bearer = challenges.find((c) => c.scheme.toLowerCase() === 'bearer');
  // A DPoP error is about the proof (use_dpop_nonce, invalid_dpop_proof): its challenge speaks for the request.
  const chosen = dpop?.params.error ? dpop : (bearer ?? dpop);
  return chosen ? { scheme: chosen === dpop ? 'dpop' : 'bearer', params: chosen.params } : undefined;
}

/** Step-ups per provider: a server that keeps asking for more is not followed forever. */
const MAX_STEP_UPS = 2;
/** Renewals in a row that the server refused anyway, after which a 401 is the caller's (a server that refuses every token). */
const MAX_FRUITLESS_RENEWALS = 2;
/** A token that expires within this is refreshed before it is sent. */
const EXPIRY_MARGIN_MS = 30_000;

export class OAuthProvider implements HeaderProvider {
  private readonly origin: string;
  private readonly site: ErrorSite;
  private issuer: string | undefined;
  private asMeta: AuthorizationServerMetadata | undefined;
  private prm: ProtectedResourceMetadata | undefined;
  private current: StoredCredentials | undefined;
  private refreshing: Promise<boolean> | undefined;
  private authorizing: Promise<void> | undefined;
  private stepUps = 0;
  /** Whether the store was searched for this resource before the issuer was known (onlyStoredEntry). */
  private storeSearched = false;
  /** Made once DPoP is decided on; never leaves this object (dpop.ts). */
  private dpopKey: DpopKey | undefined;
  /** Renewals in a row whose retried request was refused again (onRetried). */
  private fruitless = 0;

  constructor(private readonly options: OAuthProviderOptions) {
    this.origin = new URL(options.serverUrl).origin;
    this.site = { server: options.server };
    if (options.machine) checkMachineGrant(options.machine);
    if (options.dpop === true) this.dpopKey = new DpopKey();
  }

  async headers(request: { url: URL; method: string }): Promise<Record<string, string>> {
    if (request.url.origin !== this.origin) return {};
    const tokens = await this.tokens();
    if (!tokens) return {};
    if (tokens.expires_at !== undefined && tokens.expires_at - EXPIRY_MARGIN_MS <= Date.now()) {
      // Taken from the store before any discovery (a new process): the token endpoint is found first. A failure
      // here is left to the 401 the stale token will meet, whose handling discovers again and reports it.
      if (!this.asMeta && (tokens.refresh_token || this.options.machine)) await this.discover(undefined).catch(() => undefined);
      if (this.current?.tokens?.refresh_token) await this.refresh();
      // A machine client has no refresh token to spend (client_credentials issues none): it runs its grant again.
      else if (this.options.machine && this.asMeta) await this.authorize(undefined, undefined, true).catch(() => {});
    }
    const fresh = this.current?.tokens;
    if (!fresh) return {};
    if (fresh.token_type === 'DPoP' && this.dpopKey) {
      // A fresh proof per request (RFC 9449 §4.2): method, URL, the token's hash, the server's nonce.
      return { authorization: `DPoP ${fresh.access_token}`, dpop: this.dpopKey.proof(request.method, request.url, fresh.access_token) };
    }
    return { authorization: `Bearer ${fresh.access_token}` };
  }

  /** Every answer from the MCP server: a DPoP-Nonce it sends (RFC 9449 §9) is used from the next proof on. */
  onResponse(response: { url: URL; status: number; headers: Headers }): void {
    // A 401's nonce is onChallenge's: it decides whether the refused request is worth sending again with it.
    if (response.url.origin !== this.origin || !this.dpopKey || response.status === 401) return;
    this.dpopKey.setNonce(this.origin, response.headers.get('dpop-nonce'));
  }

  async onChallenge(challenge: { status: number; wwwAuthenticate: string | undefined; url: URL; authorization?: string; headers?: Headers }): Promise<boolean> {
    if (challenge.url.origin !== this.origin) return false;
    const parsed = tokenChallenge(challenge.wwwAuthenticate);
    const bearer = parsed?.params;
    const params = bearer ?? {};
    const sent = /^(?:Bearer|DPoP) (.+)$/i.exec(challenge.authorization ?? '')?.[1];
    // RFC 9449 §9: the server wants its nonce in the proof. Sent again once with it; the same nonce refused again is not followed.
    if (parsed?.scheme === 'dpop' && params.error === 'use_dpop_nonce') {
      const nonce = challenge.headers?.get('dpop-nonce');
      const used = this.dpopKey?.nonceFor(this.origin);
      if (this.dpopKey && nonce) this.dpopKey.setNonce(this.origin, nonce);
      return this.dpopKey !== undefined && sent !== undefined && nonce !== null && nonce !== undefined && nonce !== used;
    }
    // A server that challenges with DPoP wants DPoP-bound tokens: unless configured off, the key is made now.
    if (parsed?.scheme === 'dpop' && this.options.dpop !== false) this.dpopKey ??= new DpopKey();
    // A renewal under way (another request met the same 401) is waited for, not repeated.
    await Promise.allSettled([this.refreshing, this.authorizing]);
    if (challenge.status === 403) {
      if (params.error !== 'insufficient_scope') return false;
      const granted = new Set((this.current?.tokens?.scope ?? '').split(' ').filter(Boolean));
      const wanted = new Set([...granted, ...(params.scope ?? '').split(' ').filter(Boolean)]);
      // Only a strict superset of what was granted, and only so often: a server that asks for the same again is not followed.
      if (wanted.size <= granted.size || this.stepUps >= MAX_STEP_UPS) return false;
      this.stepUps++;
      await this.authorize(params.resource_metadata, [...wanted]);
      return true;
    }
    // Renewed since that request was sent: send it again with the new token.
    const current = this.current?.tokens?.access_token;
    if (current !== undefined && sent !== current) return true;
    // First 401 of this process: find the authorization server, and with it the credentials stored for it last time.
    let discovered = false;
    if (!this.asMeta) {
      try {
        // Without a Bearer challenge the server has not asked for OAuth: only metadata it publishes makes it so
        // (no 2025-03-26 default endpoints then), and a plain 401 stays the caller's AuthError.
        await this.discover(params.resource_metadata, bearer !== undefined);
      } catch (error) {
        if (bearer === undefined && (await discoveryModule()).nothingFound(error)) return false;
        throw error;
      }
      discovered = true;
      const stored = await this.tokens();
      if (stored && stored.access_token !== sent) return true;
    }
    if (this.current?.tokens?.refresh_token && (await this.refresh())) return true;
    // Renewals the server then refused anyway: past the bound another authorization would end the same way.
    if (this.fruitless >= MAX_FRUITLESS_RENEWALS) return false;
    const scopes = params.scope ? params.scope.split(' ').filter(Boolean) : undefined;
    await this.authorize(params.resource_metadata, scopes, discovered);
    return true;
  }

  onRetried(result: { status: number; url: URL }): void {
    if (result.url.origin !== this.origin) return;
    this.fruitless = result.status === 401 ? this.fruitless + 1 : 0;
  }

  /** The stored tokens for this server (looked up once the issuer is known), or undefined. */
  private async tokens(): Promise<TokenSet | undefined> {
    if (this.current) return this.current.tokens;
    let stored: StoredCredentials | undefined;
    if (this.issuer) stored = (await this.options.store.get(credentialKey(this.options.serverUrl, this.issuer))) ?? undefined;
    else if (!this.storeSearched) {
      // Once per provider: a server with nothing stored must not cost a store read on every request.
      this.storeSearched = true;
      stored = await this.onlyStoredEntry();
    }
    if (!stored) return undefined;
    // A DPoP-bound token (and its refresh token) is bound to a key another process made and took with it: of no use here.
    this.current = stored?.tokens?.token_type === 'DPoP' && stored.tokens.dpop_jkt !== this.dpopKey?.thumbprint ? { issuer: stored.issuer, ...(stored.client ? { client: stored.client } : {}) } : stored;
    return this.current?.tokens;
  }

  /**
   * Before the issuer is known (a new process: the next CLI command, a
   * reconnect), the one entry stored for exactly this resource: its token is
   * sent from the first request on, instead of meeting a 401 and running
   * discovery each time. It was obtained for this resource and goes only to
   * its origin; discovery, when it runs, drops it if the issuer it finds is
   * another (discover()). Two entries (two issuers) are left to discovery.
   */
  private async onlyStoredEntry(): Promise<StoredCredentials | undefined> {
    const keys = (await this.options.store.keys?.()) ?? [];
    const mine = keys.filter((k) => resourceOfKey(k) === this.options.serverUrl);
    if (mine.length !== 1) return undefined;
    const stored = (await this.options.store.get(mine[0]!)) ?? undefined;
    return stored?.tokens && credentialKey(this.options.serverUrl, stored.issuer) === mine[0] ? stored : undefined;
  }

  /** The issuer discovery found: credentials taken for another one (the server moved, SEP-2352) are not this one's. */
  private settleIssuer(issuer: string): void {
    this.issuer = issuer;
    if (this.current && this.current.issuer !== issuer) this.current = undefined;
  }

  /** One refresh at a time; true when a new access token was obtained. */
  private refresh(): Promise<boolean> {
    this.refreshing ??= this.doRefresh().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async doRefresh(): Promise<boolean> {
    const stored = this.current;
    const refreshToken = stored?.tokens?.refresh_token;
    // Only at the AS that issued it: a refresh token is never shown to another.
    if (!stored?.client || !refreshToken || !this.asMeta?.token_endpoint || stored.issuer !== this.issuer) return false;
    const { refreshTokens } = await import('./tokens.js');
    try {
      const tokens = await refreshTokens(this.asMeta.token_endpoint, stored.client, { refreshToken, resource: this.prm?.resource ?? this.options.serverUrl }, this.tokenOptions());
      // A refresh that rotates nothing keeps the refresh token it used; the new set is stored before it is used.
      const next: StoredCredentials = { ...stored, tokens: { ...tokens, ...(tokens.refresh_token ? {} : { refresh_token: refreshToken }), ...(tokens.scope ? {} : stored.tokens?.scope ? { scope: stored.tokens.scope } : {}) } };
      await this.options.store.set(credentialKey(this.options.serverUrl, stored.issuer), next);
      this.current = next;
      return true;
    } catch {
      // A refused refresh (revoked, expired): the stored tokens are of no use; the next step is a new authorization.
      const next: StoredCredentials = { issuer: stored.issuer, ...(stored.client ? { client: stored.client } : {}) };
      await this.options.store.set(credentialKey(this.options.serverUrl, stored.issuer), next);
      this.current = next;
      return false;
    }
  }

  private authorize(resourceMetadata: string | undefined, scopes: string[] | undefined, justDiscovered = false): Promise<void> {
    this.authorizing ??= this.doAuthorize(resourceMetadata, scopes, justDiscovered).finally(() => (this.authorizing = undefined));
    return this.authorizing;
  }

  /** The PRM and the AS metadata, checked (discovery.ts); remembered for the provider's life. */
  private async discover(resourceMetadata: string | undefined, allowLegacy = true): Promise<{ prm: ProtectedResourceMetadata; meta: AuthorizationServerMetadata; issuer: string }> {
    const o = this.options;
    const discovery = { site: this.site, ...(o.fetch ? { fetch: o.fetch } : {}), ...(o.protocolVersion ? { protocolVersion: o.protocolVersion } : {}), ...(o.machine ? { requirePkce: false } : {}) };
    const { discoverAuthorizationServer, discoverProtectedResource, legacyAuthorizationServer, nothingFound } = await discoveryModule();
    let prm: ProtectedResourceMetadata;
    let meta: AuthorizationServerMetadata;
    try {
      prm = await discoverProtectedResource(o.serverUrl, resourceMetadata, discovery);
    } catch (error) {
      // No PRM at all (not one refused): a 2025-03-26 server, whose origin is its authorization server.
      if (!nothingFound(error) || !allowLegacy) throw error;
      meta = await legacyAuthorizationServer(o.serverUrl, discovery);
      prm = { resource: o.serverUrl, authorization_servers: [meta.issuer] };
      this.prm = prm;
      this.settleIssuer(meta.issuer);
      this.asMeta = meta;
      return { prm, meta, issuer: meta.issuer };
    }
    const issuer = prm.authorization_servers?.[0];
    if (!issuer) throw new OAuthError(this.site, 'resource-metadata', 'the protected resource metadata names no authorization server');
    meta = await discoverAuthorizationServer(issuer, o.serverUrl, discovery);
    // RFC 9728 §2: a resource that accepts only DPoP-bound tokens says so.
    if (prm.dpop_bound_access_tokens_required === true && o.dpop !== false) this.dpopKey ??= new DpopKey();
    this.prm = prm;
    this.settleIssuer(issuer);
    this.asMeta = meta;
    return { prm, meta, issuer };
  }

  private async doAuthorize(resourceMetadata: string | undefined, scopes: string[] | undefined, justDiscovered: boolean): Promise<void> {
    const o = this.options;
    // Discovered afresh for every authorization (unless the same challenge just did): the server may have moved to
    // another authorization server (SEP-2352), whose credentials are its own (keyed by issuer) and whose client is registered anew.
    const { prm, meta, issuer } = justDiscovered && this.prm && this.asMeta && this.issuer ? { prm: this.prm, meta: this.asMeta, issuer: this.issuer } : await this.discover(resourceMetadata);
    if (o.machine) {
      // No user: the configured grant, and its answer stored like a login's (keyed by resource and issuer).
      const scope = [...new Set(scopes ?? prm.scopes_supported ?? o.scopes ?? [])].join(' ');
      const { machineTokens } = await import('./machine.js');
      const tokens = await machineTokens(o.machine, meta, { resource: prm.resource, ...(scope ? { scope } : {}) }, this.tokenOptions());
      const next: StoredCredentials = { issuer, tokens };
      await o.store.set(credentialKey(o.serverUrl, issuer), next);
      this.current = next;
      return;
    }
    if (!meta.authorization_endpoint || !meta.token_endpoint) throw new OAuthError(this.site, 'authorization-server', `the authorization server ${issuer} lists no authorization_endpoint or token_endpoint`);
    const key = credentialKey(o.serverUrl, issuer);
    const stored = (await o.store.get(key)) ?? { issuer };
    // A client registered for another redirect URI (a daemon registered it; a login's receiver has its own port) is registered anew.
    const reusable = stored.client && (stored.client.how !== 'dynamic' || stored.client.redirect_uris.includes(o.redirectUri)) ? stored.client : undefined;
    const client: RegisteredClient = reusable ?? (await (await import('./registration.js')).obtainClient(meta, o.redirectUri, o, { site: this.site, ...this.secretsAndFetch() }));
    if (client !== stored.client) await o.store.set(key, { ...stored, client });
    if (!o.authorize) {
      throw new OAuthError(this.site, 'authorization', `the server needs a login (OAuth at ${issuer}); run: mcpwire login ${o.server}`);
    }
    // Scope: the challenge's, else the PRM's scopes_supported, else the configured ones; offline_access only where the AS lists it.
    const scope = [...new Set([...(scopes ?? prm.scopes_supported ?? o.scopes ?? []), ...(meta.scopes_supported?.includes('offline_access') ? ['offline_access'] : [])])];
    const [{ createPkce, createState, stateMatches }, { exchangeCode }] = await Promise.all([import('./pkce.js'), import('./tokens.js')]);
    const pkce = createPkce();
    const state = createState();
    o.onSecret?.(pkce.verifier);
    const url = new URL(meta.authorization_endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', client.client_id);
    url.searchParams.set('redirect_uri', o.redirectUri);
    url.searchParams.set('code_challenge', pkce.challenge);
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('state', state);
    // RFC 8707 / MCP: the resource exactly as the PRM publishes it (a URL parser would add a "/" to a pathless one).
    url.searchParams.set('resource', prm.resource);
    if (scope.length > 0) url.searchParams.set('scope', scope.join(' '));
    const back = await o.authorize({ url, redirectUri: o.redirectUri, server: o.server });
    const returned = back.searchParams;
    // The state first: a callback that is not the answer to this request is not looked at further.
    if (!stateMatches(state, returned.get('state'))) throw new OAuthError(this.site, 'authorization', 'the authorization response did not carry the state this request sent; it is not used (a forged or replayed callback)');
    // RFC 9207: an AS that says it sends `iss` must send its own; one that sends a different one is a mix-up.
    const iss = returned.get('iss');
    if (iss !== null && iss !== meta.issuer) throw new OAuthError(this.site, 'authorization', `the authorization response came from issuer ${JSON.stringify(iss)}, not ${JSON.stringify(meta.issuer)} (RFC 9207); it is not used`);
    if (iss === null && meta.authorization_response_iss_parameter_supported === true) throw new OAuthError(this.site, 'authorization', `the authorization server ${meta.issuer} says it sends "iss" but the response has none (RFC 9207); it is not used`);
    const error = returned.get('error');
    if (error) throw new OAuthError(this.site, 'authorization', `the authorization was refused (${error.slice(0, 64)})`);
    const code = returned.get('code');
    if (!code) throw new OAuthError(this.site, 'authorization', 'the authorization response has no code');
    o.onSecret?.(code);
    const tokens = await exchangeCode(meta.token_endpoint, client, { code, verifier: pkce.verifier, redirectUri: o.redirectUri, resource: prm.resource }, this.tokenOptions());
    const next: StoredCredentials = { issuer, client, tokens };
    await o.store.set(key, next);
    this.current = next;
  }

  private secretsAndFetch(): { fetch?: FetchLike; onSecret?: (value: string) => void } {
    return { ...(this.options.fetch ? { fetch: this.options.fetch } : {}), ...(this.options.onSecret ? { onSecret: this.options.onSecret } : {}) };
  }

  /** What every token request is given: the site, fetch and scrubber, and the DPoP key when tokens are to be bound. */
  private tokenOptions(): TokenRequestOptions & { site: ErrorSite } {
    return { site: this.site, ...this.secretsAndFetch(), ...(this.dpopKey ? { dpop: this.dpopKey } : {}) };
  }
}
