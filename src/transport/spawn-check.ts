// What can go wrong when a stdio server is spawned, said in terms of what to
// fix. Node reports these as errno codes whose words mislead (a missing
// interpreter or working directory is "ENOENT", like a missing program) or
// as a TypeError about its own argument names: this module checks what can
// be checked before spawning and rewrites the rest. No I/O but stat/read of
// the program and the cwd, and only after a failure.

import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { ConfigError } from '../errors.js';

export interface SpawnParams {
  /** How the argv was configured: `command` alone (an array) or `command` + `args`. */
  command: string | readonly string[];
  args?: readonly string[];
  cwd?: string;
  env?: Readonly<Record<string, string>>;
}

/**
 * A ConfigError for a configuration no spawn can accept, before trying: an
 * empty command, or a NUL byte in the argv or the environment (a C string
 * ends at NUL, so the OS cannot pass one; Node throws a TypeError).
 */
export function checkSpawnParams(params: SpawnParams, argv: readonly string[], server: string): ConfigError | undefined {
  const fail = (path: (string | number)[], detail: string) => new ConfigError(undefined, path, detail, { server });
  if (argv.length === 0 || !argv[0]) return fail(['command'], 'the command is empty; give the program to run');
  const commandCount = typeof params.command === 'string' ? 1 : params.command.length;
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i]!.includes('\0')) continue;
    const path = typeof params.command === 'string' && i === 0 ? ['command'] : i < commandCount ? ['command', i] : ['args', i - commandCount];
    return fail(path, 'contains a NUL byte (\\0), which no program can receive in its arguments; remove it');
  }
  for (const [name, value] of Object.entries(params.env ?? {})) {
    if (name.includes('\0') || name.includes('=') || name === '') {
      return fail(['env', name], 'is not a usable environment variable name (empty, or holds "=" or a NUL byte)');
    }
    if (value.includes('\0')) return fail(['env', name], 'contains a NUL byte (\\0), which an environment variable cannot hold; remove it');
  }
  return undefined;
}

/**
 * The error to report for a failed spawn: the errno error with a message
 * that says what to check, and the errno `code` kept where callers look for
 * it. `error` is what spawn threw or emitted.
 */
export function explainSpawnError(error: Error, argv: readonly string[], params: SpawnParams): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const text = describe(code, error, argv, params);
  return text === undefined ? error : Object.assign(new Error(text, { cause: error }), { code });
}

function describe(code: string | undefined, error: Error, argv: readonly string[], params: SpawnParams): string | undefined {
  const program = argv[0]!;
  switch (code) {
    case 'E2BIG': {
      const argBytes = argv.reduce((sum, arg) => sum + Buffer.byteLength(arg) + 1, 0);
      return (
        `the argument list (${argBytes} bytes) and environment are too long for the operating system (E2BIG); ` +
        'pass large data in a file or over the server\'s stdin instead of on its command line'
      );
    }
    case 'ENOENT':
    case 'ENOTDIR': {
      const cwd = params.cwd;
      if (cwd !== undefined && !isDirectory(cwd)) return `the working directory ${cwd} does not exist or is not a directory (${error.message})`;
      const file = locate(program, params);
      if (file === undefined) return `${program} was not found (${error.message}); check the command and its PATH`;
      // The file is there, yet execve said ENOENT: what it names cannot be found, i.e. the interpreter of a script.
      const interpreter = shebang(file);
      return interpreter
        ? `${file} exists, but its interpreter ${interpreter} (from its #! line) could not be run; install it or correct the #! line`
        : `${file} exists, but could not be run (${error.message}): its interpreter or dynamic loader is missing`;
    }
    case 'EACCES':
      return `${program} could not be run: permission denied (${error.message}); check that it is executable`;
    default:
      return undefined;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The file `program` names: a path (relative to the server's cwd) or a name looked up in its PATH. */
function locate(program: string, params: SpawnParams): string | undefined {
  const base = params.cwd ?? process.cwd();
  if (program.includes('/') || program.includes('\\')) {
    const file = isAbsolute(program) ? program : resolve(base, program);
    return isFile(file) ? file : undefined;
  }
  const path = params.env?.PATH ?? process.env.PATH ?? '';
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const file = join(isAbsolute(dir) ? dir : resolve(base, dir), program);
    if (isFile(file)) return file;
  }
  return undefined;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The interpreter a script's `#!` line names, or undefined when it has none. */
function shebang(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(256);
    const read = readSync(fd, head, 0, head.length, 0);
    const text = head.toString('latin1', 0, read);
    if (!text.startsWith('#!')) return undefined;
    return text.slice(2).split('\n')[0]!.trim().split(/\s+/)[0] || undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
