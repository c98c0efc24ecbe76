// `mcpwire session start|stop|status` (#18 item 13): a background process
// that keeps one config's servers running, so that `tools`, `call`, `ping`
// and the other server commands run in it at the cost of a process start.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { describeArgError } from '../arg-errors.js';
import { EXIT } from '../exit-codes.js';
import { err, out } from '../process.js';
import sessionClient from '../session-client.cjs';
import { commandHelp, HelpShown, UsageError } from '../usage.js';

const { ANSWER_WAIT_MS, ask, configArgs, entryOfThisBuild, identityOf, listSessions, metaPath, readMeta, removeSession, runtimeDir, socketPath } = sessionClient;
type Reply = Parameters<typeof ask>[1];

const OPTIONS = {
  config: { type: 'string' },
  'project-local': { type: 'string' },
  local: { type: 'string' },
  'daemon-config': { type: 'string' },
  idle: { type: 'string' },
  all: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  verbose: { type: 'boolean', short: 'v', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Idle time before a session stops itself, unless --idle says otherwise. */
export const DEFAULT_IDLE_MS = 15 * 60_000;

/** How long `session start` waits for the servers to start (each has its own, shorter, start timeout). */
const START_WAIT_MS = 180_000;

interface Status {
  pid: number;
  config: string;
  startedAt: number;
  lastUsedAt: number;
  idleMs: number;
  runs: number;
  servers: { key: string; state: string; transport: string; tools: number; pid: number | null; failure: string | null }[];
}

export async function sessionCommand(args: string[]): Promise<number> {
  if (args[0] === '__daemon') return (await import('../session-daemon.js')).runDaemon(args.slice(1));
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(describeArgError(error, OPTIONS, 'session') ?? `${(error as Error).message}; see mcpwire session --help`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(commandHelp('session'));
    throw new HelpShown();
  }
  const [action, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`mcpwire session ${action} takes no words after it, got "${extra[0]}"`);
  switch (action) {
    case 'start':
      return start(args, values.idle, values.json);
    case 'stop':
      return stop(args, values.all, values.json);
    case 'status':
      return status(args, values.all, values.json);
    case undefined:
      throw new UsageError('mcpwire session start|stop|status: say which; see mcpwire session --help');
    default:
      throw new UsageError(`unknown session action "${action}": start, stop or status`);
  }
}

function sessionDir(create: boolean): string {
  const dir = runtimeDir(create);
  if (dir === undefined) throw new UsageError('the folder for sessions ($XDG_RUNTIME_DIR/mcpwire, or mcpwire-UID in the temp folder) is not a folder of yours that only you can enter; fix or remove it');
  return dir;
}

/** The identity of the session the command line names, or a usage error saying how to name a config. */
function identityFor(args: string[]): string {
  const identity = identityOf(configArgs(args), process.cwd());
  if (identity === undefined) throw new UsageError(`no config to keep running: no --config, no $MCPWIRE_CONFIG, no mcpwire.json in ${process.cwd()} and no saved servers of yours (a server given by -- or --url is not kept in a session)`);
  return identity;
}

/** A session whose daemon accepts connections but does not answer (stopped by SIGSTOP, or stuck): its pid, from its meta file. */
interface Unanswering {
  unanswering: true;
  pid: number | null;
  config: string | null;
}

/**
 * The status of the session at `socket`; undefined when nothing answers
 * there (its files are then removed); `unanswering` when a daemon holds the
 * socket but says nothing within the client's wait: its files stay, it is
 * not dead.
 */
async function statusAt(dir: string, identity: string): Promise<Status | Unanswering | undefined> {
  const socket = socketPath(dir, identity);
  if (!existsSync(socket)) return undefined;
  try {
    return (await ask(socket, { op: 'status' }))?.status as Status | undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ETIMEDOUT') {
      const meta = readMeta(metaPath(dir, identity));
      return { unanswering: true, pid: meta?.pid ?? null, config: meta?.config ?? null };
    }
    removeSession(dir, identity);
    return undefined;
  }
}

const isUnanswering = (s: Status | Unanswering | undefined): s is Unanswering => s !== undefined && 'unanswering' in s;

/** The one line that says a session does not answer, and what ends it. */
function unansweringLine(s: Unanswering): string {
  return `the session for ${s.config ?? 'this config'}${s.pid === null ? '' : ` (pid ${s.pid})`} does not answer within ${ANSWER_WAIT_MS / 1000} s: it is stopped or stuck; mcpwire session stop ends it`;
}

async function start(args: string[], idleText: string | undefined, json: boolean): Promise<number> {
  const idleMs = idleText === undefined ? DEFAULT_IDLE_MS : Number(idleText);
  if (!Number.isInteger(idleMs) || idleMs <= 0) throw new UsageError(`--idle takes a whole number of milliseconds, got "${idleText}"`);
  const identity = identityFor(args);
  const dir = sessionDir(true);
  const running = await statusAt(dir, identity);
  if (isUnanswering(running)) {
    err(`mcpwire: ${unansweringLine(running)}, then start it again\n`);
    return EXIT.failed;
  }
  if (running !== undefined) {
    if (json) out(`${JSON.stringify({ started: false, ...running })}\n`);
    else out(`a session for ${running.config} already runs (pid ${running.pid}); mcpwire session stop ends it\n`);
    return EXIT.ok;
  }
  // Detached, in its own process group, stdio to /dev/null: the session outlives this command and its terminal.
  const child = spawn(process.execPath, [entryOfThisBuild(), 'session', '__daemon', ...configArgs(args), '--idle', String(idleMs)], {
    detached: true,
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  const first = await new Promise<Reply>((resolve) => {
    const timer = setTimeout(() => resolve({ error: `the session did not start within ${START_WAIT_MS / 1000} s`, exit: EXIT.timeout }), START_WAIT_MS);
    child.once('message', (message: Reply) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ error: `the session's process exited (status ${code}) before it was ready`, exit: EXIT.failed });
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ error: `the session's process did not start: ${error.message}`, exit: EXIT.failed });
    });
  });
  child.removeAllListeners();
  if (child.connected) child.disconnect();
  child.unref();
  if (first.already !== undefined) {
    // Another start won the race: its session is the one.
    if (json) out(`${JSON.stringify({ started: false, pid: first.already, config: first.config })}\n`);
    else out(`a session for ${String(first.config)} already runs${first.already === null ? '' : ` (pid ${String(first.already)})`}; mcpwire session stop ends it\n`);
    return EXIT.ok;
  }
  if (first.ready !== true) {
    if (child.exitCode === null) child.kill('SIGTERM');
    err(typeof first.error === 'string' ? (first.error.endsWith('\n') ? first.error : `mcpwire: ${first.error}\n`) : 'mcpwire: the session did not start\n');
    return typeof first.exit === 'number' ? first.exit : EXIT.failed;
  }
  const servers = first.servers as { key: string; state: string; failure: string | null }[];
  if (json) {
    out(`${JSON.stringify({ started: true, pid: first.pid, config: first.config, idleMs, servers })}\n`);
  } else {
    out(`session started for ${String(first.config)}: pid ${String(first.pid)}, ${servers.length} server${servers.length === 1 ? '' : 's'}; stops after ${Math.round(idleMs / 1000)} s idle (mcpwire session stop ends it)\n`);
    for (const s of servers) if (s.failure !== null) err(`${s.key}: ${s.failure}\n`);
  }
  return EXIT.ok;
}

/** Waits until `pid` is gone (true) or `ms` passed (false). */
async function gone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

async function stop(args: string[], all: boolean, json: boolean): Promise<number> {
  const dir = sessionDir(false);
  const identities = all ? listSessions(dir).map((m) => m.identity) : [identityFor(args)];
  const stopped: { config: string; pid: number }[] = [];
  for (const identity of identities) {
    const meta = readMeta(metaPath(dir, identity));
    const running = await statusAt(dir, identity);
    if (running === undefined) continue;
    if (isUnanswering(running)) {
      // A stopped process acts on no signal but SIGKILL; a stuck one would not answer `stop` either.
      if (running.pid !== null) {
        try {
          process.kill(running.pid, 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
        await gone(running.pid, 10_000);
      }
      removeSession(dir, identity);
      stopped.push({ config: running.config ?? '', pid: running.pid ?? 0 });
      continue;
    }
    await ask(socketPath(dir, identity), { op: 'stop' }).catch(() => undefined);
    // Its servers close before it exits; a daemon that does not go in 10 s is ended.
    if (!(await gone(running.pid, 10_000))) process.kill(running.pid, 'SIGKILL');
    removeSession(dir, identity);
    stopped.push({ config: running.config ?? meta?.config ?? '', pid: running.pid });
  }
  if (json) out(`${JSON.stringify({ stopped })}\n`);
  else if (stopped.length === 0) out(all ? 'no session runs\n' : 'no session runs for this config\n');
  else for (const s of stopped) out(`session for ${s.config} stopped (pid ${s.pid})\n`);
  return EXIT.ok;
}

async function status(args: string[], all: boolean, json: boolean): Promise<number> {
  const dir = runtimeDir(false);
  const identity = all ? undefined : identityOf(configArgs(args), process.cwd());
  // No config named and none here: every session of this user.
  const identities = dir === undefined ? [] : identity === undefined ? listSessions(dir).map((m) => m.identity) : [identity];
  const found: Status[] = [];
  const unanswering: Unanswering[] = [];
  for (const id of identities) {
    const running = await statusAt(dir!, id);
    if (isUnanswering(running)) unanswering.push(running);
    else if (running !== undefined) found.push(running);
  }
  for (const s of unanswering) err(`mcpwire: ${unansweringLine(s)}\n`);
  const listed: (Status | Unanswering)[] = [...found, ...unanswering];
  if (json) out(`${JSON.stringify(identity === undefined ? listed : (listed[0] ?? null), null, 2)}\n`);
  else if (listed.length === 0) out(identity === undefined ? 'no session runs\n' : 'no session runs for this config (mcpwire session start starts one)\n');
  else {
    for (const s of found) {
      const idleLeft = Math.max(0, s.idleMs - (Date.now() - s.lastUsedAt));
      out(`session for ${s.config}: pid ${s.pid}, up ${Math.round((Date.now() - s.startedAt) / 1000)} s, ${s.runs} command${s.runs === 1 ? '' : 's'} run, stops in ${Math.round(idleLeft / 1000)} s if idle\n`);
      for (const server of s.servers) out(`  ${server.key.padEnd(16)} ${server.state.padEnd(10)} ${server.failure ?? `${server.tools} tools${server.pid !== null ? `, pid ${server.pid}` : ''}`}\n`);
    }
  }
  // Like a check: 0 when a session runs, 1 when none does; a session that is there but does not answer is neither (5).
  if (unanswering.length > 0) return EXIT.timeout;
  return found.length > 0 ? EXIT.ok : EXIT.failed;
}
