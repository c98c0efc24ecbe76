// Resolves a stdio server's `cwd` (T1, ADR-0043 §3: "cwd is project-relative"):
// relative to the project folder, and it must stay inside it after symlinks
// are followed, so a checked-in symlink cannot send a server outside the tree
// the operator reviewed. Pure except for realpath/stat.

import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';

export type ResolvedDir = { ok: true; dir: string } | { ok: false; detail: string };

/** `root` must already be a real path (realpathSync of the project folder). */
export function resolveProjectDir(root: string, relative: string): ResolvedDir {
  // An absolute path does not travel with the project (ADR-0011's portability), even one that points inside it today.
  if (path.isAbsolute(relative)) return { ok: false, detail: `expected a path relative to the project folder, not the absolute path ${JSON.stringify(relative)}` };
  const lexical = path.resolve(root, relative);
  if (!inside(root, lexical)) return { ok: false, detail: `${JSON.stringify(relative)} escapes the project folder ${root}` };
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch {
    return { ok: false, detail: `${JSON.stringify(relative)} does not exist (resolved against ${root})` };
  }
  if (!inside(root, real)) return { ok: false, detail: `${JSON.stringify(relative)} resolves through a symlink to ${real}, outside the project folder ${root}` };
  if (!statSync(real).isDirectory()) return { ok: false, detail: `${JSON.stringify(relative)} is not a directory` };
  return { ok: true, dir: real };
}

/** `candidate` is `root` or below it (both absolute; compared as written). */
export function inside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
