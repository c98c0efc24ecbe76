// #19 through the compiled CLI: `mcpwire login SERVER` against a protected
// MCP server and its authorization server on 127.0.0.1 (the "browser" is the
// test, fetching the printed URL: the AS redirects to the CLI's loopback
// receiver), then `mcpwire tools` and `call` with the stored token and no
// login, `auth status` without any token value, `logout`, and `tools` again
// saying to log in (exit 8). The credentials file is a temp file, mode 0600.

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
});
