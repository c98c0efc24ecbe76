// T4: "Secret values never appear in any log, error or diagnostic." A canary
// secret (`sk-canary-<random hex>`) is configured every way a secret can be
// — bearer, an auth header of any name, a credential-named header (where a
// config reader puts a resolved `${ENV}`), a header provider — and pushed through every failure path of both HTTP transports
// with servers that echo it back (raw, base64, hex, URL-encoded): error
// statuses, JSON-RPC errors, a response whose id is the secret, a body cut
// in the middle of the secret, a message that is not JSON-RPC, noise, a
// refused connection, a dropped one. Whatever the client hands back —
// errors (message, stack, JSON.stringify, util.inspect, causes),
// diagnostics, close reasons, stdout, stderr — is searched for each form.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test, type TestContext } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { inspect } from 'node:util';
import { ClosedError, McpClient, SseTransport, StreamableHttpTransport, type Diagnostic, type HttpTransportOptions, type Transport } from '../src/index.js';
import { responseTo, startHttpFixture, type Exchange, type HttpFixture, type RecordedRequest } from '../src/testing/http-fixture.js';
import { freePort } from './helpers/interop.js';

type Kind = 'streamable' | 'sse';
const CANARY = `sk-canary-${randomBytes(16).toString('hex')}`;
const FORMS = {
  raw: CANARY,
  base64: Buffer.from(CANARY).toString('base64'),
  base64url: Buffer.from(CANARY).toString('base64url'),
  hex: Buffer.from(CANARY).toString('hex'),
  HEX: Buffer.from(CANARY).toString('hex').toUpperCase(),
  url: encodeURIComponent(`Bearer ${CANARY}`),
};

function leaksIn(text: string): string[] {
  return Object.entries(FORMS).flatMap(([name, form]) => (text.includes(form) ? [name] : []));
}

/** Every way a secret can be configured; each puts the canary on the wire in some header. */
const CONFIGS: Array<{ name: string; options: Partial<HttpTransportOptions> }> = [
  { name: 'bearer', options: { auth: { type: 'bearer', value: CANARY } } },
  { name: 'auth header with a plain name', options: { auth: { type: 'header', headerName: 'X-Plain', value: CANARY } } },
  { name: 'a credential-named header', options: { headers: { 'X-Api-Key': CANARY } } },
  { name: 'an Authorization header', options: { headers: { Authorization: `Bearer ${CANARY}` } } },
  { name: 'header provider', options: { headerProvider: { headers: () => ({ 'X-Provided': CANARY }) } } },
];

let echoed = 0;
/** What a careless server says back: every header it got, and the secret encoded three ways. */
function echo(r: RecordedRequest): string {
  const headers = JSON.stringify(r.headers);
  if (!headers.includes(CANARY)) return `no secret in ${headers}`;
  echoed++;
  return `rejected ${headers} b64=${FORMS.base64} hex=${FORMS.hex} url=${FORMS.url}`;
}

/** A 500 whose first write ends inside the secret and whose rest is past the excerpt's read limit. */
async function splitBody(ex: Exchange): Promise<void> {
  const text = echo(ex.request);
  const at = text.indexOf(CANARY) + 7;
  ex.head(500, { 'content-type': 'text/plain' });
  await ex.write(text.slice(0, at > 7 ? at : 20));
  await delay(30);
  await ex.write(`${text.slice(at > 7 ? at : 20)} ${'x'.repeat(8192)}`);
  ex.end();
}

interface Scenario {
  name: string;
  kind: Kind;
  /** Whether connect() or the call must fail. */
  fails: boolean;
  /** Also call a tool after connecting. */
  call: boolean;
  fixture?: (t: TestContext) => Promise<HttpFixture>;
  url?: () => Promise<string>;
}

const onCall = (f: (ex: Exchange) => void | Promise<void>) => (ex: Exchange) => (ex.message?.method === 'tools/call' ? f(ex) : ex.default());

const SCENARIOS: Scenario[] = [
  ...[401, 403, 404, 500].map((status): Scenario => ({ name: `initialize answered ${status} with an echo`, kind: 'streamable', fails: true, call: false, fixture: (t) => startHttpFixture(t, { post: (ex) => ex.status(status, echo(ex.request)) }) })),
  { name: 'initialize answered 500, the body split inside the secret', kind: 'streamable', fails: true, call: false, fixture: (t) => startHttpFixture(t, { post: splitBody }) },
  { name: 'a call answered 500 with an echo', kind: 'streamable', fails: true, call: true, fixture: (t) => startHttpFixture(t, { sessionId: 's', post: onCall((ex) => ex.status(500, echo(ex.request))) }) },
  {
    name: 'a JSON-RPC error echoing the headers in message and data',
    kind: 'streamable',
    fails: true,
    call: true,
    fixture: (t) => startHttpFixture(t, { post: onCall((ex) => ex.json({ jsonrpc: '2.0', id: ex.message!.id, error: { code: -32001, message: echo(ex.request), data: { echo: echo(ex.request) } } })) }),
  },
  {
    name: 'a response whose id is the secret, then the answer',
    kind: 'streamable',
    fails: false,
    call: true,
    fixture: (t) =>
      startHttpFixture(t, {
        post: onCall(async (ex) => {
          echo(ex.request);
          await ex.event({ data: { jsonrpc: '2.0', id: CANARY, result: {} } });
          await ex.event({ data: { jsonrpc: '2.0', id: FORMS.base64, result: {} } });
          await ex.event({ data: responseTo(ex.message!, { content: [] }) });
          ex.end();
        }),
      }),
  },
  {
    name: 'a message that is not JSON-RPC with the secret across the excerpt cut, and noise',
    kind: 'streamable',
    fails: false,
    call: true,
    fixture: (t) =>
      startHttpFixture(t, {
        post: onCall(async (ex) => {
          await ex.event({ data: { jsonrpc: '1.0', pad: 'p'.repeat(170), note: echo(ex.request) } });
          await ex.event({ data: `noise ${echo(ex.request)}` });
          await ex.event({ data: responseTo(ex.message!, { content: [] }) });
          ex.end();
        }),
      }),
  },
  { name: 'the answer is application/json but not JSON', kind: 'streamable', fails: true, call: true, fixture: (t) => startHttpFixture(t, { post: onCall((ex) => ex.status(200, echo(ex.request), { 'content-type': 'application/json' })) }) },
  { name: 'the connection drops mid-answer', kind: 'streamable', fails: true, call: true, fixture: (t) => startHttpFixture(t, { post: onCall(async (ex) => { ex.openSse(); await ex.write(`data: ${echo(ex.request)}`); ex.drop(); }) }) },
  { name: 'nothing listens (network failure)', kind: 'streamable', fails: true, call: false, url: async () => `http://127.0.0.1:${await freePort()}/mcp` },
  { name: 'GET /sse answered 500 with an echo', kind: 'sse', fails: true, call: false, fixture: (t) => startHttpFixture(t, { kind: 'sse', get: (ex) => ex.status(500, echo(ex.request)) }) },
  { name: 'GET /sse answered 500, the body split inside the secret', kind: 'sse', fails: true, call: false, fixture: (t) => startHttpFixture(t, { kind: 'sse', get: splitBody }) },
  { name: 'a POST to the endpoint answered 403 with an echo', kind: 'sse', fails: true, call: true, fixture: (t) => startHttpFixture(t, { kind: 'sse', post: onCall((ex) => ex.status(403, echo(ex.request))) }) },
  {
    name: 'a response on the stream whose id is the secret, and noise',
    kind: 'sse',
    fails: false,
    call: true,
    fixture: (t) =>
      startHttpFixture(t, {
        kind: 'sse',
        post: onCall(async (ex) => {
          ex.status(202);
          const stream = ex.fixture.sessions.at(-1)!.stream;
          await stream.event({ event: 'message', data: { jsonrpc: '2.0', id: CANARY, result: {} } });
          await stream.event({ event: 'message', data: `noise ${echo(ex.request)}` });
          await stream.event({ event: 'message', data: responseTo(ex.message!, { content: [] }) });
        }),
      }),
  },
  { name: 'nothing listens (network failure)', kind: 'sse', fails: true, call: false, url: async () => `http://127.0.0.1:${await freePort()}/sse` },
];

function transportFor(kind: Kind, url: string, options: Partial<HttpTransportOptions>): Transport {
  const common = { url, server: 'canary', reconnect: { initialMs: 10, maxAttempts: 1 }, ...options };
  return kind === 'sse' ? new SseTransport({ ...common, endpointTimeoutMs: 3_000 }) : new StreamableHttpTransport(common);
}

/** Everything an embedder could print about `value`. */
function renderings(value: unknown): string[] {
  const out = [inspect(value, { depth: Infinity, showHidden: true })];
  try {
    out.push(JSON.stringify(value) ?? '');
  } catch {
    // a cycle: inspect() above has it
  }
  for (let cause: unknown = value, depth = 0; cause instanceof Error && depth < 20; cause = cause.cause, depth++) out.push(cause.message, String(cause.stack));
  return out;
}

/** Records what the process writes to stdout and stderr while `run` runs (passing it on). */
async function capturingOutput<T>(run: () => Promise<T>): Promise<{ result: T; output: string }> {
  let output = '';
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((s) => s.write);
  streams.forEach((s, i) => {
    s.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      output += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return (originals[i] as (...args: unknown[]) => boolean).call(s, chunk, ...rest);
    }) as typeof s.write;
  });
  try {
    return { result: await run(), output };
  } finally {
    streams.forEach((s, i) => (s.write = originals[i]!));
  }
}

describe('T4 canary secrets', { timeout: 60_000 }, () => {
  test('T4: a canary configured as bearer, auth header, ${ENV} or provided header never leaves in any form, on any failure path', async (t) => {
    const seen: Array<{ where: string; text: string }> = [];
    let failures = 0;
    let diagnostics = 0;
    const { output } = await capturingOutput(async () => {
      for (const scenario of SCENARIOS) {
        const fixture = scenario.fixture ? await scenario.fixture(t) : undefined;
        const url = fixture ? fixture.url : await scenario.url!();
        for (const config of CONFIGS) {
          const where = `${scenario.kind}: ${scenario.name} (${config.name})`;
          const note = (what: string, value: unknown) => {
            for (const text of renderings(value)) seen.push({ where: `${where}, ${what}`, text });
          };
          const client = new McpClient(transportFor(scenario.kind, url, config.options), {
            connectTimeoutMs: 3_000,
            onDiagnostic: (d: Diagnostic) => {
              diagnostics++;
              note(`diagnostic ${d.kind}`, d);
            },
            onClose: (end) => note('close reason', end),
          });
          let failed = false;
          try {
            await client.connect();
            if (scenario.call) await client.callTool('leak', {}, { timeoutMs: 3_000 });
          } catch (error) {
            failed = true;
            note('error', error);
          }
          await client.close().catch((error: unknown) => note('close error', error));
          assert.equal(failed, scenario.fails, `${where}: ${failed ? 'failed' : 'succeeded'}`);
          if (failed) failures++;
        }
      }
    });
    seen.push({ where: 'stdout/stderr', text: output });
    const leaks = seen.flatMap(({ where, text }) => leaksIn(text).map((form) => `${form} in ${where}: ${text.slice(0, 300)}`));
    assert.deepEqual(leaks, [], 'the canary left the client');
    // Not vacuous: the servers did echo it, the failures and diagnostics did happen, and scrubbed echoes did arrive.
    assert.ok(echoed >= CONFIGS.length * 10, `servers echoed the canary ${echoed} times`);
    assert.ok(failures >= CONFIGS.length * 12, `${failures} failures`);
    assert.ok(diagnostics >= CONFIGS.length * 4, `${diagnostics} diagnostics`);
    assert.ok(seen.some(({ text }) => text.includes('[redacted]')), 'no scrubbed echo was seen');
  });

  test('T4: an unknown-response diagnostic for a response whose id is the bearer value carries it scrubbed', async (t) => {
    const fixture = await startHttpFixture(t, {
      post: onCall(async (ex) => {
        await ex.event({ data: { jsonrpc: '2.0', id: CANARY, result: {} } });
        await ex.event({ data: responseTo(ex.message!, { content: [] }) });
        ex.end();
      }),
    });
    const diagnostics: Diagnostic[] = [];
    const client = new McpClient(transportFor('streamable', fixture.url, { auth: { type: 'bearer', value: CANARY } }), { onDiagnostic: (d) => diagnostics.push(d) });
    t.after(() => client.close());
    await client.connect();
    await client.callTool('x', {});
    const unknown = diagnostics.filter((d) => d.kind === 'unknown-response');
    assert.equal(unknown.length, 1, inspect(diagnostics));
    assert.deepEqual(leaksIn(JSON.stringify(unknown)), []);
  });

  test('T4: a 500 body whose first write ends inside the token leaves no prefix of it in the excerpt', async (t) => {
    const fixture = await startHttpFixture(t, {
      post: async (ex) => {
        ex.head(500, { 'content-type': 'text/plain' });
        await ex.write(`denied: ${CANARY.slice(0, 12)}`);
        await delay(30);
        await ex.write(`${CANARY.slice(12)} ${'x'.repeat(8192)}`);
        ex.end();
      },
    });
    const client = new McpClient(transportFor('streamable', fixture.url, { auth: { type: 'bearer', value: CANARY } }));
    t.after(() => client.close());
    const error = await client.connect().then(() => assert.fail('connected'), (e: unknown) => e);
    assert.ok(error instanceof ClosedError && error.status === 500, inspect(error));
    const text = inspect(error, { depth: Infinity });
    assert.ok(text.includes('denied'), text);
    assert.ok(!text.includes(CANARY.slice(0, 6)), `a prefix of the secret survived: ${text}`);
  });
});
