#!/usr/bin/env node
// Builds dist/ from src/: tsc with tsconfig.build.json (ES2022 ESM, .d.ts,
// declaration and source maps), then the plain-JS modules tsc does not copy
// (the conformance relay child and its protocol). `npm test` runs this
// first, so it returns at once when dist/ is newer than every input; --force
// builds anyway.
//
//   node scripts/build.mjs [--force]

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.tsbuildinfo');
/** Source files that are not part of the build (tsconfig.build.json excludes them too). */
const isExcluded = (rel) => /\.test\.ts$/.test(rel) || rel.split(path.sep)[0] === 'testing';
/** Plain JavaScript modules (and their hand-written types) that ship as they are. */
const isCopied = (rel) => /\.(mjs|d\.mts)$/.test(rel);

function walk(dir, base = dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full, base));
    else out.push(path.relative(base, full));
  }
  return out;
}

function upToDate(sources) {
  if (!existsSync(STAMP)) return false;
  const built = statSync(STAMP).mtimeMs;
  const inputs = [...sources.map((rel) => path.join(SRC, rel)), path.join(ROOT, 'tsconfig.json'), path.join(ROOT, 'tsconfig.build.json')];
  return inputs.every((file) => statSync(file).mtimeMs <= built) && sources.filter(isCopied).every((rel) => existsSync(path.join(DIST, rel))) && staleOutputs(sources).length === 0;
}

/** dist files whose source is gone (a deleted or moved module): they must not ship. */
function staleOutputs(sources) {
  if (!existsSync(DIST)) return [];
  const present = new Set(sources);
  return walk(DIST).filter((rel) => {
    const source = sourceOf(rel);
    return source !== undefined && !present.has(source);
  });
}

/** The source a dist file was made from, for pruning what a deleted source left behind. */
function sourceOf(rel) {
  if (isCopied(rel)) return rel;
  const stem = rel.replace(/(\.d\.ts\.map|\.d\.ts|\.js\.map|\.js)$/, '');
  return stem === rel ? undefined : `${stem}.ts`;
}

const sources = walk(SRC).filter((rel) => !isExcluded(rel));
if (!process.argv.includes('--force') && upToDate(sources)) {
  process.stdout.write('build: dist/ is up to date\n');
  process.exit(0);
}

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);

for (const rel of sources.filter(isCopied)) {
  mkdirSync(path.dirname(path.join(DIST, rel)), { recursive: true });
  copyFileSync(path.join(SRC, rel), path.join(DIST, rel));
}
for (const rel of staleOutputs(sources)) rmSync(path.join(DIST, rel));
// tsc leaves its build info untouched when no output changed (a source only touched): stamp it so the next run is a no-op.
const now = new Date();
utimesSync(STAMP, now, now);
process.stdout.write(`build: dist/ built from ${sources.length} files\n`);
