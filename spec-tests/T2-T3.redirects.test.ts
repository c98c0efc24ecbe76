// T2/T3 with T4: redirects of the MCP endpoints. A redirect is followed only
// within the configured origin (at most MAX_REDIRECTS hops, and a POST only
// on 307/308, which keep the body); one to another origin — another port,
// host or scheme, a URL with credentials, a protocol-relative Location — is
// refused with a ClosedError (reason 'http', the status) naming that origin
// and no secret, and the other origin receives nothing: no request, no
// header, no body. Two real servers on 127.0.0.1; "another host" is
// `localhost`, which names the same machine but another origin. Every case
// runs on both request paths (#20): node:http and fetch, each of which is
// made never to follow a redirect itself; the Authorization header rides
// along so that "no header leaves the origin" covers the credential too.

import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { inspect } from 'node:util';
import { ClosedError, McpClient, ProtocolError, SseTransport, StreamableHttpTransport, type Transport } from '../src/index.js';
import { startHttpFixture, within, type Exchange, type HttpFixture } from '../src/testing/http-fixture.js';

type Kind = 'streamable' | 'sse';
const SECRET = `sk-canary-${Math.random().toString(16).slice(2)}${Math.random().toString(16).slice(2)}`;
const CASE_TIMEOUT_MS = 5_000;

/** The two request paths (#20); `httpClient` picks one per transport. */
type HttpClientKind = 'node' | 'fetch';
const PATHS: readonly HttpClientKind[] = ['node', 'fetch'];

function transportFor(kind: Kind, url: string, path: HttpClientKind): Transport {
  const common = { url, server: 'redirect-fixture', headers: { 'X-API-Key': SECRET, Authorization: `Bearer ${SECRET}` }, reconnect: { initialMs: 10, maxAttempts: 1 }, httpClient: path };
  return kind === 'sse' ? new SseTransport({ ...common, endpointTimeoutMs: CASE_TIMEOUT_MS }) : new StreamableHttpTransport(common);
}

interface Servers {
  home: HttpFixture;
  other: HttpFixture;
  homePort: string;
  otherPort: string;
}

/** The configured server and another one; the other answers everything as an MCP server would, so a followed redirect would succeed. */
async function servers(t: TestContext, kind: Kind, route: { get?: (ex: Exchange, s: Servers) => void | Promise<void>; post?: (ex: Exchange, s: Servers) => void | Promise<void> }): Promise<Servers> {
  const other = await startHttpFixture(t, { kind, initializeResult: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'OTHER', version: '1' } } });
  const s = { other, otherPort: new URL(other.url).port } as Servers;
  s.home = await startHttpFixture(t, {
    kind,
    ...(route.get ? { get: (ex: Exchange) => route.get!(ex, s) } : {}),
    ...(route.post ? { post: (ex: Exchange) => route.post!(ex, s) } : {}),
  });
  s.homePort = new URL(s.home.url).port;
  return s;
}

/** Nothing of ours reached another origin: the other server saw nothing, and the home server saw only its own Host. */
function assertNothingLeft(s: Servers): void {
  assert.equal(s.other.requests.length, 0, `the other origin received: ${s.other.describe()}`);
  for (const r of s.home.requests) assert.equal(r.headers.host, `127.0.0.1:${s.homePort}`, `a request for another host reached the home server: ${r.method} ${r.path}`);
}

function assertRefused(error: unknown, status: number, origin: string): void {
  assert.ok(error instanceof ClosedError, `expected a ClosedError, got ${inspect(error)}`);
  assert.equal(error.reason, 'http');
  assert.equal(error.status, status);
  const text = `${error.message} ${inspect(error, { depth: Infinity })} ${JSON.stringify(error)}`;
  assert.ok(error.message.includes(origin), `the message should name ${origin}: ${error.message}`);
  assert.ok(!text.includes(SECRET), 'the secret leaked into the error');
}

async function connectFails(t: TestContext, kind: Kind, s: Servers, path: HttpClientKind): Promise<unknown> {
  const client = new McpClient(transportFor(kind, s.home.url, path), { connectTimeoutMs: CASE_TIMEOUT_MS });
  t.after(() => client.close().catch(() => {}));
  return within(
    client.connect().then(
      () => assert.fail('connect() succeeded through the redirect'),
      (error: unknown) => error,
    ),
    'connect() to end',
    CASE_TIMEOUT_MS + 1_000,
  );
}

/** Each Location form that leads off the configured origin; `origin` is what the error must name. */
const offOrigin: Array<{ name: string; location: (s: Servers) => string; origin: (s: Servers) => string }> = [
  { name: 'another port', location: (s) => `http://127.0.0.1:${s.otherPort}/mcp`, origin: (s) => `http://127.0.0.1:${s.otherPort}` },
  { name: 'another host', location: (s) => `http://localhost:${s.otherPort}/mcp`, origin: (s) => `http://localhost:${s.otherPort}` },
  { name: 'another host, same port', location: (s) => `http://localhost:${s.homePort}/mcp`, origin: (s) => `http://localhost:${s.homePort}` },
  { name: 'another scheme', location: (s) => `https://127.0.0.1:${s.homePort}/mcp`, origin: (s) => `https://127.0.0.1:${s.homePort}` },
  { name: 'credentials in the URL', location: (s) => `http://user:pw@127.0.0.1:${s.otherPort}/mcp`, origin: (s) => `http://127.0.0.1:${s.otherPort}` },
  { name: 'a protocol-relative Location', location: (s) => `//localhost:${s.otherPort}/mcp`, origin: (s) => `http://localhost:${s.otherPort}` },
];

for (const path of PATHS) describe(`T2/T3 redirects never leave the configured origin (${path} request path)`, { timeout: 60_000 }, () => {
  // Streamable HTTP: the initialize POST is redirected.
  for (const status of [301, 302, 303, 307, 308]) {
    test(`[${path}] T3: POST initialize answered ${status} to another port → ClosedError http ${status}; the other origin receives nothing`, async (t) => {
      const s = await servers(t, 'streamable', { post: (ex, s) => ex.status(status, '', { location: `http://127.0.0.1:${s.otherPort}/mcp` }) });
      assertRefused(await connectFails(t, 'streamable', s, path), status, `http://127.0.0.1:${s.otherPort}`);
      assertNothingLeft(s);
    });
  }
  for (const place of offOrigin) {
    test(`[${path}] T3: POST initialize answered 307 to ${place.name} → refused`, async (t) => {
      const s = await servers(t, 'streamable', { post: (ex, s) => ex.status(307, '', { location: place.location(s) }) });
      const error = await connectFails(t, 'streamable', s, path);
      if (place.name === 'credentials in the URL') {
        assert.ok(error instanceof ClosedError && error.reason === 'http' && error.status === 307, inspect(error));
      } else {
        assertRefused(error, 307, place.origin(s));
      }
      assertNothingLeft(s);
    });
  }

  // Legacy HTTP+SSE: the GET of the SSE URL, and the POST to the endpoint, are redirected.
  for (const status of [301, 302, 303, 307, 308]) {
    test(`[${path}] T2: GET /sse answered ${status} to another port → ClosedError http ${status}; the other origin receives nothing`, async (t) => {
      const s = await servers(t, 'sse', { get: (ex, s) => ex.status(status, '', { location: `http://127.0.0.1:${s.otherPort}/sse` }) });
      assertRefused(await connectFails(t, 'sse', s, path), status, `http://127.0.0.1:${s.otherPort}`);
      assertNothingLeft(s);
    });
    test(`[${path}] T2: POST to the endpoint answered ${status} to another host → ClosedError http ${status}; the other origin receives nothing`, async (t) => {
      const s = await servers(t, 'sse', { post: (ex, s) => ex.status(status, '', { location: `http://localhost:${s.otherPort}/messages?session=s1` }) });
      assertRefused(await connectFails(t, 'sse', s, path), status, `http://localhost:${s.otherPort}`);
      assertNothingLeft(s);
    });
  }
  test(`[${path}] T2: a protocol-relative endpoint event naming another host → ProtocolError; nothing is POSTed anywhere`, async (t) => {
    const other = await startHttpFixture(t, { kind: 'sse' });
    const home = await startHttpFixture(t, { kind: 'sse', endpoint: (session) => `//localhost:${new URL(other.url).port}/messages?session=${session}` });
    const error = await connectFails(t, 'sse', { home, other, homePort: new URL(home.url).port, otherPort: new URL(other.url).port }, path);
    assert.ok(error instanceof ProtocolError, inspect(error));
    assert.equal(other.requests.length, 0, other.describe());
    assert.equal(home.received('POST').length, 0, home.describe());
  });

  // Within the origin, redirects are followed: a moved endpoint keeps working.
  test(`[${path}] T3: a 307 and a 308 within the origin are followed with the body and headers; a 303 of a POST is refused`, async (t) => {
    const s = await servers(t, 'streamable', {
      post: (ex) => {
        if (ex.request.path === '/mcp') return ex.status(307, '', { location: '/moved' });
        if (ex.request.path === '/moved') return ex.status(308, '', { location: '/moved/again' });
        return ex.default();
      },
    });
    const client = new McpClient(transportFor('streamable', s.home.url, path), { connectTimeoutMs: CASE_TIMEOUT_MS });
    t.after(() => client.close().catch(() => {}));
    await client.connect();
    const final = s.home.requests.filter((r) => r.path === '/moved/again');
    assert.ok(final.length >= 2, s.home.describe());
    for (const r of final) {
      assert.equal(r.headers['x-api-key'], SECRET);
      assert.equal(r.headers.authorization, `Bearer ${SECRET}`, 'a same-origin hop keeps the Authorization header');
    }
    assert.equal(final[0]!.message?.method, 'initialize');
    assertNothingLeft(s);

    const s303 = await servers(t, 'streamable', { post: (ex) => ex.status(303, '', { location: '/elsewhere' }) });
    const error = await connectFails(t, 'streamable', s303, path);
    assert.ok(error instanceof ClosedError && error.reason === 'http' && error.status === 303, inspect(error));
    assert.equal(s303.home.requests.filter((r) => r.path === '/elsewhere').length, 0, s303.home.describe());
  });

  test(`[${path}] T2: GET /sse redirected within the origin is followed; an endless chain ends after a bounded number of hops`, async (t) => {
    const s = await servers(t, 'sse', { get: (ex) => (ex.request.path === '/sse' ? ex.status(302, '', { location: '/stream' }) : ex.default()) });
    const client = new McpClient(transportFor('sse', s.home.url, path), { connectTimeoutMs: CASE_TIMEOUT_MS });
    t.after(() => client.close().catch(() => {}));
    await client.connect();
    assertNothingLeft(s);

    let hops = 0;
    const loop = await servers(t, 'sse', { get: (ex) => ex.status(307, '', { location: `/sse?hop=${++hops}` }) });
    const error = await connectFails(t, 'sse', loop, path);
    assert.ok(error instanceof ClosedError && error.reason === 'http' && error.status === 307, inspect(error));
    assert.ok(hops <= 6, `followed ${hops} hops`);
  });
});
