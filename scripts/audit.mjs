// `npm run audit`: the mutation audit of the framing path (issue #20 item 3,
// SPEC G5). Runs StrykerJS once per group of stryker/groups.mjs, niced, on a
// Node that Stryker 10 accepts (22.18+: this one if it is, else the one
// borrowed by tools/node-versions), then regenerates the figures in
// docs/AUDIT.md (scripts/audit-report.mjs). Not part of `npm test`: it is slow.
// Incremental: a mutant whose code did not change keeps its last result if
// that was Killed, Timeout or CompileError (stryker/incremental/*.json,
// committed), so a re-run after a small change tests only what it touched.
// Survivors are always tested again: the command runner reports one test
// ("all tests") and cannot tell Stryker that a test file changed, so a
// survivor's old result would otherwise be reused after the very test that
// kills it was written; this script drops them from the incremental file
// before each run (retestSurvivors). --force tests every mutant again (a
// test that was removed or weakened can only be caught that way).
//
//   node scripts/audit.mjs [GROUP...] [--force] [--retest=FILE,...] [--no-report]
//
// Exit status: 0 every group at or above its threshold (and every file at
// or above its group's), judged on the score without the listed
// equivalents; 1 one below or a run failed, 2 usage.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { missingReason, nodeBinary } from '../tools/node-versions/index.mjs';
import { GROUPS } from '../stryker/groups.mjs';
import { matchEquivalent, mutationFigures } from './audit-report.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STRYKER = path.join(ROOT, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');

function strykerNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 18)) return process.execPath;
  return nodeBinary(22);
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean' }, 'no-report': { type: 'boolean' }, retest: { type: 'string' } } });
const unknown = positionals.filter((name) => !GROUPS.some((g) => g.name === name));
if (unknown.length > 0) {
  console.error(`audit: no group ${unknown.join(', ')}; the groups are ${GROUPS.map((g) => g.name).join(', ')}`);
  process.exit(2);
}
const node = strykerNode();
if (!node) {
  console.error(`audit: Stryker 10 needs Node 22.18 or later; ${missingReason(22)}`);
  process.exit(1);
}

/**
 * Drops the survivors (and mutants no test reached) from a group's
 * incremental file, so that this run tests them again; not those listed as
 * equivalent (stryker/equivalents.mjs: no test can kill them, so testing
 * them again only costs), and with --retest=FILE,... only those of the
 * files named (the others keep their last result, and say when it was).
 */
function retestSurvivors(group) {
  const file = path.join(ROOT, 'stryker', 'incremental', `${group.name}.json`);
  if (!existsSync(file)) return 0;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const only = values.retest?.split(',').filter(Boolean);
  let dropped = 0;
  for (const [name, entry] of Object.entries(report.files ?? {})) {
    if (only && !only.includes(name)) continue;
    const lines = entry.source.split('\n');
    const kept = entry.mutants.filter((m) => (m.status !== 'Survived' && m.status !== 'NoCoverage') || matchEquivalent(name, m, lines));
    dropped += entry.mutants.length - kept.length;
    entry.mutants = kept;
  }
  writeFileSync(file, JSON.stringify(report));
  return dropped;
}

/**
 * After a run: cuts each mutant's statusReason (a killed mutant's is the
 * failing test's whole output) to its first lines, so the committed file
 * stays small, and counts the mutants this run tested (those Stryker did
 * not reuse have no 'reused' mark: the count is the survivors dropped plus
 * the mutants of changed code, as Stryker logged). Returns that count, or
 * undefined when the file is not there.
 */
function compactIncremental(group) {
  const file = path.join(ROOT, 'stryker', 'incremental', `${group.name}.json`);
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  for (const entry of Object.values(report.files ?? {})) {
    for (const m of entry.mutants) if (typeof m.statusReason === 'string' && m.statusReason.length > 300) m.statusReason = `${m.statusReason.slice(0, 300)}…`;
  }
  writeFileSync(file, `${JSON.stringify(report)}\n`);
  return lastTested;
}

const groups = positionals.length > 0 ? GROUPS.filter((g) => positionals.includes(g.name)) : GROUPS;
/** Runs a command, its output shown as it comes and kept (Stryker's log says how many results it reused). */
function runShown(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, options);
    const chunks = [];
    child.stdout.on('data', (chunk) => {
      chunks.push(chunk);
      process.stdout.write(chunk);
    });
    child.on('close', (status, signal) => resolve({ status, signal, stdout: Buffer.concat(chunks).toString() }));
  });
}

const timings = {};
let lastTested;
let failed = false;
for (const group of groups) {
  console.log(`audit: group ${group.name} (${group.mutate.join(', ')})`);
  const retest = values.force ? undefined : retestSurvivors(group);
  if (retest !== undefined) console.log(`audit: ${retest} survivor(s) of the last run will be tested again`);
  const started = Date.now();
  const args = [STRYKER, 'run', 'stryker/stryker.config.mjs', ...(values.force ? ['--force'] : [])];
  // nice: two cores are shared by everyone; the audit waits, the others do not.
  const run = await runShown('nice', ['-n', '10', node, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, AUDIT_GROUP: group.name } });
  const log = run.stdout;
  // Stryker's own count of what it tested this time: "N of M mutant result(s) are reused".
  const reused = /(\d+) of (\d+) mutant result\(s\) are reused/.exec(log);
  lastTested = reused ? Number(reused[2]) - Number(reused[1]) : undefined;
  const tested = compactIncremental(group);
  timings[group.name] = { at: new Date().toISOString(), node: process.versions.node, seconds: Math.round((Date.now() - started) / 1000), forced: values.force === true, retested: tested, status: run.status, ...(process.env.AUDIT_TESTS ? { tests: process.env.AUDIT_TESTS.split(',').filter(Boolean) } : {}) };
  if (run.status !== 0) {
    console.error(`audit: group ${group.name}: the Stryker run broke (exit ${run.status ?? run.signal}; see above)`);
    failed = true;
  }
}
// How long each group took, for AUDIT.md (a full, forced run is the figure that says what an audit costs);
// committed beside the incremental files, one entry per group, the last run of each.
const timingsFile = path.join(ROOT, 'stryker', 'timings.json');
const known = existsSync(timingsFile) ? JSON.parse(readFileSync(timingsFile, 'utf8')) : { groups: {} };
Object.assign(known.groups, timings);
writeFileSync(timingsFile, `${JSON.stringify(known, null, 2)}\n`);

// The thresholds are judged here, on the score without the listed equivalents (Stryker's own break is off).
for (const g of mutationFigures().groups) {
  if (!groups.some((x) => x.name === g.group.name) || g.missing) continue;
  for (const f of g.files.filter((f) => !f.missing && f.scoreExcl < g.group.break)) {
    console.error(`audit: ${f.name} scores ${f.scoreExcl.toFixed(2)}% without the equivalents, below the ${g.group.name} group's ${g.group.break}%: kill its survivors or list them in stryker/equivalents.mjs with why`);
    failed = true;
  }
  if (g.scoreExcl < g.group.break) failed = true;
}
if (!values['no-report']) {
  const report = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'audit-report.mjs'), '--mutation'], { cwd: ROOT, stdio: 'inherit' });
  if (report.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
