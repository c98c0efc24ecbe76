#!/usr/bin/env node
// Keeps `prepare` out of the published package.json. prepare builds dist/
// for a clone (npm ci) and for an install from git, but in a tarball, which
// already holds dist/, it is only an install script that npm 11 asks every
// consumer to approve. `prepack` strips it, `postpack` puts the file back
// (the same move as pinst makes for postinstall).
//
//   node scripts/pack-manifest.mjs strip|restore

import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MANIFEST = fileURLToPath(new URL('../package.json', import.meta.url));
const SAVED = fileURLToPath(new URL('../.package.json.prepack', import.meta.url));

const action = process.argv[2];
if (action === 'strip') {
  // A copy left by a pack that died before postpack is the true original: keep it.
  if (!existsSync(SAVED)) writeFileSync(SAVED, readFileSync(MANIFEST));
  const manifest = JSON.parse(readFileSync(SAVED, 'utf8'));
  delete manifest.scripts.prepare;
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
} else if (action === 'restore') {
  if (existsSync(SAVED)) renameSync(SAVED, MANIFEST);
} else {
  process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
  process.exit(2);
}
