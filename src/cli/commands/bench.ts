// `mcpwire bench`: the benchmarks of bench/, which are TypeScript outside
// the library and not in the published package: only a clone can run them.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../usage.js';

const PACKAGE_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export async function bench(args: string[]): Promise<number> {
  if (!existsSync(path.join(PACKAGE_ROOT, 'bench', 'run.ts'))) {
    throw new UsageError('bench runs from a clone of the mcpwire repository (the benchmarks and their devDependencies do not ship in the package): there, run npm ci, then npm run bench');
  }
  // A child Node through tsx, from the package root, on this same Node.
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(PACKAGE_ROOT, 'bench', 'run.ts'), ...args], { cwd: PACKAGE_ROOT, stdio: 'inherit' });
  return new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}
