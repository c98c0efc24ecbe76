// The e2e peers and e2e-cold load mcpwire from dist/, the compiled package a
// host embeds. Measuring a stale dist/ would credit (or blame) src/ for code
// it no longer has, so the first workload that needs it runs the build,
// which returns at once when dist/ is newer than every source file.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let built = false;

export function ensureBuilt(): void {
  if (built) return;
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`the e2e workloads measure dist/: scripts/build.mjs failed (${result.status ?? result.signal}); run npm run build and fix what it reports`);
  built = true;
}

/** The built package's entry (dist/index.js), built first if stale: what a host that embeds mcpwire runs. */
export async function importBuilt(): Promise<typeof import('../../src/index.js')> {
  ensureBuilt();
  return (await import(pathToFileURL(path.join(ROOT, 'dist', 'index.js')).href)) as typeof import('../../src/index.js');
}
