// T4 auth [kaged][kestrel], the HTTP header part: static headers, `bearer`
// and `header` auth, values sent as written (`${NAME}` is a config reader's
// business, never the transport's), a header whose value is empty is dropped (so an unset token fails loudly instead of sending
// `Authorization:`), CR/LF refused at connect, and "Secret values never
// appear in any log, error or diagnostic": a canary secret is pushed through
// failing scenarios and every string the client hands back is searched for
// it. Real node:http servers on 127.0.0.1 (helpers/http-fixture.ts).

import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { inspect } from 'node:util';
import {
  AuthError,
  ConfigError,
  McpClient,
  SseTransport,
  StreamableHttpTransport,
  type Diagnostic,
  type HttpTransportOptions,
  type McpClientOptions,
  type Transport,
} from '../src/index.js';
import { responseTo, startHttpFixture, type HttpFixture, type HttpFixtureOptions, type RecordedRequest } from '../src/testing/http-fixture.js';
import { freePort } from './helpers/interop.js';

const SERVER = 't4-fixture';

type Kind = 'streamable' | 'sse';

function transportFor(kind: Kind, url: string, options: Partial<HttpTransportOptions>): Transport {
  const common = { url, server: SERVER, reconnect: { initialMs: 20, maxAttempts: 2 }, ...options };
  return kind === 'sse' ? new SseTransport({ ...common, endpointTimeoutMs: 5_000 }) : new StreamableHttpTransport(common);
}

function clientFor(t: TestContext, kind: Kind, url: string, options: Partial<HttpTransportOptions>, clientOptions: McpClientOptions = {}): McpClient {
  const client = new McpClient(transportFor(kind, url, options), clientOptions);
  t.after(() => client.close().catch(() => {}));
  return client;
}

/** Connects, lists tools, closes: every kind of request the transport makes (GET stream, POSTs, DELETE) reaches the fixture. */
async function exercise(t: TestContext, kind: Kind, options: Partial<HttpTransportOptions>, fixtureOptions: HttpFixtureOptions = {}): Promise<HttpFixture> {
  const fixture = await startHttpFixture(t, { kind, sessionId: 'sess-t4', ...fixtureOptions });
  const client = clientFor(t, kind, fixture.url, options);
  await client.connect();
  if (kind === 'streamable') await fixture.waitFor((r) => r.method === 'GET');
  await client.listTools();
  await client.close();
  const methods = new Set(fixture.requests.map((r) => r.method));
  assert.deepEqual([...methods].sort(), kind === 'streamable' ? ['DELETE', 'GET', 'POST'] : ['GET', 'POST'], fixture.describe());
  return fixture;
}

const label = (r: RecordedRequest) => `${r.method} ${r.path} ${r.message?.method ?? ''}`;

describe('T4 HTTP headers and auth', { timeout: 20_000 }, () => {
  for (const kind of ['streamable', 'sse'] as const) {
    test(`T4 (${kind}): static headers are sent on every request`, async (t) => {
      const fixture = await exercise(t, kind, { headers: { 'X-Static': 'one', 'X-Other-Header': 'two words' } });
      for (const r of fixture.requests) {
        assert.equal(r.headers['x-static'], 'one', label(r));
        assert.equal(r.headers['x-other-header'], 'two words', label(r));
      }
    });

    test(`T4 (${kind}): bearer auth → Authorization: Bearer <value> on every request`, async (t) => {
      const fixture = await exercise(t, kind, { auth: { type: 'bearer', value: 'tok-bearer-1' } });
      for (const r of fixture.requests) assert.equal(r.headers.authorization, 'Bearer tok-bearer-1', label(r));
    });
  }

  test('T4: header auth uses headerName, and Authorization (the raw value, no scheme) when headerName is not given', async (t) => {
    const named = await exercise(t, 'streamable', { auth: { type: 'header', headerName: 'X-Api-Key', value: 'key-123' } });
    for (const r of named.requests) {
      assert.equal(r.headers['x-api-key'], 'key-123', label(r));
      assert.equal(r.headers.authorization, undefined, label(r));
    }
    const plain = await exercise(t, 'streamable', { auth: { type: 'header', value: 'Token raw-456' } });
    for (const r of plain.requests) assert.equal(r.headers.authorization, 'Token raw-456', label(r));
  });

  test('T4: header and auth values are sent as written: the transport substitutes no ${NAME} from the environment (a config reader resolves its own format\'s)', async (t) => {
    const canary = `canary-${crypto.randomUUID()}`;
    process.env.MCPWIRE_T4_CANARY = canary;
    t.after(() => delete process.env.MCPWIRE_T4_CANARY);
    const fixture = await exercise(t, 'streamable', {
      headers: { 'X-Tenant': 'tenant-${MCPWIRE_T4_CANARY}' },
      auth: { type: 'bearer', value: '${MCPWIRE_T4_CANARY}' },
    });
    for (const r of fixture.requests) {
      assert.equal(r.headers['x-tenant'], 'tenant-${MCPWIRE_T4_CANARY}', label(r));
      assert.equal(r.headers.authorization, 'Bearer ${MCPWIRE_T4_CANARY}', label(r));
      assert.ok(!JSON.stringify(r.headers).includes(canary), 'the environment variable never reaches the server');
    }
  });

  test('T4: a header that resolves to empty is not sent at all, so an unset token fails loudly (401 → AuthError)', async (t) => {
    const fixture = await startHttpFixture(t, {
      post: (ex) => (ex.request.headers.authorization === undefined ? ex.status(401) : ex.default()),
    });
    const cases: Partial<HttpTransportOptions>[] = [
      // What a config reader hands over for Kestrel's "Authorization": "Bearer ${DOCS_MCP_TOKEN}" with the variable unset is no header
      // at all (kestrel/config.ts); an empty or blank value given directly is dropped here.
      { headers: { Authorization: '', 'X-Empty': '', 'X-Blank': '   ', 'X-Kept': 'kept' } },
      { auth: { type: 'bearer', value: '' } },
      { auth: { type: 'header', headerName: 'Authorization', value: '  ' } },
    ];
    for (const options of cases) {
      const client = clientFor(t, 'streamable', fixture.url, options);
      await assert.rejects(client.connect(), (e: unknown) => e instanceof AuthError && e.status === 401, JSON.stringify(options));
      const sent = fixture.requests.at(-1)!;
      assert.equal(sent.message?.method, 'initialize');
      for (const name of ['authorization', 'x-empty', 'x-blank']) assert.ok(!(name in sent.headers), `${name} must not be sent (${JSON.stringify(options)}): got ${JSON.stringify(sent.headers[name])}`);
    }
    assert.equal(fixture.requests[0]!.headers['x-kept'], 'kept', 'the other headers still go');
  });

  test('T4: CR, LF or NUL in a header value → ConfigError at connect naming the server and the header, not the value; nothing is sent', async (t) => {
    const fixture = await startHttpFixture(t);
    const canary = `canary-${crypto.randomUUID()}`;
    const cases: [Partial<HttpTransportOptions>, string][] = [
      [{ headers: { 'X-Bad': `a-${canary}\r\nX-Injected: 1` } }, 'X-Bad'],
      [{ auth: { type: 'bearer', value: `${canary}\nX-Injected: 1` } }, 'Authorization'],
      [{ auth: { type: 'header', headerName: 'X-Api-Key', value: `${canary}\r` } }, 'X-Api-Key'],
      // NUL is refused at load too (RFC 9110 §5.5), as a ConfigError, not left to fetch to reject as a transport failure.
      [{ headers: { 'X-Nul': `a\0${canary}` } }, 'X-Nul'],
      [{ auth: { type: 'bearer', value: `${canary}\0` } }, 'Authorization'],
    ];
    for (const [options, header] of cases) {
      for (const kind of ['streamable', 'sse'] as const) {
        const client = clientFor(t, kind, fixture.url, options);
        await assert.rejects(client.connect(), (e: unknown) => {
          assert.ok(e instanceof ConfigError, String(e));
          assert.equal(e.code, 'config');
          assert.ok(e.message.includes(SERVER), e.message);
          assert.ok(e.message.includes(header), e.message);
          assert.ok(!inspect(e, { depth: Infinity }).includes(canary), `the value leaked: ${e.message}`);
          assert.ok(!e.message.includes('X-Injected'), e.message);
          return true;
        });
      }
    }
    assert.equal(fixture.requests.length, 0, fixture.describe());
  });

  test('T4: a canary secret never appears in any error, cause chain, close reason or diagnostic across failing scenarios', async (t) => {
    const canary = `canary-${crypto.randomUUID()}`;
    const seen: string[] = []; // every string the client handed back
    let echoed = 0; // how many server answers carried the canary back (so the test is not vacuous)

    /** A body that echoes what the client sent: the Authorization header, and the bare token. */
    const echo = (r: RecordedRequest) => {
      const authorization = String(r.headers.authorization ?? '');
      const token = authorization.replace(/^Bearer /, '');
      if (token.includes(canary)) echoed++;
      return `rejected Authorization: ${authorization} (token=${token}) ${JSON.stringify({ token })}`;
    };
    const echoRoute = (when: (r: RecordedRequest) => boolean, status: number): HttpFixtureOptions['post'] => (ex) => (when(ex.request) ? ex.status(status, echo(ex.request)) : ex.default());

    const closedPort = await freePort(); // nothing listens there: the network failure scenario
    const fixtures = {
      unauthorized: await startHttpFixture(t, { post: (ex) => ex.status(401, echo(ex.request)) }),
      initFails: await startHttpFixture(t, { post: echoRoute(() => true, 500) }),
      callFails: await startHttpFixture(t, { sessionId: 's', post: echoRoute((r) => r.message?.method === 'tools/call', 500) }),
      notJson: await startHttpFixture(t, {
        post: (ex) => (ex.message?.method === 'tools/call' ? ex.status(200, echo(ex.request), { 'content-type': 'application/json' }) : ex.default()),
      }),
      noise: await startHttpFixture(t, {
        post: async (ex) => {
          const m = ex.message;
          if (m?.method !== 'tools/call') return ex.default();
          await ex.event({ data: echo(ex.request) }); // not JSON: reported as noise
          await ex.event({ data: responseTo(m, { content: [] }) });
          ex.end();
        },
      }),
      rpcEcho: await startHttpFixture(t, {
        // A JSON-RPC error whose message and data echo the credential back.
        post: (ex) => {
          const m = ex.message;
          if (m?.method !== 'tools/call') return ex.default();
          const text = echo(ex.request);
          ex.json({ jsonrpc: '2.0', id: m.id, error: { code: -32001, message: text, data: { detail: text } } });
        },
      }),
      invalidEcho: await startHttpFixture(t, {
        // A JSON value that is not JSON-RPC (reported as invalid-message) carrying the credential, then the answer.
        post: async (ex) => {
          const m = ex.message;
          if (m?.method !== 'tools/call') return ex.default();
          await ex.event({ data: { jsonrpc: '1.0', note: echo(ex.request) } });
          await ex.event({ data: responseTo(m, { content: [] }) });
          ex.end();
        },
      }),
      getFails: await startHttpFixture(t, { sessionId: 's', get: (ex) => ex.status(500, echo(ex.request)) }),
      sseGetFails: await startHttpFixture(t, { kind: 'sse', get: (ex) => ex.status(500, echo(ex.request)) }),
      ssePostFails: await startHttpFixture(t, { kind: 'sse', post: (ex) => (ex.message?.method === 'tools/call' ? ex.status(500, echo(ex.request)) : ex.default()) }),
      sseDrops: await startHttpFixture(t, {
        kind: 'sse',
        post: (ex) => {
          if (ex.message?.method !== 'tools/call') return ex.default();
          ex.status(202);
          for (const session of fixtures.sseDrops.sessions) session.stream.drop();
        },
      }),
    };

    const record = (value: unknown) => {
      seen.push(inspect(value, { depth: Infinity, showHidden: true }));
      for (let cause: unknown = value, depth = 0; cause instanceof Error && depth < 20; cause = cause.cause, depth++) {
        seen.push(cause.message, String(cause.stack));
        if (cause instanceof AggregateError) for (const inner of cause.errors) record(inner);
      }
    };
    const auths: Partial<HttpTransportOptions>[] = [
      { auth: { type: 'bearer', value: canary } },
      { auth: { type: 'header', headerName: 'Authorization', value: canary } },
      { headers: { 'X-Api-Key': canary, Authorization: `Bearer ${canary}` } },
    ];
    const run = async (kind: Kind, url: string, auth: Partial<HttpTransportOptions>, call: boolean) => {
      const client = clientFor(t, kind, url, auth, {
        onDiagnostic: (d: Diagnostic) => record(d),
        onClose: (end) => record(end),
        onLog: (p) => record(p),
      });
      let failures = 0;
      try {
        await client.connect();
        if (call) await client.callTool('leak', {}, { timeoutMs: 5_000 });
      } catch (error) {
        failures++;
        record(error);
      }
      // Give a background failure (the GET stream) a moment to report, then close.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await client.close().catch(record);
      return failures;
    };

    for (const auth of auths) {
      let failed = 0;
      failed += await run('streamable', fixtures.unauthorized.url, auth, false);
      failed += await run('streamable', fixtures.initFails.url, auth, false);
      failed += await run('streamable', fixtures.callFails.url, auth, true);
      failed += await run('streamable', fixtures.notJson.url, auth, true);
      await run('streamable', fixtures.noise.url, auth, true); // succeeds; the noise goes to onDiagnostic
      failed += await run('streamable', fixtures.rpcEcho.url, auth, true);
      await run('streamable', fixtures.invalidEcho.url, auth, true); // succeeds; the bad message goes to onDiagnostic
      await run('streamable', fixtures.getFails.url, auth, false); // the GET stream fails in the background
      failed += await run('streamable', `http://127.0.0.1:${closedPort}/mcp`, auth, false);
      failed += await run('sse', fixtures.sseGetFails.url, auth, false);
      failed += await run('sse', fixtures.ssePostFails.url, auth, true);
      failed += await run('sse', fixtures.sseDrops.url, auth, true);
      failed += await run('sse', `http://127.0.0.1:${closedPort}/sse`, auth, false);
      assert.equal(failed, 10, `every failing scenario failed (${JSON.stringify(auth)})`);
    }

    assert.ok(echoed >= 3 * 10, `servers echoed the canary back ${echoed} times`);
    assert.ok(seen.some((s) => s.includes('[redacted]')), 'a server echo reached an error or diagnostic, scrubbed');
    assert.ok(seen.some((s) => s.includes('ECONNREFUSED')), 'the network failure was recorded with its cause');
    const leaks = seen.filter((s) => s.includes(canary));
    assert.deepEqual(leaks, [], 'the canary appeared in what the client handed back');
  });
});

