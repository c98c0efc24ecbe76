// #19 item 3 above the client: a kaged project whose server says
// `auth: {type: oauth}`, against a protected MCP server and its
// authorization server on 127.0.0.1 (src/testing/oauth-fixture.ts).
// - A daemon (no authorizer): the server goes to needs-auth with a reason
//   that names the command to run, offers no tools, and nothing waits.
// - A host with an authorizer: the login runs at the first start, the tools
//   are listed and called, and the credentials land in the host's store;
//   a second tool source on the same store needs no login at all.
// - connect() with `oauth` in its params does the same for a bare client.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { connect, headlessAuthorizer, MemoryCredentialStore } from '../src/index.js';
import { startOAuthFixture, type OAuthFixture } from '../src/testing/oauth-fixture.js';
import { openKestrelMcp } from '../src/toolsource/kestrel/plugin.js';
import { openToolSource } from '../src/toolsource/tool-source.js';
import { tempDir } from './helpers/temp.js';

async function fixture(t: TestContext): Promise<OAuthFixture> {
  const f = await startOAuthFixture();
  t.after(() => f.close());
  return f;
}

function project(t: TestContext, f: OAuthFixture): string {
  const dir = tempDir(t, 't7');
  const file = path.join(dir, 'kaged.yaml');
  writeFileSync(file, `mcp:\n  docs:\n    transport: streamable-http\n    url: ${f.url}\n    protocol_era: legacy\n    auth:\n      type: oauth\n      scopes: [mcp:tools]\n`);
  return file;
}

const text = (result: { content: readonly { type: string; text?: string }[] }) => result.content.map((b) => b.text ?? '').join('');

describe('#19: OAuth through the tool source and connect()', () => {
  test('S/T4: without an authorizer the server is needs-auth, says to run mcpwire login, and offers no tools', async (t) => {
    const f = await fixture(t);
    const source = await openToolSource({ project: project(t, f), start: 'startup', oauth: { store: new MemoryCredentialStore() } });
    t.after(() => source.close());
    const status = source.status()[0]!;
    assert.equal(status.state, 'needs-auth');
    assert.match(status.reason ?? '', /needs login: .*run: mcpwire login docs/);
    assert.deepEqual(await source.tools(), []);
    assert.equal(f.count('/as/authorize'), 0, 'nobody was sent to log in');
  });

  test('S/T4: with a host authorizer the login runs at the first start; the tools answer; a second source on the same store logs in no more', async (t) => {
    const f = await fixture(t);
    const store = new MemoryCredentialStore();
    const file = project(t, f);
    const source = await openToolSource({ project: file, start: 'startup', oauth: { store, authorize: headlessAuthorizer() } });
    t.after(() => source.close());
    assert.equal(source.status()[0]!.state, 'ready', source.status()[0]!.reason);
    assert.equal(text((await source.call('mcp.docs.echo', { text: 'via oauth' })).result), 'via oauth');
    assert.equal(store.keys().length, 1);
    const again = await openToolSource({ project: file, start: 'startup', oauth: { store } });
    t.after(() => again.close());
    assert.equal(again.status()[0]!.state, 'ready', 'the stored token is enough: no authorizer needed');
    assert.equal(f.count('/as/authorize'), 1);
  });

  test('T4: connect() with oauth in the params runs the flow for a bare client', async (t) => {
    const f = await fixture(t);
    const client = await connect({ transport: 'streamable-http', url: f.url, protocolEra: 'legacy', oauth: { store: new MemoryCredentialStore(), authorize: headlessAuthorizer() } });
    t.after(() => client.close());
    assert.equal(text(await client.callTool('echo', { text: 'bare' })), 'bare');
  });
});

describe('#19: OAuth in a Kestrel config', () => {
  test('K1/T4: "oauth": {scopes} on a url server, the host\'s authorizer through openKestrelMcp({ oauth }): mcp__docs__echo answers; without one the server offers nothing', async (t) => {
    const f = await fixture(t);
    const plugin = { servers: { docs: { url: f.url, protocolEra: 'legacy', approval: 'auto', oauth: { scopes: ['mcp:tools'] } } } };
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const daemon = await openKestrelMcp({ config: { plugin }, logger: quiet, oauth: { store: new MemoryCredentialStore() } });
    t.after(() => daemon.close());
    assert.equal(daemon.status()[0]!.state, 'needs-auth');
    assert.deepEqual(daemon.agentTools(), []);

    const host = await openKestrelMcp({ config: { plugin }, logger: quiet, oauth: { store: new MemoryCredentialStore(), authorize: headlessAuthorizer() } });
    t.after(() => host.close());
    const echo = host.agentTools().find((tool) => tool.name === 'mcp__docs__echo');
    assert.ok(echo, host.agentTools().map((tool) => tool.name).join(', '));
    assert.deepEqual(await echo.execute({ text: 'kestrel oauth' }).then((r) => [r.isError, r.content]), [false, 'kestrel oauth']);
  });

  test('C4: "oauth" is checked: on a command it skips the server with the reason; a clientSecret from ${NAME} is a secret', async () => {
    const { readKestrelConfig } = await import('../src/toolsource/kestrel/config.js');
    const config = readKestrelConfig(
      { servers: { local: { command: 'x', oauth: true }, remote: { url: 'https://mcp.example.com/mcp', oauth: { clientId: 'id-1', clientSecret: '${T7_SECRET}' } } } },
      { env: { T7_SECRET: 'sek-CANARY-t7' } },
    );
    assert.match(config.skipped.find((s) => s.server === 'local')!.reason, /"oauth" applies to a remote server/);
    assert.deepEqual((config.source.servers.find((s) => s.key === 'remote')!.params as { oauth?: unknown }).oauth, { clientId: 'id-1', clientSecret: 'sek-CANARY-t7' });
    assert.ok(config.source.secrets.includes('sek-CANARY-t7'));
  });

  test('C4/A1 (#19): Kestrel\'s "oauth" takes the machine grants (client_credentials, a ${NAME} secret scrubbed); an unknown key skips the server naming the keys it takes', async () => {
    const { readKestrelConfig } = await import('../src/toolsource/kestrel/config.js');
    const config = readKestrelConfig(
      {
        servers: {
          svc: { url: 'https://svc.example.com/mcp', oauth: { grant: 'client_credentials', clientId: 'svc-1', clientSecret: '${T7_SECRET}', dpop: true } },
          typo: { url: 'https://t.example.com/mcp', oauth: { clientSecert: '${T7_SECRET}' } },
          half: { url: 'https://h.example.com/mcp', oauth: { grant: 'client_credentials', clientId: 'svc-1' } },
        },
      },
      { env: { T7_SECRET: 'sek-CANARY-t7m' } },
    );
    assert.deepEqual((config.source.servers.find((s) => s.key === 'svc')!.params as { oauth?: unknown }).oauth, { grant: 'client_credentials', clientId: 'svc-1', clientSecret: 'sek-CANARY-t7m', dpop: true });
    assert.ok(config.source.secrets.includes('sek-CANARY-t7m'));
    assert.match(config.skipped.find((s) => s.server === 'typo')!.reason, /"oauth" takes scopes, clientId, clientSecret, grant.* not "clientSecert"/);
    assert.match(config.skipped.find((s) => s.server === 'half')!.reason, /"oauth.grant": client_credentials needs the client id and its secret or private key/);
    for (const s of config.skipped) assert.ok(!s.reason.includes('sek-CANARY-t7m'));
  });
});
