// Discovery against a real HTTP server on 127.0.0.1 (#19 item 1 and its
// security tests): the URL order the spec gives, the checks made before
// anything is sent to an authorization server, bounded bodies, redirects.
// The SSRF rule needs a public server, which cannot run here: for it, a
// fetch that records what it was asked for and answers nothing stands in.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { OAuthError } from '../errors.js';
import { authorizationServerMetadataUrls, discoverAuthorizationServer, discoverProtectedResource, isInternalHost, legacyAuthorizationServer, nothingFound, protectedResourceMetadataUrls, refusedTarget, resourceNamesServer } from './discovery.js';

type Route = (path: string) => { status: number; body?: unknown; headers?: Record<string, string> } | undefined;

let server: Server;
let base: string;
let route: Route = () => undefined;
const seen: string[] = [];

before(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    const answer = route(req.url ?? '');
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

function serve(routes: Record<string, unknown>): void {
  seen.length = 0;
  route = (path) => (path in routes ? { status: 200, body: routes[path] } : undefined);
}

const GOOD_AS = (issuer: string) => ({ issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, code_challenge_methods_supported: ['S256'] });

describe('the URL orders', () => {
  test('PRM: the challenge\'s resource_metadata alone, else path-based then root', () => {
    assert.deepEqual(protectedResourceMetadataUrls('https://a.test/public/mcp', 'https://a.test/prm'), ['https://a.test/prm']);
    assert.deepEqual(protectedResourceMetadataUrls('https://a.test/public/mcp'), ['https://a.test/.well-known/oauth-protected-resource/public/mcp', 'https://a.test/.well-known/oauth-protected-resource']);
    assert.deepEqual(protectedResourceMetadataUrls('https://a.test/'), ['https://a.test/.well-known/oauth-protected-resource']);
  });

  test('AS metadata: RFC 8414 then OIDC, with the path inserted, then OIDC appended, for an issuer with a path', () => {
    assert.deepEqual(authorizationServerMetadataUrls('https://auth.test/tenant1'), [
      'https://auth.test/.well-known/oauth-authorization-server/tenant1',
      'https://auth.test/.well-known/openid-configuration/tenant1',
      'https://auth.test/tenant1/.well-known/openid-configuration',
    ]);
    assert.deepEqual(authorizationServerMetadataUrls('https://auth.test'), ['https://auth.test/.well-known/oauth-authorization-server', 'https://auth.test/.well-known/openid-configuration']);
  });
});

describe('protected resource metadata', () => {
  test('tried in order over real HTTP; the first that answers and names this server wins', async () => {
    serve({ '/.well-known/oauth-protected-resource': { resource: `${base}/mcp`, authorization_servers: [`${base}/as`] } });
    const prm = await discoverProtectedResource(`${base}/mcp`, undefined, { protocolVersion: '2025-11-25' });
    assert.deepEqual(prm.authorization_servers, [`${base}/as`]);
    assert.deepEqual(seen, ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']);
  });

  test('a resource of another origin or outside this path is refused before any authorization server is asked', async () => {
    for (const resource of ['https://evil.test/mcp', `${base}/other`]) {
      serve({ '/prm': { resource, authorization_servers: [`${base}/as`] } });
      await assert.rejects(discoverProtectedResource(`${base}/mcp`, `${base}/prm`), (e: unknown) => e instanceof OAuthError && e.step === 'resource-metadata' && /not this server/.test(e.message));
      assert.deepEqual(seen, ['/prm'], 'nothing else was fetched');
    }
    assert.ok(resourceNamesServer(`${base}/`, `${base}/mcp`));
    assert.ok(resourceNamesServer(`${base}/mcp`, `${base}/mcp/`));
    assert.ok(!resourceNamesServer(`${base}/mc`, `${base}/mcp`), 'a path prefix is by segment');
  });

  test('none found: one error listing every URL and why', async () => {
    serve({});
    await assert.rejects(discoverProtectedResource(`${base}/mcp`, undefined), (e: unknown) => e instanceof OAuthError && /oauth-protected-resource\/mcp answered HTTP 404; .*oauth-protected-resource answered HTTP 404/.test(e.message));
  });

  test('a body past 256 KiB, and a redirect to another origin, are not taken', async () => {
    seen.length = 0;
    route = (path) => (path === '/big' ? { status: 200, body: JSON.stringify({ resource: `${base}/mcp`, pad: 'x'.repeat(400_000) }) } : path === '/away' ? { status: 302, headers: { location: 'http://127.0.0.2:1/prm' } } : undefined);
    await assert.rejects(discoverProtectedResource(`${base}/mcp`, `${base}/big`), /sent more than 262144 bytes/);
    await assert.rejects(discoverProtectedResource(`${base}/mcp`, `${base}/away`), /redirected to another origin \(http:\/\/127\.0\.0\.2:1\); not followed/);
  });
});

describe('authorization server metadata', () => {
  test('found over real HTTP for an issuer with a path; checked and returned', async () => {
    serve({ '/.well-known/openid-configuration/tenant': GOOD_AS(`${base}/tenant`) });
    const meta = await discoverAuthorizationServer(`${base}/tenant`, `${base}/mcp`);
    assert.equal(meta.token_endpoint, `${base}/tenant/token`);
    assert.deepEqual(seen, ['/.well-known/oauth-authorization-server/tenant', '/.well-known/openid-configuration/tenant']);
  });

  test('a mix-up issuer is refused (RFC 8414 §3.3)', async () => {
    serve({ '/.well-known/oauth-authorization-server': GOOD_AS('https://other-issuer.test') });
    await assert.rejects(discoverAuthorizationServer(base, `${base}/mcp`), (e: unknown) => e instanceof OAuthError && e.step === 'authorization-server' && /is for issuer "https:\/\/other-issuer\.test"/.test(e.message));
  });

  test('PKCE downgrade: plain only, or the field absent, means no authorization request', async () => {
    for (const methods of [['plain'], undefined]) {
      const meta: Record<string, unknown> = { ...GOOD_AS(base) };
      if (methods) meta.code_challenge_methods_supported = methods;
      else delete meta.code_challenge_methods_supported;
      serve({ '/.well-known/oauth-authorization-server': meta });
      await assert.rejects(discoverAuthorizationServer(base, `${base}/mcp`), /does not list PKCE S256/);
    }
  });

  test('an endpoint over plain http to a non-loopback host is refused', async () => {
    serve({ '/.well-known/oauth-authorization-server': { ...GOOD_AS(base), token_endpoint: 'http://tokens.example.test/token' } });
    await assert.rejects(discoverAuthorizationServer(base, `${base}/mcp`), /token_endpoint is refused: it is http: and not https/);
  });
});

describe('SSRF: a public server cannot send us into internal networks', () => {
  test('resource_metadata pointing at link-local, private or loopback addresses is never fetched for a public server', async () => {
    const asked: string[] = [];
    const recording = async (input: string | URL) => {
      asked.push(String(input));
      return new Response('{}', { status: 404 });
    };
    for (const target of ['https://169.254.169.254/latest/meta-data', 'https://10.0.0.5/prm', 'https://[fd00::1]/prm', 'https://[::ffff:192.168.1.1]/prm', 'http://127.0.0.1:8080/prm', 'https://localhost/prm']) {
      await assert.rejects(discoverProtectedResource('https://mcp.example.com/mcp', target, { fetch: recording }), /not fetched: it points into a loopback, private or link-local network/);
    }
    assert.deepEqual(asked, [], 'the fetch was never called');
    assert.equal(refusedTarget('https://auth.example.com/x', 'https://mcp.example.com/mcp'), undefined);
    assert.equal(refusedTarget('http://127.0.0.1:9/x', 'http://127.0.0.1:8/mcp'), undefined, 'a loopback server may use loopback metadata');
    assert.match(refusedTarget('https://user:pw@auth.example.com/', 'https://mcp.example.com/') ?? '', /credentials/);
    assert.ok(isInternalHost('100.64.0.1') && isInternalHost('172.31.0.1') && !isInternalHost('172.32.0.1') && !isInternalHost('8.8.8.8'));
  });
});

describe('the 2025-03-26 fallbacks (no Protected Resource Metadata)', () => {
  test('the server\'s origin is the authorization server: its metadata if it has some, else the default endpoints', async () => {
    serve({ '/.well-known/oauth-authorization-server': GOOD_AS(base) });
    assert.equal((await legacyAuthorizationServer(`${base}/mcp`)).token_endpoint, `${base}/token`);
    serve({});
    assert.deepEqual(await legacyAuthorizationServer(`${base}/mcp`), {
      issuer: base,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      registration_endpoint: `${base}/register`,
      code_challenge_methods_supported: ['S256'],
    });
  });

  test('metadata that is there but refused (another issuer) is not replaced by the defaults', async () => {
    serve({ '/.well-known/oauth-authorization-server': GOOD_AS(`${base}/oauth`) });
    await assert.rejects(legacyAuthorizationServer(`${base}/mcp`), /is for issuer/);
    serve({});
    await assert.rejects(discoverProtectedResource(`${base}/mcp`, undefined), (e: unknown) => nothingFound(e));
    serve({ '/prm': { resource: 'https://elsewhere.test/' } });
    await assert.rejects(discoverProtectedResource(`${base}/mcp`, `${base}/prm`), (e: unknown) => e instanceof OAuthError && !nothingFound(e));
  });
});
