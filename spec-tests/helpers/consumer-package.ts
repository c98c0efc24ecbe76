// The package as a consumer gets it: `npm pack` of this repository, then
// `npm install` of the tarball into an empty project, offline from the npm
// cache (npm ci filled it). Shared by package.consumer.test.ts and the host
// authors' test, which both install what would be published.

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { nodeBinary } from '../../tools/node-versions/index.mjs';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const RUNNING_MAJOR = Number(process.versions.node.split('.')[0]);
/** package.json engines (>=22.12): npm on an older Node warns, rightly, so installs run on a supported one. */
export const installNode: string | undefined = RUNNING_MAJOR >= 22 ? process.execPath : nodeBinary(22);
/** npm's own entry scripts, run on the Node chosen for each step. */
const NPM_BIN = process.env.npm_execpath && /npm-cli\.js$/.test(process.env.npm_execpath) ? path.dirname(process.env.npm_execpath) : path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin');
export const NPM_CLI = path.join(NPM_BIN, 'npm-cli.js');
export const NPX_CLI = path.join(NPM_BIN, 'npx-cli.js');
/** The repo's TypeScript compiler and @types, standing in for a consumer's own. */
export const TSC = require.resolve('typescript/bin/tsc');
export const TYPES_ROOT = path.join(ROOT, 'node_modules', '@types');

/**
 * A lock for the consumer project, so that an offline install finds every
 * package in the npm cache: npm ci caches the tarballs of the repo's lock by
 * integrity, but not the registry's package documents an unlocked install
 * would ask for. Its runtime entries are the repo lock's non-dev ones: the
 * versions the tests ran against.
 */
export function consumerLock(tgz: string): unknown {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, Record<string, unknown>> };
  const { name, version, dependencies, engines, bin, license } = lock.packages['']!;
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', version: '1.0.0', dependencies: { [name as string]: `file:${tgz}` } },
    'node_modules/mcpwire': { version, resolved: `file:${tgz}`, license, dependencies, engines, bin },
  };
  for (const [where, entry] of Object.entries(lock.packages)) if (where !== '' && !entry.dev && !entry.devOptional) packages[where] = entry;
  return { name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}

export function run(bin: string, args: string[], cwd: string, timeout = 120_000): SpawnSyncReturns<string> {
  // PATH starts with the chosen Node's folder, so a `node` the package spawns (the demo's server) is that Node too.
  const env = { ...process.env, PATH: `${path.dirname(bin)}${path.delimiter}${process.env.PATH ?? ''}`, npm_config_update_notifier: 'false' };
  return spawnSync(bin, args, { cwd, encoding: 'utf8', timeout, env });
}

export function show(r: SpawnSyncReturns<string>): string {
  return `exit ${r.status}${r.error ? ` (${r.error.message})` : ''}\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`;
}

export interface PackInfo {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string }[];
}

/**
 * `npm pack` into `destination`. Packing rewrites the repo's package.json for
 * a moment (prepack strips `prepare`, postpack puts it back), so two test
 * files packing at once could each ship the other's half-restored manifest:
 * packs take turns through a lock folder (mkdir is atomic), one per checkout.
 */
export function pack(destination: string): { result: SpawnSyncReturns<string>; info: PackInfo | undefined; tarball: string | undefined } {
  const result = withPackLock(() => run(installNode!, [NPM_CLI, 'pack', '--json', '--pack-destination', destination], ROOT));
  if (result.status !== 0) return { result, info: undefined, tarball: undefined };
  const [info] = JSON.parse(result.stdout.slice(result.stdout.indexOf('['))) as PackInfo[];
  return { result, info, tarball: info && path.join(destination, info.filename) };
}

/** Creates `project` (an empty package with the consumer lock) and installs `tarball` into it, offline. */
export function install(project: string, tarball: string): SpawnSyncReturns<string> {
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  writeFileSync(path.join(project, 'package-lock.json'), JSON.stringify(consumerLock(tarball)));
  return run(installNode!, [NPM_CLI, 'install', '--offline', '--no-audit', '--no-fund', tarball], project);
}

const LOCK = path.join(os.tmpdir(), `mcpwire-pack-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}.lock`);
/** A pack takes seconds; a lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 120_000;

function withPackLock<T>(job: () => T): T {
  const deadline = Date.now() + 2 * STALE_LOCK_MS;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() - lockMadeAt() > STALE_LOCK_MS || Date.now() > deadline) rmSync(LOCK, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    return job();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** When the lock folder was made (ms since the epoch); now if it just went away. */
function lockMadeAt(): number {
  try {
    return statSync(LOCK).mtimeMs;
  } catch {
    return Date.now();
  }
}
