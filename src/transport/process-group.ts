// The process group of one stdio server (L2, S4). A server is often started
// through a wrapper (npx, uvx, a shell script) that does not forward signals,
// or ignores them: signalling only the wrapper would leave the real server
// running as an orphan. So on POSIX each server is spawned as the leader of
// a group of its own and every shutdown signal goes to the whole group.
//
// Also keeps the registry of the groups still running, and signals them when
// the host process exits without having closed them. It installs no signal
// handler: how the host reacts to SIGINT or SIGTERM stays the host's choice
// (a host that wants its servers closed on a signal calls close() itself).
//
// On Windows `detached` would mean a new console, not a group: there the
// direct child alone is signalled.

import type { ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { procStatFields } from '../util/process-alive.js';

/** Spawn option `detached`: true on POSIX, where it makes the child lead a new process group (and session). */
export const OWN_PROCESS_GROUP = process.platform !== 'win32';

const live = new Set<ProcessGroup>();

/**
 * The host is exiting without having closed these servers: nothing can wait
 * any more (an `exit` listener must be synchronous) and nobody will escalate
 * later, so anything softer than SIGKILL would leave a server that ignores it
 * running for good. A graceful stop is what close() is for.
 */
function killAllOnExit(): void {
  for (const group of live) group.signal('SIGKILL');
}

/** How many groups are registered as possibly running (for tests of the registry). */
export function liveProcessGroups(): number {
  return live.size;
}

export class ProcessGroup {
  private released = false;

  /** `child` must have been spawned (it has a pid), with `detached: OWN_PROCESS_GROUP`. */
  constructor(private readonly child: ChildProcess & { readonly pid: number }) {
    // One listener for all groups, there only while some group may be running.
    if (live.size === 0) process.on('exit', killAllOnExit);
    live.add(this);
  }

  /** Sends `signal` to every process of the group (on Windows: to the direct child, if it still runs). */
  signal(signal: NodeJS.Signals): void {
    if (this.released) return;
    if (!OWN_PROCESS_GROUP) {
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
      return;
    }
    try {
      process.kill(-this.child.pid, signal);
    } catch (error) {
      // ESRCH: nobody is left. EPERM: a member changed its credentials (setuid); the others got the signal.
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') this.release();
    }
  }

  /**
   * Whether some process of the group still runs. Members that have exited
   * but not been collected yet (zombies: an orphan waits for init, which may
   * take seconds) count as gone: there is nothing left to stop.
   */
  alive(): boolean {
    if (this.released) return false;
    if (!OWN_PROCESS_GROUP) return this.child.exitCode === null && this.child.signalCode === null;
    try {
      process.kill(-this.child.pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') {
        this.release();
        return false;
      }
      return true;
    }
    // The members found last time first: a shutdown polls this every few ms, and a scan of /proc reads
    // every process of the machine. /proc is scanned again only when none of them runs any more.
    if (this.members.some((pid) => isRunning(pid, this.child.pid))) return true;
    const found = runningMembers(this.child.pid);
    if (found === undefined) return true; // no /proc: signal 0 found members, and that is all there is to know
    this.members = found;
    if (found.length > 0) return true;
    this.release();
    return false;
  }

  /** Members of the group seen running at the last scan of /proc. */
  private members: string[] = [];

  /**
   * Stops tracking the group (it is gone, or what is left got SIGKILL).
   * Never signalled again after this: once empty, its id could be reused.
   */
  release(): void {
    if (this.released) return;
    this.released = true;
    live.delete(this);
    if (live.size === 0) process.off('exit', killAllOnExit);
  }
}

/**
 * Linux: the members of the group that are not zombies (their /proc
 * names), or undefined where there is no /proc. Only called when signal 0
 * found members, which is rare: during a shutdown, or after a wrapper
 * exited and left its children behind.
 */
function runningMembers(pgid: number): string[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const members: string[] = [];
  let sawProc = false;
  for (const name of entries) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    const fields = procStatFields(name);
    if (!fields) continue;
    sawProc = true;
    // After the name: state, ppid, pgrp.
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(name);
  }
  return sawProc ? members : undefined;
}

/** Whether a member found by runningMembers still runs: still in the group (its pid not reused), not a zombie. */
function isRunning(pid: string, pgid: number): boolean {
  const fields = procStatFields(pid);
  return fields !== undefined && fields[0] !== 'Z' && Number(fields[2]) === pgid;
}
