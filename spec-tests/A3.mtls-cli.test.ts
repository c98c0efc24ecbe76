// SPEC A3 (#19 item 4) through the compiled CLI: --cert, --key and --ca for a
// --url server (the passphrase of an encrypted key from
// $MCPWIRE_KEY_PASSPHRASE), against a local node:https server that requires a
// client certificate (helpers/mtls.ts). Needs bin/mcpwire.js built
// (node scripts/build.mjs). The passphrase is a canary: never on stdout or
// stderr, whatever happens.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MTLS_PASSPHRASE, MTLS_SKIP, startMtlsWorld, type MtlsWorld } from './helpers/mtls.js';
import { runCli, type CliRun } from './helpers/cli.js';
import { tempDir } from './helpers/temp.js';

describe('A3 mTLS through the CLI', { skip: MTLS_SKIP }, () => {
  let world: MtlsWorld;
  before(async () => {
    world = await startMtlsWorld();
  });
  after(() => world?.close());

  const clean = (run: CliRun) => {
    const all = run.stdout + run.stderr;
    assert.ok(!all.includes(MTLS_PASSPHRASE), `the passphrase was printed: ${all.slice(0, 400)}`);
    assert.ok(!all.includes('PRIVATE KEY'), `key material was printed: ${all.slice(0, 400)}`);
  };

  test('A3: tools and call with --cert, --key (encrypted, passphrase from the environment) and --ca', async () => {
    const flags = ['--url', world.url, '--name', 'secure', '--transport', 'http', '--cert', world.file('client.crt'), '--key', world.file('client-enc.key'), '--ca', world.file('ca.crt')];
    const env = { MCPWIRE_KEY_PASSPHRASE: MTLS_PASSPHRASE };
    const tools = await runCli(['tools', ...flags], { env });
    assert.equal(tools.status, 0, tools.stderr);
    assert.match(tools.stdout, /echo/);
    clean(tools);
    const call = await runCli(['call', 'echo', 'text=cli', ...flags, '--verbose'], { env });
    assert.equal(call.status, 0, call.stderr);
    assert.match(call.stdout, /echo cli/);
    clean(call);
  });

  test('A3: without a client certificate the CLI fails naming the server and the flags to give', async () => {
    const run = await runCli(['tools', '--url', world.url, '--name', 'secure', '--transport', 'http', '--ca', world.file('ca.crt')]);
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /secure/);
    assert.match(run.stderr, /requires a client certificate and none was given/);
    clean(run);
  });

  test('A3: a wrong passphrase and a missing key file are config errors naming the setting or path, never the passphrase', async () => {
    const base = ['tools', '--url', world.url, '--name', 'secure', '--transport', 'http', '--cert', world.file('client.crt'), '--ca', world.file('ca.crt')];
    const wrong = await runCli([...base, '--key', world.file('client-enc.key')], { env: { MCPWIRE_KEY_PASSPHRASE: `${MTLS_PASSPHRASE}-not` } });
    assert.notEqual(wrong.status, 0);
    assert.match(wrong.stderr, /passphrase/);
    clean(wrong);
    const missing = await runCli([...base, '--key', world.file('gone.key')]);
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /no such file: .*gone\.key/);
  });

  test('A3: --cert without --key, tls flags on http: or with a stdio server are usage errors (exit 2)', async () => {
    const noKey = await runCli(['tools', '--url', world.url, '--cert', world.file('client.crt')]);
    assert.equal(noKey.status, 2, noKey.stderr);
    assert.match(noKey.stderr, /needs both --cert and --key; --key is missing/);
    const plain = await runCli(['tools', '--url', 'http://127.0.0.1:9/mcp', '--ca', world.file('ca.crt')]);
    assert.equal(plain.status, 2, plain.stderr);
    assert.match(plain.stderr, /need an https: --url/);
    const stdio = await runCli(['tools', '--ca', world.file('ca.crt'), '--', 'node', 'x.js']);
    assert.equal(stdio.status, 2, stdio.stderr);
    assert.match(stdio.stderr, /apply to --url/);
  });

  test('A3/U3: mcpwire add --url with --cert, --key, --key-passphrase-env and --ca saves a tls key (absolute paths, the passphrase as ${VAR}); the saved server lists and calls', async (t) => {
    const dir = tempDir(t, 'a3-cli');
    const added = await runCli(['add', 'secure', '--url', world.url, '--transport', 'http', '--cert', world.file('client.crt'), '--key', world.file('client-enc.key'), '--key-passphrase-env', 'SECURE_PASS', '--ca', world.file('ca.crt')], { cwd: dir });
    assert.equal(added.status, 0, added.stderr);
    const saved = readFileSync(path.join(dir, 'mcpwire.json'), 'utf8');
    assert.ok(!saved.includes(MTLS_PASSPHRASE));
    assert.deepEqual(JSON.parse(saved).mcpServers.secure.tls, { cert: world.file('client.crt'), key: world.file('client-enc.key'), ca: world.file('ca.crt'), passphrase: '${SECURE_PASS}' });
    const call = await runCli(['call', 'secure.echo', 'text=saved'], { cwd: dir, env: { SECURE_PASS: MTLS_PASSPHRASE, MCPWIRE_USER_CONFIG: path.join(dir, 'no-user.json') } });
    assert.equal(call.status, 0, call.stderr);
    assert.match(call.stdout, /echo saved/);
    clean(call);
  });
});
