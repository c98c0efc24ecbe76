// Whether a process still exists: signal 0 checks without sending anything.
// Used to make sure a server we started is gone (L2) and by the tests that
// hold us to it.

import { readFileSync } from 'node:fs';

/**
 * True while the process exists, even one we may not signal (EPERM); false
 * once it is gone (ESRCH). On Linux a zombie counts as gone: it has exited
 * and only waits for its parent to collect its status, which for an orphan
 * is an init process that may take seconds to do so.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return false;
    if (code === 'EPERM') return true;
    throw error;
  }
  return procState(pid) !== 'Z';
}

/** The state letter of /proc/<pid>/stat (R, S, D, Z, ...), or undefined where there is no /proc. */
export function procState(pid: number): string | undefined {
  const fields = procStatFields(pid);
  return fields?.[0];
}

/**
 * The fields of /proc/<pid>/stat after the command name (state, ppid, pgrp,
 * ...), or undefined when it cannot be read. The name is in parentheses and
 * may itself hold spaces and parentheses, so the split starts after the last ')'.
 */
export function procStatFields(pid: number | string): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  const close = text.lastIndexOf(')');
  return close === -1 ? undefined : text.slice(close + 2).split(' ');
}
