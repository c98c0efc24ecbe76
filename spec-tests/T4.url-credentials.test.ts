// #16 item 3 (transport part): a URL with `user:password@` in it. fetch
// would refuse it with a TypeError that quotes the URL whole; the HTTP
// transports refuse it at start with a ConfigError that says what to do and
// holds neither the user nor the password, and nothing they report later
// (an error, a diagnostic) shows URL credentials.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, connect, McpClient, SseTransport, StreamableHttpTransport } from '../src/index.js';
import { startHttpFixture } from '../src/testing/http-fixture.js';

const CANARY = 'pw-canary-5e1f0a9d';

for (const kind of ['streamable', 'sse'] as const) {
  test(`T4/#16.3: ${kind}: a URL with credentials is refused at start with a ConfigError that does not show them; nothing was sent`, async (t) => {
    const fixture = await startHttpFixture(t, { kind });
    const url = fixture.url.replace('http://', `http://operator:${CANARY}@`);
    const transport = kind === 'sse' ? new SseTransport({ url }) : new StreamableHttpTransport({ url });
    const client = new McpClient(transport);
    const error = await client.connect().then(
      () => assert.fail('connect must fail'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ConfigError, String(error));
    assert.match(error.message, /credentials in it \(user:password@\).*header/);
    for (const text of [error.message, String(error.stack), JSON.stringify(error), String(client.server)]) {
      assert.ok(!text.includes(CANARY) && !text.includes('operator'), text);
    }
    assert.equal(fixture.requests.length, 0, 'no request went out');
  });
}

test('T4/#16.3: connect() with fallbackToSse does not fall back on it (a config error, not a refusal)', async (t) => {
  const fixture = await startHttpFixture(t);
  const url = fixture.url.replace('http://', `http://operator:${CANARY}@`);
  await assert.rejects(connect({ transport: 'streamable-http', fallbackToSse: true, url }), (e: unknown) => e instanceof ConfigError && !e.message.includes(CANARY));
});
