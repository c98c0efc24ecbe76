// How a command that failed ends: one line for the error (and the server's
// stderr apart from it), the cause with -v, the flag that gives more time for
// a timeout, the JSON envelope with --json, and the exit status from the one
// table. Shared by the command itself and a session daemon running it for a
// client (#18 item 13), so the two cannot print a failure differently.

import { errorEnvelope, errorLines, exitCodeOf } from './exit-codes.js';
import { err, interrupted } from './process.js';
import { HelpShown } from './usage.js';

/** Reports `error` of the command run with `argv` (the words after `mcpwire`); the exit status, or undefined when a signal already said it all. */
export function reportFailure(error: unknown, argv: readonly string[]): number | undefined {
  if (error instanceof HelpShown) return 0;
  // The signal's one line has said it all: the requests its close ended are not a second failure.
  if (interrupted()) return undefined;
  const { line, detail } = errorLines(error);
  err(`mcpwire: ${line}\n`);
  for (const text of detail) err(`  ${text}\n`);
  // Flags after `--` are the server command's, not ours.
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const verbose = own.includes('--verbose') || own.includes('-v');
  if (verbose && error instanceof Error && error.cause instanceof Error) err(`  caused by: ${error.cause.name}: ${error.cause.message}\n`);
  // #18 item 1: a timeout says which flag gives more time (by name: cli.ts loads nothing of the library up front).
  if (error instanceof Error && error.name === 'TimeoutError' && !error.message.includes('--timeout')) {
    err(own.includes('--timeout') ? '  --timeout bounds the whole command and each request in it: give it more\n' : '  each request waits 30 s (or the config\'s timeout); --timeout MS sets the limit for the whole command and each request in it\n');
  }
  if (own.includes('--json')) err(`${errorEnvelope(error)}\n`);
  return exitCodeOf(error);
}
