// What a stdio server inherits from the host (ADR-0043 §3: `env` is merged
// over the daemon's environment), the safe alternative a host can choose, and
// the check `doctor` runs for secrets the merge would hand to every server.

import { isSecretName } from '../util/secret-names.js';

/** Variables a server needs to find programs and a home, and nothing that identifies a credential. */
const SAFE_NAMES = new Set(['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'TMPDIR', 'TZ']);
/** The Windows equivalents: a process there cannot start without some of them. */
const SAFE_WINDOWS_NAMES = new Set(['APPDATA', 'COMSPEC', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PATHEXT', 'PROGRAMDATA', 'PROGRAMFILES', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'TMP', 'USERNAME', 'USERPROFILE', 'WINDIR']);

/** Only the safe variables of `env` (names compared case-insensitively, as Windows does). */
export function safeEnvironment(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): Record<string, string> {
  const safe: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const upper = name.toUpperCase();
    if (SAFE_NAMES.has(upper) || (platform === 'win32' && SAFE_WINDOWS_NAMES.has(upper))) safe[name] = value;
  }
  return safe;
}

/**
 * Host variables with secret-looking names (the one rule, util/secret-names:
 * `*KEY*`, `*TOKEN*`, `*SECRET*`, `*PASSWORD*`, `*AUTH*` …): what a merge
 * would pass to every server.
 */
export function secretLookingVariables(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.keys(env)
    .filter((name) => env[name] !== undefined && env[name] !== '' && isSecretName(name))
    .sort();
}
