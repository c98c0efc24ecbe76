// `npm run coverage`: line and branch coverage of the framing path (issue
// #20 item 3, SPEC G5) from the tests that exercise it: the files and test
// files of stryker/groups.mjs, so coverage and the mutation audit look at
// the same code through the same tests. c8 collects Node's own V8 coverage
// (remapped through tsx's source maps to the .ts lines); this script then
// counts each file itself, over only the lines a group names (stdio.ts: its
// read path), so a file's figure is not diluted or padded by code outside
// the audit. Then it regenerates docs/AUDIT.md's figures
// (scripts/audit-report.mjs --coverage).
//
//   node scripts/coverage.mjs [--no-report]
//
// Exit status: 0 every file at or above 98% of lines and 95% of branches;
// 1 one below, or a test failed. Plain Node ESM, no dependencies.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { GROUPS } from '../stryker/groups.mjs';

export const THRESHOLDS = { lines: 98, branches: 95 };

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const C8 = path.join(ROOT, 'node_modules', 'c8', 'bin', 'c8.js');
const OUT = path.join(ROOT, 'reports', 'coverage');

/** `src/x.ts:10-20` → { file, range: [10, 20] }; no range → the whole file. */
function parseEntry(entry) {
  const m = /^(.*):(\d+)-(\d+)$/.exec(entry);
  return m ? { file: m[1], range: [Number(m[2]), Number(m[3])] } : { file: entry, range: [1, Infinity] };
}

/** A group's entries, one per file, with the line ranges of each (several for stdio.ts). */
function auditedFiles() {
  const byFile = new Map();
  for (const g of GROUPS) {
    for (const entry of g.mutate) {
      const { file, range } = parseEntry(entry);
      const known = byFile.get(file) ?? { group: g.name, file, ranges: [] };
      known.ranges.push(range);
      byFile.set(file, known);
    }
  }
  return [...byFile.values()];
}

/**
 * Lines and branches of one file of c8's coverage-final.json (istanbul's
 * shape), counted as istanbul counts them (a line is covered when a
 * statement starting on it ran), within [from, to].
 */
export function countFile(data, ranges) {
  const inRange = (line) => ranges.some(([from, to]) => line >= from && line <= to);
  const lines = new Map();
  for (const [id, loc] of Object.entries(data.statementMap)) {
    if (!inRange(loc.start.line)) continue;
    lines.set(loc.start.line, Math.max(lines.get(loc.start.line) ?? 0, data.s[id]));
  }
  const uncoveredLines = [...lines].filter(([, n]) => n === 0).map(([line]) => line).sort((a, b) => a - b);
  let branches = 0;
  let coveredBranches = 0;
  const uncoveredBranches = [];
  for (const [id, branch] of Object.entries(data.branchMap)) {
    const line = branch.loc?.start.line ?? branch.locations[0]?.start.line;
    if (!inRange(line)) continue;
    data.b[id].forEach((n, i) => {
      branches += 1;
      if (n > 0) coveredBranches += 1;
      else uncoveredBranches.push(branch.locations[i]?.start.line ?? line);
    });
  }
  const pct = (a, b) => (b === 0 ? 100 : Math.floor((a / b) * 10000) / 100);
  return {
    lines: { total: lines.size, covered: lines.size - uncoveredLines.length, pct: pct(lines.size - uncoveredLines.length, lines.size) },
    branches: { total: branches, covered: coveredBranches, pct: pct(coveredBranches, branches) },
    uncoveredLines,
    uncoveredBranches: [...new Set(uncoveredBranches)].sort((a, b) => a - b),
  };
}

/**
 * The property and fuzz runs of the test run: each reports `N runs, seed S,
 * T ms` as a diagnostic (spec-tests/helpers/property.ts describeReport),
 * which TAP prints after the test's `ok` line. The file is the test file
 * whose text names the test.
 */
export function propertyRuns(tap, tests) {
  const out = [];
  let last;
  for (const line of tap.split('\n')) {
    const ok = /^\s*(?:not )?ok \d+ - (.*?)(?: # .*)?$/.exec(line);
    if (ok) {
      last = ok[1];
      continue;
    }
    // `# [what: ]N runs, seed S, T ms`
    const diag = /^\s*# (?:(.+?): )?(\d+ runs, seed \d+, \d+ ms)$/.exec(line);
    if (diag && last !== undefined) {
      // TAP escapes a backslash and a '#' in a name; the source escapes a quote inside a quoted name. Compare unescaped.
      const name = last.replace(/\\([\\#])/g, '$1');
      const file = tests.find((t) => readFileSync(path.join(ROOT, t), 'utf8').replace(/\\(['"`])/g, '$1').includes(name));
      out.push({ file, test: diag[1] ? `${last} (${diag[1]})` : last, diagnostic: diag[2] });
    }
  }
  return out;
}

function main() {
  const { values } = parseArgs({ options: { 'no-report': { type: 'boolean' } } });
  const entries = auditedFiles();
  const tests = [...new Set(GROUPS.flatMap((g) => g.tests))];
  const missing = tests.filter((file) => !existsSync(path.join(ROOT, file)));
  if (missing.length > 0) {
    console.error(`coverage: stryker/groups.mjs names test files that do not exist: ${missing.join(', ')}`);
    process.exit(1);
  }
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const started = Date.now();
  // nice: two cores are shared by everyone. One test file at a time, as the audit runs them.
  const run = spawnSync(
    'nice',
    [
      '-n', '10', process.execPath, C8,
      ...entries.flatMap((e) => ['--include', e.file]),
      '--reporter', 'json', '--reporter', 'text', '--reports-dir', OUT, '--temp-directory', path.join(OUT, 'tmp'),
      process.execPath, '--import', 'tsx', '--test', '--test-concurrency=1', '--test-timeout=120000', '--test-reporter=dot', '--test-reporter-destination=stdout',
      '--test-reporter=tap', `--test-reporter-destination=${path.join(OUT, 'tests.tap')}`, ...tests,
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  const seconds = Math.round((Date.now() - started) / 1000);
  rmSync(path.join(OUT, 'tmp'), { recursive: true, force: true });
  // A failing test fails the run, but the figures are still written, with the failures named beside them.
  const tap = readFileSync(path.join(OUT, 'tests.tap'), 'utf8');
  const failedTests = [...tap.matchAll(/^\s*not ok \d+ - (.*?)(?: # .*)?$/gm)].map((m) => m[1]);
  if (run.status !== 0) console.error(`coverage: the tests failed (exit ${run.status ?? run.signal}): ${failedTests.join('; ')}`);
  const final = JSON.parse(readFileSync(path.join(OUT, 'coverage-final.json'), 'utf8'));
  const byFile = new Map(Object.entries(final).map(([file, data]) => [path.relative(ROOT, file), data]));
  const files = [];
  let failed = run.status !== 0;
  for (const e of entries) {
    const data = byFile.get(e.file);
    if (!data) {
      console.error(`coverage: no coverage of ${e.file}: no test loaded it`);
      failed = true;
      continue;
    }
    const counted = countFile(data, e.ranges);
    const ok = counted.lines.pct >= THRESHOLDS.lines && counted.branches.pct >= THRESHOLDS.branches;
    if (!ok) failed = true;
    const lines = e.ranges.every(([, to]) => Number.isFinite(to)) ? e.ranges.map(([from, to]) => (from === to ? `${from}` : `${from}-${to}`)).join(',') : undefined;
    files.push({ group: e.group, file: e.file, only: lines, ok, ...counted });
  }
  const properties = propertyRuns(tap, tests);
  const summary = { at: new Date().toISOString(), node: process.versions.node, seconds, thresholds: THRESHOLDS, tests, failedTests, files, properties };
  writeFileSync(path.join(OUT, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log('\ncoverage of the audited files (lines / branches; thresholds %d%% / %d%%):', THRESHOLDS.lines, THRESHOLDS.branches);
  for (const f of files) {
    const where = f.only ? `${f.file}:${f.only}` : f.file;
    const gaps = [...f.uncoveredLines.map((l) => `L${l}`), ...f.uncoveredBranches.map((l) => `B${l}`)].join(' ');
    console.log(`  ${f.ok ? 'ok  ' : 'LOW '} ${where.padEnd(40)} ${String(f.lines.pct).padStart(6)}% ${String(f.branches.pct).padStart(6)}%  ${gaps}`);
  }
  console.log(`coverage: ${seconds} s for ${tests.length} test files`);
  if (!values['no-report']) {
    const report = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'audit-report.mjs'), '--coverage'], { cwd: ROOT, stdio: 'inherit' });
    if (report.status !== 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
