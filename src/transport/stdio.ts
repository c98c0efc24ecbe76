// The stdio transport (T1, L2): spawns the server with cross-spawn, in a
// process group of its own (POSIX), frames its stdout as newline-delimited
// JSON, always drains stderr (keeping a tail for error messages), and shuts
// the group down in steps: end stdin, wait, SIGTERM, wait, SIGKILL. Does NOT
// restart the server (the supervisor's job) nor handle the host's signals
// (the host's: it calls close()).

import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { ClosedError, type ClosedDetail } from '../errors.js';
import { excerpt } from '../diagnostics.js';
import { createLineFramer, DEFAULT_MAX_MESSAGE_BYTES } from '../jsonrpc/line-framer.js';
import { encodeLine, type JsonRpcMessage } from '../jsonrpc/message.js';
import { ByteTail } from '../util/ring-text.js';
import { createLongLineGate, type LongLineGate } from './long-line-gate.js';
import { cutHead, cutTail, redact, redactUrlCredentials } from './redact.js';
import { OWN_PROCESS_GROUP, ProcessGroup } from './process-group.js';
import { checkSpawnParams, explainSpawnError } from './spawn-check.js';
import { TickWriter } from './tick-writer.js';
import { nodeChildProcess } from '../util/node-builtins.js';
import type { Transport, TransportEnd, TransportHandlers } from './transport.js';

/**
 * cross-spawn is loaded when the first server starts, not when mcpwire is
 * imported: it is most of the library's import time, and a host that only
 * talks HTTP never needs it.
 */
/**
 * cross-spawn's call, described with node:child_process's own types: the
 * package's declarations name this module, and a consumer without
 * @types/cross-spawn must still type-check against them.
 */
export type SpawnFunction = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

let spawnModule: Promise<SpawnFunction> | undefined;
export function loadSpawn(): Promise<SpawnFunction> {
  // Off Windows cross-spawn's spawn is node:child_process's (its parse and ENOENT hook return at once there) and
  // loading its CommonJS modules cost ~10 ms of CPU per process start (#20 item 2, X4: e2e-cold): Node's is used.
  if (process.platform !== 'win32') return (spawnModule ??= Promise.resolve(nodeChildProcess().spawn as SpawnFunction));
  return (spawnModule ??= import('cross-spawn').then((module) => module.default as unknown as SpawnFunction));
}

/** A stdio server's process as spawnServerProcess starts it: its group, when it got a pid. */
export interface SpawnedServer {
  child: ChildProcess;
  /** Undefined when the program could not be started (the child's 'error' says why: see spawnFailure). */
  group: ProcessGroup | undefined;
}

/**
 * The one way a stdio server is started (T1, L2; the transport and the
 * recorder's stdio proxy): the argv checked first, cross-spawn (Windows
 * `.cmd` shims resolve), pipes for all three streams, and a process group of
 * its own (POSIX) so that shutdown signals reach what a launcher started.
 * Returns the typed error instead when no spawn can be tried or spawn threw;
 * an 'error' the child emits before it has a pid goes through spawnFailure.
 */
export function spawnServerProcess(spawn: SpawnFunction, params: StdioServerParams, argv: readonly string[], server: string, scrub: (text: string) => string): SpawnedServer | Error {
  const invalid = checkSpawnParams(params, argv, server);
  if (invalid) return invalid;
  const [program, ...args] = argv as [string, ...string[]];
  let child: ChildProcess;
  try {
    child = spawn(program, args, {
      cwd: params.cwd,
      env: params.inheritEnv === false ? { ...params.env } : { ...process.env, ...params.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      // Its own process group, so shutdown signals reach what a launcher (npx, uvx, a script) started under it.
      detached: OWN_PROCESS_GROUP,
    });
  } catch (error) {
    // Some failures are thrown at once rather than emitted (ENOTDIR for a cwd that is a file, E2BIG).
    return spawnFailure(error as Error, params, argv, server, scrub);
  }
  // No pid: the program could not be started, and 'error' says why.
  return { child, group: child.pid !== undefined ? new ProcessGroup(child as ChildProcess & { pid: number }) : undefined };
}

/** The typed error for a server that could not be started (ClosedError, reason spawn-failed), its message saying what to fix, scrubbed. */
export function spawnFailure(error: Error, params: StdioServerParams, argv: readonly string[], server: string, scrub: (text: string) => string): ClosedError {
  const explained = explainSpawnError(error, argv, params);
  const clean = scrub(explained.message);
  return new ClosedError({ server }, { reason: 'spawn-failed', cause: clean === explained.message ? explained : new Error(clean) });
}

export const DEFAULT_STDERR_TAIL_BYTES = 8 * 1024;
/** Each shutdown step waits this long for the process to exit (the official SDK uses the same 2 s). */
export const DEFAULT_SHUTDOWN_STEP_MS = 2_000;
/** hurry(): how long a server has between SIGTERM and SIGKILL. Long enough to flush and exit; short enough for Ctrl-C to feel instant. */
export const HURRY_GRACE_MS = 200;
/**
 * After the process exits, how long to wait for its stdout/stderr pipes to
 * drain: the last answer or the last stderr line may still be in flight.
 * Short, because a grandchild holding the pipe open must not delay the
 * failure of pending requests (they reject within a second of the exit).
 */
const DRAIN_AFTER_EXIT_MS = 150;
/** While a shutdown step waits for what is left of the group after the direct child exited, how often it looks. */
const GROUP_POLL_MS = 25;
/**
 * After a write to the server's stdin fails (EPIPE: it closed its input, or
 * is exiting), how long to wait for the exit before reporting the write
 * error itself: the exit code and the stderr tail say why, "write EPIPE"
 * does not. The exit usually follows within milliseconds.
 */
const EXIT_AFTER_WRITE_ERROR_MS = 1_000;

export interface StdioServerParams {
  /** The server's argv (`["node", "server.js"]`), or the program alone with `args` beside it. */
  command: string | readonly string[];
  args?: readonly string[];
  /** Working directory of the server process. Resolved by the caller (the config layer checks it stays inside the project). */
  cwd?: string;
  /** Variables merged over the host's environment (T1). */
  env?: Readonly<Record<string, string>>;
  /** false: the server gets `env` alone, nothing of the host's environment. Default true. */
  inheritEnv?: boolean;
}

export interface StdioTransportOptions extends StdioServerParams {
  /** Label used in errors and diagnostics. Default: the program name. */
  server?: string;
  /** Maximum size of one message from the server. Default 32 MiB (W2). */
  maxMessageBytes?: number;
  /** How much of the server's stderr to keep for error messages. Default 8 KiB. */
  stderrTailBytes?: number;
  /** How long each shutdown step waits for the process to exit. Default 2000 ms. */
  shutdownStepMs?: number;
}

export class StdioTransport implements Transport {
  readonly server: string;
  readonly kind = 'stdio' as const;
  private readonly argv: readonly string[];
  private child: ChildProcess | undefined;
  private handlers: TransportHandlers | undefined;
  /** The framer behind the gate that keeps an overlong line as bytes (W2). */
  private framer: LongLineGate | undefined;
  private readonly stderrBytes: ByteTail;
  private ended = false; // onClose has been called
  private closingByUs = false;
  private exited = false;
  private exitWaiters: (() => void)[] = [];
  /** How the transport ended, once it has; and who waits for that. */
  private end: TransportEnd | undefined;
  private endWaiters: (() => void)[] = [];
  private closePromise: Promise<void> | undefined;
  private group: ProcessGroup | undefined;
  private stopping: Promise<void> | undefined;
  /** hurry() was called: SIGTERM went to the group, SIGKILL follows after HURRY_GRACE_MS. */
  private hurried = false;
  /** kill() was called: the shutdown steps start at SIGKILL. */
  private killNow = false;
  private readonly writer = new TickWriter(
    (text, done) => this.writeStdin(text, done),
    (error) => this.writeFailure(error),
  );
  /** Values never to report (McpClientOptions.secrets): scrubbed from the stderr tail, noise and errors. */
  private readonly secrets = new Set<string>();
  /** A stderr chunk's end that may be the start of a secret, held for the next chunk (or the end) before it is reported. */
  private stderrHeld = '';

  constructor(private readonly options: StdioTransportOptions) {
    this.argv = typeof options.command === 'string' ? [options.command, ...(options.args ?? [])] : [...options.command, ...(options.args ?? [])];
    // An unusable command is reported by start(), as a rejection the connection sees end like any other start failure.
    this.server = options.server ?? (this.argv[0] || '(empty command)');
    this.stderrBytes = new ByteTail(options.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES);
  }

  addSecrets(values: readonly string[]): void {
    for (const value of values) if (typeof value === 'string' && value !== '') this.secrets.add(value);
  }

  /** The owner's secrets and the credentials of any URL (an argument like `https://user:pass@…` echoed back), removed from `text`. */
  scrub(text: string): string {
    return redactUrlCredentials(this.secrets.size === 0 ? text : redact(text, this.secrets));
  }

  /** The stderr tail as text, scrubbed; a cut at its front that left the end of a secret drops that end too. */
  private tail(): string {
    const text = this.stderrBytes.text();
    return this.secrets.size === 0 ? this.scrub(text) : cutHead(this.scrub(text), this.secrets);
  }

  /** The process id, once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(handlers: TransportHandlers): Promise<void> {
    if (this.child || this.ended || this.handlers) return Promise.reject(new Error('StdioTransport: start() called twice'));
    this.handlers = handlers;
    return loadSpawn().then((spawn) => this.launch(spawn));
  }

  private launch(spawn: SpawnFunction): Promise<void> {
    // close() may have come while cross-spawn loaded: nothing is started then.
    if (this.ended || this.closingByUs) return Promise.reject(new ClosedError({ server: this.server }, { reason: 'closed' }));
    const spawned = spawnServerProcess(spawn, this.options, this.argv, this.server, (text) => this.scrub(text));
    if (spawned instanceof Error) return this.startFailed(spawned);
    const { child } = spawned;
    this.child = child;
    this.group = spawned.group;

    const overflow = (limitBytes: number) => {
      child.stdout?.destroy(); // stop reading: the rest of the line is not wanted
      this.finish({ reason: 'too-large', limitBytes });
      void this.stop(false);
    };
    const maxMessageBytes = this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const framer = createLineFramer({
      maxMessageBytes,
      onMessage: (value) => this.handlers?.onMessage(value),
      // Scrubbed before it is cut: a cut through a secret leaves a piece no scrubber finds.
      // The whole line as well (bounded by the message limit): a recorder writes a banner as the server printed it (#18 item 16).
      onNoise: (text) => {
        const clean = this.scrub(text);
        this.handlers?.onDiagnostic?.({ kind: 'noise', server: this.server, text: excerpt(clean), line: clean });
      },
      onOverflow: overflow,
    });
    this.framer = createLongLineGate(framer, maxMessageBytes, overflow);

    const stderrDecoder = new StringDecoder('utf8');
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderrBytes.push(chunk);
      const hook = this.handlers?.onDiagnostic;
      if (hook) this.reportStderr(hook, stderrDecoder.write(chunk));
    });
    child.stderr!.on('end', () => {
      const hook = this.handlers?.onDiagnostic;
      if (hook) this.reportStderr(hook, stderrDecoder.end(), true);
    });
    child.stdout!.on('data', (chunk: Buffer) => this.framer!.push(chunk));
    // A write to a process that has gone away fails with EPIPE; the exit
    // event that follows is what reports the failure, so the error is only swallowed here.
    child.stdin!.on('error', () => {});
    child.stdout!.on('error', () => {});
    child.stderr!.on('error', () => {});

    let stdoutEnded = false;
    let stderrEnded = false;
    let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    const maybeFinishAfterExit = () => {
      if (!exitInfo) return;
      if ((stdoutEnded && stderrEnded) || drainTimer === undefined) {
        if (drainTimer) clearTimeout(drainTimer);
        this.framer!.end();
        this.finish({ reason: 'exited', exitCode: exitInfo.code, signal: exitInfo.signal, stderrTail: this.tail() });
      }
    };
    child.stdout!.on('end', () => {
      stdoutEnded = true;
      if (exitInfo) return maybeFinishAfterExit();
      // The server closed its output but still runs: it can answer nothing
      // more. Give it a moment to exit on its own so the error can say how.
      setTimeout(() => {
        if (this.exited || this.ended) return;
        this.framer!.end();
        this.finish({ reason: 'output-closed', stderrTail: this.tail() });
        void this.stop(false);
      }, DRAIN_AFTER_EXIT_MS).unref();
    });
    child.stderr!.on('end', () => {
      stderrEnded = true;
      maybeFinishAfterExit();
    });
    child.on('exit', (code, signal) => {
      this.exited = true;
      exitInfo = { code, signal };
      for (const wake of this.exitWaiters.splice(0)) wake();
      // A launcher that exits can leave the real server behind, holding our
      // pipes and talking to nobody: stop what is left of the group too.
      if (!this.closingByUs && this.group?.alive()) void this.stop(true);
      if (stdoutEnded && stderrEnded) return maybeFinishAfterExit();
      drainTimer = setTimeout(() => {
        drainTimer = undefined;
        maybeFinishAfterExit();
      }, DRAIN_AFTER_EXIT_MS);
      drainTimer.unref();
    });

    return new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        // 'error' before 'spawn' means the program could not be started (ENOENT, EACCES).
        if (child.pid === undefined) {
          this.startFailed(this.spawnFailed(error)).catch(reject);
        } else {
          this.handlers?.onDiagnostic?.({ kind: 'handler-error', server: this.server, method: 'spawn', error });
        }
      });
    });
  }

  /**
   * One stderr chunk as a diagnostic, scrubbed. A secret may be split
   * between chunks: with secrets to scrub, an end of the chunk that could
   * be the start of one is held back and reported with the next chunk.
   */
  private reportStderr(hook: NonNullable<TransportHandlers['onDiagnostic']>, text: string, last = false): void {
    let out = this.stderrHeld + text;
    this.stderrHeld = '';
    if (this.secrets.size > 0) {
      out = this.scrub(out);
      if (!last) {
        const kept = cutTail(out, this.secrets);
        this.stderrHeld = out.slice(kept.length);
        out = kept;
      }
    } else {
      out = this.scrub(out);
    }
    if (out !== '') hook({ kind: 'stderr', server: this.server, text: out });
  }

  send(message: JsonRpcMessage): Promise<void> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    return this.writer.push(encodeLine(message));
  }

  /** Why nothing can be written to the server now, or undefined when it can. */
  private refusal(): ClosedError | undefined {
    const stdin = this.child?.stdin;
    if (!this.ended && stdin && !stdin.destroyed && !stdin.writableEnded) return undefined;
    const site = { server: this.server };
    if (this.end && this.end.reason !== 'too-large') return new ClosedError(site, this.end);
    // closingByUs: our close() has ended stdin and waits for the exit; the request is refused because we are closing.
    // exited: the process is gone and its pipes are draining; the end with its exit code follows.
    const reason = this.ended || this.exited ? 'exited' : this.closingByUs ? 'closed' : 'not-connected';
    return new ClosedError(site, { reason, stderrTail: this.tail() });
  }

  /**
   * Writes one batch of lines (TickWriter), or says why it cannot: the state
   * may have changed since the lines were accepted. A failed write is
   * mapped by writeFailure (the TickWriter's failure hook).
   */
  private writeStdin(text: string, done: (error?: Error | null) => void): ClosedError | undefined {
    const refused = this.refusal();
    if (refused) return refused;
    this.child!.stdin!.write(text, done);
    return undefined;
  }

  /** The error for a failed write: how the process ended, when it ends soon enough, else the write error with the stderr tail. */
  private async writeFailure(error: Error): Promise<ClosedError> {
    if (!this.end) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, EXIT_AFTER_WRITE_ERROR_MS);
        this.endWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    const end = this.end;
    const detail: ClosedDetail =
      end && end.reason !== 'too-large' ? end : { reason: 'transport', cause: error, stderrTail: this.tail() };
    return new ClosedError({ server: this.server }, detail);
  }

  close(): Promise<void> {
    this.closePromise ??= (async () => {
      this.closingByUs = true;
      if (this.child) await this.stop(true);
      this.finish({ reason: 'closed' });
    })();
    return this.closePromise;
  }

  /**
   * For a server that never completed its handshake (#16 item 9): SIGKILL
   * to the whole group at once, no end of input and no SIGTERM first, even
   * when a close() is already stepping through them. Resolves once the
   * group is gone (or after one shutdown step, if something survives it).
   */
  hurry(): Promise<void> {
    this.closingByUs = true;
    if (!this.hurried && this.group && !(this.exited && !this.group.alive())) {
      this.hurried = true;
      const group = this.group;
      group.signal('SIGTERM');
      // Not unref'd: the host waits for this close, and the SIGKILL must come even if nothing else is pending.
      const timer = setTimeout(() => group.signal('SIGKILL'), HURRY_GRACE_MS);
      void this.closed().finally(() => clearTimeout(timer));
    }
    return this.close();
  }

  /** Resolves when the whole group is gone, or after HURRY_GRACE_MS plus one poll past the SIGKILL. */
  private async closed(): Promise<void> {
    await this.waitForGroupExit(HURRY_GRACE_MS * 2 + GROUP_POLL_MS);
  }

  kill(): Promise<void> {
    this.closingByUs = true;
    this.killNow = true;
    this.group?.signal('SIGKILL');
    return this.close();
  }

  private spawnFailed(error: Error): ClosedError {
    return spawnFailure(error, this.options, this.argv, this.server, (text) => this.scrub(text));
  }

  /** The process never started: nothing to wait for or stop; start() rejects with `error`. */
  private startFailed(error: Error): Promise<never> {
    this.ended = true;
    this.exited = true;
    for (const wake of this.exitWaiters.splice(0)) wake();
    return Promise.reject(error);
  }

  /** The text of the last stderr bytes (for state reports). */
  stderrTail(): string {
    return this.tail();
  }

  private finish(end: TransportEnd): void {
    if (this.ended) return;
    this.ended = true;
    // While our own close() runs, the exit it causes is reported as 'closed'.
    this.end = this.closingByUs && end.reason !== 'too-large' ? { reason: 'closed', stderrTail: this.tail() } : end;
    this.handlers?.onClose(this.end);
    for (const wake of this.endWaiters.splice(0)) wake();
  }

  /** Runs the shutdown steps once, however many callers ask for them. */
  private stop(gentle: boolean): Promise<void> {
    this.stopping ??= this.terminate(gentle);
    return this.stopping;
  }

  /**
   * L2: end stdin, wait; SIGTERM, wait; SIGKILL, wait; `gentle` false skips
   * the stdin step. The signals go to the whole process group, and each wait
   * lasts until the group is empty, not just until the direct child exited:
   * a launcher (npx, uvx, a shell script) may ignore SIGTERM or not pass it
   * on, and may exit before the server it started.
   */
  private async terminate(gentle: boolean): Promise<void> {
    const child = this.child;
    const group = this.group;
    if (!child || !group || (this.exited && !group.alive())) return group?.release();
    const step = this.options.shutdownStepMs ?? DEFAULT_SHUTDOWN_STEP_MS;
    if (this.killNow) {
      group.signal('SIGKILL');
      await this.waitForGroupExit(step);
      return group.release();
    }
    if (this.hurried) {
      // SIGTERM went out and SIGKILL is timed (hurry()): only wait for the group to go.
      await this.waitForGroupExit(HURRY_GRACE_MS * 2 + GROUP_POLL_MS);
      return group.release();
    }
    if (gentle) {
      this.writer.flush(); // lines accepted this tick go out before the end of input
      child.stdin?.end();
      if (await this.waitForGroupExit(step)) return;
    }
    group.signal('SIGTERM');
    if (await this.waitForGroupExit(step)) return;
    group.signal('SIGKILL');
    await this.waitForGroupExit(step);
    // Whatever is left got SIGKILL and cannot ignore it: stop tracking it (its id must not be signalled once reused).
    group.release();
  }

  /** Waits until the direct child has exited and no other process of its group runs; false after `ms`. */
  private async waitForGroupExit(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    if (!(await this.waitForExit(ms))) return false;
    // The direct child's exit is an event; the rest of the group can only be looked at.
    while (this.group?.alive()) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(GROUP_POLL_MS, left)));
    }
    return true;
  }

  private waitForExit(ms: number): Promise<boolean> {
    if (this.exited) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.exitWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
