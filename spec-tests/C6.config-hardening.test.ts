// C1–C5 and T4 where a config file is the attacker or the typo: what the
// readers of every format refuse at load, and what they never say. A kaged
// project must not read the operator's environment (`${VAR}` in headers), no
// format takes credentials in a URL, a companion file linked out of the
// project is refused, no error quotes a line of a file that may hold secrets,
// prototype keys and hostile shapes (alias bombs, deep nesting, megabyte
// lines) end in a ConfigError. Canary values make every "never says" checkable.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { inspect } from 'node:util';
import { connect } from '../src/client/connect.js';
import { ConfigError } from '../src/errors.js';
import { readCodexToml } from '../src/toolsource/config/codex-toml.js';
import { loadKagedProject, type KagedProjectOptions } from '../src/toolsource/config/kaged.js';
import { loadToolSourceConfig } from '../src/toolsource/config/load.js';
import { readClientJson } from '../src/toolsource/config/mcp-servers-json.js';
import { readKestrelConfig } from '../src/toolsource/kestrel/config.js';
import { startHttpFixture } from '../src/testing/http-fixture.js';
import { tempDir } from './helpers/temp.js';

const CANARY = `sk-canary-${randomBytes(12).toString('hex')}`;
const PASSWORD = `pw-canary-${randomBytes(12).toString('hex')}`;

function put(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** Everything an error shows: message, stack, JSON, inspect with causes. */
function shown(error: unknown): string {
  return [String(error), (error as Error).stack ?? '', JSON.stringify(error), inspect(error, { depth: 10, showHidden: true })].join('\n');
}

/** Runs `fn`, expects a ConfigError, checks that none of `never` is in anything it shows, and returns it. */
function refused(fn: () => unknown, never: readonly string[] = [CANARY, PASSWORD]): ConfigError {
  let caught: unknown;
  assert.throws(fn, (error) => ((caught = error), true));
  assert.ok(caught instanceof ConfigError, `expected a ConfigError, got ${inspect(caught)}`);
  for (const secret of never) assert.ok(!shown(caught).includes(secret), `the error shows a secret: ${caught.message}`);
  return caught;
}

function kaged(t: TestContext, files: Record<string, string>, options: Partial<KagedProjectOptions> = {}) {
  const dir = tempDir(t, 'c6');
  for (const [name, text] of Object.entries(files)) put(dir, name, text);
  return { dir, load: () => loadKagedProject({ project: path.join(dir, 'kaged.yaml'), operatorConfigDir: path.join(dir, 'no-operator-dir'), ...options }) };
}

const HTTP = (extra = '') => `mcp:\n  api:\n    transport: streamable-http\n    url: https://api.example.com/mcp\n${extra}`;

describe('item 1: ${VAR} in a kaged header is refused; interpolation is the reader\'s, once', () => {
  test('T4/C1: ${VAR} in a kaged DSL header is a ConfigError that says why and what to use, and the variable never reaches an error', (t) => {
    process.env.MCPWIRE_C6_CANARY = CANARY;
    t.after(() => delete process.env.MCPWIRE_C6_CANARY);
    const { load } = kaged(t, { 'kaged.yaml': HTTP('    headers:\n      X-Token: "Bearer ${MCPWIRE_C6_CANARY}"\n') });
    const error = refused(load);
    assert.deepEqual(error.path, ['mcp', 'api', 'headers', 'X-Token']);
    assert.match(error.message, /portable project must not read the operator's environment variables/);
    assert.match(error.message, /secret_ref/);
    assert.match(error.message, /local\.toml/);
  });

  test('T4/C2: the same header written by project.local.yaml is refused too', (t) => {
    const { load } = kaged(t, { 'kaged.yaml': HTTP(), 'project.local.yaml': 'mcp:\n  api:\n    headers:\n      X-A: "${HOME}"\n' });
    const error = refused(load);
    assert.match(error.message, /project\.local\.yaml:4:7 at mcp\.api\.headers\.X-A/);
  });

  test('T4: the transports substitute nothing: a kaged static header and a client config\'s resolved ${VAR} whose value holds ${…} reach the server as written (canary)', async (t) => {
    process.env.MCPWIRE_C6_CANARY = CANARY;
    t.after(() => delete process.env.MCPWIRE_C6_CANARY);
    const server = await startHttpFixture(t);
    const dir = tempDir(t, 'c6');
    // The value of OUTER holds a ${…}: resolved once, it must stay literal, never be looked up again.
    const env = { OUTER: '${MCPWIRE_C6_CANARY}', MCPWIRE_C6_CANARY: CANARY };
    const json = put(dir, 'mcp.json', JSON.stringify({ mcpServers: { a: { type: 'http', url: server.url, headers: { 'X-Outer': '${OUTER}', 'X-Env': '${env:OUTER}' } } } }));
    const fromJson = readClientJson(json, { env, home: dir, project: dir }).servers[0]!;
    const fromKestrel = readKestrelConfig({ servers: { k: { url: server.url, headers: { 'X-Outer': 'v=${OUTER}' } } } }, { env }).source.servers[0]!;
    for (const source of [fromJson, fromKestrel]) {
      const client = await connect(source.params);
      await client.close();
    }
    const seen = JSON.stringify(server.requests.map((r) => r.headers));
    assert.ok(!seen.includes(CANARY), 'the variable named inside a resolved value was expanded');
    assert.equal(server.requests[0]!.headers['x-outer'], '${MCPWIRE_C6_CANARY}');
    assert.equal(server.requests[0]!.headers['x-env'], '${MCPWIRE_C6_CANARY}');
    assert.ok(server.requests.some((r) => r.headers['x-outer'] === 'v=${MCPWIRE_C6_CANARY}'), seen);
  });

  test('C4/T4: Kestrel\'s ${NAME} is resolved in its reader: an unset variable drops the header, a set one is literal in params and in secrets', () => {
    const block = { servers: { docs: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${DOCS_MCP_TOKEN}', 'X-Fixed': 'f' } } } };
    const unset = readKestrelConfig(block, { env: {} }).source;
    assert.deepEqual((unset.servers[0]!.params as { headers?: unknown }).headers, { 'X-Fixed': 'f' });
    const set = readKestrelConfig(block, { env: { DOCS_MCP_TOKEN: CANARY } }).source;
    assert.deepEqual((set.servers[0]!.params as { headers?: unknown }).headers, { Authorization: `Bearer ${CANARY}`, 'X-Fixed': 'f' });
    assert.ok(set.secrets.includes(CANARY) && set.secrets.includes(`Bearer ${CANARY}`), 'the resolved value joins the scrub set');
  });
});

describe('item 3: credentials in a URL are refused in every format, the password never said', () => {
  const url = `https://user:${PASSWORD}@mcp.example.com/mcp`;
  test('T4: kaged, mcpServers JSON, VS Code, Codex TOML refuse user:pass@ at load and say to use a header', (t) => {
    const { load } = kaged(t, { 'kaged.yaml': `mcp:\n  api:\n    transport: sse\n    url: ${url}\n` });
    assert.match(refused(load).message, /credentials .*header/);
    const dir = tempDir(t, 'c6');
    const json = put(dir, 'a.json', JSON.stringify({ mcpServers: { a: { url } } }));
    assert.match(refused(() => readClientJson(json, { env: {}, home: dir, project: dir })).message, /credentials .*header/);
    const vscode = put(dir, '.vscode/mcp.json', JSON.stringify({ servers: { a: { type: 'http', url: 'https://u:${env:PW}@x.example/mcp' } } }));
    assert.match(refused(() => readClientJson(vscode, { env: { PW: PASSWORD }, home: dir, project: dir })).message, /credentials/);
    const codex = put(dir, 'config.toml', `[mcp_servers.a]\nurl = "${url}"\n`);
    assert.match(refused(() => readCodexToml(codex, { env: {}, workspaceFolder: dir })).message, /credentials .*header/);
  });

  test('C4: a Kestrel server with user:pass@ is skipped with a reason that has no password; through loadToolSourceConfig it is unsupported', (t) => {
    const config = readKestrelConfig({ servers: { a: { url }, b: { command: 'b' } } });
    assert.deepEqual(config.source.servers.map((s) => s.key), ['b']);
    assert.match(config.skipped[0]!.reason, /credentials/);
    assert.ok(!config.skipped[0]!.reason.includes(PASSWORD));
    const dir = tempDir(t, 'c6');
    const file = put(dir, 'kestrel.config.json', JSON.stringify({ plugins: { config: { '@kestrel/plugin-mcp': { servers: { a: { url } } } } } }));
    const loaded = loadToolSourceConfig({ config: file, projectDir: dir, home: dir });
    assert.match(loaded.servers[0]!.unsupported!, /credentials/);
    assert.ok(!JSON.stringify(loaded.servers[0]).includes(PASSWORD));
  });
});

describe('item 9: a per-server start timeout in every format', () => {
  test('kaged: local.toml [mcp.<key>] startup_timeout_ms → startupTimeoutMs; refused in the DSL server block', (t) => {
    const { load } = kaged(t, { 'kaged.yaml': HTTP(), 'local.toml': '[mcp.api]\nstartup_timeout_ms = 4500\ntimeout_ms = 9000\n' });
    const server = load().servers[0]!;
    assert.equal(server.startupTimeoutMs, 4500);
    assert.equal(server.timeoutMs, 9000);
    const dsl = kaged(t, { 'kaged.yaml': HTTP('    startup_timeout_ms: 10\n') });
    assert.match(refused(dsl.load).message, /unknown key "startup_timeout_ms"/);
  });

  test('Codex startup_timeout_sec / startup_timeout_ms, Kestrel timeoutMs → startupTimeoutMs', (t) => {
    const dir = tempDir(t, 'c6');
    const codex = put(dir, 'config.toml', '[mcp_servers.a]\ncommand = "a"\nstartup_timeout_sec = 2.5\n[mcp_servers.b]\ncommand = "b"\nstartup_timeout_ms = 700\n');
    assert.deepEqual(readCodexToml(codex, { env: {}, workspaceFolder: dir }).servers.map((s) => s.startupTimeoutMs), [2500, 700]);
    assert.equal(readKestrelConfig({ servers: { a: { command: 'a', timeoutMs: 1234 } } }).source.servers[0]!.startupTimeoutMs, 1234);
  });
});

describe('item 12: secrets a host resolves at start', () => {
  const AUTH = HTTP('    auth: { type: header, header_name: X-Key, secret_ref: keys.api }\n');
  test('T4: a missing secret_ref stops the load; with deferSecrets it loads with secretRef and no params.auth', (t) => {
    const { dir, load } = kaged(t, { 'kaged.yaml': AUTH, 'local.toml': '[secrets.keys]\nother = "x"\n' });
    assert.match(refused(load).message, /the secret "keys\.api" is not in local\.toml/);
    const deferred = loadKagedProject({ project: path.join(dir, 'kaged.yaml'), deferSecrets: true }).servers[0]!;
    assert.deepEqual(deferred.secretRef, { ref: 'keys.api', type: 'header', headerName: 'X-Key' });
    assert.equal((deferred.params as { auth?: unknown }).auth, undefined);
    const viaLoad = loadToolSourceConfig({ config: path.join(dir, 'kaged.yaml'), deferSecrets: true }).servers[0]!;
    assert.deepEqual(viaLoad.secretRef, deferred.secretRef);
  });

  test('T4: a resolved secret keeps its secretRef; a disabled server with a missing one has secretRef and no auth', (t) => {
    const resolved = kaged(t, { 'kaged.yaml': AUTH, 'local.toml': `[secrets.keys]\napi = "${CANARY}"\n` }).load();
    assert.deepEqual(resolved.servers[0]!.secretRef, { ref: 'keys.api', type: 'header', headerName: 'X-Key' });
    assert.deepEqual((resolved.servers[0]!.params as { auth?: unknown }).auth, { type: 'header', headerName: 'X-Key', value: CANARY });
    const disabled = kaged(t, { 'kaged.yaml': AUTH, 'local.toml': '[mcp.api]\ndisabled = true\n' }).load().servers[0]!;
    assert.equal(disabled.disabled, true);
    assert.equal((disabled.params as { auth?: unknown }).auth, undefined);
    assert.equal(disabled.secretRef?.ref, 'keys.api');
  });

  test('T4: deferSecrets does not waive a secret that is present but unusable', (t) => {
    const { load } = kaged(t, { 'kaged.yaml': AUTH, 'local.toml': '[secrets.keys]\napi = 5\n' }, { deferSecrets: true });
    assert.match(refused(load).message, /is not a string/);
  });
});

describe('items 15, 16, 19: typos and the schema\'s reserved keys', () => {
  test('C2: a null in project.local.yaml for a server or key the project does not declare is refused, naming the declared keys', (t) => {
    const server = kaged(t, { 'kaged.yaml': HTTP(), 'project.local.yaml': 'mcp:\n  apl: null\n' });
    const error = refused(server.load);
    assert.match(error.message, /project\.local\.yaml:2:3 at mcp\.apl: .*declared: "api"/);
    const key = kaged(t, { 'kaged.yaml': HTTP('    headers: { X-A: a }\n'), 'project.local.yaml': 'mcp:\n  api:\n    headers:\n      X-B: null\n' });
    assert.match(refused(key.load).message, /at mcp\.api\.headers\.X-B: .*declared: "X-A"/);
    const fine = kaged(t, { 'kaged.yaml': `${HTTP()}  other:\n    transport: stdio\n    command: [x]\n`, 'project.local.yaml': 'mcp:\n  other: null\n' });
    assert.deepEqual(fine.load().servers.map((s) => s.key), ['api']);
  });

  test('C1 (ADR-0043 §5): sampling: false is accepted, sampling: true is refused as not supported; min_version is accepted, ignored, with a diagnostic', (t) => {
    const off = kaged(t, { 'kaged.yaml': HTTP('    sampling: false\n    min_version: "1.2.0"\n') }).load();
    assert.deepEqual(off.diagnostics, ['server "api": min_version is ignored; kaged does not pin MCP server versions (ADR-0043 §5)']);
    const on = kaged(t, { 'kaged.yaml': HTTP('    sampling: true\n') });
    assert.match(refused(on.load).message, /at mcp\.api\.sampling: sampling is not supported/);
  });

  test('C1: a misspelt key is reported as unknown with the right one suggested, not as the missing key', (t) => {
    const { load } = kaged(t, { 'kaged.yaml': 'mcp:\n  db:\n    transport: stdio\n    comand: [node, s.js]\n' });
    const error = refused(load);
    assert.match(error.message, /kaged\.yaml:4:5 at mcp\.db\.comand: unknown key "comand" \(did you mean "command"\?\)/);
    const local = kaged(t, { 'kaged.yaml': HTTP(), 'local.toml': '[mcp.api]\ntimout_ms = 5\n' });
    assert.match(refused(local.load).message, /unknown key "timout_ms" \(did you mean "timeout_ms"\?\)/);
    const dir = tempDir(t, 'c6');
    const json = put(dir, 'a.json', '{"mcpServers": {"a": {"comand": "node"}}}');
    assert.match(refused(() => readClientJson(json, { env: {}, home: dir, project: dir })).message, /is "comand" a misspelt "command"\?/);
    assert.match(readKestrelConfig({ servers: { a: { ulr: 'https://x.example/' } } }).skipped[0]!.reason, /"ulr" a misspelt "url"/);
  });
});

describe('item 24: hostile shapes end in a ConfigError', () => {
  const BOMB = ['a: &a [x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)].join('\n');

  test('C1/C2: a YAML alias bomb or an undefined alias in kaged.yaml, the overlay or a server\'s env is a ConfigError naming the file', (t) => {
    const cases: [Record<string, string>, string][] = [
      [{ 'kaged.yaml': `${BOMB}\nmcp: {}\n` }, 'kaged.yaml'],
      [{ 'kaged.yaml': 'mcp:\n  db:\n    transport: stdio\n    command: [x]\n    env: *nowhere\n' }, 'kaged.yaml'],
      [{ 'kaged.yaml': HTTP(), 'project.local.yaml': `${BOMB}\n` }, 'project.local.yaml'],
      [{ 'kaged.yaml': HTTP(), 'project.local.yaml': 'mcp:\n  api:\n    headers: *missing\n' }, 'project.local.yaml'],
    ];
    for (const [files, file] of cases) {
      const { dir, load } = kaged(t, files);
      const error = refused(load);
      assert.equal(error.file, path.join(dir, file), error.message);
      assert.match(error.message, /alias/);
    }
  });

  test('C5/C4: JSON nested 5000 deep is a ConfigError (no RangeError), in a client config and in Kestrel\'s', (t) => {
    const dir = tempDir(t, 'c6');
    const deep = `{"mcpServers": {"a": {"command": "x", "env": ${'['.repeat(5000)}${']'.repeat(5000)}}}}`;
    const json = put(dir, 'deep.json', deep);
    assert.match(refused(() => readClientJson(json, { env: {}, home: dir, project: dir })).message, /nested deeper than 100 levels/);
    const kestrel = put(dir, 'kestrel.config.json', `{"plugins": {"config": {"@kestrel/plugin-mcp": {"servers": ${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}}}`);
    assert.match(refused(() => loadToolSourceConfig({ config: kestrel, projectDir: dir, home: dir })).message, /nested deeper than 100 levels/);
  });

  test('C3: a config.toml with a 1 MB line and a schema error is placed by line, without quoting it', (t) => {
    const long = `k${' '.repeat(1_000_000)}x`;
    const { load } = kaged(t, { 'kaged.yaml': HTTP(), 'config.toml': `[notes]\ntext = """\n${long}\n"""\n[mcp]\nresult_cap_bytes = "x"\n` });
    const error = refused(load, [long.slice(0, 40)]);
    assert.match(error.message, /config\.toml:6:1 at mcp\.result_cap_bytes: expected a whole number of bytes/);
  });

  test('C1: error messages are bounded: a megabyte key or a megabyte line is cut', (t) => {
    const key = 'k'.repeat(1_000_000);
    const a = kaged(t, { 'kaged.yaml': `mcp:\n  ${key}: {transport: stdio, command: [x]}\n` });
    assert.ok(refused(a.load).message.length < 3_000, 'a megabyte server key is cut');
    const b = kaged(t, { 'kaged.yaml': `mcp: [${'x'.repeat(1_000_000)}\n` });
    assert.ok(refused(b.load).message.length < 3_000, 'a megabyte line is cut');
    const c = kaged(t, { 'kaged.yaml': `mcp:\n  db:\n    transport: stdio\n    command: [x]\n    ${key}: 1\n` });
    assert.ok(refused(c.load).message.length < 3_000, 'a megabyte unknown key is cut');
  });
});

describe('item 25: companion files stay in the project, and no error quotes one of their lines', () => {
  test('C3: config.toml, project.local.yaml or local.toml linked out of the project folder is refused, naming the link, never its target\'s content', (t) => {
    const outside = tempDir(t, 'c6-outside');
    const target = put(outside, 'environ', `SECRET=${CANARY}\n[[[\n`);
    for (const name of ['config.toml', 'project.local.yaml', 'local.toml']) {
      const { dir, load } = kaged(t, { 'kaged.yaml': HTTP() });
      symlinkSync(target, path.join(dir, name));
      const error = refused(load);
      assert.equal(error.file, path.join(dir, name));
      assert.match(error.message, /outside the project folder/);
    }
  });

  test('C3: local.toml linked into the operator\'s own config folder is read; a link inside the project is read', (t) => {
    const operator = tempDir(t, 'c6-operator');
    const secretFile = put(operator, 'local.toml', `[secrets.keys]\napi = "${CANARY}"\n`);
    const { dir } = kaged(t, { 'kaged.yaml': HTTP('    auth: { type: bearer, secret_ref: keys.api }\n'), 'private/local.toml': '[mcp.api]\ntimeout_ms = 5\n' });
    symlinkSync(secretFile, path.join(dir, 'local.toml'));
    const config = loadKagedProject({ project: path.join(dir, 'kaged.yaml'), operatorConfigDir: operator });
    assert.deepEqual(config.secrets, [CANARY]);
    symlinkSync(path.join(dir, 'private', 'local.toml'), path.join(dir, 'config.toml'));
    // Read (as its real path, the file that was read): here it is no daemon config, which is what the error says.
    assert.match(refused(() => loadKagedProject({ project: path.join(dir, 'kaged.yaml'), operatorConfigDir: operator })).message, /private\/local\.toml:1:1 at mcp\.api: unknown key "api"; the config\.toml \[mcp\] table takes/);
  });

  test('T4: a syntax error in local.toml, config.toml or project.local.yaml gives line:column only, never the line', (t) => {
    for (const [name, text] of [
      ['local.toml', `[secrets.keys]\napi = "${CANARY}\n`],
      ['config.toml', `[mcp]\nresult_cap_bytes = ${CANARY}\n`],
      ['project.local.yaml', `mcp:\n  api: [${CANARY}\n`],
    ]) {
      const { load } = kaged(t, { 'kaged.yaml': HTTP(), [name!]: text! });
      const error = refused(load);
      assert.match(error.message, new RegExp(`${name!.replace('.', '\\.')}:\\d+:\\d+: not valid`), error.message);
    }
  });
});

describe('item 26: prototype keys are refused like any unknown key', () => {
  test('C3/C5/C4: [mcp.__proto__] in local.toml, __proto__ in mcpServers JSON, constructor in Codex TOML, prototype in a Kestrel block', (t) => {
    const { load } = kaged(t, { 'kaged.yaml': HTTP(), 'local.toml': '[mcp.__proto__]\ndisabled = true\n' });
    assert.match(refused(load).message, /local\.toml:1:1 at mcp\.__proto__: unknown key "__proto__"/);
    const dir = tempDir(t, 'c6');
    const json = put(dir, 'a.json', '{"mcpServers": {"__proto__": {"command": "x"}}}');
    assert.match(refused(() => readClientJson(json, { env: {}, home: dir, project: dir })).message, /at mcpServers\.__proto__: unknown key "__proto__"/);
    const codex = put(dir, 'config.toml', '[mcp_servers.a]\ncommand = "x"\n[mcp_servers.a.env]\nconstructor = "y"\n');
    assert.match(refused(() => readCodexToml(codex, { env: {}, workspaceFolder: dir })).message, /unknown key "constructor"/);
    assert.match(refused(() => readKestrelConfig(JSON.parse('{"servers": {"a": {"command": "x", "env": {"prototype": "p"}}}}'))).message, /unknown key "prototype"/);
  });
});
