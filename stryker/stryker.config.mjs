// StrykerJS configuration for one group of the mutation audit (see
// groups.mjs); the group is named by AUDIT_GROUP. Run through `npm run audit`
// (scripts/audit.mjs), which picks the Node (Stryker 10 needs 22.18+) and
// runs every group in turn.
import { existsSync } from 'node:fs';
import { GROUPS } from './groups.mjs';

const name = process.env.AUDIT_GROUP;
const group = GROUPS.find((g) => g.name === name);
if (!group) throw new Error(`AUDIT_GROUP must be one of ${GROUPS.map((g) => g.name).join(', ')} (got ${JSON.stringify(name)})`);

// A group's test file that does not exist is a mistake in groups.mjs: say so rather than run fewer tests.
// (AUDIT_ALLOW_MISSING_TESTS=1 runs without them: for a baseline before they are written.)
const missing = group.tests.filter((file) => !existsSync(file));
if (missing.length > 0 && process.env.AUDIT_ALLOW_MISSING_TESTS !== '1') {
  throw new Error(`stryker/groups.mjs names test files that do not exist: ${missing.join(', ')}`);
}
// AUDIT_TESTS=a.test.ts,b.test.ts runs only those (for `--retest=` of the survivors of a full run against the
// test files written or changed since: sound, because a survivor of that run survived every other file already;
// a lower bound if another file changed since). AUDIT_CONCURRENCY=1 when the machine is busy.
const only = process.env.AUDIT_TESTS?.split(',').filter(Boolean);
const unknownTests = (only ?? []).filter((file) => !group.tests.includes(file));
if (unknownTests.length > 0) throw new Error(`AUDIT_TESTS names files that are not the ${group.name} group's tests: ${unknownTests.join(', ')}`);
const tests = (only ?? group.tests).filter((file) => existsSync(file));
const quote = (s) => `'${s}'`;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'command',
  commandRunner: {
    // The Node running Stryker runs the tests too; the runner stops at the first failing file.
    command: `"${process.execPath}" scripts/audit-tests.mjs ${tests.map(quote).join(' ')}`,
  },
  mutate: group.mutate,
  // AUDIT_NO_CHECKER=1 for a retest of survivors only: each passed the checker already (else it would be a
  // CompileError), and without it Stryker gives both slots of `concurrency` to test runners.
  checkers: process.env.AUDIT_NO_CHECKER === '1' ? [] : ['typescript'],
  tsconfigFile: 'stryker/tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'off',
  // The machine is shared: two runners at most (issue #20's brief).
  concurrency: Math.min(2, Number(process.env.AUDIT_CONCURRENCY ?? 2)),
  timeoutMS: 20_000,
  timeoutFactor: 2,
  incremental: true,
  incrementalFile: `stryker/incremental/${group.name}.json`,
  // break: null — the threshold is judged by scripts/audit.mjs on the score without the listed equivalents.
  thresholds: { high: group.break, low: group.break - 5, break: null },
  reporters: ['json', 'clear-text', 'progress-append-only'],
  jsonReporter: { fileName: `reports/mutation/${group.name}.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  ignorePatterns: ['reports', 'bench/results', '.exp', 'dist', '*.cpuprofile'],
  logLevel: 'info',
  fileLogLevel: 'off',
};
