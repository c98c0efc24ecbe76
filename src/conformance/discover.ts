// Turns the CLI's DIR|FILE arguments into transcript files: a directory
// stands for its *.jsonl files, sorted; a file stands for itself.

import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** A path argument that cannot be used; the CLI reports it as a usage error (exit 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError' as const;
}

export async function collectTranscriptFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(path)).isDirectory();
    } catch {
      throw new UsageError(`${path}: no such file or directory; pass transcript files (*.jsonl) or directories that hold them`);
    }
    // Sorted by code unit, not locale, so every machine runs the cases in the same order.
    const found = isDirectory ? (await readdir(path)).filter((name) => name.endsWith('.jsonl')).sort().map((name) => join(path, name)) : [path];
    if (found.length === 0) throw new UsageError(`${path}: this directory holds no *.jsonl transcripts`);
    for (const file of found) {
      const key = resolve(file);
      if (seen.has(key)) continue;
      seen.add(key);
      files.push(file);
    }
  }
  return files;
}
