// #19 item 2: the OAuth key of the client configs (oauth-key.ts) through the
// JSON and Codex readers: Claude Code's "oauth", Cursor's "auth", VS Code's
// servers form, Codex's scopes and [mcp_servers.x.oauth], and mcpwire's
// machine-grant keys; every credential a canary that must be in the
// scrubbed secrets and in no error. Last, a config's machine client against
// a protected server on 127.0.0.1.

import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { describe, test, type TestContext } from 'node:test';
import { connect } from '../../client/connect.js';
import { MemoryCredentialStore } from '../../auth/store.js';
import { ConfigError } from '../../errors.js';
import { startOAuthFixture } from '../../testing/oauth-fixture.js';
import { readCodexToml } from './codex-toml.js';
import { readClientJson } from './mcp-servers-json.js';

const CANARY = `sek-CANARY-${randomBytes(8).toString('hex')}`;

function folder(t: TestContext): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcpwire-oauthkey-')));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function json(t: TestContext, doc: unknown, env: Record<string, string> = {}, files: Record<string, string> = {}) {
  const dir = folder(t);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const file = path.join(dir, 'mcp.json');
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return { file, dir, read: () => readClientJson(file, { env, home: dir, project: dir }) };
}

const oauthOf = (config: { servers: { key: string; params: unknown }[] }, key: string) => (config.servers.find((s) => s.key === key)!.params as { oauth?: unknown }).oauth;

function refused(run: () => unknown, at: string, detail: RegExp): ConfigError {
  let caught: unknown;
  assert.throws(run, (error) => ((caught = error), true));
  assert.ok(caught instanceof ConfigError, String(caught));
  assert.ok(caught.message.includes(` at ${at}: `), caught.message);
  assert.match(caught.message, detail);
  for (const shown of [caught.message, caught.stack ?? '', inspect(caught, { depth: 5 })]) assert.ok(!shown.includes(CANARY), 'a secret reached the error');
  return caught;
}

describe('#19 item 2: the OAuth key of mcpServers JSON', () => {
  test('Claude Code\'s "oauth": clientId, callbackPort, scopes as one string; its authServerMetadataUrl is left alone', (t) => {
    const { read } = json(t, { mcpServers: { docs: { type: 'http', url: 'https://mcp.example.com/mcp', oauth: { clientId: 'cc-client', callbackPort: 8765, scopes: 'read  write', authServerMetadataUrl: 'https://as.example.com/.well-known/x' } } } });
    assert.deepEqual(oauthOf(read(), 'docs'), { clientId: 'cc-client', scopes: ['read', 'write'], callbackPort: 8765 });
  });

  test('Cursor\'s "auth": CLIENT_ID, CLIENT_SECRET from ${env:…} (a secret), scopes; VS Code\'s servers form takes "oauth" too', (t) => {
    const cursor = json(t, { mcpServers: { crm: { url: 'https://crm.example.com/mcp', auth: { CLIENT_ID: 'cursor-client', CLIENT_SECRET: '${env:CRM_SECRET}', scopes: ['read', 'write'] } } } }, { CRM_SECRET: CANARY }).read();
    assert.deepEqual(oauthOf(cursor, 'crm'), { clientId: 'cursor-client', clientSecret: CANARY, scopes: ['read', 'write'] });
    assert.ok(cursor.secrets.includes(CANARY), 'the client secret is scrubbed from every output');
    const vscode = json(t, { servers: { gh: { type: 'http', url: 'https://gh.example.com/mcp', oauth: { clientId: 'vs' } } } }).read();
    assert.deepEqual(oauthOf(vscode, 'gh'), { clientId: 'vs' });
    const unset = json(t, { mcpServers: { crm: { url: 'https://crm.example.com/mcp', auth: { CLIENT_ID: 'c', CLIENT_SECRET: '${env:NOT_SET_ANYWHERE}' } } } }).read();
    assert.match(unset.servers[0]!.unsupported ?? '', /NOT_SET_ANYWHERE/, 'an unset variable makes the server unsupported, as in headers');
  });

  test('mcpwire\'s machine keys: client_credentials with a private key file and DPoP; jwt_bearer with an assertion file; an idp; each credential a secret', (t) => {
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const { read, dir } = json(
      t,
      {
        mcpServers: {
          svc: { type: 'http', url: 'https://svc.example.com/mcp', oauth: { grant: 'client_credentials', clientId: 'svc-1', privateKeyFile: 'svc.pem', signingAlgorithm: 'ES256', dpop: true } },
          wif: { type: 'http', url: 'https://wif.example.com/mcp', oauth: { grant: 'jwt_bearer', assertionFile: 'run/token' } },
          ema: { type: 'http', url: 'https://ema.example.com/mcp', oauth: { grant: 'jwt_bearer', clientId: 'mcp-c', idp: { tokenEndpoint: 'https://idp.example.com/token', clientId: 'idp-c', idToken: '${env:ID_TOKEN}' } } },
        },
      },
      { ID_TOKEN: CANARY },
      { 'svc.pem': pem },
    );
    const config = read();
    assert.deepEqual(oauthOf(config, 'svc'), { grant: 'client_credentials', clientId: 'svc-1', privateKey: pem, signingAlgorithm: 'ES256', dpop: true });
    assert.deepEqual(oauthOf(config, 'wif'), { grant: 'jwt_bearer', assertion: { file: path.join(dir, 'run', 'token') } });
    assert.deepEqual(oauthOf(config, 'ema'), { grant: 'jwt_bearer', clientId: 'mcp-c', idp: { tokenEndpoint: 'https://idp.example.com/token', clientId: 'idp-c', idToken: CANARY } });
    assert.ok(config.secrets.includes(pem) && config.secrets.includes(CANARY));
  });

  test('an entry without an OAuth key, and a stdio entry with one, are read as before', (t) => {
    const config = json(t, { mcpServers: { plain: { url: 'https://a.example.com/mcp' }, local: { command: 'node', args: ['x.js'], oauth: { clientId: 'x' } } } }).read();
    assert.equal(oauthOf(config, 'plain'), undefined);
    assert.equal(oauthOf(config, 'local'), undefined);
  });

  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['a callbackPort that is no port', { oauth: { callbackPort: 70000 } }, 'mcpServers.s.oauth.callbackPort', /expected a port number/],
    ['an unknown grant', { oauth: { grant: 'password' } }, 'mcpServers.s.oauth.grant', /expected authorization_code, client_credentials, jwt_bearer/],
    ['client_credentials without its secret', { oauth: { grant: 'client_credentials', clientId: 'a' } }, 'mcpServers.s.oauth.grant', /needs the client id and its secret or private key/],
    ['a private key on the user\'s flow', { oauth: { privateKey: '${env:K}' } }, 'mcpServers.s.oauth.grant', /are for machine clients/],
    ['both "oauth" and "auth"', { oauth: {}, auth: {} }, 'mcpServers.s.auth', /not both/],
    ['a clientSecret that is not a string', { oauth: { clientSecret: 5 } }, 'mcpServers.s.oauth.clientSecret', /expected a string/],
    ['a missing private key file', { oauth: { grant: 'client_credentials', clientId: 'a', privateKeyFile: 'none.pem' } }, 'mcpServers.s.oauth.privateKeyFile', /cannot read the private key file .*none\.pem \(ENOENT\)/],
    ['scopes that are not strings', { auth: { scopes: [1] } }, 'mcpServers.s.auth.scopes', /expected a list of scopes/],
  ];
  for (const [name, key, at, detail] of cases) {
    test(`${name} is refused at its key with its line, never quoting a secret`, (t) => {
      const { read, file } = json(t, { mcpServers: { s: { url: 'https://a.example.com/mcp', ...key } } }, { K: CANARY });
      const error = refused(read, at, detail);
      assert.ok(error.message.startsWith(`server "s": ${file}:`), error.message);
      assert.ok(typeof error.line === 'number' && error.line > 1, 'the key\'s line');
    });
  }
});

describe('#19 item 2: Codex config.toml scopes and [mcp_servers.x.oauth]', () => {
  function toml(t: TestContext, text: string, env: Record<string, string> = {}) {
    const dir = folder(t);
    const file = path.join(dir, 'config.toml');
    writeFileSync(file, text);
    return { file, read: () => readCodexToml(file, { env, workspaceFolder: dir }) };
  }

  test('scopes, client_id, and the machine keys with Codex\'s *_env_var convention; the secret scrubbed', (t) => {
    const { read } = toml(t, '[mcp_servers.docs]\nurl = "https://docs.example.com/mcp"\nscopes = ["read", "write"]\n\n[mcp_servers.docs.oauth]\nclient_id = "codex-client"\n\n[mcp_servers.svc]\nurl = "https://svc.example.com/mcp"\n\n[mcp_servers.svc.oauth]\ngrant = "client_credentials"\nclient_id = "svc-1"\nclient_secret_env_var = "SVC_SECRET"\ndpop = true\n', { SVC_SECRET: CANARY });
    const config = read();
    assert.deepEqual(oauthOf(config, 'docs'), { scopes: ['read', 'write'], clientId: 'codex-client' });
    assert.deepEqual(oauthOf(config, 'svc'), { grant: 'client_credentials', clientId: 'svc-1', clientSecret: CANARY, dpop: true });
    assert.ok(config.secrets.includes(CANARY));
  });

  test('a bad grant is refused at its key and line; an unset secret variable makes only that server unsupported', (t) => {
    const bad = toml(t, '[mcp_servers.svc]\nurl = "https://svc.example.com/mcp"\n\n[mcp_servers.svc.oauth]\ngrant = "implicit"\n');
    const error = refused(bad.read, 'mcp_servers.svc.oauth.grant', /expected authorization_code/);
    assert.equal(error.line, 5);
    const unset = toml(t, '[mcp_servers.svc]\nurl = "https://svc.example.com/mcp"\n\n[mcp_servers.svc.oauth]\ngrant = "client_credentials"\nclient_id = "a"\nclient_secret_env_var = "NOT_SET_HERE"\n\n[mcp_servers.other]\nurl = "https://o.example.com/mcp"\n');
    const servers = unset.read().servers;
    assert.match(servers.find((s) => s.key === 'svc')!.unsupported ?? '', /NOT_SET_HERE .*is not set/);
    assert.equal(servers.find((s) => s.key === 'other')!.unsupported, undefined);
  });
});

describe('#19 item 2: a config\'s OAuth key drives the connection', () => {
  test('Cursor\'s "auth" with mcpwire\'s grant: client_credentials against a protected server on 127.0.0.1, no browser', async (t) => {
    const f = await startOAuthFixture({ machineClients: { 'cfg-client': { secret: CANARY } } });
    t.after(() => f.close());
    const config = json(t, { mcpServers: { svc: { type: 'http', url: f.url, oauth: { grant: 'client_credentials', clientId: 'cfg-client', clientSecret: '${env:CFG_SECRET}' } } } }, { CFG_SECRET: CANARY }).read();
    const params = config.servers[0]!.params as Parameters<typeof connect>[0] & { oauth: object };
    const client = await connect({ ...params, protocolEra: 'legacy', oauth: { ...params.oauth, store: new MemoryCredentialStore() } });
    t.after(() => client.close());
    assert.equal((await client.listTools()).tools[0]!.name, 'echo');
    assert.equal(f.count('/as/authorize'), 0);
    assert.ok(f.requests.filter((r) => r.path !== '/as/token').every((r) => !`${r.authorization ?? ''}${r.body}`.includes(CANARY)), 'the secret only to the token endpoint');
  });
});
