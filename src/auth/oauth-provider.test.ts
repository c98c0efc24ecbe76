// The whole flow through the real Streamable HTTP transport and McpClient
// against a protected MCP server and its authorization server on 127.0.0.1
// (src/testing/oauth-fixture.ts): a 401, discovery, registration, PKCE, the
// redirect, the exchange, the retried request; then what the issue's
// security list asks: the bearer goes to the MCP origin only, an expired
// token is refreshed once however many requests meet it, a revoked refresh
// token leads to a new authorization, stored credentials are used by the
// next connection with no new login, step-up stops at its bound, and no
// token or code reaches an error.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { describe, test, type TestContext } from 'node:test';
import { McpClient } from '../client/client.js';
import { AuthError, OAuthError } from '../errors.js';
import { StreamableHttpTransport } from '../transport/streamable-http.js';
import { startOAuthFixture, type OAuthFixture, type OAuthFixtureOptions } from '../testing/oauth-fixture.js';
import { headlessAuthorizer } from './headless.js';
import { OAuthProvider, type OAuthProviderOptions } from './oauth-provider.js';
import { credentialKey, FileCredentialStore, MemoryCredentialStore, type CredentialStore } from './store.js';

const REDIRECT = 'http://127.0.0.1:1/callback';

async function fixture(t: TestContext, options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const f = await startOAuthFixture(options);
  t.after(() => f.close());
  return f;
}

function provider(f: OAuthFixture, store: CredentialStore, extra: Partial<OAuthProviderOptions> = {}): { provider: OAuthProvider; secrets: string[] } {
  const secrets: string[] = [];
  return { provider: new OAuthProvider({ serverUrl: f.url, server: 'protected', store, redirectUri: REDIRECT, authorize: headlessAuthorizer(), onSecret: (s) => secrets.push(s), ...extra }), secrets };
}

async function connected(t: TestContext, f: OAuthFixture, headerProvider: OAuthProvider): Promise<McpClient> {
  const client = new McpClient(new StreamableHttpTransport({ url: f.url, server: 'protected', headerProvider, listen: false }), { protocolEra: 'legacy', timeoutMs: 15_000 });
  t.after(() => client.close());
  await client.connect();
  return client;
}

const text = (result: { content: readonly { type: string; text?: string }[] }) => result.content.map((b) => b.text ?? '').join('');

describe('#19: the OAuth flow end to end', () => {
  test('a 401 on initialize runs discovery, registration, PKCE and the exchange; the retried request and the next ones carry the token', async (t) => {
    const f = await fixture(t);
    const store = new MemoryCredentialStore();
    const { provider: p } = provider(f, store);
    const client = await connected(t, f, p);
    assert.equal(text(await client.callTool('echo', { text: 'authorized' })), 'authorized');
    assert.equal(f.count('/as/register'), 1);
    assert.equal(f.count('/as/token'), 1);
    assert.equal(store.keys().length, 1, 'stored under resource + issuer');
    const mcp = f.requests.filter((r) => r.path === '/mcp');
    assert.equal(mcp[0]!.authorization, undefined, 'the first request had no token: it met the 401');
    assert.ok(mcp.slice(1).every((r) => /^Bearer at-/.test(r.authorization ?? '')), 'every later MCP request has the bearer');
  });

  test('the bearer never reaches the authorization server or the metadata hosts', async (t) => {
    const f = await fixture(t);
    const client = await connected(t, f, provider(f, new MemoryCredentialStore()).provider);
    await client.listTools();
    const elsewhere = f.requests.filter((r) => r.path !== '/mcp');
    assert.ok(elsewhere.length >= 4, 'PRM, AS metadata, register, authorize, token were all asked');
    assert.ok(elsewhere.every((r) => !r.authorization?.startsWith('Bearer')), `a bearer went to: ${elsewhere.filter((r) => r.authorization).map((r) => r.path).join(', ')}`);
  });

  test('a second connection with the same store uses the stored token: no new registration or authorization', async (t) => {
    const f = await fixture(t);
    const store = new MemoryCredentialStore();
    await (await connected(t, f, provider(f, store).provider)).listTools();
    const again = await connected(t, f, provider(f, store).provider);
    assert.equal(text(await again.callTool('echo', { text: 'again' })), 'again');
    assert.equal(f.count('/as/register'), 1);
    assert.equal(f.count('/as/authorize'), 1);
  });

  test('#19 item 3: a new connection sends the one token stored for its resource from the first request on: no 401, no discovery', async (t) => {
    const f = await fixture(t);
    const store = new MemoryCredentialStore();
    await (await connected(t, f, provider(f, store).provider)).listTools();
    const mark = f.requests.length;
    const again = await connected(t, f, provider(f, store).provider);
    assert.equal(text(await again.callTool('echo', { text: 'first' })), 'first');
    const later = f.requests.slice(mark);
    assert.ok(later.every((r) => r.path === '/mcp' && /^Bearer at-/.test(r.authorization ?? '')), JSON.stringify(later.map((r) => [r.path, r.authorization])));
  });

  test('#19 item 3: a stored entry for another issuer (the server moved) is dropped once discovery finds the new one: its refresh token is never sent to the new AS', async (t) => {
    const f = await fixture(t);
    const store = new MemoryCredentialStore();
    const refresh = `rt-CANARY-${Date.now()}`;
    store.set(credentialKey(f.url, 'https://old-as.example.com'), { issuer: 'https://old-as.example.com', client: { client_id: 'old', how: 'registered' } as never, tokens: { access_token: 'at-old', token_type: 'Bearer', refresh_token: refresh, expires_at: Date.now() - 60_000 } });
    const client = await connected(t, f, provider(f, store).provider);
    assert.equal(text(await client.callTool('echo', { text: 'moved' })), 'moved');
    assert.ok(f.requests.every((r) => !r.body.includes(refresh) && !(r.authorization ?? '').includes('at-old')), 'neither old credential went anywhere');
    assert.equal(f.count('/as/authorize'), 1, 'a login at the new AS');
  });

  test('#19 item 3: the store is searched for the resource once per provider, not on every request', async (t) => {
    const f = await fixture(t);
    const store = new MemoryCredentialStore();
    let listed = 0;
    const counting: CredentialStore = { get: (k) => store.get(k), set: (k, v) => store.set(k, v), delete: (k) => store.delete(k), keys: () => (listed++, store.keys()) };
    const client = await connected(t, f, provider(f, counting).provider);
    for (let i = 0; i < 5; i++) await client.callTool('echo', { text: String(i) });
    assert.equal(listed, 1);
  });

  test('#19 item 3: two stored entries for the resource (two issuers): none is guessed at; the first request goes without a token', async (t) => {
    const f = await fixture(t);
    const store = new MemoryCredentialStore();
    for (const issuer of ['https://a.example.com', 'https://b.example.com']) store.set(credentialKey(f.url, issuer), { issuer, tokens: { access_token: `at-${issuer.slice(8, 9)}-x`, token_type: 'Bearer' } });
    const client = await connected(t, f, provider(f, store).provider);
    await client.listTools();
    assert.equal(f.requests.find((r) => r.path === '/mcp')!.authorization, undefined);
  });

  test('an access token the server no longer accepts is refreshed once, however many requests meet the 401 together; the rotated refresh token is stored', async (t) => {
    const f = await fixture(t);
    const store = new MemoryCredentialStore();
    const client = await connected(t, f, provider(f, store).provider);
    const before = JSON.stringify(store.get(store.keys()[0]!)?.tokens);
    f.expireAccessTokens();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => client.callTool('echo', { text: `n${i}` })));
    assert.deepEqual(answers.map(text), Array.from({ length: 8 }, (_, i) => `n${i}`));
    const refreshes = f.requests.filter((r) => r.path === '/as/token').length - 1;
    assert.equal(refreshes, 1, 'one refresh for eight requests');
    assert.notEqual(JSON.stringify(store.get(store.keys()[0]!)?.tokens), before, 'the new tokens are stored');
  });

  test('a revoked refresh token leads to a new authorization, not a failure', async (t) => {
    const f = await fixture(t);
    const client = await connected(t, f, provider(f, new MemoryCredentialStore()).provider);
    f.expireAccessTokens();
    f.revokeRefreshTokens();
    assert.equal(text(await client.callTool('echo', { text: 'after revoke' })), 'after revoke');
    assert.equal(f.count('/as/authorize'), 2);
  });

  test('without an authorizer (a daemon), a server that needs a login fails with an OAuthError that names the command to run', async (t) => {
    const f = await fixture(t);
    const { authorize: _none, ...rest } = { authorize: undefined };
    void _none;
    const p = new OAuthProvider({ serverUrl: f.url, server: 'protected', store: new MemoryCredentialStore(), redirectUri: REDIRECT, ...rest });
    const client = new McpClient(new StreamableHttpTransport({ url: f.url, server: 'protected', headerProvider: p, listen: false }), { protocolEra: 'legacy', timeoutMs: 15_000 });
    t.after(() => client.close());
    await assert.rejects(client.connect(), (e: unknown) => {
      const text = `${String(e)} ${inspect(e, { depth: 5 })}`;
      assert.match(text, /needs a login \(OAuth at http:\/\/127\.0\.0\.1:\d+\/as\); run: mcpwire login protected/);
      return true;
    });
  });

  test('step-up on 403 insufficient_scope asks for the union of scopes once; the call then succeeds', async (t) => {
    const f = await fixture(t, { callScope: 'mcp:write' });
    const client = await connected(t, f, provider(f, new MemoryCredentialStore()).provider);
    assert.equal(text(await client.callTool('echo', { text: 'stepped up' })), 'stepped up');
    assert.equal(f.count('/as/authorize'), 2, 'the login, then one step-up');
  });

  test('the authorization server never grants the scope: step-ups stop at their bound and the calls fail with AuthError 403', async (t) => {
    const f = await fixture(t, { callScope: 'mcp:admin', grantOnly: ['mcp:tools'] });
    const client = await connected(t, f, provider(f, new MemoryCredentialStore()).provider);
    for (let i = 0; i < 4; i++) await assert.rejects(client.callTool('echo', { text: 'x' }), (e: unknown) => e instanceof AuthError && e.status === 403);
    assert.equal(f.count('/as/authorize'), 3, 'the login and two step-ups, however many calls ask');
  });

  test('a server that refuses every token: renewals stop after two fruitless ones, and the request fails with AuthError 401', async (t) => {
    const f = await fixture(t, { refuseAllTokens: true });
    const p = provider(f, new MemoryCredentialStore()).provider;
    for (let i = 0; i < 4; i++) {
      // A host that keeps reconnecting with the same provider (a supervisor's restarts).
      const client = new McpClient(new StreamableHttpTransport({ url: f.url, server: 'protected', headerProvider: p, listen: false }), { protocolEra: 'legacy', timeoutMs: 15_000 });
      t.after(() => client.close());
      await assert.rejects(client.connect(), (e: unknown) => e instanceof AuthError && e.status === 401);
    }
    assert.ok(f.count('/as/authorize') <= 2, `authorizations: ${f.count('/as/authorize')}`);
  });

  test('nothing the flow learned (tokens, codes, verifiers) appears in a later error; the file store is mode 0600', async (t) => {
    const f = await fixture(t);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-oauth-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'credentials.json');
    let allow = true;
    const authorize = headlessAuthorizer();
    const { provider: p, secrets } = provider(f, new FileCredentialStore(file), {
      authorize: (request) => (allow ? authorize(request) : Promise.reject(new Error('the user closed the browser'))),
    });
    const client = await connected(t, f, p);
    assert.equal(statSync(file).mode & 0o777, 0o600, 'owner-only');
    assert.ok(secrets.length >= 4, `the flow reported its secrets (tokens, verifier, code): ${secrets.length}`);
    // Now make every renewal fail: the server forgets the token, the refresh token is revoked, the user says no.
    f.expireAccessTokens();
    f.revokeRefreshTokens();
    allow = false;
    let caught: unknown;
    await assert.rejects(client.callTool('echo', { text: 'x' }), (e) => ((caught = e), true));
    const shown = `${String(caught)}\n${(caught as Error).stack}\n${inspect(caught, { depth: 8 })}\n${JSON.stringify(caught)}`;
    for (const secret of secrets) assert.ok(!shown.includes(secret), 'a secret of the flow is shown');
  });
});
