// A cross-process lock beside a file (SPEC G2, issue #21 item 2): two
// `mcpwire trust` runs at the same instant each read the pin file, change
// their record and rename their copy over it; without a lock the second
// rename drops the first one's change. The lock is a file `<file>.lock`
// created with O_EXCL ('wx'), holding the owner's pid and its start time;
// synchronous because the pin store is (a listing is reviewed in one turn).
//
// A lock whose owner is gone is taken over: its pid no longer exists, or it
// is another process now (the start time differs: pid reuse), or the lock is
// older than staleMs (held far longer than any write takes). Two processes
// that both find it stale must not both take it (the second would remove the
// first one's fresh lock), so the removal happens under a second O_EXCL file,
// `<file>.lock.break`, and only after the lock is read again there and is
// still stale. A waiter gives up after waitMs with an error naming the file
// to remove.

import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isAlive, procStatFields } from './process-alive.js';
import { nodeCrypto } from './node-builtins.js';

export interface FileLockOptions {
  /** How long to wait for a live holder before giving up. Default 10 000 ms. */
  waitMs?: number;
  /** A lock older than this is taken over even if its pid exists (a reused pid, a hung owner). Default 60 000 ms. */
  staleMs?: number;
  /** Pause between attempts. Default 10 ms. */
  pollMs?: number;
}

export const DEFAULT_LOCK_WAIT_MS = 10_000;
export const DEFAULT_LOCK_STALE_MS = 60_000;

/** What a lock file holds: who took it. */
interface LockOwner {
  pid: number;
  /** /proc/<pid>/stat start time (clock ticks since boot), where there is /proc: tells a reused pid from the owner. */
  start?: string;
  at: number;
  /** Unique to this taking of the lock: the release removes only its own. */
  token: string;
}

/** Thrown when a live holder keeps the lock past waitMs. */
export class FileLockTimeoutError extends Error {
  constructor(
    readonly lockFile: string,
    readonly waitedMs: number,
    holder: string,
  ) {
    super(`${lockFile} is held by ${holder} and was not released within ${waitedMs} ms; if no mcpwire process is writing there, remove ${lockFile}`);
    this.name = 'FileLockTimeoutError';
  }
}

/**
 * Runs `body` holding the lock `<file>.lock` (mode 0600, its folder made
 * 0700 if missing), released afterwards whatever `body` does.
 */
export function withFileLock<T>(file: string, body: () => T, options: FileLockOptions = {}): T {
  const release = takeFileLock(file, options);
  try {
    return body();
  } finally {
    release();
  }
}

/** Takes the lock `<file>.lock` (waiting as the options say) and returns what releases it; for a holder that is not one synchronous call. */
export function takeFileLock(file: string, options: FileLockOptions = {}): () => void {
  const lock = `${file}.lock`;
  const token = acquire(lock, options);
  return () => release(lock, token);
}

/** Removes the lock if it is still ours: one taken over from us (we held it past staleMs) belongs to its new owner. */
function release(lock: string, token: string): void {
  let text: string;
  try {
    text = readFileSync(lock, 'utf8');
  } catch {
    return;
  }
  if (parseOwner(text)?.token === token) rmSync(lock, { force: true });
}

/** Takes the lock, waiting as the options say; returns the token written in it. */
function acquire(lock: string, options: FileLockOptions): string {
  const waitMs = options.waitMs ?? DEFAULT_LOCK_WAIT_MS;
  const staleMs = options.staleMs ?? DEFAULT_LOCK_STALE_MS;
  const pollMs = options.pollMs ?? 10;
  mkdirSync(path.dirname(lock), { recursive: true, mode: 0o700 });
  const began = Date.now();
  for (;;) {
    const token = create(lock);
    if (token !== undefined) return token;
    if (staleness(lock, staleMs) !== undefined) {
      // Another process is breaking it: wait a poll, not a busy loop, for it to finish.
      if (!breakStale(lock, staleMs)) pause(pollMs);
    } else if (Date.now() - began >= waitMs) throw new FileLockTimeoutError(lock, waitMs, describeHolder(lock));
    else pause(pollMs);
  }
}

/** Creates the lock file with this process as owner: its token, or undefined when the file exists. */
function create(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  const token = nodeCrypto().randomUUID(); // crypto when a lock is taken, not with the package (#20 item 2)
  try {
    const start = startTime(process.pid);
    const owner: LockOwner = { pid: process.pid, ...(start === undefined ? {} : { start }), at: Date.now(), token };
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  return token;
}

/**
 * Why the lock at `file` is stale, or undefined when it is held (or gone:
 * the next create() settles that). A lock whose content cannot be read yet
 * (its owner created it and has not written) is judged by its age alone.
 */
function staleness(file: string, staleMs: number): string | undefined {
  let text: string;
  let mtimeMs: number;
  try {
    mtimeMs = statSync(file).mtimeMs;
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const age = Date.now() - mtimeMs;
  if (age > staleMs) return `older than ${staleMs} ms`;
  const owner = parseOwner(text);
  if (owner === undefined) return undefined;
  if (!isAlive(owner.pid)) return `its process ${owner.pid} is gone`;
  const start = owner.start === undefined ? undefined : startTime(owner.pid);
  if (start !== undefined && start !== owner.start) return `pid ${owner.pid} is another process now`;
  return undefined;
}

/**
 * Removes a stale lock, under `<lock>.break` so that only one process does,
 * and only after reading it again there: a lock another process took in the
 * meantime is fresh and stays. A break file left by a process that died
 * holding it (it holds it for a stat and an unlink) is removed after a second.
 * False when another process holds the break.
 */
function breakStale(lock: string, staleMs: number): boolean {
  const breaker = `${lock}.break`;
  if (create(breaker) === undefined) {
    if (staleness(breaker, 1_000) !== undefined) rmSync(breaker, { force: true });
    return false;
  }
  try {
    if (staleness(lock, staleMs) !== undefined) rmSync(lock, { force: true });
  } finally {
    rmSync(breaker, { force: true });
  }
  return true;
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    return typeof value.pid === 'number' && Number.isInteger(value.pid) && value.pid > 0 ? (value as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

/** "process 123 since 2026-…" for the timeout message. */
function describeHolder(lock: string): string {
  try {
    const owner = parseOwner(readFileSync(lock, 'utf8'));
    if (owner) return `process ${owner.pid} (since ${new Date(owner.at).toISOString()})`;
  } catch {
    // gone or unreadable: said as unknown
  }
  return 'another process';
}

/** Field 22 of /proc/<pid>/stat (the 20th after the name): when the process started; undefined without /proc. */
function startTime(pid: number): string | undefined {
  return procStatFields(pid)?.[19];
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** A synchronous pause: the store's interface is synchronous, and the wait is bounded. */
function pause(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
