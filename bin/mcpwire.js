#!/usr/bin/env node
// Starts the CLI: the compiled build when one exists, else the TypeScript
// sources through tsx (a devDependency), so `npx mcpwire` works straight
// after `npm ci` on a fresh clone with no build step.
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli.ts', import.meta.url).href);
}
