// One reader for a PEM private key named by a config (#19, SPEC A1): the
// kaged DSL's `private_key_file` and the mcpServers/Codex OAuth keys both
// take a path, and both must refuse the same files with the same words.
// The answer names the file, never a byte of its contents.

import { readFileSync, statSync } from 'node:fs';

/** A PEM is a few KiB; a file much larger is not one (and is not read whole). */
export const MAX_PEM_FILE_BYTES = 64 * 1024;

/** The key's text, or why the file cannot be one (for the caller to place at its config key). */
export function readPemFile(file: string): { text: string } | { problem: string } {
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return { problem: `${file} is not a regular file; give the path of a PEM private key` };
    if (stat.size > MAX_PEM_FILE_BYTES) return { problem: `${file} is ${stat.size} bytes, too large for a PEM private key` };
    const text = readFileSync(file, 'utf8');
    return text.trim() === '' ? { problem: `the private key file ${file} is empty` } : { text };
  } catch (error) {
    return { problem: `cannot read the private key file ${file} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})` };
  }
}
