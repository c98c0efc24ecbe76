// SPEC A3 (#19 item 4) through the config layers: a kaged project's `tls:`
// block (files by project-relative path; the key and its passphrase by
// secret_ref from local.toml), opened as a tool source against a local
// node:https server that requires a client certificate (helpers/mtls.ts),
// and the checks the DSL makes. The passphrase and key text are canaries:
// never in a status, an error or the shown config.

import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../src/errors.js';
import { loadKagedProject } from '../src/toolsource/config/kaged.js';
import { loadToolSourceConfig } from '../src/toolsource/config/load.js';
import { showConfig } from '../src/toolsource/config/show.js';
import { MTLS_PASSPHRASE, MTLS_SKIP, startMtlsWorld, type MtlsWorld } from './helpers/mtls.js';
import { openForTest, stateOf } from './helpers/toolsource.js';
import { tempDir } from './helpers/temp.js';

const text = (result: { content: readonly { type: string; text?: string }[] }) => result.content.map((b) => b.text ?? '').join('');

describe('A3 mTLS from a kaged project', { skip: MTLS_SKIP }, () => {
  let world: MtlsWorld;
  before(async () => {
    world = await startMtlsWorld();
  });
  after(() => world?.close());

  /** A project folder with the certificates under certs/, kaged.yaml with `tls` (indented lines) and local.toml. */
  function project(t: TestContext, tls: string, localToml = ''): string {
    const dir = tempDir(t, 'a3-kaged');
    mkdirSync(path.join(dir, 'certs'));
    for (const name of ['ca.crt', 'client.crt', 'client.key', 'client-enc.key', 'stranger.crt', 'stranger.key']) copyFileSync(world.file(name), path.join(dir, 'certs', name));
    writeFileSync(path.join(dir, 'kaged.yaml'), `mcp:\n  secure:\n    transport: streamable-http\n    url: ${world.url}\n    tls:\n${tls}`);
    writeFileSync(path.join(dir, 'local.toml'), localToml);
    return dir;
  }
  const load = (dir: string) => loadKagedProject({ project: path.join(dir, 'kaged.yaml'), operatorConfigDir: path.join(dir, 'no-operator-dir') });

  function assertClean(shown: string): void {
    assert.ok(!shown.includes(MTLS_PASSPHRASE), `the passphrase leaked: ${shown.slice(0, 300)}`);
    assert.ok(!shown.includes('PRIVATE KEY'), `key material leaked: ${shown.slice(0, 300)}`);
  }

  test('A3/C1: tls block with files by relative path and the passphrase by secret_ref: the tool source lists and calls through mTLS', async (t) => {
    const dir = project(
      t,
      '      cert_file: certs/client.crt\n      key_file: certs/client-enc.key\n      passphrase_ref: tls.secure_pass\n      ca_file: certs/ca.crt\n',
      `[secrets.tls]\nsecure_pass = "${MTLS_PASSPHRASE}"\n`,
    );
    const config = load(dir);
    assert.ok(config.secrets.includes(MTLS_PASSPHRASE), 'the passphrase is a secret to scrub');
    assertClean(JSON.stringify(showConfig(config)));
    const source = await openForTest(t, { config, start: 'startup' });
    await stateOf(source, 'secure', 'ready');
    const tools = await source.tools();
    assert.equal(tools.length, 1);
    const result = await source.call(tools[0]!.name, { text: 'kaged' });
    assert.equal(text(result.result), 'echo kaged');
    assertClean(JSON.stringify(source.status()));
  });

  test('A3/C1: the key by key_ref (PEM text in local.toml) works and is scrubbed like any secret', async (t) => {
    const pem = readFileSync(world.file('client.key'), 'utf8');
    const dir = project(t, '      cert_file: certs/client.crt\n      key_ref: tls.secure_key\n      ca_file: certs/ca.crt\n', `[secrets.tls]\nsecure_key = """\n${pem}"""\n`);
    const config = load(dir);
    assert.ok(config.secrets.some((s) => s.includes('PRIVATE KEY')), 'the key text is a secret to scrub');
    assertClean(JSON.stringify(showConfig(config)));
    const source = await openForTest(t, { config, start: 'startup' });
    await stateOf(source, 'secure', 'ready');
    const tools = await source.tools();
    assert.equal(text((await source.call(tools[0]!.name, { text: 'ref' })).result), 'echo ref');
  });

  test('A3: a certificate the server does not trust: the server fails with a reason naming it and what to check, no key material', async (t) => {
    const dir = project(t, '      cert_file: certs/stranger.crt\n      key_file: certs/stranger.key\n      ca_file: certs/ca.crt\n');
    const source = await openForTest(t, { config: load(dir), start: 'startup', restart: { maxFailures: 1 } });
    const status = source.status().find((s) => s.key === 'secure')!;
    assert.notEqual(status.state, 'ready');
    assert.match(String(status.lastError), /secure/);
    assert.match(String(status.lastError), /check that tls\.cert was issued by a CA the server trusts/);
    assertClean(JSON.stringify(source.status()));
  });

  test('A3: a missing key file is an error naming the path, never contents', async (t) => {
    const dir = project(t, '      cert_file: certs/client.crt\n      key_file: certs/gone.key\n      ca_file: certs/ca.crt\n');
    const source = await openForTest(t, { config: load(dir), start: 'startup', restart: { maxFailures: 1 } });
    const status = source.status().find((s) => s.key === 'secure')!;
    assert.notEqual(status.state, 'ready');
    assert.match(String(status.lastError), /no such file: .*certs[/\\]gone\.key/);
  });

  test('A3/C1: the DSL checks its tls block: unknown keys say what it takes, key_file and key_ref not both, cert and key together, a missing secret_ref is named', (t) => {
    const refused = (tls: string, toml = '') => {
      const dir = project(t, tls, toml);
      let caught: unknown;
      assert.throws(() => load(dir), (error) => ((caught = error), true));
      assert.ok(caught instanceof ConfigError, inspect(caught));
      assertClean(inspect(caught, { depth: 10 }));
      return caught.message;
    };
    assert.match(refused('      cert: certs/client.crt\n'), /unknown key "cert" \(did you mean "cert_file"\?\); a tls block takes: cert_file, key_file, key_ref, passphrase_ref, ca_file/);
    assert.match(refused('      cert_file: certs/client.crt\n      key_file: certs/client.key\n      key_ref: tls.k\n', '[secrets.tls]\nk = "x"\n'), /give key_file or key_ref, not both/);
    assert.match(refused('      cert_file: certs/client.crt\n'), /needs both cert_file and key_file/);
    assert.match(refused('      passphrase: hunter2\n'), /unknown key "passphrase"/);
    assert.match(refused('      cert_file: certs/client.crt\n      key_file: certs/client-enc.key\n      passphrase_ref: tls.nope\n'), /mcp\.secure\.tls\.passphrase_ref: the secret "tls\.nope" is not in local\.toml/);
    // A host resolver resolves auth secret_refs only: a tls secret is never deferred to it (the server would start without its key).
    const deferred = project(t, '      cert_file: certs/client.crt\n      key_ref: tls.nope\n');
    assert.throws(() => loadKagedProject({ project: path.join(deferred, 'kaged.yaml'), operatorConfigDir: path.join(deferred, 'none'), deferSecrets: true }), /tls\.key_ref: the secret "tls\.nope" is not in local\.toml/);
  });
});

describe('A3 mTLS from mcpServers JSON and Kestrel JSON (a tls object)', { skip: MTLS_SKIP }, () => {
  let world: MtlsWorld;
  before(async () => {
    world = await startMtlsWorld();
  });
  after(() => world?.close());

  function folder(t: TestContext): string {
    const dir = tempDir(t, 'a3-json');
    for (const name of ['ca.crt', 'client.crt', 'client-enc.key', 'stranger.crt']) copyFileSync(world.file(name), path.join(dir, name));
    return dir;
  }
  const env = { MTLS_PASS: MTLS_PASSPHRASE };
  const tls = { cert: 'client.crt', key: 'client-enc.key', ca: 'ca.crt', passphrase: '${env:MTLS_PASS}' };

  for (const form of ['mcpServers', 'kestrel'] as const) {
    test(`A3/C5 (${form}): tls {cert, key, ca, passphrase} with paths relative to the file: the tool source lists and calls; the passphrase is a secret`, async (t) => {
      const dir = folder(t);
      const entry = { url: world.url, tls: { ...tls, ...(form === 'kestrel' ? { passphrase: '${MTLS_PASS}' } : {}) }, someClientKey: true };
      const file = path.join(dir, form === 'kestrel' ? 'kestrel.config.json' : '.mcp.json');
      writeFileSync(file, JSON.stringify(form === 'kestrel' ? { plugins: { config: { '@kestrel/plugin-mcp': { servers: { secure: entry } } } } } : { mcpServers: { secure: entry } }));
      const config = loadToolSourceConfig({ config: file, projectDir: dir, home: dir, env });
      const server = config.servers.find((s) => s.key === 'secure')!;
      assert.equal(server.unsupported, undefined, String(server.unsupported));
      assert.ok(config.secrets.includes(MTLS_PASSPHRASE), 'the passphrase is a secret to scrub');
      assert.ok(!JSON.stringify(showConfig(config)).includes(MTLS_PASSPHRASE));
      const source = await openForTest(t, { config, start: 'startup' });
      await stateOf(source, 'secure', 'ready');
      const tools = await source.tools();
      assert.equal(text((await source.call(tools[0]!.name, { text: form })).result), `echo ${form}`);
    });
  }

  test('A3/C5: a misspelt key inside tls is refused (mcpServers: a ConfigError at the key; Kestrel: the server skipped with the reason); cert without key too', (t) => {
    const dir = folder(t);
    const json = path.join(dir, '.mcp.json');
    writeFileSync(json, JSON.stringify({ mcpServers: { secure: { url: world.url, tls: { cet: 'client.crt', key: 'client-enc.key' } } } }));
    assert.throws(() => loadToolSourceConfig({ config: json, projectDir: dir, home: dir, env }), (e: unknown) => e instanceof ConfigError && /tls\.cet.*unknown key; "tls" takes cert, key, ca, passphrase/.test(e.message));
    writeFileSync(json, JSON.stringify({ mcpServers: { secure: { url: world.url, tls: { cert: 'client.crt' } } } }));
    assert.throws(() => loadToolSourceConfig({ config: json, projectDir: dir, home: dir, env }), (e: unknown) => e instanceof ConfigError && /needs both "cert" and "key"/.test(e.message));
    const kestrel = path.join(dir, 'kestrel.config.json');
    writeFileSync(kestrel, JSON.stringify({ plugins: { config: { '@kestrel/plugin-mcp': { servers: { secure: { url: world.url, tls: { cet: 'x' } } } } } } }));
    const skipped = loadToolSourceConfig({ config: kestrel, projectDir: dir, home: dir, env }).servers.find((s) => s.key === 'secure')!;
    assert.match(String(skipped.unsupported), /"tls\.cet": unknown key/);
  });
});
