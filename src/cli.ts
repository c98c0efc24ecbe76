// The `mcpwire` command (U1): picks the command and loads only its module
// (a command's imports are the price of every start), then maps whatever
// ended it to one exit status from one table. No protocol logic lives here,
// and nothing of the library is imported before a command needs it.

import { readFileSync } from 'node:fs';
import { reportFailure } from './cli/failure.js';
import { closeOnSignals, guardPipes } from './cli/process.js';
import { commandHelp, isCommand, USAGE, UsageError } from './cli/usage.js';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  guardPipes();
  closeOnSignals();
  // One switch, one line per command: each loads its module on demand.
  switch (command) {
    case 'servers':
      return (await import('./cli/commands/servers.js')).servers(rest);
    case 'tools':
      return (await import('./cli/commands/tools.js')).tools(rest);
    case 'call':
      return (await import('./cli/commands/call.js')).call(rest);
    case 'resources':
      return (await import('./cli/commands/resources.js')).resources(rest);
    case 'templates':
      return (await import('./cli/commands/resources.js')).templates(rest);
    case 'read':
      return (await import('./cli/commands/resources.js')).read(rest);
    case 'prompts':
      return (await import('./cli/commands/prompts.js')).prompts(rest);
    case 'prompt':
      return (await import('./cli/commands/prompts.js')).prompt(rest);
    case 'ping':
      return (await import('./cli/commands/ping.js')).ping(rest);
    case 'doctor':
      return (await import('./cli/commands/doctor.js')).doctor(rest);
    case 'pin':
      return (await import('./cli/commands/pin.js')).pin(rest);
    case 'trust':
      return (await import('./cli/commands/pin.js')).trust(rest);
    case 'config':
      return (await import('./cli/commands/config.js')).configCommand(rest);
    case 'add':
      return (await import('./cli/commands/saved.js')).add(rest);
    case 'remove':
      return (await import('./cli/commands/saved.js')).remove(rest);
    case 'list':
      return (await import('./cli/commands/saved.js')).list(rest);
    case 'import':
      return (await import('./cli/commands/saved.js')).importServers(rest);
    case 'demo':
      return (await import('./cli/commands/demo.js')).demo(rest);
    case 'conformance':
      return (await import('./conformance/command.js')).runConformanceCommand(rest);
    case 'record':
      return (await import('./cli/commands/record.js')).record(rest);
    case 'login':
      return (await import('./cli/commands/auth.js')).login(rest);
    case 'logout':
      return (await import('./cli/commands/auth.js')).logout(rest);
    case 'auth':
      if (rest[0] !== 'status') throw new UsageError('auth takes one subcommand: mcpwire auth status [--json]');
      return (await import('./cli/commands/auth.js')).authStatus(rest.slice(1));
    case 'conformance-client':
      return (await import('./conformance/official-client.js')).runOfficialClient(rest);
    case 'serve':
      return (await import('./cli/commands/serve.js')).serve(rest);
    case 'session':
      return (await import('./cli/commands/session.js')).sessionCommand(rest);
    case 'completion':
      return (await import('./cli/commands/completion.js')).completion(rest);
    case 'bench':
      return (await import('./cli/commands/bench.js')).bench(rest);
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(rest[0] !== undefined && isCommand(rest[0]) ? commandHelp(rest[0]) : USAGE);
      return 0;
    case '--version':
    case '-V':
      process.stdout.write(`${(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version}\n`);
      return 0;
    case undefined:
      // Bare `mcpwire` did nothing the person asked for: the usage goes where errors go.
      process.stderr.write(USAGE);
      return 2;
    default:
      throw new UsageError(`unknown command "${command}"; run "mcpwire help" for the list`);
  }
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    const status = reportFailure(error, process.argv.slice(2));
    if (status !== undefined) process.exitCode = status;
  },
);
