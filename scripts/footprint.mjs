#!/usr/bin/env node
// What installing each client costs a consumer: packages and bytes under
// node_modules after `npm install` into an empty temp project, offline from
// the npm cache (run npm ci first; a package the cache lacks fails the
// install rather than reaching the network). mcpwire is packed from this
// checkout; the SDK is the version in this repo's lock. Prints a table.
//
//   node scripts/footprint.mjs

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const npmCli = process.env.npm_execpath && /npm-cli\.js$/.test(process.env.npm_execpath) ? process.env.npm_execpath : path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));

function npm(args, cwd) {
  const run = spawnSync(process.execPath, [npmCli, ...args], { cwd, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } });
  if (process.env.FOOTPRINT_DEBUG) process.stderr.write(`${cwd}: ${run.status} ${run.error ?? ""} ${run.stderr}\n`);
  if (run.status !== 0) throw new Error(`npm ${args.join(" ")} failed (exit ${run.status}):\n${run.stderr}${run.stdout}`);
  return run.stdout;
}

/** Bytes of every file under dir (apparent sizes, as a download or a bundle sees them). */
function bytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += bytes(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

/** Packages installed: every node_modules/<name> and node_modules/@scope/<name>, nested ones included. */
function countPackages(dir) {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === '.bin' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    const names = entry.name.startsWith('@') ? readdirSync(full).map((n) => path.join(full, n)) : [full];
    for (const pkg of names) {
      count++;
      const nested = path.join(pkg, 'node_modules');
      try {
        count += countPackages(nested);
      } catch {
        // no nested node_modules
      }
    }
  }
  return count;
}

/**
 * Installs one spec into a fresh project. An offline install needs the
 * registry's package documents, which npm ci does not cache, so the project
 * gets a lock made from this repo's lock: the subtree the spec pulls in.
 */
function measure(label, name, spec, lockPackages) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-footprint-'));
  try {
    const root = { name: 'footprint', version: '1.0.0', private: true, dependencies: { [name]: spec } };
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify(root));
    writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify({ name: 'footprint', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': root, ...lockPackages } }));
    npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], dir);
    const modules = path.join(dir, 'node_modules');
    return { label, packages: countPackages(modules), bytes: bytes(modules) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The lock entries reachable from `name` in this repo's lock (hoisted layout: node_modules/<dep>, or nested under its parent). */
function closure(name) {
  const out = {};
  const visit = (where) => {
    if (out[where]) return;
    const entry = lock.packages[where];
    if (!entry) throw new Error(`${where} is not in package-lock.json`);
    out[where] = { ...entry, dev: undefined, devOptional: undefined, peer: undefined };
    for (const dep of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies })) {
      // Node's resolution: the nearest node_modules up from the dependent.
      let base = where;
      for (;;) {
        const candidate = `${base}/node_modules/${dep}`;
        if (lock.packages[candidate]) {
          visit(candidate);
          break;
        }
        const up = base.lastIndexOf('/node_modules/');
        if (up < 0) {
          if (lock.packages[`node_modules/${dep}`]) visit(`node_modules/${dep}`);
          break;
        }
        base = base.slice(0, up);
      }
    }
  };
  visit(`node_modules/${name}`);
  return out;
}

const pack = JSON.parse(npm(['pack', '--json', '--pack-destination', os.tmpdir()], ROOT).replace(/^[^[]*/s, ''))[0];
const tarball = path.join(os.tmpdir(), pack.filename);
const own = lock.packages[''];
const mcpwireLock = { 'node_modules/mcpwire': { version: own.version, resolved: `file:${tarball}`, dependencies: own.dependencies } };
for (const dep of Object.keys(own.dependencies)) Object.assign(mcpwireLock, closure(dep));
const sdkVersion = lock.packages['node_modules/@modelcontextprotocol/sdk'].version;
const v2Version = lock.packages['node_modules/@modelcontextprotocol/client']?.version;

const rows = [];
try {
  rows.push(measure(`mcpwire ${own.version} (this checkout)`, 'mcpwire', `file:${tarball}`, mcpwireLock));
} finally {
  rmSync(tarball, { force: true });
}
rows.push(measure(`@modelcontextprotocol/sdk ${sdkVersion}`, '@modelcontextprotocol/sdk', sdkVersion, closure('@modelcontextprotocol/sdk')));
if (v2Version) {
  try {
    rows.push(measure(`@modelcontextprotocol/client ${v2Version}`, '@modelcontextprotocol/client', v2Version, closure('@modelcontextprotocol/client')));
  } catch (error) {
    // Its lock subtree can name a package npm ci did not fetch (an optional peer): said, not fatal.
    process.stderr.write(`footprint: @modelcontextprotocol/client ${v2Version} not measured: ${error.message.split('\n')[0]}\n`);
  }
}

const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
process.stdout.write(`| install | packages | node_modules |\n| --- | ---: | ---: |\n`);
for (const row of rows) process.stdout.write(`| ${row.label} | ${row.packages} | ${mb(row.bytes)} |\n`);
process.stdout.write(`(tarball ${pack.filename}: ${pack.entryCount} files, ${(pack.size / 1024).toFixed(1)} kB)\n`);
