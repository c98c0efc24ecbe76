// dist/ is an esbuild bundle with code splitting (scripts/build.mjs): the
// files a process loads are the two entries and chunks, each chunk holding
// the code of several of src/'s modules. A test that asks which of mcpwire's
// modules a process loaded reads that from the loaded files' source maps:
// expandBundles() turns each loaded dist/ file into the modules it holds, as
// URLs of the files those modules had in the former one-file-per-module
// build (src/a/b.ts → dist/a/b.js), so a pattern over module paths reads the
// same for dist/ as for src/ run through tsx.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = path.join(ROOT, 'src');
const DIST = pathToFileURL(path.join(ROOT, 'dist')).href + '/';

/** A dist/ file made of other modules' code only: a chunk's own name says nothing, its modules do. */
const isChunk = (rel: string): boolean => /^chunk-[A-Z0-9]+\.js$/.test(rel);

/**
 * The module URLs behind the given loaded URLs: a dist/ file with a source map is replaced by the modules its map
 * names (an entry, dist/index.js or dist/cli.js, stays too, whether or not code of its own is left in it); every other
 * URL is kept. Duplicates dropped, order kept.
 */
export function expandBundles(urls: readonly string[]): string[] {
  const out = new Set<string>();
  for (const url of urls) {
    const rel = url.startsWith(DIST) ? url.slice(DIST.length) : undefined;
    const map = rel === undefined ? undefined : path.join(ROOT, 'dist', `${rel}.map`);
    if (rel === undefined || map === undefined || !rel.endsWith('.js') || !existsSync(map)) {
      out.add(url);
      continue;
    }
    if (!isChunk(rel)) out.add(url);
    for (const source of (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources) {
      const module = path.relative(SRC, path.resolve(path.dirname(map), source)).split(path.sep).join('/');
      if (module.startsWith('..')) throw new Error(`${rel} holds ${source}, outside src/`);
      out.add(`${DIST}${module.replace(/\.ts$/, '.js')}`);
    }
  }
  return [...out];
}

/** Loaded dist/ files, as paths under dist/ (the entries and chunks themselves, not what they hold). */
export function distFiles(urls: readonly string[]): string[] {
  return [...new Set(urls.filter((url) => url.startsWith(DIST)).map((url) => url.slice(DIST.length)))];
}
