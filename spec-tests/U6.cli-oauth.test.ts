// #19 through the compiled CLI: `mcpwire login SERVER` against a protected
// MCP server and its authorization server on 127.0.0.1 (the "browser" is the
// test, fetching the printed URL: the AS redirects to the CLI's loopback
// receiver), then `mcpwire tools` and `call` with the stored token and no
// login, `auth status` without any token value, `logout`, and `tools` again
// saying to log in (exit 8). The credentials file is a temp file, mode 0600.
// Then the refresh sequence (#19 item 3): login → tools → a call after the
// access token expired (on the client's clock: refreshed before sending; on
// the server's: a 401, refreshed, sent again) → the refresh token revoked
// (the call says to log in again) → login again → the call answers. After
// each login or refresh, the very next request (on the same connection) and
// the next command (a new connection) carry the new token.

import { runCli, type CliRun } from './helpers/cli.js';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { startOAuthFixture } from '../src/testing/oauth-fixture.js';
import { tempDir } from './helpers/temp.js';



function mcpwire(args: string[], env: Record<string, string>, onStderr?: (text: string) => void): Promise<CliRun> {
  return runCli(args, { env, ...(onStderr ? { onStderr } : {}) });
}

/** `mcpwire login`, with the test as the browser: it fetches the printed URL once, and the AS redirects to the CLI's receiver. */
function loginThroughBrowser(args: string[], env: Record<string, string>): Promise<CliRun> {
  let followed = false;
  return mcpwire(['login', ...args], env, (stderr) => {
    const url = /open this URL in a browser:\n {2}(\S+)/.exec(stderr)?.[1];
    if (url && !followed) {
      followed = true;
      void fetch(url).then((r) => r.text());
    }
  });
}

type Stored = Record<string, { tokens?: { access_token: string; refresh_token?: string; expires_at?: number } }>;
const storedTokens = (file: string) => Object.values(JSON.parse(readFileSync(file, 'utf8')) as Stored)[0]!.tokens!;

describe('#19: mcpwire login, then every command uses the token', () => {
  test('U1/T4: login → tools and call with no login → auth status → logout → tools says to log in (exit 8)', async (t) => {
    const f = await startOAuthFixture();
    t.after(() => f.close());
    const dir = tempDir(t, 'u6');
    const config = path.join(dir, 'mcpwire.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { docs: { type: 'http', url: f.url } } }));
    const env = { MCPWIRE_CREDENTIALS: path.join(dir, 'credentials.json'), MCPWIRE_NO_BROWSER: '1', MCPWIRE_USER_CONFIG: path.join(dir, 'no-user.json') };

    let followed = false;
    const login = await mcpwire(['login', 'docs', '--config', config], env, (stderr) => {
      const url = /open this URL in a browser:\n {2}(\S+)/.exec(stderr)?.[1];
      if (url && !followed) {
        followed = true;
        // The user's browser: the AS approves at once and redirects to the CLI's receiver on 127.0.0.1.
        void fetch(url).then((r) => r.text());
      }
    });
    assert.equal(login.status, 0, login.stderr);
    assert.match(login.stdout, /^logged in to docs: 1 tool; credentials in /);
    assert.equal(statSync(env.MCPWIRE_CREDENTIALS).mode & 0o777, 0o600);

    const tools = await mcpwire(['tools', '--config', config], env);
    assert.equal(tools.status, 0, tools.stderr);
    assert.match(tools.stdout, /echo\(/);
    const call = await mcpwire(['call', 'echo', 'text=with the stored token', '--config', config], env);
    assert.equal(call.stdout, 'with the stored token\n', call.stderr);
    assert.equal(f.count('/as/authorize'), 1, 'one login for all of them');

    const stored = JSON.parse(readFileSync(env.MCPWIRE_CREDENTIALS, 'utf8')) as Record<string, { tokens?: { access_token: string; refresh_token?: string } }>;
    const tokens = Object.values(stored)[0]!.tokens!;
    const status = await mcpwire(['auth', 'status', '--json'], env);
    assert.equal(status.status, 0, status.stderr);
    const entries = (JSON.parse(status.stdout) as { entries: { resource: string; refresh: boolean }[] }).entries;
    assert.deepEqual(entries.map((e) => [e.resource, e.refresh]), [[f.url, true]]);
    for (const run of [login, tools, call, status]) {
      for (const secret of [tokens.access_token, tokens.refresh_token!]) assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret), 'a token was printed');
    }

    const logout = await mcpwire(['logout', 'docs', '--config', config], env);
    assert.match(logout.stdout, /logged out of docs \(1 credential removed/);
    const after = await mcpwire(['tools', '--config', config], env);
    assert.equal(after.status, 8, after.stderr);
    assert.match(after.stdout + after.stderr, /run: mcpwire login docs/);
  });

  test('U6/A2 (#19 item 3): login → tools → a call after the token expired (refresh, no login) → the refresh token revoked (login asked for again, exit 8) → login → the call answers; each new token used by the very next request and by the next command', async (t) => {
    const f = await startOAuthFixture();
    t.after(() => f.close());
    const dir = tempDir(t, 'u6r');
    const config = path.join(dir, 'mcpwire.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { docs: { type: 'http', url: f.url } } }));
    const env = { MCPWIRE_CREDENTIALS: path.join(dir, 'credentials.json'), MCPWIRE_NO_BROWSER: '1', MCPWIRE_USER_CONFIG: path.join(dir, 'no-user.json') };
    const mcpAuth = () => f.requests.filter((r) => r.path === '/mcp').map((r) => r.authorization);
    const tokenGrants = () => f.requests.filter((r) => r.path === '/as/token').map((r) => new URLSearchParams(r.body).get('grant_type'));
    const call = (text: string) => mcpwire(['call', 'echo', `text=${text}`, '--config', config], env);
    const printed: CliRun[] = [];

    // 1. login: the request right after the exchange, on the login's own connection, carries the new token.
    const login = await loginThroughBrowser(['docs', '--config', config], env);
    printed.push(login);
    assert.equal(login.status, 0, login.stderr);
    const first = storedTokens(env.MCPWIRE_CREDENTIALS);
    const afterLogin = mcpAuth();
    assert.equal(afterLogin.at(-1), `Bearer ${first.access_token}`, 'the login\'s tools/list used the token it had just obtained');
    // 2. tools, a new connection: the stored token, no login.
    const mark = f.requests.length;
    const tools = await mcpwire(['tools', '--config', config], env);
    printed.push(tools);
    assert.equal(tools.status, 0, tools.stderr);
    assert.ok(f.requests.slice(mark).filter((r) => r.path === '/mcp').every((r) => r.authorization === `Bearer ${first.access_token}`), `the next command used the stored token from its first request on: ${JSON.stringify(f.requests.slice(mark).map((r) => [r.method, r.path, r.authorization]))}`);

    // 3a. The token expired by the client's clock (expires_at in the past): refreshed before anything is sent, no 401.
    const file = JSON.parse(readFileSync(env.MCPWIRE_CREDENTIALS, 'utf8')) as Stored;
    for (const entry of Object.values(file)) entry.tokens!.expires_at = Date.now() - 60_000;
    writeFileSync(env.MCPWIRE_CREDENTIALS, JSON.stringify(file), { mode: 0o600 });
    const beforeA = f.requests.length;
    const a = await call('after expiry');
    printed.push(a);
    assert.equal(a.stdout, 'after expiry\n', a.stderr);
    const second = storedTokens(env.MCPWIRE_CREDENTIALS);
    assert.notEqual(second.access_token, first.access_token);
    assert.notEqual(second.refresh_token, first.refresh_token, 'the rotated refresh token is stored');
    const seenA = f.requests.slice(beforeA);
    assert.deepEqual(seenA.filter((r) => r.path === '/as/token').map((r) => new URLSearchParams(r.body).get('grant_type')), ['refresh_token']);
    assert.ok(seenA.filter((r) => r.path === '/mcp').every((r) => r.authorization === `Bearer ${second.access_token}`), 'every request of the call carried the refreshed token: none met a 401');

    // 3b. The token expired by the server's clock (it forgets it): a 401, one refresh, the request sent again with the new token.
    f.expireAccessTokens();
    const beforeB = f.requests.length;
    const b = await call('after a 401');
    printed.push(b);
    assert.equal(b.stdout, 'after a 401\n', b.stderr);
    const third = storedTokens(env.MCPWIRE_CREDENTIALS);
    const seenB = f.requests.slice(beforeB).filter((r) => r.path === '/mcp' || r.path === '/as/token');
    const refreshAt = seenB.findIndex((r) => r.path === '/as/token');
    assert.ok(refreshAt > 0 && seenB[refreshAt - 1]!.authorization === `Bearer ${second.access_token}`, 'the old token met the 401');
    assert.equal(seenB[refreshAt + 1]!.authorization, `Bearer ${third.access_token}`, 'the very next request, on the same connection, carried the refreshed token');
    // A reconnect (the next command) uses it too, with no refresh.
    const beforeC = f.requests.length;
    const again = await call('reconnect');
    printed.push(again);
    assert.equal(again.stdout, 'reconnect\n', again.stderr);
    assert.equal(f.requests.slice(beforeC).filter((r) => r.path === '/as/token').length, 0);
    assert.ok(f.requests.slice(beforeC).filter((r) => r.path === '/mcp').every((r) => r.authorization === `Bearer ${third.access_token}`));
    assert.equal(f.count('/as/authorize'), 1, 'no login for any of the refreshes');

    // 4. The refresh token revoked (and the access token gone): the call cannot renew, says to log in, exit 8.
    f.revokeRefreshTokens();
    f.expireAccessTokens();
    const revoked = await call('revoked');
    printed.push(revoked);
    assert.equal(revoked.status, 8, revoked.stderr);
    assert.match(revoked.stdout + revoked.stderr, /run: mcpwire login docs/);
    assert.equal(f.count('/as/authorize'), 1, 'a command without a browser never starts a login itself');
    assert.deepEqual(tokenGrants().slice(-1), ['refresh_token'], 'it tried the refresh token first');

    // 5. login again: a new authorization; the next call (a new connection) uses the new token.
    const relogin = await loginThroughBrowser(['docs', '--config', config], env);
    printed.push(relogin);
    assert.equal(relogin.status, 0, relogin.stderr);
    assert.equal(f.count('/as/authorize'), 2);
    const fourth = storedTokens(env.MCPWIRE_CREDENTIALS);
    assert.equal(mcpAuth().at(-1), `Bearer ${fourth.access_token}`);
    const beforeD = f.requests.length;
    const last = await call('logged in again');
    printed.push(last);
    assert.equal(last.stdout, 'logged in again\n', last.stderr);
    assert.ok(f.requests.slice(beforeD).filter((r) => r.path === '/mcp').every((r) => r.authorization === `Bearer ${fourth.access_token}`));

    // No token of any generation was ever printed.
    for (const run of printed) {
      for (const tokens of [first, second, third, fourth]) {
        for (const secret of [tokens.access_token, tokens.refresh_token!]) assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret), 'a token was printed');
      }
    }
  });

  test('U6/A1 (#19 items 1–2): a machine client from the mcpServers "oauth" key: tools and call through the CLI with no login at all, the secret from ${env:…} never printed', async (t) => {
    const secret = `sek-CANARY-u6-${Date.now()}`;
    const f = await startOAuthFixture({ machineClients: { 'svc-cli': { secret } } });
    t.after(() => f.close());
    const dir = tempDir(t, 'u6m');
    const config = path.join(dir, 'mcpwire.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { svc: { type: 'http', url: f.url, oauth: { grant: 'client_credentials', clientId: 'svc-cli', clientSecret: '${env:U6_SVC_SECRET}' } } } }));
    const env = { MCPWIRE_CREDENTIALS: path.join(dir, 'credentials.json'), MCPWIRE_NO_BROWSER: '1', MCPWIRE_USER_CONFIG: path.join(dir, 'no-user.json'), U6_SVC_SECRET: secret };
    const tools = await mcpwire(['tools', '--config', config], env);
    assert.equal(tools.status, 0, tools.stderr);
    assert.match(tools.stdout, /echo\(/);
    const call = await mcpwire(['call', 'echo', 'text=machine', '--config', config], env);
    assert.equal(call.stdout, 'machine\n', call.stderr);
    assert.equal(f.count('/as/authorize'), 0, 'no login');
    assert.equal(f.count('/as/token'), 1, 'the second command used the stored token');
    for (const run of [tools, call]) assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret));
    // A wrong secret: the CLI fails saying what the AS said, without the secret.
    const wrong = await mcpwire(['tools', '--config', config], { ...env, U6_SVC_SECRET: `${secret}-wrong`, MCPWIRE_CREDENTIALS: path.join(dir, 'other.json') });
    assert.notEqual(wrong.status, 0);
    assert.match(wrong.stdout + wrong.stderr, /invalid_client/);
    assert.ok(!(wrong.stdout + wrong.stderr).includes(secret));
  });
});
