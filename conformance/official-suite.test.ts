// X3: the official MCP conformance suite (@modelcontextprotocol/conformance
// 0.1.16, and 0.2.0-alpha.12 as conformance-next for the 2026-07-28
// revision; run on the Node 22 borrowed by tools/node-versions) against
// `mcpwire conformance-client`, one test per client scenario we claim. Each
// asserts on the checks the suite recorded, not only its exit code: the
// suite itself passes a client that does nothing in some scenarios.
// scripts/official-conformance.mjs does the running and judging; first it is
// shown to fail broken clients, so a green run here means something.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface Check {
  id: string;
  name?: string;
  status: string;
  errorMessage?: string;
}
interface Verdict {
  scenario: string;
  pass: boolean;
  reason?: string;
  note?: string;
  passedChecks: number;
  totalChecks: number;
  checks: Check[];
  suiteOutput?: string;
}
interface Listed {
  name: string;
  scored: boolean;
  reason?: string;
}
interface Script {
  runScenario(scenario: string, options?: { command?: string; timeoutMs?: number; suite?: '0.1.16' | 'next'; specVersion?: string }): Promise<Verdict>;
  judge(scenario: string, run: { suiteExit: number; checks: unknown; suiteStderr?: string; clientStderr?: string }): Verdict;
  listClientScenarios(): string[];
  listScenarios(options: { suite: '0.1.16' | 'next'; requirements?: string }): Listed[];
  parseScenarioList(text: string): Listed[];
  suiteVersion(suite: '0.1.16' | 'next'): string | undefined;
  NODE22: string | undefined;
  NODE22_MISSING: string;
}

const SCRIPT = fileURLToPath(new URL('../scripts/official-conformance.mjs', import.meta.url));
// A plain .mjs beside the project: imported by URL so it stays outside the TypeScript program.
const script = (await import(pathToFileURL(SCRIPT).href)) as Script;
/** The suite needs Node 22; without one (not linux-x64, or `npm run node-versions` not run) its runs skip, saying why. */
const needsNode22 = script.NODE22 === undefined ? `the suite needs Node 22 and ${script.NODE22_MISSING}` : false;

/** The suite gives the client 30 s; the rest is the suite's own start-up and slack on a loaded machine. */
const SCENARIO_TIMEOUT_MS = 120_000;

interface Expect {
  /** Check ids that must be recorded, each SUCCESS (every check with that id, when several share it, but the allowed skips). */
  succeed: string[];
  /** Check names the suite may record as SKIPPED, and why that is right; every other check must be SUCCESS. */
  skipped?: Record<string, string>;
}

/** Runs one scenario and asserts the suite's verdict and the named checks, with the suite's output on failure. */
async function assertScenario(scenario: string, expect: string[] | Expect, options?: { suite: 'next'; specVersion: string }): Promise<Verdict> {
  const { succeed, skipped = {} } = Array.isArray(expect) ? { succeed: expect } : expect;
  const verdict = await script.runScenario(scenario, options);
  const context = `${scenario}: ${verdict.reason ?? 'passed'}\n--- suite output ---\n${verdict.suiteOutput ?? ''}`;
  assert.equal(verdict.pass, true, context);
  const allowedSkip = (c: Check) => c.status === 'SKIPPED' && c.name !== undefined && Object.hasOwn(skipped, c.name);
  for (const id of succeed) {
    const checks = verdict.checks.filter((c) => c.id === id && !allowedSkip(c));
    assert.ok(checks.length > 0, `check ${id}: not recorded\n${context}`);
    for (const check of checks) assert.equal(check.status, 'SUCCESS', `check ${id} (${check.name}): ${check.status} ${check.errorMessage ?? ''}\n${context}`);
  }
  const other = verdict.checks.filter((c) => c.status !== 'SUCCESS' && !allowedSkip(c));
  assert.deepEqual(other.map((c) => `${c.id} ${c.name ?? ''} ${c.status}`), [], context);
  return verdict;
}

describe('the judge fails what it should', () => {
  test('a WARNING, a FAILURE, a missing checks.json, a client error or no SUCCESS at all each fail the scenario', () => {
    const ok = { id: 'a', name: 'A', status: 'SUCCESS' };
    assert.equal(script.judge('s', { suiteExit: 0, checks: [ok, { id: 'info', status: 'INFO' }] }).pass, true);
    assert.equal(script.judge('s', { suiteExit: 0, checks: [ok, { id: 'w', name: 'W', status: 'WARNING', errorMessage: 'slightly late' }] }).pass, false);
    const failed = script.judge('s', { suiteExit: 1, checks: [ok, { id: 'f', name: 'F', status: 'FAILURE', errorMessage: 'tool not called' }] });
    assert.equal(failed.pass, false);
    assert.match(failed.reason ?? '', /F: tool not called/);
    assert.equal(script.judge('s', { suiteExit: 0, checks: undefined }).pass, false);
    assert.equal(script.judge('s', { suiteExit: 0, checks: [] }).pass, false);
    assert.equal(script.judge('s', { suiteExit: 0, checks: [{ id: 'info', status: 'INFO' }] }).pass, false);
    const crashed = script.judge('s', {
      suiteExit: 1,
      checks: [ok],
      suiteStderr: '\nClient exited with code 3\n\n⚠️  CLIENT EXITED WITH ERROR (code 3) - Test may be incomplete\n',
      clientStderr: 'boom\n',
    });
    assert.equal(crashed.pass, false);
    assert.match(crashed.reason ?? '', /exited with code 3 \(boom\)/);
    // A scenario that expects the client to give up (the suite's allowClientError) prints no verdict on the exit status.
    assert.equal(script.judge('s', { suiteExit: 0, checks: [ok], suiteStderr: '\nClient exited with code 1\n' }).pass, true);
  });

  test('the listing of a requirement set: scored client scenarios, and the client ones run but never scored with their reason', () => {
    const text = [
      'Required for 2026-07-28 (3 scenarios, frozen; run at the 2026-07-28 wire):',
      '',
      'Server scenarios (test against a server):',
      '  - server-stateless',
      '',
      'Client scenarios (test against a client):',
      '  - tools_call',
      '  - auth/metadata-default',
      '',
      'Run and reported, but never scored:',
      '  extension (2):',
      '    - auth/dpop [client]',
      '    - tasks-lifecycle [server]',
      '  added-after-release (1):',
      '    - json-schema-2020-12-preservation [client]',
    ].join('\n');
    assert.deepEqual(script.parseScenarioList(text), [
      { name: 'tools_call', scored: true },
      { name: 'auth/metadata-default', scored: true },
      { name: 'auth/dpop', scored: false, reason: 'extension' },
      { name: 'json-schema-2020-12-preservation', scored: false, reason: 'added-after-release' },
    ]);
    assert.deepEqual(script.parseScenarioList('Client scenarios (test against a client):\n  - initialize [2025-06-18,2025-11-25]\n  - sep-2640-client-no-prefetch [extension]\n'), [
      { name: 'initialize', scored: true },
      { name: 'sep-2640-client-no-prefetch', scored: false, reason: 'extension' },
    ]);
  });

  test('the suite run against a client that exits 1 at once fails', { timeout: SCENARIO_TIMEOUT_MS, skip: needsNode22 }, async () => {
    const verdict = await script.runScenario('initialize', { command: 'false' });
    assert.equal(verdict.pass, false);
    assert.match(verdict.reason ?? '', /exited with code 1/);
  });

  test('a client that exits 0 without connecting fails, although the suite itself passes it', { timeout: SCENARIO_TIMEOUT_MS, skip: needsNode22 }, async () => {
    const verdict = await script.runScenario('initialize', { command: 'true' });
    assert.equal(verdict.pass, false);
    assert.match(verdict.reason ?? '', /no check succeeded/);
  });
});

describe('official MCP conformance suite, client scenarios (X3)', { skip: needsNode22 }, () => {
  test('the scenarios claimed here are ones the suite lists', () => {
    const listed = script.listClientScenarios();
    for (const name of ['initialize', 'tools_call', 'sse-retry', 'elicitation-sep1034-client-defaults']) assert.ok(listed.includes(name), `${name} not in ${listed.join(', ')}`);
  });

  test('initialize: protocolVersion and clientInfo sent', { timeout: SCENARIO_TIMEOUT_MS }, async () => {
    await assertScenario('initialize', ['mcp-client-initialization']);
  });

  test('tools_call: add_numbers listed and called with two numbers', { timeout: SCENARIO_TIMEOUT_MS }, async () => {
    await assertScenario('tools_call', ['tool-add-numbers']);
  });

  test('sse-retry: the dropped stream is resumed by GET after `retry`, with Last-Event-ID, and the answer taken from it', { timeout: SCENARIO_TIMEOUT_MS }, async () => {
    await assertScenario('sse-retry', ['client-sse-graceful-reconnect', 'client-sse-retry-timing', 'client-sse-last-event-id']);
  });

  test('elicitation-sep1034-client-defaults: the handler accepts with every schema default', { timeout: SCENARIO_TIMEOUT_MS }, async () => {
    await assertScenario('elicitation-sep1034-client-defaults', [
      'client-elicitation-sep1034-string-default',
      'client-elicitation-sep1034-integer-default',
      'client-elicitation-sep1034-number-default',
      'client-elicitation-sep1034-enum-default',
      'client-elicitation-sep1034-boolean-default',
    ]);
  });
});

/** What suite 0.2 runs at 2026-07-28 and mcpwire claims: every non-OAuth client scenario the revision requires (#17). */
const AT_2026 = { suite: 'next', specVersion: '2026-07-28' } as const;
const needsNext = needsNode22 || (script.suiteVersion('next') === undefined ? 'suite 0.2 (the devDependency conformance-next) is not installed; run npm ci' : false);

describe('official MCP conformance suite 0.2.0-alpha.12 at 2026-07-28, client scenarios (#17)', { skip: needsNext }, () => {
  test('the release is the one these tests were written against, and the scenarios claimed here are the non-OAuth ones 2026-07-28 requires', () => {
    assert.equal(script.suiteVersion('next'), '0.2.0-alpha.12');
    const listed = script.listScenarios({ suite: 'next', requirements: '2026-07-28' });
    const scored = listed.filter((s) => s.scored && !s.name.startsWith('auth/')).map((s) => s.name);
    assert.deepEqual(scored.sort(), ['http-custom-headers', 'http-invalid-tool-headers', 'http-standard-headers', 'json-schema-ref-no-deref', 'request-metadata', 'sep-2322-client-request-state', 'tools_call']);
    assert.deepEqual(
      listed.find((s) => s.name === 'json-schema-2020-12-preservation'),
      { name: 'json-schema-2020-12-preservation', scored: false, reason: 'added-after-release' },
    );
  });

  test('a client that exits 0 without connecting fails here too', { timeout: SCENARIO_TIMEOUT_MS }, async () => {
    const verdict = await script.runScenario('request-metadata', { ...AT_2026, command: 'true' });
    assert.equal(verdict.pass, false);
  });

  test('tools_call: server/discover, then add_numbers listed and called, every message valid against the 2026-07-28 schema', { timeout: SCENARIO_TIMEOUT_MS }, async () => {
    await assertScenario('tools_call', ['tool-add-numbers', 'wire-schema-valid'], AT_2026);
  });

  test('request-metadata: MCP-Protocol-Version on every POST, matching _meta; _meta with version, capabilities, clientInfo; a -32022 retried at a supported version', { timeout: SCENARIO_TIMEOUT_MS }, async () => {
    await assertScenario(
      'request-metadata',
      {
        succeed: ['sep-2575-http-client-sends-version-header', 'sep-2575-client-populates-meta', 'sep-2575-client-sends-client-info', 'sep-2575-http-version-header-matches-meta', 'sep-2575-client-retry-supported-version'],
        skipped: {
          ClientDeclaresRootsCapability: 'the client has no roots handler, so declares no roots capability',
          ClientDeclaresSamplingCapability: 'no sampling handler',
          ClientDeclaresElicitationCapability: 'no elicitation handler in this scenario',
        },
      },
      AT_2026,
    );
  });

  test('sep-2322-client-request-state: requestState echoed exactly with a new id, none invented, none leaked to another call, no resultType means complete', { timeout: SCENARIO_TIMEOUT_MS }, async () => {
    await assertScenario(
      'sep-2322-client-request-state',
      ['sep-2322-client-request-state-echoed', 'sep-2322-client-jsonrpc-id-different', 'sep-2322-client-no-state-omitted', 'sep-2322-client-parallel-isolation', 'sep-2322-default-result-type-complete'],
      AT_2026,
    );
  });

  test('http-standard-headers: Mcp-Method on tools/list, tools/call, resources/list, resources/read, prompts/list, prompts/get; Mcp-Name on the three that name something', { timeout: SCENARIO_TIMEOUT_MS }, async () => {
    const verdict = await assertScenario(
      'http-standard-headers',
      {
        succeed: ['sep-2243-client-includes-standard-headers'],
        skipped: {
          ClientMcpMethodHeader_initialize: 'the 2026-07-28 wire has no initialize',
          ClientMcpMethodHeader_notifications_initialized: 'nor notifications/initialized',
        },
      },
      AT_2026,
    );
    // Passing is not enough: the suite skips a method the client never sends, so each must have been sent.
    const ok = new Set(verdict.checks.filter((c) => c.status === 'SUCCESS').map((c) => c.name));
    for (const m of ['tools_list', 'tools_call', 'resources_list', 'resources_read', 'prompts_list', 'prompts_get']) assert.ok(ok.has(`ClientMcpMethodHeader_${m}`), `Mcp-Method on ${m}\n${verdict.suiteOutput}`);
    for (const m of ['tools_call', 'resources_read', 'prompts_get']) assert.ok(ok.has(`ClientMcpNameHeader_${m}`), `Mcp-Name on ${m}\n${verdict.suiteOutput}`);
  });

  test("http-custom-headers: the context's calls, each x-mcp-header parameter mirrored as Mcp-Param-*, Base64 where unsafe, null omitted, unannotated never", { timeout: SCENARIO_TIMEOUT_MS }, async () => {
    await assertScenario(
      'http-custom-headers',
      ['sep-2243-client-supports-custom-headers', 'sep-2243-client-mirrors-designated-params', 'sep-2243-client-encode-values', 'sep-2243-client-base64-unsafe', 'sep-2243-client-omit-null'],
      AT_2026,
    );
  });

  test('http-invalid-tool-headers: the valid tool is called; the 11 with an invalid x-mcp-header are left out of tools/list and never called', { timeout: SCENARIO_TIMEOUT_MS }, async () => {
    await assertScenario(
      'http-invalid-tool-headers',
      ['sep-2243-client-reject-invalid-tool', 'sep-2243-x-mcp-header-not-empty', 'sep-2243-x-mcp-header-primitive-only', 'sep-2243-x-mcp-header-unique', 'sep-2243-x-mcp-header-charset'],
      AT_2026,
    );
  });

  test('json-schema-ref-no-deref: tools listed, the network $ref in the inputSchema never fetched', { timeout: SCENARIO_TIMEOUT_MS }, async () => {
    await assertScenario('json-schema-ref-no-deref', ['sep-2106-no-network-ref-deref'], AT_2026);
  });

  for (const specVersion of ['2026-07-28', '2025-11-25']) {
    test(`json-schema-2020-12-preservation at ${specVersion}: the focal inputSchema echoed back with $schema, $defs/$anchor, additionalProperties, allOf/anyOf, if/then/else intact`, { timeout: SCENARIO_TIMEOUT_MS }, async () => {
      await assertScenario(
        'json-schema-2020-12-preservation',
        [
          'json-schema-2020-12-client-tool-found',
          'json-schema-2020-12-client-echo-completed',
          'json-schema-2020-12-client-$schema-preserved',
          'json-schema-2020-12-client-$defs-preserved',
          'json-schema-2020-12-client-additionalProperties-preserved',
          'sep-2106-client-composition-keywords-preserved',
          'sep-2106-client-conditional-keywords-preserved',
          'sep-2106-client-anchor-keyword-preserved',
          'wire-schema-valid',
        ],
        { suite: 'next', specVersion },
      );
    });
  }
});

// #19: the OAuth flow, headless against the suite's mocks (their /authorize redirects straight back; the
// library's state, issuer, resource and PKCE checks still run). A representative set of the 25 scored auth
// scenarios of 2026-07-28 (node scripts/official-conformance.mjs --suite next --requirements 2026-07-28 runs
// them all), each judged strictly; the security ones must pass by refusing.
describe('official MCP conformance suite 0.2.0-alpha.12, auth scenarios (#19)', { skip: needsNext }, () => {
  const AUTH = [
    ['auth/metadata-default', 'discovery, dynamic registration, PKCE S256, the exchange, the bearer on every request'],
    ['auth/metadata-var2', 'the resource sent exactly as the PRM publishes it'],
    ['auth/basic-cimd', 'a Client ID Metadata Document URL as client_id where the AS takes one'],
    ['auth/pre-registration', 'the scenario\'s client credentials, no registration'],
    ['auth/token-endpoint-auth-basic', 'client_secret_basic at the token endpoint'],
    ['auth/scope-step-up', 'a 403 insufficient_scope answered with a second authorization for the union'],
    ['auth/scope-retry-limit', 'a scope that is never granted: the step-ups stop'],
    ['auth/resource-mismatch', 'a PRM naming another resource: no authorization request'],
    ['auth/iss-wrong-issuer', 'an authorization response from another issuer (RFC 9207) is not used'],
    ['auth/metadata-issuer-mismatch', 'AS metadata for another issuer is refused'],
    ['auth/authorization-server-migration', 'a new AS in the PRM: registered anew there (SEP-2352)'],
  ] as const;
  for (const [scenario, what] of AUTH) {
    test(`${scenario} at 2026-07-28: ${what}`, { timeout: SCENARIO_TIMEOUT_MS }, async () => {
      const verdict = await assertScenario(scenario, [], AT_2026);
      assert.ok(verdict.checks.some((c) => c.status === 'SUCCESS'), `${scenario}: at least one check succeeded`);
    });
  }
});

// #19 item 1 (SPEC A1): the six auth extensions, unscored by the suite but judged here as strictly as the
// rest (no WARNING, each named check SUCCESS), at both revisions 0.2 runs them at. The machine grants take
// what the scenario's context hands over (client secret, private key, IdP ID token, workload JWT); DPoP is
// chosen because the servers challenge with it.
describe('official MCP conformance suite 0.2.0-alpha.12, auth extensions (#19, SPEC A1)', { skip: needsNext }, () => {
  const EXTENSIONS = [
    ['auth/client-credentials-basic', 'the client_credentials grant, client_secret_basic', ['token-request', 'client-credentials-basic-auth', 'valid-bearer-token']],
    ['auth/client-credentials-jwt', 'the client_credentials grant, a private_key_jwt assertion (RFC 7523)', ['token-request', 'client-credentials-jwt-verified', 'valid-bearer-token']],
    ['auth/enterprise-managed-authorization', 'token exchange at the IdP for an ID-JAG (RFC 8693), then the JWT-bearer grant', ['complete-flow-token-exchange', 'complete-flow-jwt-bearer', 'valid-bearer-token']],
    ['auth/wif-jwt-bearer', 'the JWT-bearer grant with a workload identity token', ['token-request', 'wif-assertion-verified', 'valid-bearer-token']],
    ['auth/dpop', 'DPoP (RFC 9449): a proof at the token endpoint, Authorization: DPoP, a fresh proof per request', ['sep-1932-client-token-request-proof', 'sep-1932-client-dpop-auth-scheme', 'sep-1932-client-fresh-proof']],
    ['auth/dpop-nonce', 'DPoP with the AS and the resource server each asking for their nonce', ['sep-1932-client-token-request-proof', 'sep-1932-client-fresh-proof', 'sep-1932-client-as-nonce', 'sep-1932-client-rs-nonce']],
  ] as const;
  test('the six are what 2026-07-28 runs as extensions', () => {
    const listed = script.listScenarios({ suite: 'next', requirements: '2026-07-28' });
    const extensions = listed.filter((s) => s.name.startsWith('auth/') && s.reason === 'extension').map((s) => s.name);
    assert.deepEqual(extensions.sort(), EXTENSIONS.map(([name]) => name).sort());
  });
  for (const specVersion of ['2026-07-28', '2025-11-25']) {
    for (const [scenario, what, checks] of EXTENSIONS) {
      test(`${scenario} at ${specVersion}: ${what}`, { timeout: SCENARIO_TIMEOUT_MS }, async () => {
        await assertScenario(scenario, [...checks], { suite: 'next', specVersion });
      });
    }
  }
});

describe('official MCP conformance suite 0.1.16, auth extensions (#19, SPEC A1)', { skip: needsNode22 }, () => {
  const EXTENSIONS = [
    ['auth/client-credentials-basic', ['token-request', 'client-credentials-basic-auth']],
    ['auth/client-credentials-jwt', ['token-request', 'client-credentials-jwt-verified']],
    ['auth/cross-app-access-complete-flow', ['complete-flow-token-exchange', 'complete-flow-jwt-bearer']],
  ] as const;
  for (const [scenario, checks] of EXTENSIONS) {
    test(`${scenario}: the machine grant, judged strictly`, { timeout: SCENARIO_TIMEOUT_MS }, async () => {
      await assertScenario(scenario, [...checks]);
    });
  }
});
