// A protected MCP server and its authorization server on one node:http
// server on 127.0.0.1, for the OAuth tests (#19): Protected Resource
// Metadata, RFC 8414 metadata, dynamic registration, an /authorize that
// redirects straight back (as the official suite's mocks do), a token
// endpoint that checks PKCE and issues short-lived tokens with rotation, and
// an MCP endpoint that answers initialize, tools/list and an echo tools/call
// only to a valid bearer. Every request is recorded with its Authorization
// header, so a test can prove where the bearer went.

import { createHash, randomBytes } from 'node:crypto';
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
}

export interface RecordedOAuthRequest {
  method: string;
  path: string;
  authorization: string | undefined;
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
  close(): Promise<void>;
}

export async function startOAuthFixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const requests: RecordedOAuthRequest[] = [];
  const codes = new Map<string, { challenge: string; clientId: string; redirectUri: string; scope: string }>();
  const access = new Map<string, { scope: string }>();
  const refresh = new Map<string, { scope: string }>();
  const clients = new Set<string>();
  let base = '';
  const issue = (asked: string) => {
    const scope = options.grantOnly ? asked.split(' ').filter((s) => options.grantOnly!.includes(s)).join(' ') : asked;
    const at = `at-${randomBytes(8).toString('hex')}`;
    const rt = `rt-${randomBytes(8).toString('hex')}`;
    access.set(at, { scope });
    refresh.set(rt, { scope });
    return { access_token: at, token_type: 'Bearer', expires_in: options.expiresIn ?? 3600, refresh_token: rt, scope };
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    requests.push({ method: req.method ?? '', path: url.pathname, authorization: req.headers.authorization });
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    switch (url.pathname) {
      case '/.well-known/oauth-protected-resource/mcp':
        return json(200, { resource: `${base}/mcp`, authorization_servers: [`${base}/as`], scopes_supported: ['mcp:tools'], ...options.prm });
      case '/.well-known/oauth-authorization-server/as':
        return json(200, {
          issuer: `${base}/as`,
          authorization_endpoint: `${base}/as/authorize`,
          token_endpoint: `${base}/as/token`,
          registration_endpoint: `${base}/as/register`,
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
          authorization_response_iss_parameter_supported: true,
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
        if (form.get('grant_type') === 'authorization_code') {
          const grant = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          if (!grant || createHash('sha256').update(verifier).digest('base64url') !== grant.challenge || grant.redirectUri !== form.get('redirect_uri')) return json(400, { error: 'invalid_grant' });
          return json(200, issue(grant.scope));
        }
        if (form.get('grant_type') === 'refresh_token') {
          const old = refresh.get(form.get('refresh_token') ?? '');
          if (!old) return json(400, { error: 'invalid_grant' });
          refresh.delete(form.get('refresh_token')!); // rotation: each refresh token is good once
          return json(200, issue(old.scope));
        }
        return json(400, { error: 'unsupported_grant_type' });
      }
      case '/mcp': {
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        const granted = token && !options.refuseAllTokens ? access.get(token) : undefined;
        const challenge = `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`;
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
