// G1 (#21 item 1): the official suite's *server* mode
// (@modelcontextprotocol/conformance 0.1.16, `conformance server --url`) run
// against a reference server (fixtures/G1-reference-server.mjs, the SDK v1
// server built to what each server scenario asks for) directly over
// Streamable HTTP, and through `mcpwire serve --names short --listen` with
// the same server as its stdio upstream. Every scenario must get the same
// verdict both ways, except the few listed in THROUGH_SERVE_FAILS, each
// with the reason serve cannot pass it today; a scenario that starts to
// pass through serve must be taken off that list (the test says so).
// Needs Node 22 (the suite does); skipped, saying why, without it.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { missingReason, nodeBinary } from '../tools/node-versions/index.mjs';
import { ROOT } from './helpers/cli.js';
import { startServeHttp, writeProject } from './helpers/serve.js';
import { tempDir } from './helpers/temp.js';

const NODE22 = nodeBinary(22);
const SUITE = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));
const REFERENCE = fileURLToPath(new URL('./fixtures/G1-reference-server.mjs', import.meta.url));

/** Scenarios the reference server passes directly that serve fails, and why. */
const THROUGH_SERVE_FAILS: Readonly<Record<string, string>> = {
  // None since #21 item 1.1 (log lines and resource subscriptions relayed).
};

interface Cleanup {
  after(fn: () => unknown): void;
}

/** Runs `conformance server --url URL` (every active scenario) and returns each scenario's verdict from its summary. */
async function suiteVerdicts(t: Cleanup, url: string): Promise<Map<string, 'pass' | 'fail'>> {
  const cwd = tempDir(t, 'g1-conformance'); // the suite writes results/ into its working directory
  const child = spawn(NODE22!, [SUITE, 'server', '--url', url], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  t.after(() => child.kill('SIGKILL'));
  await new Promise((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  const verdicts = new Map<string, 'pass' | 'fail'>();
  const summary = output.slice(output.indexOf('=== SUMMARY ==='));
  for (const match of summary.matchAll(/^([✓✗]) ([a-z0-9-]+): (\d+) passed, (\d+) failed$/gmu)) verdicts.set(match[2]!, match[1] === '✓' && match[4] === '0' ? 'pass' : 'fail');
  assert.ok(verdicts.size > 20, `the suite printed a summary of its scenarios; got:\n${output.slice(-2000)}`);
  return verdicts;
}

/** The reference server over Streamable HTTP: its URL, stopped after the test (its stdin is closed). */
async function startReference(t: Cleanup): Promise<string> {
  const child = spawn(process.execPath, [REFERENCE, 'http'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  t.after(() => {
    child.stdin.end();
    child.kill('SIGTERM');
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the reference server exited (${code}) before listening`)));
  });
  return (JSON.parse(line) as { url: string }).url;
}

describe('G1: the official suite\'s server mode, directly and through mcpwire serve', { skip: NODE22 === undefined && missingReason(22) }, () => {
  test('G1: every scenario gets the same verdict through serve as directly, but those THROUGH_SERVE_FAILS names', { timeout: 600_000 }, async (t) => {
    const direct = await suiteVerdicts(t, await startReference(t));
    const project = writeProject(t, [{ key: 'ref', lines: ['transport: stdio', `command: ${JSON.stringify([process.execPath, REFERENCE, 'stdio'])}`] }]);
    const served = await startServeHttp(t, ['--config', project, '--names', 'short']);
    const through = await suiteVerdicts(t, served.url);

    // The reference must pass everything directly, or the comparison says nothing.
    assert.deepEqual([...direct].filter(([, v]) => v === 'fail').map(([name]) => name), [], 'the reference server passes every scenario directly');
    assert.deepEqual([...through.keys()].sort(), [...direct.keys()].sort(), 'the same scenarios ran both ways');
    const differ = [...direct.keys()].filter((name) => direct.get(name) !== through.get(name)).sort();
    assert.deepEqual(differ, Object.keys(THROUGH_SERVE_FAILS).sort(), `scenarios whose verdict differs through serve (a new one is a regression; one that no longer differs must leave THROUGH_SERVE_FAILS):\n${differ.map((n) => `  ${n}: ${THROUGH_SERVE_FAILS[n] ?? 'NOT EXPECTED'}`).join('\n')}`);
    assert.equal(through.get('dns-rebinding-protection'), 'pass', 'serve itself refuses a rebound Host or Origin');
  });
});
