// The test command of the mutation audit (stryker/stryker.config.mjs): runs
// the named test files one after another, each in its own `node --test`
// process on this Node, and stops at the first that fails. Stryker's
// command runner only reads the exit status, so stopping early costs
// nothing and makes a killed mutant cheap: most die in the first, smallest
// file. Plain Node ESM, no dependencies.
//
//   node scripts/audit-tests.mjs FILE.test.ts...

import { spawnSync } from 'node:child_process';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node scripts/audit-tests.mjs FILE.test.ts...');
  process.exit(2);
}
for (const file of files) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-timeout=60000', '--test-reporter=dot', file], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (run.status !== 0) {
    console.error(`audit-tests: ${file} failed (${run.status ?? run.signal})`);
    process.exit(1);
  }
}
