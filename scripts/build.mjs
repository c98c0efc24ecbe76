#!/usr/bin/env node
// Builds dist/ from src/ in two steps:
//
// - tsc with tsconfig.build.json, declarations only (.d.ts and their maps):
//   the public API's types, exactly as before.
// - esbuild for the JavaScript: the package entry (dist/index.js) and the
//   CLI (dist/cli.js) as ES module bundles with code splitting. Node's ES
//   module loader costs ~0.3-0.5 ms per module file here (read, resolve with
//   realpath and a package scope lookup, compile), and `import 'mcpwire'`
//   used to load ~70 of them; as a bundle it loads three (see coreModule
//   below for how). Splitting keeps
//   what the two entries share in shared chunks (one identity for an error
//   class, whichever entry it came through) and keeps every dynamic import()
//   of src/ lazy: what it loads is a chunk of its own, loaded on use.
//   Dependencies (zod, yaml, smol-toml, cross-spawn) stay external, loaded
//   from node_modules as before; source maps are kept.
//
// Three files still ship as files of their own: the CLI's session
// client (dist/cli/session-client.cjs, CommonJS: bin/mcpwire.js requires it
// before any ES module loads, and it finds dist/cli.js from its __dirname),
// built by esbuild alone and imported by the bundles as an external file; and
// the plain-JS conformance relay child with its protocol (a process of its
// own), copied as they are.
//
// Every output sits directly in dist/ (chunks too), and each module's
// `import.meta.url` is rewritten to the URL its module had in the former
// one-file-per-module build (src/a/b.ts -> dist/a/b.js), so every relative
// path src/ builds from it (../package.json, the relay child, the package
// root) names the same file as before.
//
// `npm test` runs this first, so it returns at once when dist/ is newer than
// every input; --force builds anyway.
//
//   node scripts/build.mjs [--force]

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.tsbuildinfo');
/** The bundles' entry points, as output name → source. */
const ENTRIES = { index: 'index.ts', cli: 'cli.ts' };
/** The CommonJS session client: a file of its own (see above). */
const SESSION_CLIENT = 'cli/session-client.cts';
/** Source files that are not part of the build (tsconfig.build.json excludes them too). */
const isExcluded = (rel) => /\.test\.ts$/.test(rel) || rel.split(path.sep)[0] === 'testing';
/** Plain JavaScript modules (and their hand-written types) that ship as they are. */
const isCopied = (rel) => /\.(mjs|d\.mts)$/.test(rel);
/** JavaScript that esbuild makes (bundles, chunks, the session client) and their maps: what a build did not write is stale. */
const isBuiltJs = (rel) => /\.(js|cjs)(\.map)?$/.test(rel);

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
  const inputs = [...sources.map((rel) => path.join(SRC, rel)), path.join(ROOT, 'tsconfig.json'), path.join(ROOT, 'tsconfig.build.json'), fileURLToPath(import.meta.url)];
  const outputs = [...Object.keys(ENTRIES).map((name) => `${name}.js`), SESSION_CLIENT.replace(/\.cts$/, '.cjs'), ...sources.filter(isCopied)];
  // A bundle edited by hand since (an experiment left in dist/) is not what the sources build: the bench would measure it.
  const untouched = () => walk(DIST).filter(isBuiltJs).every((rel) => statSync(path.join(DIST, rel)).mtimeMs <= built);
  return inputs.every((file) => statSync(file).mtimeMs <= built) && outputs.every((rel) => existsSync(path.join(DIST, rel))) && staleOutputs(sources).length === 0 && untouched();
}

/** Declaration files whose source is gone (a deleted or moved module): they must not ship. */
function staleOutputs(sources) {
  if (!existsSync(DIST)) return [];
  const present = new Set(sources);
  return walk(DIST).filter((rel) => {
    const source = sourceOf(rel);
    return source !== undefined && !present.has(source);
  });
}

/** The source a declaration or copied file was made from, for pruning what a deleted source left behind. */
function sourceOf(rel) {
  if (isCopied(rel)) return rel;
  const stem = rel.replace(/(\.d\.ts\.map|\.d\.ts)$/, '');
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

const esbuild = await import('esbuild');
const common = { write: false, platform: 'node', target: 'es2022', sourcemap: true, sourcesContent: false, tsconfig: path.join(ROOT, 'tsconfig.build.json'), logLevel: 'warning' };

/** import.meta.url as the module's own file had it in dist/ (src/a/b.ts → dist/a/b.js): every output sits in dist/ itself. */
const moduleUrls = {
  name: 'module-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const own = `./${path.relative(SRC, args.path).split(path.sep).join('/').replace(/\.ts$/, '.js')}`;
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

/** The session client stays the CommonJS file bin/mcpwire.js requires: the bundles import that file, not a copy of it. */
const sessionClientFile = {
  name: 'session-client-file',
  setup(build) {
    build.onResolve({ filter: /\/session-client\.cjs$/ }, () => ({ path: `./${SESSION_CLIENT.replace(/\.cts$/, '.cjs')}`, external: true }));
  },
};

const bundling = { ...common, absWorkingDir: ROOT, outdir: DIST, bundle: true, splitting: true, format: 'esm', packages: 'external', chunkNames: 'chunk-[hash]' };

// What `import 'mcpwire'` loads, and what the CLI loads before it knows its command: the modules each entry reaches
// by static imports (a first pass, written nowhere).
const first = await esbuild.build({ ...bundling, entryPoints: Object.values(ENTRIES).map((rel) => path.join(SRC, rel)), plugins: [sessionClientFile], write: false, metafile: true, logLevel: 'error' });
function staticallyReached(input, reached = new Set()) {
  if (reached.has(input)) return reached;
  reached.add(input);
  for (const edge of first.metafile.inputs[input].imports) if (edge.kind === 'import-statement' && !edge.external && edge.path.startsWith('src/')) staticallyReached(edge.path, reached);
  return reached;
}
const ENTRY_INPUT = `src/${ENTRIES.index}`;
const core = staticallyReached(ENTRY_INPUT);
const cliStart = staticallyReached(`src/${ENTRIES.cli}`);

/**
 * One chunk for all of that. esbuild puts a module in the chunk of the set of entry points (the two entries and every
 * dynamic import()'s target) that reach it, so the lazy parts and the CLI, each reaching a different few of the
 * entry's modules, cut them into ~18 chunks, each a file to read, resolve and compile at import. So every import from
 * outside those modules (and every import() of one of them) goes through one module that re-exports them all: each of
 * them is then reached by the same set, and the entry loads itself and one chunk. Names are unambiguous across them
 * (esbuild warns of an ambiguous one, and a warning fails the build). Only the CLI's own start imports them directly:
 * the few it needs before it knows its command (the error classes) make a second chunk, and `mcpwire help` does not
 * load the client.
 */
const CORE = 'mcpwire:core';
const coreModule = {
  name: 'core-module',
  setup(build) {
    build.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData?.resolving || args.namespace === CORE) return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { resolving: true } });
      if (resolved.errors.length > 0 || resolved.external) return undefined;
      const target = path.relative(ROOT, resolved.path).split(path.sep).join('/');
      const from = path.relative(ROOT, args.importer).split(path.sep).join('/');
      if (!core.has(target) || target === ENTRY_INPUT) return { path: resolved.path };
      if ((core.has(from) || cliStart.has(from)) && args.kind === 'import-statement') return { path: resolved.path };
      return { path: CORE, namespace: CORE };
    });
    build.onLoad({ filter: /.*/, namespace: CORE }, () => ({
      contents: [...core].filter((input) => input !== ENTRY_INPUT).sort().map((input) => `export * from ${JSON.stringify(path.join(ROOT, input))};`).join('\n'),
      resolveDir: ROOT,
      loader: 'js',
    }));
  },
};

const bundled = await esbuild.build({
  ...bundling,
  entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, rel]) => [name, path.join(SRC, rel)])),
  plugins: [sessionClientFile, coreModule, moduleUrls],
});
if (bundled.warnings.length > 0) {
  process.stderr.write('build: esbuild warned (see above); a warning here can be a wrong bundle\n');
  process.exit(1);
}
const sessionClient = await esbuild.build({
  ...common,
  entryPoints: [path.join(SRC, SESSION_CLIENT)],
  outfile: path.join(DIST, SESSION_CLIENT.replace(/\.cts$/, '.cjs')),
  format: 'cjs',
});
// Written here rather than by esbuild, then what the last build wrote and this one did not (chunk names change with
// their content; a one-file-per-module build's files) is removed: a process that loads dist/ meanwhile finds every
// file it names.
const written = new Set();
for (const file of [...bundled.outputFiles, ...sessionClient.outputFiles]) {
  mkdirSync(path.dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.contents);
  written.add(path.relative(DIST, file.path));
}
for (const rel of walk(DIST).filter((rel) => isBuiltJs(rel) && !written.has(rel))) rmSync(path.join(DIST, rel));

for (const rel of sources.filter(isCopied)) {
  mkdirSync(path.dirname(path.join(DIST, rel)), { recursive: true });
  copyFileSync(path.join(SRC, rel), path.join(DIST, rel));
}
for (const rel of staleOutputs(sources)) rmSync(path.join(DIST, rel));
// tsc leaves its build info untouched when no output changed (a source only touched): stamp it so the next run is a no-op.
const now = new Date();
utimesSync(STAMP, now, now);
process.stdout.write(`build: dist/ built from ${sources.length} files\n`);
