// The keep-alive session's background process (#18 item 13): it opens the
// config's servers once and runs commands for clients on a Unix socket
// (mode 0600, in the user's 0700 runtime folder; protocol in
// session-client.cts). A command runs here as it would in its own process,
// with withSession handed these servers instead of starting its own, and
// what it prints goes back to the client line by line; a client that goes
// away first cancels it (cancelOn). Commands run one at a time (they share
// the process's working folder and output). The daemon
// exits after --idle ms without a request, on `session stop`, and on
// SIGTERM/SIGINT/SIGHUP, closing its servers first. It has no log: its
// stdio is /dev/null, so nothing it meets, secrets included, is written
// anywhere but to the client that asked.

import { chmodSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { ToolSourceConfig } from '../toolsource/config/types.js';
import { openToolSource, type ToolSource } from '../toolsource/tool-source.js';
import { redact } from '../transport/redact.js';
import { describeDiagnostic } from '../util/text.js';
import { reportFailure } from './failure.js';
import { parseCommandLine, type CommandLine } from './options.js';
import { err, redirectOutput } from './process.js';
import { cancelOn, configuredValues, failureOf, shareSource } from './session.js';
import sessionClient from './session-client.cjs';
import { withCliOAuth } from './oauth-defaults.js';
import { resolveConfig } from './target.js';

const { ask, configArgs, entryOfThisBuild, identityOf, userFile, metaPath, removeSession, runtimeDir, socketPath } = sessionClient;
type Reply = Parameters<typeof ask>[1];
type SessionMeta = NonNullable<ReturnType<typeof sessionClient.readMeta>>;

type Command = (args: string[]) => Promise<number>;

/** The commands a session runs (bin/mcpwire.js's SESSION_COMMANDS), each loaded when first asked for. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  servers: async () => (await import('./commands/servers.js')).servers,
  tools: async () => (await import('./commands/tools.js')).tools,
  call: async () => (await import('./commands/call.js')).call,
  resources: async () => (await import('./commands/resources.js')).resources,
  templates: async () => (await import('./commands/resources.js')).templates,
  read: async () => (await import('./commands/resources.js')).read,
  prompts: async () => (await import('./commands/prompts.js')).prompts,
  prompt: async () => (await import('./commands/prompts.js')).prompt,
  ping: async () => (await import('./commands/ping.js')).ping,
};

interface Loaded {
  config: ToolSourceConfig;
  source: ToolSource;
  /** The config files' sizes and times when loaded: a change makes the next request reload. */
  stamp: string;
}

/** What tells a changed config file: size, modification time and inode of each (missing: '-'). */
function stampOf(files: readonly string[]): string {
  return files
    .map((file) => {
      try {
        const info = statSync(file);
        return `${file}:${info.size}:${info.mtimeMs}:${info.ino}`;
      } catch {
        return `${file}:-`;
      }
    })
    .join('\n');
}

/** The files a config was read from: its own, the layered ones the flags name, and the user's saved servers when the folder's file was found by default (they join it). */
function filesOf(config: ToolSourceConfig, line: CommandLine, cwd: string): string[] {
  const named = [line.values['project-local'], line.values.local, line.values['daemon-config']].filter((v): v is string => v !== undefined);
  const byDefault = line.values.config === undefined && !process.env.MCPWIRE_CONFIG;
  return [path.resolve(cwd, config.file), ...named.map((v) => path.resolve(cwd, v)), ...(byDefault ? [userFile()] : [])];
}

/**
 * The daemon: `mcpwire session __daemon [CONFIG FLAGS] --idle MS`, started by
 * `session start` with an IPC channel on which it says {ready} (with the
 * servers that failed) or {error, exit} once, then lets go of it.
 */
export async function runDaemon(args: string[]): Promise<number> {
  const idleIndex = args.indexOf('--idle');
  const idleMs = idleIndex === -1 ? 15 * 60_000 : Number(args[idleIndex + 1]);
  const flags = configArgs(args);
  const cwd = process.cwd();
  const tell = (message: Reply) => {
    if (process.send !== undefined && process.connected) process.send(message);
  };
  const identity = identityOf(flags, cwd);
  const dir = runtimeDir(true);
  if (identity === undefined || dir === undefined) {
    tell({ error: dir === undefined ? 'the runtime folder for sessions is missing, not ours, or open to others' : 'no config to keep running', exit: 3 });
    return 3;
  }
  const line = parseCommandLine('session', flags);
  let verbose = false;
  let masked: string[] = [];
  const load = async (): Promise<Loaded> => {
    const config = withCliOAuth(await resolveConfig('session', line));
    masked = [...config.secrets, ...config.servers.flatMap((s) => configuredValues(s.params))];
    const source = await openToolSource({
      config,
      client: {
        // The client of the request running now sees these as its own command would, with -v.
        onDiagnostic: (d) => {
          if (d.kind === 'transport-fallback') err(`note: ${d.server} refused Streamable HTTP (HTTP ${d.status}); trying the legacy HTTP+SSE transport at the same URL\n`);
          else if (verbose) err(`${d.server}: ${redact(describeDiagnostic(d), masked)}\n`);
        },
        onWire: ({ server, direction, message }) => {
          if (!verbose) return;
          const text = redact(JSON.stringify(message) ?? String(message), masked);
          err(`${server} ${direction === 'send' ? '→' : '←'} ${text.length > 2_000 ? `${text.slice(0, 2_000)}… (${text.length} chars)` : text}\n`);
        },
      },
    });
    // Every server starts now: the first command through the session should not pay for it.
    await Promise.all(source.status().filter((s) => s.state !== 'disabled').map((s) => source.withServer(s.key, () => Promise.resolve()).catch(() => undefined)));
    return { config, source, stamp: stampOf(filesOf(config, line, cwd)) };
  };

  let loaded: Loaded;
  try {
    loaded = await load();
  } catch (error) {
    const lines: string[] = [];
    redirectOutput({ out: (t) => lines.push(t), err: (t) => lines.push(t) });
    const status = reportFailure(error, ['session', 'start', ...flags]) ?? 1;
    redirectOutput(undefined);
    tell({ error: lines.join(''), exit: status });
    return status;
  }
  shareSource(loaded);

  const socket = socketPath(dir, identity);
  const meta = metaPath(dir, identity);
  const startedAt = Date.now();
  let lastUsedAt = startedAt;
  let runs = 0;
  let queue: Promise<unknown> = Promise.resolve();
  let idleTimer: NodeJS.Timeout | undefined;
  let stopping: Promise<void> | undefined;

  const server = net.createServer((connection) => handle(connection));
  /** Stops the session; `finish`: the command running now finishes first (`session stop`), not so on a signal. */
  const stop = (finish = true): Promise<void> => {
    stopping ??= (async () => {
      clearTimeout(idleTimer);
      server.close();
      removeSession(dir, identity);
      if (finish) await queue.catch(() => undefined);
      await loaded.source.close().catch(() => undefined);
      process.exit(0);
    })();
    return stopping;
  };
  const armIdle = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void stop(), idleMs);
  };
  // The daemon is its own host: the command's signal handling (print a line, exit at once) is not its way.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void stop(false));
  }
  // A bug of ours must not leave servers running with nobody to ask for them.
  process.on('uncaughtException', () => void stop(false));
  process.on('unhandledRejection', () => void stop(false));

  /** Reloads the config when its files changed since it was loaded; false (and the session stops) when it no longer loads. */
  const fresh = async (): Promise<boolean> => {
    if (stampOf(filesOf(loaded.config, line, cwd)) === loaded.stamp) return true;
    const old = loaded;
    try {
      loaded = await load();
    } catch {
      void stop();
      return false;
    }
    shareSource(loaded);
    await old.source.close().catch(() => undefined);
    return true;
  };

  const run = async (argv: string[], requestCwd: string, send: (reply: Reply) => void, signal: AbortSignal) => {
    const [command, ...rest] = argv as [string, ...string[]];
    const open = COMMANDS[command];
    if (open === undefined) return send({ error: `a session does not run "${command}"` });
    if (!(await fresh())) return send({ fallback: 'the config changed and no longer loads; the session stopped' });
    runs++;
    send({ note: `using the session of ${loaded.config.file} (pid ${process.pid}, up ${Math.round((Date.now() - startedAt) / 1000)} s)` });
    verbose = rest.includes('-v') || rest.includes('--verbose');
    try {
      process.chdir(requestCwd);
    } catch {
      // A folder that went away: the config's paths were resolved at load.
    }
    redirectOutput({ out: (text) => send({ out: text }), err: (text) => send({ err: text }) });
    cancelOn(signal);
    let status: number;
    try {
      status = await (await open())(rest);
    } catch (error) {
      status = reportFailure(error, argv) ?? 1;
    } finally {
      cancelOn(undefined);
      redirectOutput(undefined);
      verbose = false;
      process.chdir(cwd);
    }
    send({ exit: status });
  };

  const handle = (connection: net.Socket) => {
    let buffered = '';
    connection.setEncoding('utf8');
    connection.on('error', () => undefined);
    connection.on('data', (chunk: string) => {
      buffered += chunk;
      const end = buffered.indexOf('\n');
      if (end === -1) return;
      connection.removeAllListeners('data');
      let message: Reply;
      try {
        message = JSON.parse(buffered.slice(0, end)) as Reply;
      } catch {
        connection.end(`${JSON.stringify({ error: 'not a JSON line' })}\n`);
        return;
      }
      // A client gone before its answer (Ctrl-C) cancels its command: the command's requests are aborted (the
      // servers are told), or, still queued, it never runs. Closing the connection ourselves, at the end, is not that.
      const gone = new AbortController();
      let answered = false;
      connection.on('close', () => {
        if (!answered) gone.abort(new DOMException('the command\'s client closed its connection (Ctrl-C)', 'AbortError'));
      });
      // Lines written in one turn of the event loop go in one write.
      let pending = '';
      const flush = () => {
        if (pending !== '' && !connection.destroyed && connection.writable) connection.write(pending);
        pending = '';
      };
      const send = (reply: Reply) => {
        if (pending === '') setImmediate(flush);
        pending += `${JSON.stringify(reply)}\n`;
      };
      // Questions about the session are answered at once, not behind a running command: a client waits only
      // ANSWER_WAIT_MS for a first line (session-client.cts), and a busy daemon is not a stuck one.
      if (message.op === 'status' || message.op === 'tools') {
        answered = true;
        void answer(message, send, gone.signal).finally(() => {
          flush();
          connection.end();
        });
        return;
      }
      // A run is acknowledged as it is read, for the same reason: it may wait in the queue for minutes.
      if (message.op === 'run') send({ accepted: true });
      clearTimeout(idleTimer);
      const job = async () => {
        try {
          if (!gone.signal.aborted) await answer(message, send, gone.signal);
        } finally {
          answered = true;
          lastUsedAt = Date.now();
          flush();
          connection.end();
          if (stopping === undefined) armIdle();
        }
      };
      queue = queue.then(job, job);
    });
  };

  const answer = async (message: Reply, send: (reply: Reply) => void, signal: AbortSignal) => {
    switch (message.op) {
      case 'run':
        return run(Array.isArray(message.argv) ? message.argv.map(String) : [], typeof message.cwd === 'string' ? message.cwd : cwd, send, signal);
      case 'status':
        return send({
          status: {
            pid: process.pid,
            config: loaded.config.file,
            startedAt,
            lastUsedAt,
            idleMs,
            runs,
            servers: loaded.source.status().map((s) => ({ key: s.key, state: s.state, transport: s.transport, tools: s.tools, pid: s.pid ?? null, failure: failureOf(s) ?? null })),
          },
        });
      case 'tools': {
        const defs = loaded.source.registered();
        // Canonical names, and each own name that only one server has: what `call` takes.
        const own = new Map<string, number>();
        for (const d of defs) own.set(d.mcp_tool_name, (own.get(d.mcp_tool_name) ?? 0) + 1);
        return send({ tools: [...new Set([...[...own].filter(([, n]) => n === 1).map(([name]) => name), ...defs.map((d) => d.name)])], servers: loaded.source.status().map((s) => s.key) });
      }
      case 'stop':
        send({ stopped: true });
        void stop();
        return;
      default:
        return send({ error: `unknown op ${JSON.stringify(message.op)}` });
    }
  };

  // Two starts at once: the second finds the first listening and leaves. A socket nobody answers on is a dead daemon's.
  let probe: unknown;
  const other = await ask(socket, { op: 'status' }).catch((error: unknown) => {
    probe = error;
    return undefined;
  });
  if (other !== undefined) {
    await loaded.source.close().catch(() => undefined);
    tell({ already: (other.status as { pid?: number } | undefined)?.pid ?? null, config: loaded.config.file });
    return 0;
  }
  // Only a socket nobody listens on is removed: a start that lost the race then fails to listen, below.
  if ((probe as NodeJS.ErrnoException | undefined)?.code === 'ECONNREFUSED') removeSession(dir, identity);
  const previous = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socket, () => resolve());
    });
  } catch (error) {
    await loaded.source.close().catch(() => undefined);
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      tell({ already: null, config: loaded.config.file });
      return 0;
    }
    tell({ error: `cannot listen on ${socket}: ${(error as Error).message}`, exit: 1 });
    return 1;
  } finally {
    process.umask(previous);
  }
  chmodSync(socket, 0o600);
  const record: SessionMeta = { pid: process.pid, identity, config: loaded.config.file, entry: entryOfThisBuild(), startedAt, idleMs };
  writeFileSync(meta, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  armIdle();
  tell({ ready: true, pid: process.pid, config: loaded.config.file, socket, servers: loaded.source.status().map((s) => ({ key: s.key, state: s.state, failure: failureOf(s) ?? null })) });
  process.disconnect?.();
  // Runs until stop() exits the process.
  await new Promise<never>(() => undefined);
  return 0;
}
