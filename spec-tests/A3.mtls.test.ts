// SPEC A3 (#19 item 4): mTLS at the transport layer. Certificates are made by
// the test with openssl (skipped visibly without it; helpers/mtls.ts): a CA, a
// server certificate for 127.0.0.1, a client certificate from that CA (plain
// and with an encrypted key) and one from another CA. The server is a local
// node:https endpoint that requires a client certificate and answers the few
// MCP requests the client sends. The key and passphrase are canaries: they
// must never appear in an error.

import { readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpClient } from '../src/client/client.js';
import { connect } from '../src/client/connect.js';
import { ConfigError } from '../src/errors.js';
import { StreamableHttpTransport } from '../src/transport/streamable-http.js';
import { MTLS_PASSPHRASE as PASSPHRASE, MTLS_SKIP, startMtlsWorld, type MtlsWorld } from './helpers/mtls.js';

const KEY_CANARY = 'canarykeymaterial0c4e2b';

describe('A3 mTLS over node:https', { skip: MTLS_SKIP }, () => {
  let world: MtlsWorld;
  let url = '';
  const file = (name: string) => world.file(name);

  before(async () => {
    world = await startMtlsWorld();
    url = world.url;
  });

  after(() => world?.close());

  const client = (tls: ConstructorParameters<typeof StreamableHttpTransport>[0]['tls']) =>
    new McpClient(new StreamableHttpTransport({ url, server: 'secure-box', tls }));

  async function failure(tls: Parameters<typeof client>[0]): Promise<Error> {
    const c = client(tls);
    try {
      await c.connect();
    } catch (error) {
      return error as Error;
    } finally {
      await c.close().catch(() => {});
    }
    assert.fail('connect succeeded');
  }

  function assertNoSecrets(error: Error): void {
    const text = `${error.message}\n${String(error.stack)}\n${JSON.stringify(error)}\n${String((error as { cause?: unknown }).cause)}`;
    assert.ok(!text.includes(PASSPHRASE), 'the passphrase leaked');
    assert.ok(!text.includes('PRIVATE KEY'), 'key material leaked');
  }

  test('A3: a good client certificate (by file path) lists and calls tools', async () => {
    const c = client({ cert: file('client.crt'), key: file('client.key'), ca: file('ca.crt') });
    try {
      await c.connect();
      assert.deepEqual((await c.listTools()).tools.map((tool) => tool.name), ['echo']);
      assert.deepEqual((await c.callTool('echo', { text: 'hi' })).content, [{ type: 'text', text: 'echo hi' }]);
    } finally {
      await c.close();
    }
  });

  test('A3: PEM text and an encrypted key with its passphrase work too', async () => {
    const c = client({ cert: readFileSync(file('client.crt'), 'utf8'), key: file('client-enc.key'), passphrase: PASSPHRASE, ca: readFileSync(file('ca.crt'), 'utf8') });
    try {
      await c.connect();
      assert.deepEqual((await c.callTool('echo', { text: 'enc' })).content, [{ type: 'text', text: 'echo enc' }]);
    } finally {
      await c.close();
    }
  });

  test('A3: no client certificate is an error naming the server', async () => {
    const error = await failure({ ca: file('ca.crt') });
    assert.match(error.message, /secure-box/);
    assert.match(error.message, /requires a client certificate and none was given; set tls\.cert and tls\.key/);
    assertNoSecrets(error);
  });

  test('A3: a client certificate from another CA is refused, the error names the server', async () => {
    const error = await failure({ cert: file('stranger.crt'), key: file('stranger.key'), ca: file('ca.crt') });
    assert.match(error.message, /secure-box/);
    assert.match(error.message, /check that tls\.cert was issued by a CA the server trusts/);
    assertNoSecrets(error);
  });

  test('A3: a server certificate the given CA does not trust is an error, not a connection', async () => {
    const error = await failure({ cert: file('client.crt'), key: file('client.key'), ca: file('other-ca.crt') });
    assert.match(error.message, /secure-box/);
    assert.match(error.message, /server's certificate is not trusted; check tls\.ca/);
    assert.match(error.message, /SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY/, 'the network verdict stays in the chain');
    assertNoSecrets(error);
  });

  test('A3: a key that is not the certificate\'s, a wrong passphrase and a missing file are ConfigErrors naming server and setting, never contents', async () => {
    const wrongKey = await failure({ cert: file('client.crt'), key: file('stranger.key'), ca: file('ca.crt') });
    assert.ok(wrongKey instanceof ConfigError, String(wrongKey));
    assert.match(wrongKey.message, /secure-box/);
    assert.match(wrongKey.message, /does not belong to the certificate/);
    assertNoSecrets(wrongKey);

    const wrongPass = await failure({ cert: file('client.crt'), key: file('client-enc.key'), passphrase: 'not-it', ca: file('ca.crt') });
    assert.ok(wrongPass instanceof ConfigError, String(wrongPass));
    assert.match(wrongPass.message, /passphrase/);
    assertNoSecrets(wrongPass);

    const missing = await failure({ cert: file('nope.crt'), key: file('client.key') });
    assert.ok(missing instanceof ConfigError, String(missing));
    assert.match(missing.message, /no such file: .*nope\.crt/);
    assert.match(missing.message, /secure-box/);
  });

  test('A3: a missing key file is a ConfigError naming the path; a key file that is not PEM is refused without quoting it (canary)', async () => {
    const missing = await failure({ cert: file('client.crt'), key: file('gone.key') });
    assert.ok(missing instanceof ConfigError, String(missing));
    assert.match(missing.message, /secure-box/);
    assert.match(missing.message, /tls\.key/);
    assert.match(missing.message, /no such file: .*gone\.key/);

    writeFileSync(file('junk.key'), `${KEY_CANARY}\n`);
    const junk = await failure({ cert: file('client.crt'), key: file('junk.key') });
    assert.ok(junk instanceof ConfigError, String(junk));
    assert.match(junk.message, /junk\.key holds no PEM block/);
    assert.ok(!`${junk.message}${String(junk.stack)}`.includes(KEY_CANARY), 'the key file content leaked');

    // A canary inside real-looking PEM text: OpenSSL's verdict must not quote it.
    const fake = `-----BEGIN PRIVATE KEY-----\n${KEY_CANARY}\n-----END PRIVATE KEY-----\n`;
    const bad = await failure({ cert: file('client.crt'), key: fake, passphrase: PASSPHRASE });
    assert.ok(bad instanceof ConfigError, String(bad));
    assertNoSecrets(bad);
    assert.ok(!`${bad.message}${String(bad.stack)}`.includes(KEY_CANARY), 'the key text leaked');
  });

  test('A3: through connect() with ServerParams: good cert lists and calls; diagnostics never carry the key or passphrase', async () => {
    const seen: string[] = [];
    const c = await connect(
      { transport: 'streamable-http', url, server: 'secure-box', tls: { cert: file('client.crt'), key: file('client-enc.key'), passphrase: PASSPHRASE, ca: file('ca.crt') } },
      { onDiagnostic: (d) => seen.push(JSON.stringify(d)) },
    );
    try {
      assert.deepEqual((await c.listTools()).tools.map((tool) => tool.name), ['echo']);
      assert.deepEqual((await c.callTool('echo', { text: 'params' })).content, [{ type: 'text', text: 'echo params' }]);
    } finally {
      await c.close();
    }
    const all = seen.join('\n');
    assert.ok(!all.includes(PASSPHRASE) && !all.includes('PRIVATE KEY'), 'a diagnostic carried key material');
  });

  test('A3: tls with the fetch path is refused at start: fetch takes no client certificate', async () => {
    for (const options of [{ fetch: globalThis.fetch }, { httpClient: 'fetch' as const }]) {
      const c = new McpClient(new StreamableHttpTransport({ url, server: 'secure-box', tls: { cert: file('client.crt'), key: file('client.key') }, ...options }));
      const error = await c.connect().then(
        () => assert.fail('connect succeeded'),
        (e: unknown) => e as Error,
      );
      await c.close().catch(() => {});
      assert.ok(error instanceof ConfigError, String(error));
      assert.match(error.message, /secure-box/);
      assert.match(error.message, /need the node:https request path/);
    }
  });
});
