// Whether a process still exists: signal 0 checks without sending anything.
// Used to make sure a server we started is gone (L2) and by the tests that
// hold us to it.

/** True while the process exists, even one we may not signal (EPERM); false once it is gone (ESRCH). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return false;
    if (code === 'EPERM') return true;
    throw error;
  }
}
