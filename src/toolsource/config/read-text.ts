// Reads a config file's text with a size bound, so that a file that is no
// config (a log, a database, a device linked in its place) ends in a
// ConfigError at once instead of a parse that takes minutes or all memory.

import { readFileSync, statSync } from 'node:fs';
import { ConfigError } from '../../errors.js';

/**
 * The largest file each reader takes. A kaged project is a few kB; YAML
 * parsing costs about a second per MiB here, so 1 MiB. JSON and TOML parse
 * at tens of MiB a second, and ~/.claude.json (Claude Code's state file,
 * which holds its MCP servers) is known to grow to tens of MiB: 64 MiB.
 */
export const MAX_YAML_BYTES = 1024 * 1024;
export const MAX_JSON_TOML_BYTES = 64 * 1024 * 1024;

export function readConfigText(file: string, maxBytes: number): string {
  try {
    const size = statSync(file).size;
    if (size > maxBytes) {
      throw new ConfigError(file, [], `the file is ${mib(size)}, larger than the ${mib(maxBytes)} a config may be; is this the right file?`);
    }
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(file, [], `cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
}

function mib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}
