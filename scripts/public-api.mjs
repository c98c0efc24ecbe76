#!/usr/bin/env node
// The public API as a text snapshot: the sorted runtime export names of
// dist/index.js and the emitted dist/index.d.ts. spec-tests/public-api.test.ts
// compares it with the checked-in spec-tests/public-api.snapshot.txt, so an
// export removed or renamed by accident fails a test; a deliberate change runs
// `npm run api:update` (this script with --update) and commits the new file.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = new URL('..', import.meta.url);
export const SNAPSHOT = fileURLToPath(new URL('spec-tests/public-api.snapshot.txt', ROOT));

/** The snapshot text for the current dist/ (build it first). */
export async function render() {
  const index = new URL('dist/index.js', ROOT);
  const names = Object.keys(await import(pathToFileURL(fileURLToPath(index)).href)).sort();
  const dts = readFileSync(new URL('dist/index.d.ts', ROOT), 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('//# sourceMappingURL='))
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
  return `# runtime exports of mcpwire (dist/index.js)\n${names.join('\n')}\n\n# dist/index.d.ts\n${dts}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = await render();
  if (process.argv.includes('--update')) {
    writeFileSync(SNAPSHOT, text);
    process.stdout.write(`public-api: wrote ${SNAPSHOT}\n`);
  } else {
    process.stdout.write(text);
  }
}
