// Temporary folders for the spec tests, each removed after its test. The
// path is resolved (realpath), so a test may compare it with what a child
// process reports as its cwd even where the temp folder is behind a symlink
// (macOS's /var → /private/var).

import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface AfterHook {
  after(fn: () => void): void;
}

/** A new empty folder named `mcpwire-<label>-…`, removed after the test. */
export function tempDir(t: AfterHook, label: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `mcpwire-${label}-`)));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A path for a log a fixture server writes (FAULT_LOG, TS_LOG), in a folder removed after the test; the file does not exist yet. */
export function tempLog(t: AfterHook, label: string): string {
  return join(tempDir(t, label), 'events.log');
}
