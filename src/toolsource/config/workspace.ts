// The project folder a client's config file belongs to (C5): relative `cwd`
// and `${workspaceFolder}` are taken against it, as the client does.

import path from 'node:path';

/** Folders a client keeps its project-level config in: `<project>/.vscode/mcp.json` and the like. */
const CLIENT_FOLDERS = new Set(['.vscode', '.cursor', '.codex']);

/**
 * `<p>/.vscode/mcp.json`, `<p>/.cursor/mcp.json`, `<p>/.codex/config.toml`
 * belong to `<p>`. A user-level file (in the home folder, `~/.cursor`,
 * `~/.codex`, or under `userDirs` such as CODEX_HOME) belongs to the project
 * being worked on, as the client runs its servers there. Any other file
 * belongs to its own folder.
 */
export function workspaceOf(file: string, options: { home: string; project: string; userDirs?: readonly string[] }): string {
  const dir = path.dirname(path.resolve(file));
  const home = path.resolve(options.home);
  const project = path.resolve(options.project);
  if (dir === home || (options.userDirs ?? []).some((d) => path.resolve(d) === dir)) return project;
  if (!CLIENT_FOLDERS.has(path.basename(dir))) return dir;
  const parent = path.dirname(dir);
  return parent === home ? project : parent;
}
