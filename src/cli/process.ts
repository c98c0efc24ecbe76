// What the command owns as a process: its output streams (a reader that
// goes away, as `| head -1` does, ends output quietly instead of crashing
// with EPIPE), what is open (closed before any exit), and SIGINT/SIGTERM.
// Imports nothing from the library, so `--help` and usage errors stay fast.

let stdoutClosed = false;

/**
 * A closed stdout (the reader exited: `| head -1`, `| grep -q`) is not a
 * failure of the command: what is left to print is dropped and the command
 * ends with the status it would have had. Without a listener Node throws the
 * EPIPE as an uncaught exception with a stack. stderr is treated alike.
 */
export function guardPipes(): void {
  process.stdout.on('error', () => {
    stdoutClosed = true;
  });
  process.stderr.on('error', () => {});
}

/** Where out() and err() write instead of this process's streams: a session daemon's current client (#18 item 13). */
let sink: { out(text: string): void; err(text: string): void } | undefined;

/** Sends out() and err() to `to` from now on (undefined: back to stdout and stderr). */
export function redirectOutput(to: typeof sink): void {
  sink = to;
}

/** Writes to stdout unless the reader went away. */
export function out(text: string): void {
  if (sink) sink.out(text);
  else if (!stdoutClosed) process.stdout.write(text);
}

export function err(text: string): void {
  if (sink) sink.err(text);
  else if (!process.stderr.destroyed) process.stderr.write(text);
}

/** What is open right now (tool sources, clients): what a signal must close before the CLI exits. */
export const openServers = new Set<{ close(options?: { hurry?: boolean }): Promise<unknown> }>();

/** What the command is doing now, for the one line a signal prints ("calling echo", "starting fs"). */
let activity: string | undefined;

/** Says what the command is doing from now on (undefined: nothing worth naming); the status line sets it too. */
export function doing(what: string | undefined): void {
  activity = what;
}

/**
 * The library leaves SIGINT and SIGTERM to its host, and this command is a
 * host: on either it prints one line saying what was interrupted, stops
 * everything open at once (#18 item 5: SIGTERM to each server's process
 * group, SIGKILL 200 ms later; not the graceful end-of-input ladder a host
 * gets by default) and exits with 128 + the signal's number, as a shell
 * reports a process a signal stopped (130, 143). A second signal exits at
 * once; servers left then are SIGKILLed by the library's exit hook.
 */
let stopping = false;

/** A signal is stopping the command: what fails from now on (the closed connections) is its doing, not news. */
export function interrupted(): boolean {
  return stopping;
}

export function closeOnSignals(): void {
  const onSignal = (signal: NodeJS.Signals) => {
    const status = signal === 'SIGINT' ? 130 : 143;
    if (stopping) process.exit(status);
    stopping = true;
    // A status line being drawn is erased first, so the line stands alone.
    err(`${process.stderr.isTTY ? '\r\x1b[2K' : ''}mcpwire: interrupted by ${signal}${activity ? ` while ${activity}` : ''}; servers stopped\n`);
    void Promise.allSettled([...openServers].map((open) => open.close({ hurry: true }))).then(() => process.exit(status));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
