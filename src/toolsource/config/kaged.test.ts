// C1–C3, T4: the kaged project loader against ADR-0043 §1 (DSL), §4 (auth),
// §6 (result cap) and §7 (local config). Every fixture's local.toml holds a
// canary secret, and every error is checked not to carry it.

import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { inspect } from 'node:util';
import { ConfigError } from '../../errors.js';
import { loadKagedProject, type KagedProjectOptions } from './kaged.js';

const CANARY = `sk-canary-${randomBytes(12).toString('hex')}`;
const LOCAL = `[secrets.api_keys]\nexample = "${CANARY}"\n`;

type T = { after(fn: () => void): void };

/** A project folder with the given files (paths relative to it); removed after the test. */
function fixture(t: T, files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcpwire-kaged-')));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

function load(dir: string, options: Partial<KagedProjectOptions> = {}) {
  return loadKagedProject({ project: path.join(dir, 'kaged.yaml'), ...options });
}

/** Asserts the load fails with exactly `message`, and that the canary is nowhere in the error. */
function fails(run: () => unknown, message: string): ConfigError {
  let caught: unknown;
  assert.throws(run, (error) => ((caught = error), true));
  assert.ok(caught instanceof ConfigError, `expected a ConfigError, got ${String(caught)}`);
  assert.equal(caught.message, message);
  noCanary(caught);
  return caught;
}

function noCanary(error: Error): void {
  for (const [what, text] of [
    ['message', error.message],
    ['stack', error.stack ?? ''],
    ['JSON', JSON.stringify(error)],
    ['inspect', inspect(error, { depth: 10 })],
  ] as const) {
    assert.ok(!text.includes(CANARY), `the canary secret leaked into the error's ${what}`);
  }
}

const GITHUB = `mcp:
  github:
    transport: sse
    url: https://api.example.com/mcp
    auth:
      type: bearer
      secret_ref: api_keys.example
    headers:
      X-Feature-Flag: mcp-beta
    tools:
      allow: [repo.*, issue.*]
      deny: [repo.delete]
`;

describe('C1 kaged project DSL (ADR-0043 §1)', () => {
  test('C1 (ADR-0043 §1): the ADR example loads into servers with params, filters and resolved auth', (t) => {
    const dir = fixture(t, {
      'kaged.yaml': `name: demo # host keys are not ours\n${GITHUB}  database:
    transport: stdio
    command: ["bun", "run", "tools/mcp-db-server.ts"]
    cwd: ./tools
    env:
      DB_PATH: ./data/app.db
    tools:
      enabled: true
`,
      'tools/.keep': '',
      'local.toml': LOCAL,
    });
    const config = load(dir);
    assert.equal(config.format, 'kaged');
    assert.equal(config.file, path.join(dir, 'kaged.yaml'));
    assert.equal(config.projectRoot, dir);
    assert.deepEqual(config.servers, [
      {
        key: 'github',
        params: { transport: 'sse', server: 'github', url: 'https://api.example.com/mcp', headers: { 'X-Feature-Flag': 'mcp-beta' }, auth: { type: 'bearer', value: CANARY } },
        tools: { enabled: true, allow: ['repo.*', 'issue.*'], deny: ['repo.delete'] },
        disabled: false,
        timeoutMs: undefined,
        unsupported: undefined,
        secretRef: { ref: 'api_keys.example', type: 'bearer', headerName: 'Authorization' },
      },
      {
        key: 'database',
        params: { transport: 'stdio', server: 'database', command: ['bun', 'run', 'tools/mcp-db-server.ts'], cwd: path.join(dir, 'tools'), env: { DB_PATH: './data/app.db' } },
        tools: { enabled: true, allow: undefined, deny: [] },
        disabled: false,
        timeoutMs: undefined,
        unsupported: undefined,
      },
    ]);
    assert.deepEqual(config.secrets, [CANARY]);
    assert.equal(config.resultCapBytes, 65_536);
    assert.equal(config.defaultTimeoutMs, 30_000);
  });

  test('C1 (ADR-0043 §1): a project with no mcp: block, or an empty one, has no servers; streamable-http is accepted', (t) => {
    assert.deepEqual(load(fixture(t, { 'kaged.yaml': 'name: demo\n' })).servers, []);
    assert.deepEqual(load(fixture(t, { 'kaged.yaml': 'mcp:\n' })).servers, []);
    const config = load(fixture(t, { 'kaged.yaml': 'mcp:\n  remote:\n    transport: streamable-http\n    url: http://127.0.0.1:9/mcp\n' }));
    assert.deepEqual(config.servers[0]!.params, { transport: 'streamable-http', server: 'remote', url: 'http://127.0.0.1:9/mcp' });
  });

  test('C1 (ADR-0043 §1): a stdio server without cwd runs in the project root', (t) => {
    const dir = fixture(t, { 'kaged.yaml': 'mcp:\n  local:\n    transport: stdio\n    command: ["node", "server.js"]\n' });
    assert.equal((load(dir).servers[0]!.params as { cwd?: string }).cwd, dir);
  });

  test('C1 (ADR-0043 §1): server keys must match the slug pattern', (t) => {
    for (const [key, column] of [['GitHub', 3], ['a', 3], ['1st', 3], ['ends-', 3], ['x'.repeat(33), 3]] as const) {
      const dir = fixture(t, { 'kaged.yaml': `mcp:\n  ${key}:\n    transport: stdio\n    command: [x]\n` });
      fails(
        () => load(dir),
        `${path.join(dir, 'kaged.yaml')}:2:${column} at mcp.${key}: "${key}" is not a valid server key; expected ^[a-z][a-z0-9_-]{0,30}[a-z0-9]$ (2 to 32 of a-z, 0-9, _ and -, starting with a letter, ending with a letter or digit)`,
      );
    }
    const ok = fixture(t, { 'kaged.yaml': `mcp:\n  a1:\n    transport: stdio\n    command: [x]\n  ${'b'.repeat(32)}:\n    transport: stdio\n    command: [x]\n` });
    assert.equal(load(ok).servers.length, 2);
  });

  test('C1 (ADR-0043 §1, maxProperties: 16): 16 servers load, 17 are refused', (t) => {
    const servers = (n: number) => `mcp:\n${Array.from({ length: n }, (_, i) => `  s${i + 1}:\n    transport: stdio\n    command: [x]\n`).join('')}`;
    assert.equal(load(fixture(t, { 'kaged.yaml': servers(16) })).servers.length, 16);
    const dir = fixture(t, { 'kaged.yaml': servers(17) });
    fails(() => load(dir), `${path.join(dir, 'kaged.yaml')}:1:1 at mcp: 17 servers are declared; a project may declare at most 16`);
  });

  const serverCases: [name: string, server: string, at: string, line: number, column: number, detail: string][] = [
    ['an unknown transport', 'transport: websocket\n    url: ws://x/', 'transport', 3, 5, 'expected transport: stdio, sse or streamable-http'],
    ['a missing transport', 'command: [x]', 'transport', 2, 3, 'missing; expected transport: stdio, sse or streamable-http'],
    ['url on a stdio server', 'transport: stdio\n    command: [x]\n    url: http://a/', 'url', 5, 5, 'unknown key "url"; transport stdio takes: transport, command, cwd, env, tools, sampling, min_version, protocol_era, pin'],
    ['command on an sse server', 'transport: sse\n    url: http://a/\n    command: [x]', 'command', 5, 5, 'unknown key "command"; transport sse takes: transport, url, headers, auth, tls, tools, sampling, min_version, protocol_era, pin'],
    ['auth on a stdio server', 'transport: stdio\n    command: [x]\n    auth: { type: bearer, secret_ref: a.b }', 'auth', 5, 5, 'unknown key "auth"; transport stdio takes: transport, command, cwd, env, tools, sampling, min_version, protocol_era, pin'],
    ['an unknown key', 'transport: stdio\n    command: [x]\n    timeout: 5', 'timeout', 5, 5, 'unknown key "timeout"; transport stdio takes: transport, command, cwd, env, tools, sampling, min_version, protocol_era, pin'],
    ['a missing command', 'transport: stdio', 'command', 2, 3, 'missing; expected the argv as a list of strings, such as ["node", "server.js"]'],
    ['a command string', 'transport: stdio\n    command: node server.js', 'command', 4, 5, 'expected the argv as a list of strings, such as ["node", "server.js"]'],
    ['an empty command', 'transport: stdio\n    command: []', 'command', 4, 5, 'expected the argv as a non-empty list of strings, such as ["node", "server.js"]'],
    ['a number in command', 'transport: stdio\n    command: [node, 1]', 'command.1', 4, 21, 'expected a string'],
    ['a non-string env value', 'transport: stdio\n    command: [x]\n    env:\n      PORT: 8080', 'env.PORT', 6, 7, 'expected a string'],
    ['a missing url', 'transport: sse', 'url', 2, 3, 'missing; expected an http:// or https:// URL'],
    ['an ftp url', 'transport: sse\n    url: ftp://a/b', 'url', 4, 5, 'expected an http:// or https:// URL'],
    ['headers as a list', 'transport: sse\n    url: http://a/\n    headers: [a]', 'headers', 5, 5, 'expected a mapping of header names to strings'],
    ['an unknown auth type', 'transport: sse\n    url: http://a/\n    auth:\n      type: basic', 'auth.type', 6, 7, 'expected type: bearer, header or oauth'],
    ['header_name on bearer', 'transport: sse\n    url: http://a/\n    auth:\n      type: bearer\n      header_name: X-Key\n      secret_ref: a.b', 'auth.header_name', 7, 7, 'unknown key "header_name"; auth type bearer takes: type, secret_ref'],
    ['a missing secret_ref', 'transport: sse\n    url: http://a/\n    auth:\n      type: header', 'auth.secret_ref', 5, 5, 'missing; expected a secret reference such as api_keys.example'],
    ['a bad secret_ref', 'transport: sse\n    url: http://a/\n    auth:\n      type: bearer\n      secret_ref: "a..b"', 'auth.secret_ref', 7, 7, 'expected a dotted path into local.toml [secrets], such as api_keys.example'],
    ['a bad header_name', 'transport: sse\n    url: http://a/\n    auth:\n      type: header\n      header_name: "X Key"\n      secret_ref: a.b', 'auth.header_name', 7, 7, 'expected a valid HTTP header name'],
    ['an oauth client_id_ref that is no reference', 'transport: sse\n    url: http://a/\n    auth:\n      type: oauth\n      client_id_ref: "a..b"', 'auth.client_id_ref', 7, 7, 'expected a dotted path into local.toml [secrets], such as api_keys.example'],
    ['tools.enabled not a boolean', 'transport: stdio\n    command: [x]\n    tools:\n      enabled: "yes"', 'tools.enabled', 6, 7, 'expected true or false'],
    ['tools.allow not a list', 'transport: stdio\n    command: [x]\n    tools:\n      allow: "repo.*"', 'tools.allow', 6, 7, 'expected a list of glob patterns'],
    ['an unknown tools key', 'transport: stdio\n    command: [x]\n    tools:\n      include: [a]', 'tools.include', 6, 7, 'unknown key "include"; a tools filter takes: enabled, allow, deny'],
    ['a server that is not a mapping', '', '', 2, 3, 'expected a server: a mapping with transport and its fields (set the key to null in project.local.yaml to remove a server)'],
  ];
  for (const [name, server, at, line, column, detail] of serverCases) {
    test(`C1 (ADR-0043 §1): ${name} is refused with file, line:column, path and what was expected`, (t) => {
      const dir = fixture(t, { 'kaged.yaml': `mcp:\n  s1:${server ? `\n    ${server}` : ' 5'}\n`, 'local.toml': LOCAL });
      const error = fails(() => load(dir), `server "s1": ${path.join(dir, 'kaged.yaml')}:${line}:${column} at mcp.s1${at ? `.${at}` : ''}: ${detail}`);
      assert.equal(error.line, line);
      assert.equal(error.column, column);
      assert.equal(error.server, 's1');
      assert.deepEqual(error.path, ['mcp', 's1', ...(at ? at.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [])]);
    });
  }

  test('C1: a YAML syntax error quotes the offending line with its line:column', (t) => {
    const dir = fixture(t, { 'kaged.yaml': 'mcp:\n  s1:\n    command: [x\n  s2: 1\n' });
    fails(() => load(dir), `${path.join(dir, 'kaged.yaml')}:4:3 at : not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]: "  s2: 1"`.replace(' at :', ':'));
  });

  test('C1: a repeated key is a YAML error, not a silent last-one-wins', (t) => {
    const dir = fixture(t, { 'kaged.yaml': 'mcp:\n  s1:\n    transport: stdio\n  s1:\n    transport: sse\n' });
    fails(() => load(dir), `${path.join(dir, 'kaged.yaml')}:4:3: not valid YAML: Map keys must be unique: "  s1:"`);
  });

  test('C1: a project file that is not a mapping, or an mcp: that is not one, is refused', (t) => {
    const list = fixture(t, { 'kaged.yaml': '- a\n- b\n' });
    fails(() => load(list), `${path.join(list, 'kaged.yaml')}:1:1: expected a mapping at the top level (the project DSL)`);
    const scalar = fixture(t, { 'kaged.yaml': 'mcp: [a]\n' });
    fails(() => load(scalar), `${path.join(scalar, 'kaged.yaml')}:1:1 at mcp: expected a mapping of server keys to servers`);
  });

  test('C1: a missing project file is refused naming it', (t) => {
    const dir = fixture(t, {});
    fails(() => load(dir), `${path.join(dir, 'kaged.yaml')}: cannot read the file (ENOENT)`);
  });
});

describe('T4 auth and secrets (ADR-0043 §4)', () => {
  test('T4 (ADR-0043 §4): header auth resolves into HttpAuth with header_name, defaulting to Authorization', (t) => {
    const dir = fixture(t, {
      'kaged.yaml': `mcp:
  api:
    transport: sse
    url: https://api.example.com/mcp
    auth: { type: header, header_name: X-API-Key, secret_ref: api_keys.example }
  plain:
    transport: streamable-http
    url: https://b.example.com/mcp
    auth: { type: header, secret_ref: tokens.b }
`,
      'local.toml': `${LOCAL}[secrets.tokens]\nb = "tok-b"\n`,
    });
    const config = load(dir, { env: { TOKEN: 'x' } });
    assert.deepEqual((config.servers[0]!.params as { auth?: unknown }).auth, { type: 'header', headerName: 'X-API-Key', value: CANARY });
    assert.deepEqual((config.servers[1]!.params as { auth?: unknown }).auth, { type: 'header', headerName: 'Authorization', value: 'tok-b' });
    assert.equal((config.servers[1]!.params as { env?: unknown }).env, undefined, 'the kaged DSL interpolates nothing: no environment goes to the transport');
    assert.deepEqual(config.servers[0]!.secretRef, { ref: 'api_keys.example', type: 'header', headerName: 'X-API-Key' });
    assert.deepEqual(config.servers[1]!.secretRef, { ref: 'tokens.b', type: 'header', headerName: 'Authorization' });
    assert.deepEqual(config.secrets, [CANARY, 'tok-b']);
  });

  test('T4 (ADR-0043 §4): a missing secret names the server and the ref, at the secret_ref line', (t) => {
    const dir = fixture(t, { 'kaged.yaml': GITHUB.replace('api_keys.example', 'api_keys.other'), 'local.toml': LOCAL });
    fails(() => load(dir), `server "github": ${path.join(dir, 'kaged.yaml')}:7:7 at mcp.github.auth.secret_ref: the secret "api_keys.other" is not in local.toml [secrets]`);
    const none = fixture(t, { 'kaged.yaml': GITHUB });
    fails(
      () => load(none),
      `server "github": ${path.join(none, 'kaged.yaml')}:7:7 at mcp.github.auth.secret_ref: the secret "api_keys.example" is not in local.toml [secrets] (no local.toml was found beside the project file)`,
    );
  });

  test('T4 (ADR-0043 §4): a secret that is a table, a number, empty or multi-line is refused at its local.toml line, without its value', (t) => {
    const cases: [string, string, string][] = [
      [`[secrets.api_keys.example]\nx = "${CANARY}"\n`, '1:1', 'is not a string'],
      [`[secrets.api_keys]\nexample = 42\n`, '2:1', 'is not a string'],
      [`[secrets.api_keys]\nexample = ""\n`, '2:1', 'is empty'],
      [`[secrets.api_keys]\nexample = """${CANARY}\nX-Evil: 1"""\n`, '2:1', 'contains a line break or NUL, which an HTTP header cannot carry'],
    ];
    for (const [local, at, detail] of cases) {
      const dir = fixture(t, { 'kaged.yaml': GITHUB, 'local.toml': local });
      fails(() => load(dir), `server "github": ${path.join(dir, 'local.toml')}:${at} at secrets.api_keys.example: the secret "api_keys.example" in local.toml [secrets] ${detail}`);
    }
  });

  test('T4 (ADR-0043 §4, §7): a disabled server needs no secret and gets no auth', (t) => {
    const dir = fixture(t, { 'kaged.yaml': GITHUB, 'local.toml': '[mcp.github]\ndisabled = true\n' });
    const [server] = load(dir).servers;
    assert.equal(server!.disabled, true);
    assert.equal((server!.params as { auth?: unknown }).auth, undefined);
  });

  test('T4 (ADR-0043 §4 tier 3, #19): oauth becomes the server\'s OAuth settings: provider, scopes, a pre-registered client from local.toml (its secret a secret)', (t) => {
    const dir = fixture(t, {
      'kaged.yaml': 'mcp:\n  gh:\n    transport: sse\n    url: https://a.example/mcp\n    auth:\n      type: oauth\n      provider: github\n      scopes: [repo, read:org]\n      client_id_ref: oauth.gh_id\n      client_secret_ref: oauth.gh_secret\n',
      'local.toml': '[secrets.oauth]\ngh_id = "Iv1.client"\ngh_secret = "sek-CANARY-gh"\n',
    });
    const config = load(dir);
    assert.equal(config.servers[0]!.unsupported, undefined);
    assert.deepEqual((config.servers[0]!.params as { oauth?: unknown }).oauth, { provider: 'github', scopes: ['repo', 'read:org'], clientId: 'Iv1.client', clientSecret: 'sek-CANARY-gh' });
    assert.equal((config.servers[0]!.params as { auth?: unknown }).auth, undefined);
    assert.deepEqual(config.secrets, ['sek-CANARY-gh']);
    const bare = load(fixture(t, { 'kaged.yaml': 'mcp:\n  gh:\n    transport: streamable-http\n    url: https://a.example/mcp\n    auth:\n      type: oauth\n' }));
    assert.deepEqual((bare.servers[0]!.params as { oauth?: unknown }).oauth, {}, 'no provider: the flow registers a client itself');
  });

  test('T4/A1 (#19): machine clients: grant client_credentials with a secret, or a private key (a multi-line local.toml string or a PEM file) and dpop; every credential a secret to scrub', (t) => {
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const basic = load(
      fixture(t, {
        'kaged.yaml': 'mcp:\n  svc:\n    transport: streamable-http\n    url: https://a.example/mcp\n    auth:\n      type: oauth\n      grant: client_credentials\n      client_id_ref: oauth.id\n      client_secret_ref: oauth.secret\n',
        'local.toml': `[secrets.oauth]\nid = "svc-1"\nsecret = "${CANARY}"\n`,
      }),
    );
    assert.deepEqual((basic.servers[0]!.params as { oauth?: unknown }).oauth, { grant: 'client_credentials', clientId: 'svc-1', clientSecret: CANARY });
    assert.deepEqual(basic.secrets, [CANARY]);
    const keyed = load(
      fixture(t, {
        'kaged.yaml': 'mcp:\n  svc:\n    transport: streamable-http\n    url: https://a.example/mcp\n    auth:\n      type: oauth\n      grant: client_credentials\n      client_id_ref: oauth.id\n      private_key_ref: oauth.key\n      signing_algorithm: ES256\n      dpop: true\n',
        'local.toml': `[secrets.oauth]\nid = "svc-1"\nkey = """\n${pem}"""\n`,
      }),
    );
    assert.deepEqual((keyed.servers[0]!.params as { oauth?: unknown }).oauth, { grant: 'client_credentials', clientId: 'svc-1', privateKey: pem, signingAlgorithm: 'ES256', dpop: true });
    assert.deepEqual(keyed.secrets, [pem]);
    const filed = load(
      fixture(t, {
        'kaged.yaml': 'mcp:\n  svc:\n    transport: streamable-http\n    url: https://a.example/mcp\n    auth:\n      type: oauth\n      grant: client_credentials\n      client_id_ref: oauth.id\n      private_key_file: keys/svc.pem\n',
        'local.toml': '[secrets.oauth]\nid = "svc-1"\n',
        'keys/svc.pem': pem,
      }),
    );
    assert.equal((filed.servers[0]!.params as { oauth?: { privateKey?: unknown } }).oauth?.privateKey, pem);
    assert.deepEqual(filed.secrets, [pem]);
  });

  test('T4/A1 (#19): jwt_bearer: an assertion from local.toml or a file read at each grant; an enterprise IdP with its secret and the ID token, each scrubbed', (t) => {
    const dir = fixture(t, {
      'kaged.yaml':
        'mcp:\n  wif:\n    transport: streamable-http\n    url: https://a.example/mcp\n    auth:\n      type: oauth\n      grant: jwt_bearer\n      assertion_file: run/token.jwt\n' +
        '  wif2:\n    transport: streamable-http\n    url: https://b.example/mcp\n    auth:\n      type: oauth\n      grant: jwt_bearer\n      assertion_ref: oauth.jwt\n' +
        '  ema:\n    transport: streamable-http\n    url: https://c.example/mcp\n    auth:\n      type: oauth\n      grant: jwt_bearer\n      client_id_ref: oauth.id\n      idp:\n        token_endpoint: https://idp.example/token\n        client_id: idp-client\n        client_secret_ref: oauth.idp_secret\n        id_token_ref: oauth.id_token\n',
      'local.toml': `[secrets.oauth]\nid = "mcp-client"\njwt = "eyJ.canary-jwt.sig"\nidp_secret = "${CANARY}"\nid_token = "eyJ.canary-idtoken.sig"\n`,
    });
    const config = load(dir);
    const oauth = (k: string) => (config.servers.find((s) => s.key === k)!.params as { oauth?: unknown }).oauth;
    assert.deepEqual(oauth('wif'), { grant: 'jwt_bearer', assertion: { file: path.join(dir, 'run', 'token.jwt') } });
    assert.deepEqual(oauth('wif2'), { grant: 'jwt_bearer', assertion: 'eyJ.canary-jwt.sig' });
    assert.deepEqual(oauth('ema'), { grant: 'jwt_bearer', clientId: 'mcp-client', idp: { tokenEndpoint: 'https://idp.example/token', clientId: 'idp-client', clientSecret: CANARY, idToken: 'eyJ.canary-idtoken.sig' } });
    assert.deepEqual([...config.secrets].sort(), [CANARY, 'eyJ.canary-jwt.sig', 'eyJ.canary-idtoken.sig'].sort());
  });

  const machineRefusals: [name: string, auth: string, at: string, detail: string][] = [
    ['a private key on the user\'s flow', 'private_key_ref: api_keys.example', 'auth.grant', 'private_key_ref, private_key_file, assertion_ref, assertion_file and idp are for machine clients: set grant: client_credentials or jwt_bearer'],
    ['client_credentials without a client id', 'grant: client_credentials\n      client_secret_ref: api_keys.example', 'auth.client_id_ref', 'grant: client_credentials needs client_id_ref (and client_secret_ref or private_key_ref)'],
    ['client_credentials without a credential', 'grant: client_credentials\n      client_id_ref: api_keys.example', 'auth.client_secret_ref', 'grant: client_credentials needs client_secret_ref, private_key_ref or private_key_file to authenticate the client'],
    ['jwt_bearer without an assertion', 'grant: jwt_bearer', 'auth.grant', 'grant: jwt_bearer needs assertion_ref, assertion_file or idp'],
    ['an unknown grant', 'grant: password', 'auth.grant', 'expected grant: authorization_code, client_credentials or jwt_bearer'],
    ['a missing private key file', 'grant: client_credentials\n      client_id_ref: api_keys.example\n      private_key_file: nowhere.pem', 'auth.private_key_file', 'cannot read the private key file <root>/nowhere.pem (ENOENT)'],
  ];
  for (const [name, auth, at, detail] of machineRefusals) {
    test(`T4/A1 (#19): ${name} is refused at its key, without any secret`, (t) => {
      const dir = fixture(t, { 'kaged.yaml': `mcp:\n  svc:\n    transport: streamable-http\n    url: https://a.example/mcp\n    auth:\n      type: oauth\n      ${auth}\n`, 'local.toml': LOCAL });
      let caught: unknown;
      assert.throws(() => load(dir), (error) => ((caught = error), true));
      assert.ok(caught instanceof ConfigError, String(caught));
      assert.ok(caught.message.startsWith(`server "svc": ${path.join(dir, 'kaged.yaml')}:`), caught.message);
      assert.ok(caught.message.endsWith(` at mcp.svc.${at}: ${detail.replace('<root>', dir)}`), caught.message);
      noCanary(caught);
    });
  }

  test('T4/A1 (#19): a client secret written inline (not by reference) is an unknown key, and its value is not quoted', (t) => {
    const dir = fixture(t, { 'kaged.yaml': `mcp:\n  svc:\n    transport: streamable-http\n    url: https://a.example/mcp\n    auth:\n      type: oauth\n      grant: client_credentials\n      client_secret: ${CANARY}\n`, 'local.toml': LOCAL });
    let caught: unknown;
    assert.throws(() => load(dir), (error) => ((caught = error), true));
    assert.ok(caught instanceof ConfigError);
    assert.match(caught.message, /unknown key "client_secret"/);
    noCanary(caught);
  });

  test('T4: a TOML syntax error on the secret\'s line gives line and column but never the line (nor the secret)', (t) => {
    const dir = fixture(t, { 'kaged.yaml': GITHUB, 'local.toml': `[secrets.api_keys]\nexample = "${CANARY}\n` });
    const error = fails(() => load(dir), `${path.join(dir, 'local.toml')}:2:${12 + CANARY.length}: not valid TOML: control characters are not allowed in strings (the line is not quoted: the file may hold secrets)`);
    assert.equal(error.cause, undefined, 'the parser\'s error quotes the line, so it is not kept');
  });
});

describe('C2 project.local.yaml overlay (ADR-0043 §1, ADR-0015)', () => {
  const BASE = `mcp:
  keep:
    transport: stdio
    command: [node, a.js]
    tools:
      allow: [a, b]
  drop:
    transport: stdio
    command: [node, b.js]
`;

  test('C2: the overlay merges into the mcp: block; null removes a server; lists are replaced; new servers are added', (t) => {
    const dir = fixture(t, {
      'kaged.yaml': BASE,
      'project.local.yaml': 'mcp:\n  keep:\n    tools:\n      allow: [c]\n  drop: null\n  added:\n    transport: sse\n    url: http://127.0.0.1:9/sse\nother: ignored\n',
    });
    const config = load(dir);
    assert.deepEqual(config.servers.map((s) => s.key), ['keep', 'added']);
    assert.deepEqual(config.servers[0]!.params, { transport: 'stdio', server: 'keep', command: ['node', 'a.js'], cwd: dir });
    assert.deepEqual(config.servers[0]!.tools.allow, ['c']);
  });

  test('C2: the projectLocal option names the overlay; without it, none beside the project means no overlay', (t) => {
    const dir = fixture(t, { 'kaged.yaml': BASE, 'elsewhere.yaml': 'mcp:\n  keep: ~\n' });
    assert.deepEqual(load(dir).servers.map((s) => s.key), ['keep', 'drop']);
    assert.deepEqual(load(dir, { projectLocal: path.join(dir, 'elsewhere.yaml') }).servers.map((s) => s.key), ['drop']);
  });

  test('C2: an error in what the overlay wrote names the overlay file and its line', (t) => {
    const dir = fixture(t, { 'kaged.yaml': BASE, 'project.local.yaml': 'mcp:\n  keep:\n    url: http://a/\n' });
    fails(() => load(dir), `server "keep": ${path.join(dir, 'project.local.yaml')}:3:5 at mcp.keep.url: unknown key "url"; transport stdio takes: transport, command, cwd, env, tools, sampling, min_version, protocol_era, pin`);
    const added = fixture(t, { 'kaged.yaml': BASE, 'project.local.yaml': 'mcp:\n  added:\n    command: [x]\n' });
    fails(() => load(added), `server "added": ${path.join(added, 'project.local.yaml')}:2:3 at mcp.added.transport: missing; expected transport: stdio, sse or streamable-http`);
  });

  test('C2: a YAML syntax error in the overlay names the overlay', (t) => {
    const dir = fixture(t, { 'kaged.yaml': BASE, 'project.local.yaml': 'mcp: {\n' });
    assert.throws(() => load(dir), (e: Error) => e instanceof ConfigError && e.message.startsWith(`${path.join(dir, 'project.local.yaml')}:`) && e.message.includes('not valid YAML'));
  });
});

describe('C3 local.toml and the daemon config.toml (ADR-0043 §6, §7)', () => {
  const TWO = `${GITHUB}  db:\n    transport: stdio\n    command: [x]\n`;

  test('C3 (ADR-0043 §7): [mcp.<key>] disabled and timeout_ms apply to their server', (t) => {
    const dir = fixture(t, { 'kaged.yaml': TWO, 'local.toml': `# operator overrides\n[mcp.github]\ndisabled = false\ntimeout_ms = 5000\n\n[mcp.db]\ndisabled = true\n\n${LOCAL}` });
    const [github, db] = load(dir).servers;
    assert.deepEqual([github!.disabled, github!.timeoutMs], [false, 5000]);
    assert.deepEqual([db!.disabled, db!.timeoutMs], [true, undefined]);
  });

  test('C3 (ADR-0043 §7): a [mcp.<key>] table for a server the project does not declare is an error at its header', (t) => {
    const dir = fixture(t, { 'kaged.yaml': TWO, 'local.toml': `${LOCAL}\n[mcp.githb]\ndisabled = true\n` });
    fails(
      () => load(dir),
      `server "githb": ${path.join(dir, 'local.toml')}:4:1 at mcp.githb: there is no server "githb" in the project's mcp: block (declared: github, db); correct the key or remove the table`,
    );
  });

  test('C3 (ADR-0043 §7): bad values and unknown keys in [mcp.<key>] are refused at their line', (t) => {
    const cases: [string, string, string][] = [
      ['timeout_ms = "30s"', 'mcp.github.timeout_ms', 'expected a whole number of milliseconds'],
      ['timeout_ms = 0', 'mcp.github.timeout_ms', 'expected at least 1 ms'],
      ['timeout_ms = 1.5', 'mcp.github.timeout_ms', 'expected a whole number of milliseconds'],
      ['timeout_ms = 9999999999', 'mcp.github.timeout_ms', 'expected at most 2147483647 ms (the largest timer Node.js keeps)'],
      ['disabled = "yes"', 'mcp.github.disabled', 'expected true or false'],
      ['retries = 3', 'mcp.github.retries', 'unknown key "retries"; a local.toml [mcp.<key>] table takes: disabled, timeout_ms, startup_timeout_ms'],
    ];
    for (const [line, at, detail] of cases) {
      const dir = fixture(t, { 'kaged.yaml': TWO, 'local.toml': `${LOCAL}[mcp.github]\n${line}\n` });
      fails(() => load(dir), `server "github": ${path.join(dir, 'local.toml')}:4:1 at ${at}: ${detail}`);
    }
  });

  test('C3 (ADR-0043 §6): config.toml [mcp] sets the result cap and the default timeout; both default when absent', (t) => {
    const dir = fixture(t, { 'kaged.yaml': TWO, 'local.toml': LOCAL, 'config.toml': '[daemon]\nlog = "info"\n\n[mcp]\nresult_cap_bytes = 131072\ndefault_timeout_ms = 10000\n' });
    const config = load(dir);
    assert.deepEqual([config.resultCapBytes, config.defaultTimeoutMs], [131_072, 10_000]);
    const partial = fixture(t, { 'kaged.yaml': TWO, 'local.toml': LOCAL, 'other.toml': '[mcp]\nresult_cap_bytes = 1024\n' });
    const config2 = load(partial, { daemonConfig: path.join(partial, 'other.toml') });
    assert.deepEqual([config2.resultCapBytes, config2.defaultTimeoutMs], [1024, 30_000]);
  });

  test('C3: config.toml errors: unknown [mcp] key, bad value, syntax error at line:column (never quoting the line)', (t) => {
    const cases: [string, string][] = [
      ['[mcp]\nresult_cap = 10\n', ':2:1 at mcp.result_cap: unknown key "result_cap" (did you mean "result_cap_bytes"?); the config.toml [mcp] table takes: result_cap_bytes, default_timeout_ms'],
      ['[mcp]\nresult_cap_bytes = -1\n', ':2:1 at mcp.result_cap_bytes: expected at least 1 byte'],
      ['[mcp]\ndefault_timeout_ms = "1s"\n', ':2:1 at mcp.default_timeout_ms: expected a whole number of milliseconds'],
      ['[mcp\n', ':1:5: not valid TOML: illegal character in key (the line is not quoted: the file may hold secrets)'],
    ];
    for (const [text, rest] of cases) {
      const dir = fixture(t, { 'kaged.yaml': TWO, 'local.toml': LOCAL, 'config.toml': text });
      fails(() => load(dir), `${path.join(dir, 'config.toml')}${rest}`);
    }
  });

  test('C3: a local.toml given by option that does not exist is an error, not silently no overrides', (t) => {
    const dir = fixture(t, { 'kaged.yaml': TWO });
    fails(() => load(dir, { local: path.join(dir, 'nope.toml') }), `${path.join(dir, 'nope.toml')}: cannot read the file (ENOENT)`);
  });
});

describe('T1 cwd stays inside the project (ADR-0043 §3)', () => {
  const withCwd = (cwd: string) => `mcp:\n  s1:\n    transport: stdio\n    command: [x]\n    cwd: ${JSON.stringify(cwd)}\n`;

  test('T1 (ADR-0043 §3): a project-relative cwd resolves to its real absolute path', (t) => {
    const dir = fixture(t, { 'kaged.yaml': withCwd('./tools/../tools/db'), 'tools/db/.keep': '' });
    assert.equal((load(dir).servers[0]!.params as { cwd?: string }).cwd, path.join(dir, 'tools', 'db'));
  });

  test('T1 (ADR-0043 §3): cwd escaping with .., absolute, through a symlink, missing or a file is refused', (t) => {
    const outside = fixture(t, {});
    const dir = fixture(t, { 'kaged.yaml': '', 'a-file': '' });
    symlinkSync(outside, path.join(dir, 'link'));
    const cases: [string, string][] = [
      ['..', `".." escapes the project folder ${dir}`],
      ['tools/../../x', `"tools/../../x" escapes the project folder ${dir}`],
      [outside, `expected a path relative to the project folder, not the absolute path ${JSON.stringify(outside)}`],
      ['link', `"link" resolves through a symlink to ${outside}, outside the project folder ${dir}`],
      ['missing', `"missing" does not exist (resolved against ${dir})`],
      ['a-file', '"a-file" is not a directory'],
    ];
    for (const [cwd, detail] of cases) {
      writeFileSync(path.join(dir, 'kaged.yaml'), withCwd(cwd));
      fails(() => load(dir), `server "s1": ${path.join(dir, 'kaged.yaml')}:5:5 at mcp.s1.cwd: ${detail}`);
    }
  });
});

describe('R3 agents\' tools: blocks (ADR-0043 §2)', () => {
  test('R3 (ADR-0043 §2): primary.tools and each subagent\'s tools are kept in file order, every entry', (t) => {
    const dir = fixture(t, {
      'kaged.yaml': `primary:
  model: big
  tools:
    "mcp.github.issue.*": { enabled: true }
    fs.read: { enabled: true }
    "mcp.database": { enabled: false }
    "2": { enabled: true }
  subagents:
    researcher:
      tools:
        "mcp.github.issue.list": { enabled: true }
subagents:
  writer:
    tools:
      "mcp.files": { enabled: true }
  quiet: {}
`,
    });
    assert.deepEqual(load(dir).agents, {
      primary: [
        ['mcp.github.issue.*', { enabled: true }],
        ['fs.read', { enabled: true }],
        ['mcp.database', { enabled: false }],
        ['2', { enabled: true }],
      ],
      writer: [['mcp.files', { enabled: true }]],
      researcher: [['mcp.github.issue.list', { enabled: true }]],
    });
  });

  test('R3 (ADR-0043 §2): a rule that is not { enabled: boolean }, a tools: that is not a mapping, a twice-declared agent are refused', (t) => {
    const file = (dir: string) => path.join(dir, 'kaged.yaml');
    const bad = fixture(t, { 'kaged.yaml': 'primary:\n  tools:\n    "mcp.x": { enabled: "yes" }\n' });
    fails(() => load(bad), `${file(bad)}:3:16 at primary.tools.mcp.x.enabled: expected true or false`);
    const extra = fixture(t, { 'kaged.yaml': 'primary:\n  tools:\n    "mcp.x": { enabled: true, why: no }\n' });
    fails(() => load(extra), `${file(extra)}:3:31 at primary.tools.mcp.x.why: unknown key "why"; an agent tool rule takes: enabled`);
    const list = fixture(t, { 'kaged.yaml': 'subagents:\n  r:\n    tools: [mcp.x]\n' });
    fails(() => load(list), `${file(list)}:3:5 at subagents.r.tools: expected a mapping of tool patterns to { enabled: true } or { enabled: false }`);
    const twice = fixture(t, { 'kaged.yaml': 'primary:\n  subagents:\n    r:\n      tools: {}\nsubagents:\n  r:\n    tools: {}\n' });
    fails(() => load(twice), `${file(twice)}:3:5 at primary.subagents.r: the agent "r" is declared twice; give each subagent its own name`);
  });
});
