// `npm run audit`: the mutation audit of the framing path (issue #20 item 3,
// SPEC G5). Runs StrykerJS once per group of stryker/groups.mjs, niced, on a
// Node that Stryker 10 accepts (22.18+: this one if it is, else the one
// borrowed by tools/node-versions), then regenerates the figures in
// docs/AUDIT.md (scripts/audit-report.mjs). Not part of `npm test`: it is slow.
// Incremental: mutants whose code and tests did not change keep their last
// result (stryker/incremental/*.json, committed), so a re-run after a small
// change tests only what it touched; --force tests every mutant again.
//
//   node scripts/audit.mjs [GROUP...] [--force] [--no-report]
//
// Exit status: 0 every group at or above its threshold (and every file at
// or above its group's), 1 one below or a run failed, 2 usage.

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { missingReason, nodeBinary } from '../tools/node-versions/index.mjs';
import { GROUPS } from '../stryker/groups.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STRYKER = path.join(ROOT, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');

function strykerNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 18)) return process.execPath;
  return nodeBinary(22);
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean' }, 'no-report': { type: 'boolean' } } });
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

const groups = positionals.length > 0 ? GROUPS.filter((g) => positionals.includes(g.name)) : GROUPS;
const timings = {};
let failed = false;
for (const group of groups) {
  console.log(`audit: group ${group.name} (${group.mutate.join(', ')})`);
  const started = Date.now();
  const args = [STRYKER, 'run', 'stryker/stryker.config.mjs', ...(values.force ? ['--force'] : [])];
  // nice: two cores are shared by everyone; the audit waits, the others do not.
  const run = spawnSync('nice', ['-n', '10', node, ...args], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, AUDIT_GROUP: group.name } });
  timings[group.name] = { seconds: Math.round((Date.now() - started) / 1000), forced: values.force === true, status: run.status };
  if (run.status !== 0) {
    console.error(`audit: group ${group.name} failed (exit ${run.status ?? run.signal}): below its threshold of ${group.break}% or the run broke (see above)`);
    failed = true;
  }
}
// How long each group took, for AUDIT.md (a full, forced run is the figure that says what an audit costs).
mkdirSync(path.join(ROOT, 'reports', 'mutation'), { recursive: true });
writeFileSync(path.join(ROOT, 'reports', 'mutation', 'timings.json'), `${JSON.stringify({ at: new Date().toISOString(), node: process.versions.node, groups: timings }, null, 2)}\n`);

if (!values['no-report']) {
  const report = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'audit-report.mjs'), '--mutation'], { cwd: ROOT, stdio: 'inherit' });
  if (report.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
