// The client side of a keep-alive session (#18 item 13): where a session's
// socket lives, which session a command line would use, and running a
// command through it. bin/mcpwire.js requires it before anything of the CLI
// loads, so it is CommonJS (no ES module loader to start: a few milliseconds
// of a start that should cost about `node -e 0`), imports nothing of the
// library, and opens node:net only when a session's socket is there: with
// no session the price is one stat. The ES modules of the CLI import it too
// (session-daemon.ts, commands/session.ts): one home for where a session is.
//
// Protocol (one request per connection, one JSON object per line):
//   → {"op":"run","argv":[...],"cwd":"..."}   ← {"out":"…"} / {"err":"…"} … then {"exit":N}
//   → {"op":"status"}                          ← {"status":{pid, config, startedAt, lastUsedAt, idleMs, servers:[…]}}
//   → {"op":"tools"}                           ← {"tools":["name", …]}   (for shell completion)
//   → {"op":"stop"}                            ← {"stopped":true}, then the daemon closes its servers and exits
// A request the daemon cannot serve is answered {"error":"…"}. A client
// that closes its connection before {"exit"} (Ctrl-C) cancels its command:
// the daemon aborts the command's requests, which tells the servers
// (notifications/cancelled), or drops the command if it had not started.

import fs = require('node:fs');
import os = require('node:os');
import path = require('node:path');

const { existsSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync } = fs;

/** The options that say which config a command uses: a session serves one combination of them. */
const CONFIG_FLAGS = ['config', 'project-local', 'local', 'daemon-config'] as const;

/** What a session writes beside its socket: read by clients to decide whether to use it. */
interface SessionMeta {
  pid: number;
  /** The session's identity: the config flags it was started with, resolved (see identityOf). */
  identity: string;
  /** The config file the daemon loaded, for people. */
  config: string;
  /** The compiled CLI that runs the daemon: a client of another build (an upgrade) does not use it. */
  entry: string;
  startedAt: number;
  idleMs: number;
}

/**
 * The folder of this user's sessions: $MCPWIRE_RUNTIME_DIR (tests), else
 * $XDG_RUNTIME_DIR/mcpwire, else mcpwire-<uid> under the temp folder. Made
 * 0700; a folder someone else owns, or others can enter, is refused
 * (undefined): another user must not plant or read a socket there.
 */
function runtimeDir(create = false): string | undefined {
  const base = process.env.MCPWIRE_RUNTIME_DIR ?? (process.env.XDG_RUNTIME_DIR ? path.join(process.env.XDG_RUNTIME_DIR, 'mcpwire') : path.join(os.tmpdir(), `mcpwire-${process.getuid?.() ?? 'user'}`));
  try {
    if (create) mkdirSync(base, { recursive: true, mode: 0o700 });
    const info = statSync(base);
    if (!info.isDirectory()) return undefined;
    if (process.getuid !== undefined && (info.uid !== process.getuid() || (info.mode & 0o077) !== 0)) return undefined;
    return base;
  } catch {
    return undefined;
  }
}

/** The value of `--flag V` or `--flag=V` before `--`; the last one wins, as parseArgs has it. */
function flagValue(argv: readonly string[], flag: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    if (word === `--${flag}`) value = argv[++i];
    else if (word.startsWith(`--${flag}=`)) value = word.slice(flag.length + 3);
  }
  return value;
}

/**
 * The user's saved servers (#18 item 12): saved.ts's userConfigPath, written
 * again here because saved.ts loads the usage texts, which a command run in
 * a session never needs (spec-tests/U4 checks that the two agree).
 */
function userFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MCPWIRE_USER_CONFIG) return path.resolve(env.MCPWIRE_USER_CONFIG);
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  return path.join(base, 'mcpwire', 'mcpwire.json');
}

/**
 * Which session a command line belongs to: its config flags (files made
 * absolute against `cwd`; a client's name such as `claude` kept with the
 * folder it was named in), $MCPWIRE_CONFIG, or ./mcpwire.json with the
 * user's saved servers beside it, else the user's saved servers alone: the
 * config the command would read (target.ts's configPath). Undefined when it
 * names none.
 */
function identityOf(argv: readonly string[], cwd: string): string | undefined {
  const parts: string[] = [];
  const named = flagValue(argv, 'config') ?? (process.env.MCPWIRE_CONFIG || undefined);
  const user = userFile();
  const config = named ?? (existsSync(path.join(cwd, 'mcpwire.json')) ? 'mcpwire.json' : existsSync(user) ? user : undefined);
  if (config === undefined) return undefined;
  // The folder's file is read with the user's saved servers: which user file is part of what it serves.
  if (named === undefined) parts.push(`user=${user}`);
  for (const flag of CONFIG_FLAGS) {
    const value = flag === 'config' ? config : flagValue(argv, flag);
    if (value === undefined) continue;
    const file = path.resolve(cwd, value);
    parts.push(`${flag}=${existsSync(file) ? file : `${value}@${cwd}`}`);
  }
  return parts.join('\n');
}

/** The config flags of a command line (what `session start` passes on): the words that choose the config. */
function configArgs(args: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const flag = ['--config', '--project-local', '--local', '--daemon-config'].find((f) => word === f || word.startsWith(`${f}=`));
    if (flag === undefined) continue;
    if (word === flag) words.push(word, args[++i] ?? '');
    else words.push(word);
  }
  return words;
}

/** FNV-1a, 64 bits as hex: a short, stable file name for an identity (node:crypto is not worth loading for it). */
function nameOf(identity: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(identity)) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
  return `s-${hash.toString(16).padStart(16, '0')}`;
}

function socketPath(dir: string, identity: string): string {
  return path.join(dir, `${nameOf(identity)}.sock`);
}

function metaPath(dir: string, identity: string): string {
  return path.join(dir, `${nameOf(identity)}.json`);
}

/** This build's compiled CLI: what a daemon it starts runs, and what a session must run to be used. */
function entryOfThisBuild(): string {
  return path.join(__dirname, '..', 'cli.js');
}

function readMeta(file: string): SessionMeta | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SessionMeta;
  } catch {
    return undefined;
  }
}

/** Removes what a dead session left: its socket and its meta file. */
function removeSession(dir: string, identity: string): void {
  for (const file of [socketPath(dir, identity), metaPath(dir, identity)]) {
    try {
      unlinkSync(file);
    } catch {
      // Already gone.
    }
  }
}

/** Every session's meta in the folder (live or not: ask each). */
function listSessions(dir: string): SessionMeta[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith('.json')).flatMap((n) => readMeta(path.join(dir, n)) ?? []);
}

type Reply = Record<string, unknown>;

/**
 * How long a client waits for the daemon's first line. The daemon answers
 * `status` and `tools` at once and acknowledges a `run` as it reads it
 * ({"accepted":true}) even while another command runs, so silence means a
 * daemon that is stopped (SIGSTOP, a debugger) or stuck: the kernel still
 * accepts connections on its socket, and without a bound every client hung.
 */
const ANSWER_WAIT_MS = 5_000;

/** The error of a daemon that accepted the connection but said nothing within ANSWER_WAIT_MS. */
function notAnswering(waitMs: number): Error {
  return Object.assign(new Error(`the session did not answer within ${waitMs / 1000} s`), { code: 'ETIMEDOUT' });
}

/**
 * Sends one request and hands each reply line to `onLine` until the daemon
 * closes the connection, or `onLine` returns true (the answer is complete:
 * the connection is dropped without waiting for the daemon's end). Rejects with the socket's error (ENOENT,
 * ECONNREFUSED: no daemon behind the socket) before anything was answered.
 * `onOpen` is handed the connection, for a caller that may have to drop it.
 * Rejects with code ETIMEDOUT when nothing arrives within `answerWaitMs`.
 */
async function request(socket: string, message: Reply, onLine: (reply: Reply) => boolean | void, onOpen?: (connection: import('node:net').Socket) => void, answerWaitMs = ANSWER_WAIT_MS): Promise<void> {
  // Required here, not at the top: a command with no session never loads it.
  const net: typeof import('node:net') = require('node:net');
  await new Promise<void>((resolve, reject) => {
    const connection = net.createConnection(socket);
    onOpen?.(connection);
    let buffered = '';
    const silence = setTimeout(() => {
      connection.destroy();
      reject(notAnswering(answerWaitMs));
    }, answerWaitMs);
    connection.on('close', () => clearTimeout(silence));
    connection.setEncoding('utf8');
    connection.on('connect', () => connection.write(`${JSON.stringify(message)}\n`));
    connection.on('data', (chunk: string) => {
      clearTimeout(silence);
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf('\n')) !== -1) {
        const text = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (text === '') continue;
        let reply: Reply;
        try {
          reply = JSON.parse(text) as Reply;
        } catch {
          // Thrown here it would be uncaught (a listener's): the request fails, and the caller decides (runInSession falls back).
          connection.destroy();
          reject(Object.assign(new Error('the session answered a line that is not JSON'), { code: 'EPROTO' }));
          return;
        }
        if (onLine(reply) === true) {
          connection.destroy();
          resolve();
          return;
        }
      }
    });
    connection.on('error', reject);
    connection.on('close', () => resolve());
  });
}

/** One request whose answer is one line. */
async function ask(socket: string, message: Reply, answerWaitMs = ANSWER_WAIT_MS): Promise<Reply | undefined> {
  let answer: Reply | undefined;
  await request(socket, message, (reply) => {
    answer ??= reply;
  }, undefined, answerWaitMs);
  return answer;
}

/** Flags and words a session does not serve: an ad-hoc server, help, stdin arguments, another era. */
function servable(argv: readonly string[]): boolean {
  if (process.env.MCPWIRE_NO_SESSION) return false;
  return !argv.some((w) => w === '--' || w === '-' || w === '--help' || w === '-h' || w === '--url' || w.startsWith('--url=') || w === '--era' || w.startsWith('--era='));
}

/**
 * Runs `command` in the running session for its config, printing what it
 * prints; the exit status, or undefined when no session serves this
 * command line (none running, a stale socket, now removed, or another
 * build's): then the command runs as always.
 */
async function runInSession(command: string, args: string[]): Promise<number | undefined> {
  if (!servable(args)) return undefined;
  const cwd = process.cwd();
  const identity = identityOf(args, cwd);
  if (identity === undefined) return undefined;
  const dir = runtimeDir();
  if (dir === undefined) return undefined;
  const socket = socketPath(dir, identity);
  if (!existsSync(socket)) return undefined;
  const verbose = args.some((w) => w === '-v' || w === '--verbose');
  const meta = readMeta(metaPath(dir, identity));
  if (meta === undefined || meta.identity !== identity || meta.entry !== entryOfThisBuild()) {
    if (verbose) process.stderr.write(`mcpwire: a session for this config runs another build of mcpwire (${meta?.entry ?? 'unknown'}); not using it\n`);
    return undefined;
  }
  let status: number | undefined;
  let fallback: string | undefined;
  let printed = false;
  // A reader that goes away (| head -1) ends the output quietly, as process.ts has it for the command.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  // What arrives in one chunk is written at once: a listing is one write, not one a row.
  let stdout = '';
  let stderr = '';
  const flush = () => {
    if (stdout !== '' && !process.stdout.destroyed) process.stdout.write(stdout);
    if (stderr !== '' && !process.stderr.destroyed) process.stderr.write(stderr);
    stdout = stderr = '';
  };
  // Ctrl-C (or SIGTERM) while the daemon runs the command: dropping the connection is what tells the
  // daemon to cancel it (its requests are aborted, the servers told); the command's own servers keep running.
  let connection: import('node:net').Socket | undefined;
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted !== undefined) process.exit(signal === 'SIGINT' ? 130 : 143);
    interrupted = signal;
    connection?.destroy();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await request(socket, { op: 'run', argv: [command, ...args], cwd }, (reply) => {
      if (stdout === '' && stderr === '') setImmediate(flush);
      if (typeof reply.out === 'string') {
        printed = true;
        stdout += reply.out;
      } else if (typeof reply.err === 'string') {
        printed = true;
        stderr += reply.err;
      }
      else if (typeof reply.exit === 'number') {
        status = reply.exit;
        flush();
        return true;
      }
      else if (typeof reply.note === 'string' && verbose) process.stderr.write(`mcpwire: ${reply.note}\n`);
      else if (typeof reply.fallback === 'string' || typeof reply.error === 'string') fallback = String(reply.fallback ?? reply.error);
    }, (opened) => (connection = opened));
  } catch (error) {
    flush();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ETIMEDOUT') {
      // Nothing ran (a run is acknowledged as soon as the daemon reads it): the command runs without the session, and says why.
      process.stderr.write(`mcpwire: the session for this config (pid ${meta.pid}) did not answer within ${ANSWER_WAIT_MS / 1000} s (stopped or stuck; mcpwire session stop ends it); running the command without it\n`);
      return undefined;
    }
    if (code !== 'ECONNREFUSED' && code !== 'ENOENT') {
      // Anything else (a reset, a garbled line): before any output the command runs as without a session.
      if (printed) {
        process.stderr.write(`mcpwire: the session's connection failed during the command: ${(error as Error).message}\n`);
        return 4;
      }
      if (verbose) process.stderr.write(`mcpwire: the session did not answer (${(error as Error).message}); starting the servers for this command\n`);
      return undefined;
    }
    // The daemon died without cleaning up: its files go, and the command starts its servers itself.
    removeSession(dir, identity);
    if (verbose) process.stderr.write(`mcpwire: removed a stale session (pid ${meta.pid} is gone); starting the servers for this command\n`);
    return undefined;
  } finally {
    // The full CLI, if it runs now, handles signals its own way.
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  flush();
  if (interrupted !== undefined) {
    // 128 + the signal's number, as the CLI without a session exits (process.ts).
    process.stderr.write(`${process.stderr.isTTY ? '\r\x1b[2K' : ''}mcpwire: interrupted by ${interrupted}; the session cancelled the command (its servers keep running)\n`);
    return interrupted === 'SIGINT' ? 130 : 143;
  }
  if (fallback !== undefined) {
    // Nothing ran: the command runs as if there were no session, and says what is wrong itself.
    if (verbose) process.stderr.write(`mcpwire: ${fallback}; starting the servers for this command\n`);
    return undefined;
  }
  if (status === undefined) {
    process.stderr.write('mcpwire: the session ended before the command finished (mcpwire session status shows whether it runs)\n');
    return 4;
  }
  return status;
}

// CommonJS's one export, read by bin/mcpwire.js with require() and by the CLI's ES modules as a default import.
export = { ANSWER_WAIT_MS, runtimeDir, userFile, identityOf, configArgs, socketPath, metaPath, entryOfThisBuild, readMeta, removeSession, listSessions, request, ask, runInSession };
