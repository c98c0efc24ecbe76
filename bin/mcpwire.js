#!/usr/bin/env node
// Starts the CLI from the compiled build, the same code in a clone as in the
// published package: never TypeScript sources through tsx, a devDependency a
// consumer does not have. --version is answered here, from package.json,
// before anything else loads: it is the command scripts run most often.
import { existsSync, readFileSync } from 'node:fs';

if (process.argv[2] === '--version' || process.argv[2] === '-V') {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  const built = new URL('../dist/cli.js', import.meta.url);
  if (!existsSync(built)) {
    // Only a clone can get here (the package ships dist/): `npm ci` builds through `prepare`.
    process.stderr.write('mcpwire: dist/ is not built; run `npm run build` in the repository\n');
    process.exit(1);
  }
  await import(built.href);
}
