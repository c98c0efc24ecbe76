// A1 (#19 item 1): the machine grants and DPoP through connect() and
// ServerParams.oauth, against a protected MCP server and its authorization
// server on 127.0.0.1 (src/testing/oauth-fixture.ts), which verifies what it
// is sent: client_secret_basic, a private_key_jwt assertion's signature and
// claims, the JWT-bearer assertion, each DPoP proof (signature, htm, htu,
// ath, the bound key, a jti never seen, the resource server's nonce).
// The security list of the issue: no browser for a machine client; every
// secret (client secret, private key, assertion) a canary that must reach
// neither the MCP server nor any error; jti unique; the DPoP private key
// never stored and never in a proof; the token only to the MCP origin.

import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { describe, test, type TestContext } from 'node:test';
import { DpopKey } from '../src/auth/dpop.js';
import { grantOptions } from '../src/auth/settings.js';
import type { OAuthSettings } from '../src/auth/settings.js';
import { connect, FileCredentialStore, MemoryCredentialStore, type Authorizer } from '../src/index.js';
import { OAuthError } from '../src/errors.js';
import { startOAuthFixture, type OAuthFixture, type OAuthFixtureOptions } from '../src/testing/oauth-fixture.js';
import { tempDir } from './helpers/temp.js';

const canary = (what: string) => `${what}-CANARY-${randomBytes(8).toString('hex')}`;

async function fixture(t: TestContext, options: OAuthFixtureOptions): Promise<OAuthFixture> {
  const f = await startOAuthFixture(options);
  t.after(() => f.close());
  return f;
}

/** An authorizer that fails the test if a machine client ever tries to send someone to a browser. */
const noBrowser: Authorizer = () => {
  throw new Error('a machine client opened an authorization request');
};

async function open(t: TestContext, f: OAuthFixture, oauth: OAuthSettings) {
  const client = await connect({ transport: 'streamable-http', url: f.url, server: 'machine', protocolEra: 'legacy', oauth: { store: new MemoryCredentialStore(), authorize: noBrowser, ...oauth } });
  t.after(() => client.close());
  return client;
}

const text = (result: { content: readonly { type: string; text?: string }[] }) => result.content.map((b) => b.text ?? '').join('');

/** Every way an error can be shown: none may hold a secret. */
function assertNoSecret(error: unknown, secrets: readonly string[]): void {
  const e = error as Error;
  for (const shown of [e.message, e.stack ?? '', JSON.stringify(e), inspect(e, { depth: 10 }), String((e as { cause?: unknown }).cause ?? '')]) {
    for (const secret of secrets) assert.ok(!shown.includes(secret), `a secret reached the error: ${shown.slice(0, 300)}`);
  }
}

/** The token goes to the MCP endpoint only, and the client's credentials only to the token endpoint. */
function assertWhereThingsWent(f: OAuthFixture, credentials: readonly string[]): void {
  for (const r of f.requests) {
    if (r.path !== '/mcp') assert.ok(!/^(Bearer|DPoP) at-/.test(r.authorization ?? ''), `the access token went to ${r.path}`);
    if (r.path !== '/as/token') for (const c of credentials) assert.ok(!`${r.authorization ?? ''} ${r.body} ${r.dpop ?? ''}`.includes(c), `a client credential went to ${r.path}`);
  }
  assert.equal(f.count('/as/authorize'), 0, 'no authorization request');
  assert.equal(f.count('/as/register'), 0, 'no registration: the client is configured');
}

describe('A1: client_credentials (#19 item 1)', () => {
  test('A1: client_secret_basic: the grant runs on the 401 with no browser; the tools answer; the secret only to the token endpoint, in Basic', async (t) => {
    const secret = canary('secret');
    const f = await fixture(t, { machineClients: { 'svc-1': { secret } } });
    const client = await open(t, f, { grant: 'client_credentials', clientId: 'svc-1', clientSecret: secret });
    assert.equal(text(await client.callTool('echo', { text: 'machine' })), 'machine');
    const token = f.requests.find((r) => r.path === '/as/token')!;
    assert.equal(new URLSearchParams(token.body).get('grant_type'), 'client_credentials');
    assert.equal(token.authorization, `Basic ${Buffer.from(`svc-1:${secret}`).toString('base64')}`);
    assertWhereThingsWent(f, [secret]);
  });

  test('A1: a refused client secret fails connect() with an OAuthError naming the refusal, never the secret', async (t) => {
    const secret = canary('secret');
    const f = await fixture(t, { machineClients: { 'svc-1': { secret: 'the-right-one' } } });
    await assert.rejects(open(t, f, { grant: 'client_credentials', clientId: 'svc-1', clientSecret: secret }), (error) => {
      assert.ok(error instanceof OAuthError, String(error));
      assert.match(error.message, /invalid_client/);
      assertNoSecret(error, [secret]);
      return true;
    });
  });

  test('A1: private_key_jwt: a signed assertion (iss = sub = client, aud = issuer) the AS verifies; the grant again when the token is gone, with a fresh jti; the key never sent', async (t) => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const f = await fixture(t, { machineClients: { 'svc-2': { publicKey } } });
    const client = await open(t, f, { grant: 'client_credentials', clientId: 'svc-2', privateKey: pem });
    assert.equal(text(await client.callTool('echo', { text: 'one' })), 'one');
    f.expireAccessTokens();
    assert.equal(text(await client.callTool('echo', { text: 'two' })), 'two', 'a refused token: the grant runs again');
    assert.equal(f.count('/as/token'), 2);
    const forms = f.requests.filter((r) => r.path === '/as/token').map((r) => new URLSearchParams(r.body));
    assert.ok(forms.every((form) => form.get('client_assertion_type') === 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'));
    assert.equal(new Set(f.jtis).size, 2, 'two assertions, two jtis (the AS refuses a repeat)');
    const keyBody = pem.split('\n').slice(1, -2).join('');
    for (const r of f.requests) assert.ok(!`${r.body}${r.authorization ?? ''}`.includes(keyBody.slice(0, 40)), `the private key went to ${r.path}`);
    assertWhereThingsWent(f, [keyBody.slice(0, 40)]);
  });

  test('A1: a private key that is no PEM, or a grant without its credential, is a TypeError before anything is sent, never quoting the key', async (t) => {
    const key = canary('key');
    const f = await fixture(t, { machineClients: {} });
    await assert.rejects(open(t, f, { grant: 'client_credentials', clientId: 'a', privateKey: `-----BEGIN PRIVATE KEY-----\n${key}\n-----END PRIVATE KEY-----\n` }), (error) => {
      assert.ok(error instanceof TypeError, String(error));
      assert.match(error.message, /not a PEM private key/);
      assertNoSecret(error, [key]);
      return true;
    });
    await assert.rejects(open(t, f, { grant: 'client_credentials', clientId: 'a' }), /needs oauth.clientSecret or oauth.privateKey/);
    assert.throws(() => grantOptions({ clientSecret: 's', privateKey: key }), /for machine clients: set oauth.grant/);
    assert.throws(() => grantOptions({ grant: 'password' as never }), /oauth.grant must be authorization_code, client_credentials or jwt_bearer/);
    await assert.rejects(open(t, f, { grant: 'jwt_bearer', clientId: 'a', idp: { tokenEndpoint: 'http://idp.example.com/token', clientId: 'i', idToken: key } }), /must be an https URL \(http only to loopback\): the ID token is sent there/);
    assert.equal(f.requests.length, 0, 'nothing was sent');
  });
});

describe('A1: the JWT-bearer grant (#19 item 1)', () => {
  test('A1: a workload token from a file, read afresh at each grant (a rotated token is used); no browser', async (t) => {
    const [first, second] = [canary('jwt1'), canary('jwt2')];
    const file = path.join(tempDir(t, 'a1'), 'token.jwt');
    writeFileSync(file, `${first}\n`);
    const f = await fixture(t, { acceptAssertions: [first, second] });
    const client = await open(t, f, { grant: 'jwt_bearer', assertion: { file } });
    assert.equal(text(await client.callTool('echo', { text: 'wif' })), 'wif');
    writeFileSync(file, `${second}\n`);
    f.expireAccessTokens();
    assert.equal(text(await client.callTool('echo', { text: 'rotated' })), 'rotated');
    const sent = f.requests.filter((r) => r.path === '/as/token').map((r) => new URLSearchParams(r.body));
    assert.deepEqual(sent.map((form) => [form.get('grant_type'), form.get('assertion')]), [
      ['urn:ietf:params:oauth:grant-type:jwt-bearer', first],
      ['urn:ietf:params:oauth:grant-type:jwt-bearer', second],
    ]);
    assertWhereThingsWent(f, [first, second]);
  });

  test('A1: a refused assertion that the AS echoes back is cut out of the error', async (t) => {
    const jwt = canary('jwt');
    const f = await fixture(t, { acceptAssertions: [] });
    await assert.rejects(open(t, f, { grant: 'jwt_bearer', assertion: jwt }), (error) => {
      assert.ok(error instanceof OAuthError, String(error));
      assert.match(error.message, /invalid_grant/);
      assert.match(error.message, /\[redacted\]/, 'the AS quoted the assertion: its words are shown without it');
      assertNoSecret(error, [jwt]);
      return true;
    });
  });
});

describe('A1: Enterprise-Managed Authorization (SEP-990, #19 item 1)', () => {
  test('A1: the ID token exchanged at the IdP for an ID-JAG (audience the issuer, resource the server), then the JWT-bearer grant; the ID token only to the IdP, the ID-JAG only to the AS', async (t) => {
    const idToken = canary('idtoken');
    const f = await fixture(t, { idpIdTokens: [idToken] });
    const client = await open(t, f, { grant: 'jwt_bearer', clientId: 'mcp-client', idp: { tokenEndpoint: `${f.base}/idp/token`, clientId: 'idp-client', idToken } });
    assert.equal(text(await client.callTool('echo', { text: 'enterprise' })), 'enterprise');
    const exchange = f.requests.find((r) => r.path === '/idp/token')!;
    assert.equal(new URLSearchParams(exchange.body).get('subject_token'), idToken);
    const grant = new URLSearchParams(f.requests.find((r) => r.path === '/as/token')!.body);
    assert.equal(grant.get('grant_type'), 'urn:ietf:params:oauth:grant-type:jwt-bearer');
    const jag = grant.get('assertion')!;
    assert.match(jag, /^jag-/);
    for (const r of f.requests) {
      if (r.path !== '/idp/token') assert.ok(!r.body.includes(idToken), `the ID token went to ${r.path}`);
      if (r.path !== '/as/token') assert.ok(!`${r.body}${r.authorization ?? ''}`.includes(jag), `the ID-JAG went to ${r.path}`);
    }
    assertWhereThingsWent(f, []);
  });

  test('A1: an ID token the IdP refuses (and echoes) fails with an OAuthError without it', async (t) => {
    const idToken = canary('idtoken');
    const f = await fixture(t, { idpIdTokens: [] });
    await assert.rejects(open(t, f, { grant: 'jwt_bearer', clientId: 'mcp-client', idp: { tokenEndpoint: `${f.base}/idp/token`, clientId: 'idp-client', idToken } }), (error) => {
      assert.ok(error instanceof OAuthError, String(error));
      assert.match(error.message, /invalid_grant/);
      assertNoSecret(error, [idToken]);
      return true;
    });
  });
});

describe('A1: DPoP (RFC 9449, #19 item 1)', () => {
  test('A1: a resource that requires DPoP: proofs at the token endpoint and on every MCP request, Authorization: DPoP, the RS nonce honoured once, every jti fresh', async (t) => {
    const secret = canary('secret');
    const f = await fixture(t, { machineClients: { 'svc-1': { secret } }, dpop: true, rsNonce: 'rs-nonce-1' });
    const store = new FileCredentialStore(path.join(tempDir(t, 'a1'), 'credentials.json'));
    const client = await connect({ transport: 'streamable-http', url: f.url, server: 'machine', protocolEra: 'legacy', oauth: { store, authorize: noBrowser, grant: 'client_credentials', clientId: 'svc-1', clientSecret: secret } });
    t.after(() => client.close());
    assert.equal(text(await client.callTool('echo', { text: 'bound' })), 'bound');
    assert.equal(text(await client.callTool('echo', { text: 'again' })), 'again');
    const mcp = f.requests.filter((r) => r.path === '/mcp' && r.authorization !== undefined);
    assert.ok(mcp.length >= 3);
    assert.ok(mcp.every((r) => /^DPoP at-/.test(r.authorization!) && r.dpop !== undefined), 'the DPoP scheme and a proof on each request with the token');
    const nonces = mcp.map((r) => (JSON.parse(Buffer.from(r.dpop!.split('.')[1]!, 'base64url').toString()) as { nonce?: string }).nonce);
    assert.equal(nonces[0], undefined, 'the first proof had no nonce: the server had given none');
    assert.ok(nonces.slice(1).every((n) => n === 'rs-nonce-1'), 'from the use_dpop_nonce answer on, the server\'s nonce in each proof');
    assert.equal(mcp.filter((r) => !r.dpop!.includes('.')).length, 0);
    assert.equal(new Set(f.jtis).size, f.jtis.length, 'no jti twice');
    for (const r of f.requests.filter((x) => x.dpop)) {
      const header = JSON.parse(Buffer.from(r.dpop!.split('.')[0]!, 'base64url').toString()) as { jwk: Record<string, string> };
      assert.deepEqual(Object.keys(header.jwk).sort(), ['crv', 'kty', 'x', 'y'], 'only the public key in the proof');
    }
    const stored = readFileSync(store.file, 'utf8');
    assert.ok(!/PRIVATE KEY|"d"\s*:/.test(stored), 'the DPoP key is not stored');
    assert.ok(!stored.includes(secret), 'nor the client secret');
    assertWhereThingsWent(f, [secret]);
  });

  test('A1: a DpopKey shows only its thumbprint when logged or serialised', () => {
    const key = new DpopKey();
    assert.deepEqual(JSON.parse(JSON.stringify(key)), { thumbprint: key.thumbprint });
    assert.ok(!/PRIVATE|"d"|\bd:/.test(inspect(key, { showHidden: true, depth: 5 })), inspect(key, { showHidden: true }));
    const proof = key.proof('POST', 'https://mcp.example.com/mcp?x=1#f', 'at-1');
    const claims = JSON.parse(Buffer.from(proof.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    assert.equal(claims.htu, 'https://mcp.example.com/mcp', 'htu without query or fragment');
    assert.equal(claims.htm, 'POST');
    assert.notEqual(claims.jti, JSON.parse(Buffer.from(key.proof('POST', 'https://mcp.example.com/mcp').split('.')[1]!, 'base64url').toString()).jti);
  });
});
