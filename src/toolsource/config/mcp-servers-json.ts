// Reads the `mcpServers` JSON that MCP hosts commonly use (Claude Desktop,
// Cursor, VS Code style; SPEC C5): stdio servers only for now. The full
// config layer (kaged YAML, Kestrel JSON, zod) replaces this hand check later.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../errors.js';
import type { StdioServerParams } from '../../transport/stdio.js';

export interface StdioServerConfig extends StdioServerParams {
  name: string;
  command: string;
  args: string[];
}

/**
 * Loads `{"mcpServers": {NAME: {command, args?, env?, cwd?}}}`. `cwd` is
 * resolved against the config file's folder, so a config can sit beside the
 * servers it names. Throws ConfigError naming the file and the path.
 */
export function loadMcpServersJson(file: string): StdioServerConfig[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(file, [], `cannot read the file (${(error as Error).message}); pass an existing file with --config`, { cause: error });
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(file, [], `not valid JSON (${(error as Error).message})`, { cause: error });
  }
  const servers = isRecord(doc) ? doc.mcpServers : undefined;
  if (!isRecord(servers)) throw new ConfigError(file, ['mcpServers'], 'expected an object mapping server names to {command, args}');
  const dir = path.dirname(path.resolve(file));
  return Object.entries(servers).map(([name, entry]) => {
    const at = (key: string) => ['mcpServers', name, key];
    if (!isRecord(entry)) throw new ConfigError(file, ['mcpServers', name], 'expected an object with "command"');
    if (typeof entry.command !== 'string' || entry.command === '') {
      throw new ConfigError(file, at('command'), 'expected a non-empty string (only stdio servers are supported by this reader)');
    }
    const args = entry.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) throw new ConfigError(file, at('args'), 'expected an array of strings');
    const env = entry.env ?? {};
    if (!isRecord(env) || !Object.values(env).every((v) => typeof v === 'string')) throw new ConfigError(file, at('env'), 'expected an object of strings');
    if (entry.cwd !== undefined && typeof entry.cwd !== 'string') throw new ConfigError(file, at('cwd'), 'expected a string');
    const config: StdioServerConfig = { name, command: entry.command, args, env: env as Record<string, string> };
    if (typeof entry.cwd === 'string') config.cwd = path.resolve(dir, entry.cwd);
    return config;
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
