// One way to write a private file that a reader never sees half-written: a
// temp file in the same folder, mode 0600, renamed over the target. The
// credential store and the pin store both write through it. A leaf module.

import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes `text` to `file` atomically with mode 0600: its folder is made
 * (mode 0700) if missing, the text goes to a temp file beside it, and the
 * temp file is renamed over `file` (rename within one folder is atomic on
 * POSIX and on NTFS). A failed write leaves `file` as it was and no temp file.
 */
export function writeFileAtomic(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temp, text, { mode: 0o600 });
    // The mode given to writeFileSync is filtered by the umask; a credential must not be group-readable whatever it is.
    chmodSync(temp, 0o600);
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
