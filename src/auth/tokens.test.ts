// The token endpoint client against a real authorization server on
// 127.0.0.1 that checks what RFC 6749 and RFC 7636 ask of a request: the
// client authentication of each method, the PKCE verifier against the
// challenge, the resource indicator; and its refusals, which must reach the
// caller without any secret in them (canaries).

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { OAuthError } from '../errors.js';
import { s256 } from './pkce.js';
import { chooseAuthMethod, exchangeCode, refreshTokens, type OAuthClientCredentials } from './tokens.js';

const SECRET = 'client-secret-CANARY-a1';
const CODE = 'auth-code-CANARY-b2';
const VERIFIER = 'verifier-CANARY-c3-0123456789012345678901234567890123';
const CHALLENGE = s256(VERIFIER);

interface Seen {
  authorization: string | undefined;
  form: URLSearchParams;
}
let server: Server;
let endpoint: string;
const seen: Seen[] = [];
/** 64 KiB chunks the endless body got out before the client hung up. */
let endlessSent = 0;

before(async () => {
  server = createServer(async (req, res) => {
    if (req.url === '/endless') {
      // A body that does not end (bounded here at 64 MiB): the client must stop reading, not wait for it.
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (endlessSent = 0; endlessSent < 1024 && !res.destroyed; endlessSent++) if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
      res.end();
      return;
    }
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const form = new URLSearchParams(raw);
    seen.push({ authorization: req.headers.authorization, form });
    const answer = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const basic = req.headers.authorization?.startsWith('Basic ') ? Buffer.from(req.headers.authorization.slice(6), 'base64').toString() : undefined;
    const [id, secret] = basic ? basic.split(':').map(decodeURIComponent) : [form.get('client_id'), form.get('client_secret')];
    if (id !== 'client-1') return answer(401, { error: 'invalid_client' });
    if (secret !== null && secret !== undefined && secret !== SECRET) return answer(401, { error: 'invalid_client', error_description: 'wrong secret' });
    if (form.get('grant_type') === 'authorization_code') {
      if (form.get('code') !== CODE || s256(form.get('code_verifier') ?? '') !== CHALLENGE) return answer(400, { error: 'invalid_grant', error_description: `code ${form.get('code')} or verifier rejected` });
      return answer(200, { access_token: 'at-1', token_type: 'bearer', expires_in: 60, refresh_token: 'rt-1', scope: 'files:read' });
    }
    if (form.get('grant_type') === 'refresh_token') {
      if (form.get('refresh_token') !== 'rt-1') return answer(400, { error: 'invalid_grant' });
      return answer(200, { access_token: 'at-2', token_type: 'Bearer' });
    }
    return answer(400, { error: 'unsupported_grant_type' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const grant = { code: CODE, verifier: VERIFIER, redirectUri: 'http://127.0.0.1:1/callback', resource: 'https://mcp.example.com/mcp' };

describe('the code exchange', () => {
  for (const method of ['client_secret_basic', 'client_secret_post', 'none'] as const) {
    test(`${method}: the client authenticates as that method says, with the verifier and the resource; tokens come back with their expiry`, async () => {
      seen.length = 0;
      const client: OAuthClientCredentials = { client_id: 'client-1', token_endpoint_auth_method: method, ...(method === 'none' ? {} : { client_secret: SECRET }) };
      const secrets: string[] = [];
      const before = Date.now();
      const tokens = await exchangeCode(endpoint, client, grant, { onSecret: (s) => secrets.push(s) });
      assert.equal(tokens.access_token, 'at-1');
      assert.equal(tokens.token_type, 'Bearer');
      assert.ok(tokens.expires_at! >= before + 60_000 && tokens.expires_at! <= Date.now() + 60_000);
      assert.deepEqual(secrets, ['at-1', 'rt-1'], 'each token is handed to the scrubber');
      const [request] = seen;
      assert.equal(request!.form.get('resource'), grant.resource);
      assert.equal(request!.form.get('redirect_uri'), grant.redirectUri);
      if (method === 'client_secret_basic') {
        assert.match(request!.authorization ?? '', /^Basic /);
        assert.equal(request!.form.get('client_secret'), null, 'the secret is not also in the body');
      } else {
        assert.equal(request!.authorization, undefined);
        assert.equal(request!.form.get('client_id'), 'client-1');
        assert.equal(request!.form.get('client_secret'), method === 'client_secret_post' ? SECRET : null);
      }
    });
  }

  test('a refusal names the AS\'s error code and description, and shows no code, verifier or secret', async () => {
    const client: OAuthClientCredentials = { client_id: 'client-1', client_secret: SECRET, token_endpoint_auth_method: 'client_secret_post' };
    let caught: unknown;
    await assert.rejects(exchangeCode(endpoint, client, { ...grant, verifier: 'wrong-verifier-0123456789012345678901234567890' }), (e) => ((caught = e), true));
    assert.ok(caught instanceof OAuthError && caught.step === 'token');
    assert.match(caught.message, /refused the authorization_code grant \(invalid_grant: /);
    const shown = `${caught.message}\n${caught.stack}\n${inspect(caught, { depth: 5 })}`;
    // The AS echoed the code into its description: it is cut out of the AS's words too.
    assert.match(caught.message, /code \[redacted\] or verifier rejected/);
    for (const canary of [SECRET, VERIFIER, CODE]) assert.ok(!shown.includes(canary), `${canary} shown`);
  });
});

describe('the refresh', () => {
  test('a refresh grant with the resource; the new access token, and no refresh token when none was rotated', async () => {
    const tokens = await refreshTokens(endpoint, { client_id: 'client-1', token_endpoint_auth_method: 'none' }, { refreshToken: 'rt-1', resource: grant.resource });
    assert.deepEqual(tokens, { access_token: 'at-2', token_type: 'Bearer' });
    await assert.rejects(refreshTokens(endpoint, { client_id: 'client-1', token_endpoint_auth_method: 'none' }, { refreshToken: 'revoked' }), /refused the refresh_token grant \(invalid_grant\)/);
  });
});

test('a token endpoint whose body does not end is read no further than 64 KiB, and refused', async () => {
  const client: OAuthClientCredentials = { client_id: 'client-1', token_endpoint_auth_method: 'none' };
  await assert.rejects(exchangeCode(endpoint.replace('/token', '/endless'), client, grant), /refused the authorization_code grant \(an answer without an access_token\)/);
  await new Promise((resolve) => setTimeout(resolve, 200));
  // Socket buffers let a few MiB out before the hang-up lands; reading it all would have taken the whole 64 MiB.
  assert.ok(endlessSent < 256, `the client read ${endlessSent} chunks of 64 KiB`);
});

test('the method for a pre-registered client: none without a secret; basic unless the AS lists only post', () => {
  assert.equal(chooseAuthMethod(false, ['client_secret_basic']), 'none');
  assert.equal(chooseAuthMethod(true, undefined), 'client_secret_basic');
  assert.equal(chooseAuthMethod(true, ['client_secret_post']), 'client_secret_post');
  assert.equal(chooseAuthMethod(true, ['client_secret_post', 'client_secret_basic']), 'client_secret_basic');
});
