#!/usr/bin/env node
// Runs the official MCP conformance suite against mcpwire's conformance
// client (X3), one client scenario at a time, and prints one line per
// scenario and a closing "N passed, N failed". Two releases are installed:
// 0.1.16 (@modelcontextprotocol/conformance, the default) and 0.2.0-alpha.12
// (the devDependency alias conformance-next, `--suite next`), which knows the
// 2026-07-28 revision. Plain Node ESM with no dependencies, so any Node runs
// it; the suite itself needs Node 22 and runs on the one borrowed by
// tools/node-versions (`npm run node-versions`), or on this Node if it is 22.
//
//   node scripts/official-conformance.mjs [SCENARIO...] [--suite 0.1.16|next]
//        [--requirements REV | --spec-version REV] [--no-oauth] [--list]
//        [--json] [--verbose] [--command CMD] [--timeout MS] [--keep]
//
// No SCENARIO: every client scenario the suite lists (`conformance list
// --client`), or with --requirements REV (next only) exactly the client
// scenarios that revision's frozen requirement set names, scored or not.
// Each runs as `client --scenario X --spec-version REV --force`, which is what
// the suite's own `--requirements REV` run does per scenario (it runs them all
// at once, in parallel, which a loaded machine would skew). A scenario passes
// only when the suite exits 0, its checks.json holds at least one SUCCESS,
// and no check is FAILURE or WARNING. OAuth scenarios (auth/*) run headless
// (issue #19); --no-oauth leaves them out. --list prints the scenarios
// with what each is (scored, OAuth, not scored and why) and runs none.
// Exit status: 0 every scored scenario passed, 1 one failed, 2 usage.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { missingReason, nodeBinary } from '../tools/node-versions/index.mjs';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Undefined when no Node 22 is at hand: the suite cannot run then. */
export const NODE22 = nodeBinary(22);
export const NODE22_MISSING = missingReason(22);
/** The two installed releases: the suite's dist/index.js and its package.json. */
export const SUITES = {
  '0.1.16': path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance'),
  next: path.join(ROOT, 'node_modules', 'conformance-next'),
};
/** The release a run uses when none is named. */
export const DEFAULT_SUITE = '0.1.16';
/** suite 0.1.16's entry point (kept for callers of the single-suite script). */
export const SUITE = suiteEntry(DEFAULT_SUITE);

export function suiteEntry(suite) {
  const dir = SUITES[suite];
  if (!dir) throw new Error(`unknown suite ${JSON.stringify(suite)}; one of ${Object.keys(SUITES).join(', ')}`);
  return path.join(dir, 'dist', 'index.js');
}

/** The installed release's version, from its package.json (undefined when it is missing). */
export function suiteVersion(suite) {
  try {
    return JSON.parse(readFileSync(path.join(SUITES[suite], 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}
/** The suite's own limit for one client run, ms (its default). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The command the suite runs: this Node (explicitly, never whatever `node`
 * is first on PATH) on bin/mcpwire.js, the compiled CLI that ships (built by
 * `npm run build`, which `npm test` runs first).
 * The suite splits the command on spaces, so no part may contain one.
 */
export function defaultClientCommand() {
  const parts = [process.execPath, path.join(ROOT, 'bin', 'mcpwire.js'), 'conformance-client'];
  const spaced = parts.find((p) => /\s/.test(p));
  if (spaced) throw new Error(`the suite splits --command on spaces, and this path has one: ${spaced}; move the checkout or pass --command`);
  return parts.join(' ');
}

/** Whether a scenario is an OAuth one (issue #19). */
export function isOAuth(scenario) {
  return scenario.startsWith('auth/');
}

/**
 * The client scenarios, from `conformance list --client`: [{name, scored,
 * reason?}]. With `requirements` (suite next only), exactly those the
 * revision's frozen requirement set names: its client scenarios (scored) and
 * the client ones it runs but never scores (scored false, reason the suite's
 * own: extension, added-after-release, pending). With `specVersion`, the
 * suite's filter.
 */
export function listScenarios(options = {}) {
  const suite = options.suite ?? DEFAULT_SUITE;
  const args = [suiteEntry(suite), 'list', '--client'];
  if (options.requirements) args.push('--requirements', options.requirements);
  else if (options.specVersion) args.push('--spec-version', options.specVersion);
  const run = spawnSync(NODE22, args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`conformance ${args.slice(1).join(' ')} failed (exit ${run.status}): ${run.stderr || run.error?.message}`);
  const scenarios = parseScenarioList(run.stdout);
  if (scenarios.length === 0) throw new Error(`conformance ${args.slice(1).join(' ')} printed no client scenarios:\n${run.stdout}`);
  return scenarios;
}

/**
 * The client scenarios in the text `conformance list --client` prints. A
 * requirement set's listing has server scenarios too, and a "Run and
 * reported, but never scored" part whose entries end in [client] or [server].
 */
export function parseScenarioList(text) {
  const out = [];
  let section; // 'client' | 'server' | 'unscored'
  let reason;
  for (const line of text.split('\n')) {
    if (/^Client scenarios/.test(line)) section = 'client';
    else if (/^Server scenarios/.test(line)) section = 'server';
    else if (/^Run and reported, but never scored/.test(line)) section = 'unscored';
    else if (section === 'unscored' && /^ {2}(\S[^(]*?) \(\d+\):/.test(line)) reason = /^ {2}(\S[^(]*?) \(\d+\):/.exec(line)[1];
    const item = /^\s+-\s+(\S+)(?:\s+\[([^\]]*)\])?/.exec(line);
    if (!item) continue;
    // A plain listing tags each with its revisions; [extension] is off the spec timeline, never scored.
    if (section === 'client') out.push(item[2] === 'extension' ? { name: item[1], scored: false, reason: 'extension' } : { name: item[1], scored: true });
    else if (section === 'unscored' && item[2] === 'client') out.push({ name: item[1], scored: false, reason });
  }
  return out;
}

/** The client scenario names of suite 0.1.16, from `conformance list --client`. */
export function listClientScenarios(suite = DEFAULT_SUITE) {
  return listScenarios({ suite }).map((s) => s.name);
}

/**
 * The verdict on one scenario run. `run` = {suiteExit, checks (parsed
 * checks.json, or undefined), suiteStderr, clientStderr}. Pure, so tests can
 * feed it made-up runs.
 */
export function judge(scenario, run) {
  const checks = Array.isArray(run.checks) ? run.checks : undefined;
  const count = (status) => (checks ?? []).filter((c) => c.status === status);
  const failures = count('FAILURE');
  const warnings = count('WARNING');
  const successes = count('SUCCESS');
  const stderr = run.suiteStderr ?? '';
  const reasons = [];
  if (checks === undefined) reasons.push('the suite wrote no checks.json');
  if (failures.length) reasons.push(summarize(failures, 'failed'));
  if (warnings.length) reasons.push(summarize(warnings, 'warned'));
  if (/Client timed out after/.test(stderr)) reasons.push('the client did not finish in time (the suite killed it)');
  // A few scenarios (auth/resource-mismatch) expect the client to give up, and the suite then
  // does not print its "CLIENT EXITED WITH ERROR" verdict: an exit status it allows is no failure.
  const exited = /Client exited with code (-?\d+)/.exec(stderr);
  if (exited && /CLIENT EXITED WITH ERROR/.test(stderr)) {
    const last = lastLine(run.clientStderr ?? '');
    reasons.push(`the client exited with code ${exited[1]}${last ? ` (${last})` : ''}`);
  }
  if (checks !== undefined && successes.length === 0 && failures.length === 0) reasons.push('no check succeeded: the client did nothing the suite could verify');
  if (run.suiteExit !== 0 && reasons.length === 0) reasons.push(`the suite exited with code ${run.suiteExit}`);
  const pass = reasons.length === 0 && run.suiteExit === 0;
  const reason = pass ? undefined : reasons.join('; ');
  return {
    scenario,
    pass,
    reason,
    passedChecks: successes.length,
    totalChecks: successes.length + failures.length,
    checks: (checks ?? []).filter((c) => c.status !== 'INFO').map((c) => ({ id: c.id, name: c.name, status: c.status, errorMessage: c.errorMessage })),
  };
}

/**
 * Runs the suite on one scenario (with Node 22) and judges it. Never rejects for a failing scenario.
 * options: {suite ('0.1.16' | 'next'), specVersion (the revision whose wire to run at: suite next
 * passes it to the client as MCP_CONFORMANCE_PROTOCOL_VERSION), command, timeoutMs, keep}.
 */
export async function runScenario(scenario, options = {}) {
  const command = options.command ?? defaultClientCommand();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const suite = options.suite ?? DEFAULT_SUITE;
  const outDir = mkdtempSync(path.join(tmpdir(), 'mcpwire-official-'));
  const started = Date.now();
  try {
    const args = [suiteEntry(suite), 'client', '--command', command, '--scenario', scenario, '--timeout', String(timeoutMs), '-o', outDir];
    // --force: run it at that revision even where the suite would call it not applicable, as --requirements does.
    if (options.specVersion) args.push('--spec-version', options.specVersion, '--force');
    const { code, stdout, stderr } = await spawnCollect(NODE22, args, timeoutMs + 30_000);
    const dir = findResultDir(outDir);
    const read = (name) => (dir && existsSync(path.join(dir, name)) ? readFileSync(path.join(dir, name), 'utf8') : undefined);
    let checks;
    try {
      checks = JSON.parse(read('checks.json') ?? 'null') ?? undefined;
    } catch {
      checks = undefined;
    }
    const verdict = judge(scenario, { suiteExit: code, checks, suiteStderr: stderr, clientStderr: read('stderr.txt') });
    return { ...verdict, suite, ...(options.specVersion ? { specVersion: options.specVersion } : {}), durationMs: Date.now() - started, suiteOutput: `${stdout}${stderr}`, ...(options.keep ? { resultDir: dir ?? outDir } : {}) };
  } finally {
    if (!options.keep) rmSync(outDir, { recursive: true, force: true });
  }
}

/** The suite writes to <out>/<scenario>-<timestamp>/ (auth/x lands in <out>/auth/x-<timestamp>/): the dir holding checks.json. */
function findResultDir(outDir) {
  const stack = [outDir];
  while (stack.length) {
    const dir = stack.pop();
    const entries = readdirSync(dir, { withFileTypes: true });
    if (entries.some((e) => e.isFile() && e.name === 'checks.json')) return dir;
    for (const e of entries) if (e.isDirectory()) stack.push(path.join(dir, e.name));
  }
  return undefined;
}

function spawnCollect(file, args, killAfterMs) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    // The suite enforces its own timeout on the client; this only guards against the suite itself hanging.
    const timer = setTimeout(() => {
      stderr += `\n[official-conformance] the suite ran past ${killAfterMs} ms and was killed\n`;
      child.kill('SIGKILL');
    }, killAfterMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: `${stderr}\n${error.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : -1), stdout, stderr });
    });
  });
}

/** "<first check>: <its message>" and how many more, so a line stays readable. */
function summarize(checks, verb) {
  const first = checks[0];
  const name = first.name ?? first.id;
  const message = first.errorMessage ?? first.description ?? '';
  const text = message && !message.includes(name) ? `${name}: ${message}` : message || name;
  return `${checks.length} check${checks.length === 1 ? '' : 's'} ${verb} (${text}${checks.length > 1 ? `; +${checks.length - 1} more` : ''})`;
}

function lastLine(text) {
  return text.trim().split('\n').at(-1)?.trim() ?? '';
}

export function resultLine(r) {
  const tag = r.scored === false ? ` [not scored: ${r.unscoredReason ?? 'the suite says so'}]` : '';
  if (!r.pass) return `FAIL ${r.scenario}: ${r.reason}${tag}`;
  return `pass ${r.scenario} (${r.passedChecks}/${r.totalChecks} checks)${r.note ? ` [${r.note}]` : ''}${tag}`;
}

/** What --list prints for one scenario. */
export function listLine(s) {
  const scoring = s.scored ? 'scored' : `not scored (${s.reason ?? 'the suite says so'})`;
  const what = isOAuth(s.name) ? `OAuth (issue #19), ${scoring}` : scoring;
  return `${s.name.padEnd(44)} ${what}`;
}

const USAGE = `Usage: node scripts/official-conformance.mjs [SCENARIO...] [--suite 0.1.16|next]
       [--requirements REV | --spec-version REV] [--no-oauth] [--list]
       [--json] [--verbose] [--command CMD] [--timeout MS] [--keep]
`;

async function main(argv) {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        suite: { type: 'string', default: DEFAULT_SUITE },
        requirements: { type: 'string' },
        'spec-version': { type: 'string' },
        'no-oauth': { type: 'boolean' },
        list: { type: 'boolean' },
        json: { type: 'boolean' },
        verbose: { type: 'boolean', short: 'v' },
        keep: { type: 'boolean' },
        command: { type: 'string' },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    process.stderr.write(`official-conformance: ${error.message}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const suite = values.suite;
  const usage = (text) => {
    process.stderr.write(`official-conformance: ${text}\n${USAGE}`);
    return 2;
  };
  if (!Object.hasOwn(SUITES, suite)) return usage(`--suite is one of ${Object.keys(SUITES).join(', ')}, got ${suite}`);
  if (values.requirements && values['spec-version']) return usage('--requirements fixes the revision; give it or --spec-version, not both');
  if ((values.requirements || values['spec-version']) && suite === '0.1.16') return usage('--requirements and --spec-version need --suite next (0.1.16 runs every scenario at 2025-11-25)');
  if (NODE22 === undefined) {
    process.stderr.write(`official-conformance: ${NODE22_MISSING}\n`);
    return 2;
  }
  if (!existsSync(suiteEntry(suite))) {
    process.stderr.write(`official-conformance: suite ${suite} is missing at ${suiteEntry(suite)}; run npm ci\n`);
    return 2;
  }
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) return usage(`--timeout takes milliseconds, got ${values.timeout}`);
  const specVersion = values.requirements ?? values['spec-version'];
  let scenarios = listScenarios({ suite, requirements: values.requirements, specVersion: values['spec-version'] });
  if (positionals.length) {
    const known = new Map(scenarios.map((s) => [s.name, s]));
    // A scenario the listing lacks still runs (the suite decides): scored, as a plain run would count it.
    scenarios = positionals.map((name) => known.get(name) ?? { name, scored: true });
  }
  if (values['no-oauth']) scenarios = scenarios.filter((s) => !isOAuth(s.name));
  const header = `suite ${suite === 'next' ? 'next' : suite} (${suiteVersion(suite) ?? 'version unknown'})${values.requirements ? `, requirements ${values.requirements}` : specVersion ? `, spec version ${specVersion}` : ''}`;
  if (values.list) {
    if (values.json) process.stdout.write(`${JSON.stringify({ suite, version: suiteVersion(suite), requirements: values.requirements, specVersion, scenarios: scenarios.map((s) => ({ ...s, oauth: isOAuth(s.name) })) }, null, 2)}\n`);
    else process.stdout.write(`${header}: ${scenarios.length} client scenarios\n${scenarios.map(listLine).join('\n')}\n`);
    return 0;
  }
  if (!values.json) process.stdout.write(`${header}\n`);
  const results = [];
  // One at a time: sse-retry measures the client's reconnect delay, which a loaded machine would skew.
  for (const s of scenarios) {
    const result = { ...(await runScenario(s.name, { suite, specVersion, command: values.command, timeoutMs, keep: values.keep })), scored: s.scored, ...(s.reason ? { unscoredReason: s.reason } : {}) };
    results.push(result);
    if (!values.json) process.stdout.write(`${resultLine(result)}\n`);
    if (values.verbose && !values.json) process.stdout.write(`${result.suiteOutput.replace(/^/gm, '    ')}\n`);
    if (values.keep && !values.json) process.stdout.write(`    results in ${result.resultDir}\n`);
  }
  const passed = results.filter((r) => r.pass).length;
  const failed = results.length - passed;
  const failedScored = results.filter((r) => !r.pass && r.scored !== false).length;
  const failedOAuth = results.filter((r) => !r.pass && isOAuth(r.scenario)).length;
  if (values.json) {
    const slim = results.map(({ suiteOutput, ...rest }) => (values.verbose ? { ...rest, suiteOutput } : rest));
    process.stdout.write(`${JSON.stringify({ suite, version: suiteVersion(suite), requirements: values.requirements, specVersion, results: slim, passed, failed }, null, 2)}\n`);
  } else {
    const notes = [];
    if (failedOAuth) notes.push(`${failedOAuth} OAuth`);
    if (failed - failedScored) notes.push(`${failed - failedScored} not scored`);
    process.stdout.write(`${passed} passed, ${failed} failed${notes.length ? ` (${notes.join('; ')})` : ''}\n`);
  }
  return failedScored === 0 ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (status) => {
      process.exitCode = status;
    },
    (error) => {
      process.stderr.write(`official-conformance: ${error?.stack ?? error}\n`);
      process.exitCode = 2;
    },
  );
}
