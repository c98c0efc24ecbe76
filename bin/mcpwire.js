#!/usr/bin/env node
// Starts the CLI from the compiled build, the same code in a clone as in the
// published package: never TypeScript sources through tsx, a devDependency a
// consumer does not have. --version is answered here, from package.json,
// before anything else loads: it is the command scripts run most often. A
// server command first tries a running `mcpwire session` for its config
// (#18 item 13): its client loads nothing of the CLI, so a command the
// session runs costs about a process start.
import { existsSync, readFileSync } from 'node:fs';

/** The commands a session runs (session-daemon.ts has the same table). */
const SESSION_COMMANDS = new Set(['servers', 'tools', 'call', 'resources', 'templates', 'read', 'prompts', 'prompt', 'ping']);

if (process.argv[2] === '--version' || process.argv[2] === '-V') {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  const built = new URL('../dist/cli.js', import.meta.url);
  if (!existsSync(built)) {
    // Only a clone can get here (the package ships dist/): `npm ci` builds through `prepare`.
    process.stderr.write('mcpwire: dist/ is not built; run `npm run build` in the repository\n');
    process.exit(1);
  }
  // A server given after -- is never a session's: such a command loads nothing more than before.
  const status = SESSION_COMMANDS.has(process.argv[2]) && !process.argv.includes('--')
    ? await (await import(new URL('../dist/cli/session-client.js', import.meta.url).href)).runInSession(process.argv[2], process.argv.slice(3))
    : undefined;
  if (status === undefined) await import(built.href);
  else process.exitCode = status;
}
