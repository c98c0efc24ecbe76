// X3: the official MCP conformance suite (@modelcontextprotocol/conformance,
// run on the Node 22 borrowed by tools/node-versions) against
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
interface Script {
  runScenario(scenario: string, options?: { command?: string; timeoutMs?: number }): Promise<Verdict>;
  judge(scenario: string, run: { suiteExit: number; checks: unknown; suiteStderr?: string; clientStderr?: string }): Verdict;
  listClientScenarios(): string[];
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

/** Runs one scenario and asserts the suite's verdict and the named checks, with the suite's output on failure. */
async function assertScenario(scenario: string, mustSucceed: string[]): Promise<void> {
  const verdict = await script.runScenario(scenario);
  const context = `${scenario}: ${verdict.reason ?? 'passed'}\n--- suite output ---\n${verdict.suiteOutput ?? ''}`;
  assert.equal(verdict.pass, true, context);
  for (const id of mustSucceed) {
    const check = verdict.checks.find((c) => c.id === id);
    assert.equal(check?.status, 'SUCCESS', `check ${id}: ${check ? `${check.status} ${check.errorMessage ?? ''}` : 'not recorded'}\n${context}`);
  }
  assert.ok(verdict.checks.every((c) => c.status === 'SUCCESS'), context);
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
