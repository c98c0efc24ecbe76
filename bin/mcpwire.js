#!/usr/bin/env node
// Starts the CLI from the compiled build, the same code in a clone as in the
// published package: never TypeScript sources through tsx, a devDependency a
// consumer does not have. CommonJS (bin/package.json says so) because it is
// the start of every command: Node's CommonJS loader is ready at once, its ES
// module loader costs a few milliseconds to start, and a command run in a
// `mcpwire session` (#18 item 13) should cost about `node -e 0`. So
// --version is answered here, from package.json, and a server command first
// tries the running session for its config (dist/cli/session-client.cjs,
// CommonJS too) before the ES modules of the CLI load at all.
'use strict';

const command = process.argv[2];
if (command === '--version' || command === '-V') {
  const { readFileSync } = require('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(`${__dirname}/../package.json`, 'utf8')).version}\n`);
} else {
  const { existsSync } = require('node:fs');
  const built = `${__dirname}/../dist/cli.js`;
  if (!existsSync(built)) {
    // Only a clone can get here (the package ships dist/): `npm ci` builds through `prepare`.
    process.stderr.write('mcpwire: dist/ is not built; run `npm run build` in the repository\n');
    process.exit(1);
  }
  const full = () => import(require('node:url').pathToFileURL(built).href);
  // The commands a session runs (session-daemon.ts has the same table). A server given after -- is never a
  // session's: such a command loads nothing more than before.
  const SESSION_COMMANDS = ['servers', 'tools', 'call', 'resources', 'templates', 'read', 'prompts', 'prompt', 'ping'];
  if (SESSION_COMMANDS.includes(command) && !process.argv.includes('--')) {
    require('../dist/cli/session-client.cjs')
      .runInSession(command, process.argv.slice(3))
      .then((status) => (status === undefined ? full() : (process.exitCode = status)));
  } else {
    full();
  }
}
