// A protected MCP server and its authorization server on one node:http
// server on 127.0.0.1, for the OAuth tests (#19): Protected Resource
// Metadata, RFC 8414 metadata, dynamic registration, an /authorize that
// redirects straight back (as the official suite's mocks do), a token
// endpoint that checks PKCE and issues short-lived tokens with rotation, and
// an MCP endpoint that answers initialize, tools/list and an echo tools/call
// only to a valid bearer. Every request is recorded with its Authorization
// header, so a test can prove where the bearer went.
//
// For the machine grants (#19, SPEC A1) the token endpoint also takes
// client_credentials (a client secret by HTTP Basic, or a private_key_jwt
// assertion it verifies against the client's public key) and the JWT-bearer
// grant (an assertion from a set it accepts); with `dpop` it issues only
// DPoP-bound tokens and the MCP endpoint checks each proof (signature, htm,
// htu, ath, the key's thumbprint, a jti never seen before, and its own nonce
// when `rsNonce` is set).

import { createHash, createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OAuthFixtureOptions {
  /** Seconds an access token lives. Default 3600. */
  expiresIn?: number;
  /** Overrides of the AS metadata (drop S256, change the issuer …). */
  asMetadata?: Record<string, unknown>;
  /** Overrides of the PRM (another resource …). */
  prm?: Record<string, unknown>;
  /** The scope a tools/call needs beyond a valid token (a 403 insufficient_scope otherwise). */
  callScope?: string;
  /** Scopes the AS will ever grant (others asked for are dropped); default all. */
  grantOnly?: readonly string[];
  /** The MCP endpoint refuses every token (a broken resource server). */
  refuseAllTokens?: boolean;
  /** Clients the token endpoint knows for client_credentials: a secret (client_secret_basic) or a public key (private_key_jwt, ES256). */
  machineClients?: Record<string, { secret?: string; publicKey?: KeyObject }>;
  /** JWT-bearer assertions the token endpoint accepts (RFC 7523 §2.1); each other one is invalid_grant. */
  acceptAssertions?: readonly string[];
  /** An enterprise IdP at /idp/token: token exchange (RFC 8693) of one of these ID tokens for an ID-JAG the AS then accepts. */
  idpIdTokens?: readonly string[];
  /** Issue only DPoP-bound tokens (RFC 9449) and require a valid proof with each at the MCP endpoint. */
  dpop?: boolean;
  /** With dpop: the MCP endpoint wants this nonce in each proof (a use_dpop_nonce 401 with DPoP-Nonce otherwise). */
  rsNonce?: string;
}

export interface RecordedOAuthRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  /** The DPoP proof header, if any. */
  dpop?: string;
  /** The request body as sent (a token request's form). */
  body: string;
}

export interface OAuthFixture {
  base: string;
  /** The MCP endpoint. */
  url: string;
  issuer: string;
  requests: RecordedOAuthRequest[];
  /** Invalidate every refresh token (a revocation), or every access token (the server forgets them). */
  revokeRefreshTokens(): void;
  expireAccessTokens(): void;
  /** Counts by endpoint. */
  count(path: string): number;
  /** Every jti of a client assertion or DPoP proof the fixture verified, in order (a repeat is refused there). */
  jtis: string[];
  close(): Promise<void>;
}

export async function startOAuthFixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const requests: RecordedOAuthRequest[] = [];
  const codes = new Map<string, { challenge: string; clientId: string; redirectUri: string; scope: string }>();
  const access = new Map<string, { scope: string }>();
  const refresh = new Map<string, { scope: string }>();
  const clients = new Set<string>();
  const jtis: string[] = [];
  const jags = new Set<string>();
  /** The DPoP key thumbprint each bound access token was issued to. */
  const bound = new Map<string, string>();
  let base = '';
  const issue = (asked: string, machine = false, jkt?: string) => {
    const scope = options.grantOnly ? asked.split(' ').filter((s) => options.grantOnly!.includes(s)).join(' ') : asked;
    const at = `at-${randomBytes(8).toString('hex')}`;
    access.set(at, { scope });
    if (jkt) bound.set(at, jkt);
    const type = jkt ? 'DPoP' : 'Bearer';
    // A machine grant gets no refresh token (OAuth 2.1 §4.2.3): it runs its grant again.
    if (machine) return { access_token: at, token_type: type, expires_in: options.expiresIn ?? 3600, scope };
    const rt = `rt-${randomBytes(8).toString('hex')}`;
    refresh.set(rt, { scope });
    return { access_token: at, token_type: type, expires_in: options.expiresIn ?? 3600, refresh_token: rt, scope };
  };
  /** A compact JWS verified with `key` (or the jwk in its header): its header and claims, or undefined. */
  const verified = (jwt: string | undefined, key?: KeyObject): { header: Record<string, unknown>; claims: Record<string, unknown>; key: KeyObject } | undefined => {
    const parts = (jwt ?? '').split('.');
    if (parts.length !== 3) return undefined;
    try {
      const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString()) as Record<string, unknown>;
      const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString()) as Record<string, unknown>;
      const k = key ?? createPublicKey({ key: header.jwk as never, format: 'jwk' });
      const ok = header.alg === 'ES256' && verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key: k, dsaEncoding: 'ieee-p1363' }, Buffer.from(parts[2]!, 'base64url'));
      if (!ok || typeof claims.jti !== 'string' || jtis.includes(claims.jti)) return undefined;
      jtis.push(claims.jti);
      return { header, claims, key: k };
    } catch {
      return undefined;
    }
  };
  const thumbprint = (key: KeyObject) => {
    const jwk = key.export({ format: 'jwk' });
    return createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest('base64url');
  };
  /** A DPoP proof for this request: its key's thumbprint, or undefined when it is not valid. */
  const proofKey = (proof: string | undefined, method: string, url: URL, token?: string): { jkt: string; nonce: unknown } | undefined => {
    const got = verified(proof);
    if (!got || got.header.typ !== 'dpop+jwt' || got.claims.htm !== method || got.claims.htu !== `${url.origin}${url.pathname}`) return undefined;
    if (token !== undefined && got.claims.ath !== createHash('sha256').update(token).digest('base64url')) return undefined;
    return { jkt: thumbprint(got.key), nonce: got.claims.nonce };
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    let raw = '';
    for await (const chunk of req) raw += chunk;
    requests.push({ method: req.method ?? '', path: url.pathname, authorization: req.headers.authorization, ...(typeof req.headers.dpop === 'string' ? { dpop: req.headers.dpop } : {}), body: raw });
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    switch (url.pathname) {
      case '/.well-known/oauth-protected-resource/mcp':
        return json(200, { resource: `${base}/mcp`, authorization_servers: [`${base}/as`], scopes_supported: ['mcp:tools'], ...(options.dpop ? { dpop_bound_access_tokens_required: true } : {}), ...options.prm });
      case '/.well-known/oauth-authorization-server/as':
        return json(200, {
          issuer: `${base}/as`,
          authorization_endpoint: `${base}/as/authorize`,
          token_endpoint: `${base}/as/token`,
          registration_endpoint: `${base}/as/register`,
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
          authorization_response_iss_parameter_supported: true,
          ...(options.machineClients ? { grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:jwt-bearer'], token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'private_key_jwt'], token_endpoint_auth_signing_alg_values_supported: ['ES256'] } : {}),
          ...(options.dpop ? { dpop_signing_alg_values_supported: ['ES256'] } : {}),
          ...options.asMetadata,
        });
      case '/as/register': {
        const body = JSON.parse(raw || '{}') as { redirect_uris?: string[] };
        const id = `client-${randomBytes(4).toString('hex')}`;
        clients.add(id);
        return json(201, { client_id: id, redirect_uris: body.redirect_uris, token_endpoint_auth_method: 'none' });
      }
      case '/as/authorize': {
        const q = url.searchParams;
        if (q.get('code_challenge_method') !== 'S256' || !clients.has(q.get('client_id') ?? '')) return json(400, { error: 'invalid_request' });
        const code = `code-${randomBytes(8).toString('hex')}`;
        codes.set(code, { challenge: q.get('code_challenge') ?? '', clientId: q.get('client_id')!, redirectUri: q.get('redirect_uri') ?? '', scope: q.get('scope') ?? '' });
        const back = new URL(q.get('redirect_uri')!);
        back.searchParams.set('code', code);
        back.searchParams.set('state', q.get('state') ?? '');
        back.searchParams.set('iss', `${base}/as`);
        return res.writeHead(302, { location: back.href }).end();
      }
      case '/as/token': {
        const form = new URLSearchParams(raw);
        let jkt: string | undefined;
        if (options.dpop) {
          jkt = proofKey(typeof req.headers.dpop === 'string' ? req.headers.dpop : undefined, 'POST', url)?.jkt;
          if (!jkt) return json(400, { error: 'invalid_dpop_proof' });
        }
        const grantType = form.get('grant_type');
        if (grantType === 'client_credentials') {
          const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
          const [id, secret] = basic ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent) : [form.get('client_id') ?? '', undefined];
          const known = options.machineClients?.[id ?? ''];
          const signed = known?.publicKey && form.get('client_assertion_type') === 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' ? verified(form.get('client_assertion') ?? undefined, known.publicKey) : undefined;
          const assertionOk = signed !== undefined && signed.claims.iss === id && signed.claims.sub === id && signed.claims.aud === `${base}/as`;
          if (!known || !((known.secret !== undefined && secret === known.secret) || assertionOk)) return json(401, { error: 'invalid_client' });
          return json(200, issue(form.get('scope') ?? '', true, jkt));
        }
        if (grantType === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
          if (!options.acceptAssertions?.includes(form.get('assertion') ?? '') && !jags.has(form.get('assertion') ?? '')) return json(400, { error: 'invalid_grant', error_description: `assertion ${form.get('assertion')} is not accepted` });
          return json(200, issue(form.get('scope') ?? '', true, jkt));
        }
        if (grantType === 'authorization_code') {
          const grant = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          if (!grant || createHash('sha256').update(verifier).digest('base64url') !== grant.challenge || grant.redirectUri !== form.get('redirect_uri')) return json(400, { error: 'invalid_grant' });
          return json(200, issue(grant.scope, false, jkt));
        }
        if (form.get('grant_type') === 'refresh_token') {
          const old = refresh.get(form.get('refresh_token') ?? '');
          if (!old) return json(400, { error: 'invalid_grant' });
          refresh.delete(form.get('refresh_token')!); // rotation: each refresh token is good once
          return json(200, issue(old.scope, false, jkt));
        }
        return json(400, { error: 'unsupported_grant_type' });
      }
      case '/idp/token': {
        const form = new URLSearchParams(raw);
        const ok = form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:token-exchange' && form.get('requested_token_type') === 'urn:ietf:params:oauth:token-type:id-jag' && form.get('audience') === `${base}/as` && form.get('resource') === `${base}/mcp`;
        if (!ok || !options.idpIdTokens?.includes(form.get('subject_token') ?? '')) return json(400, { error: 'invalid_grant', error_description: `subject_token ${form.get('subject_token')} refused` });
        const jag = `jag-${randomBytes(8).toString('hex')}`;
        jags.add(jag);
        return json(200, { access_token: jag, issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A', expires_in: 300 });
      }
      case '/mcp': {
        const [, scheme, token] = /^(Bearer|DPoP) (.+)$/.exec(req.headers.authorization ?? '') ?? [];
        let granted = token && !options.refuseAllTokens ? access.get(token) : undefined;
        const challenge = `${options.dpop ? 'DPoP algs="ES256", ' : ''}Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`;
        if (granted && options.dpop) {
          // RFC 9449 §7: a bound token only with the DPoP scheme and a proof by the key it was bound to.
          const proof = scheme === 'DPoP' ? proofKey(typeof req.headers.dpop === 'string' ? req.headers.dpop : undefined, req.method ?? '', url, token) : undefined;
          if (!proof || proof.jkt !== bound.get(token!)) granted = undefined;
          else if (options.rsNonce !== undefined && proof.nonce !== options.rsNonce) {
            return json(401, { error: 'use_dpop_nonce' }, { 'www-authenticate': 'DPoP error="use_dpop_nonce", algs="ES256"', 'dpop-nonce': options.rsNonce });
          }
        }
        if (!granted) return json(401, { error: 'invalid_token' }, { 'www-authenticate': `${challenge}, error="invalid_token"` });
        const message = JSON.parse(raw || '{}') as { id?: unknown; method?: string; params?: { arguments?: { text?: string } } };
        if (message.id === undefined) return res.writeHead(202).end();
        if (message.method === 'tools/call' && options.callScope && !granted.scope.split(' ').includes(options.callScope)) {
          return json(403, { error: 'insufficient_scope' }, { 'www-authenticate': `${challenge}, error="insufficient_scope", scope="${[...granted.scope.split(' ').filter(Boolean), options.callScope].join(' ')}"` });
        }
        const result =
          message.method === 'initialize'
            ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'oauth-fixture', version: '1' } }
            : message.method === 'tools/list'
              ? { tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }] }
              : message.method === 'tools/call'
                ? { content: [{ type: 'text', text: message.params?.arguments?.text ?? '' }] }
                : {};
        return json(200, { jsonrpc: '2.0', id: message.id, result });
      }
      default:
        return json(404, { error: 'not_found' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    url: `${base}/mcp`,
    issuer: `${base}/as`,
    requests,
    revokeRefreshTokens: () => refresh.clear(),
    expireAccessTokens: () => access.clear(),
    count: (path) => requests.filter((r) => r.path === path).length,
    jtis,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
