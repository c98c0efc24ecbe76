// Where the common MCP clients keep their server configs (C5), for
// `mcpwire config sources` and for `--config <client>`. Home, project,
// platform and environment are parameters so that tests can point them at
// temporary folders. Reads files only to count their servers.

import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, McpClientError } from '../../errors.js';
import { isObject } from '../../jsonrpc/message.js';
import { findServerBlocks, readJsoncFile } from './mcp-servers-json.js';
import { readTomlFile } from './toml-source.js';

export interface LocationOptions {
  /** Default: the user's home folder. */
  home?: string;
  /** The project folder whose project-level files are looked for. Default: the current folder. */
  project?: string;
  /** Default: process.platform. */
  platform?: NodeJS.Platform;
  /** APPDATA (Windows), XDG_CONFIG_HOME (Linux), CODEX_HOME. Default: process.env. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The clients `--config` accepts by name; `claude` covers Claude Code, then Claude Desktop. */
export const CLIENT_NAMES = ['claude', 'claude-code', 'claude-desktop', 'cursor', 'vscode', 'windsurf', 'codex'] as const;
export type ClientName = (typeof CLIENT_NAMES)[number];

export interface ConfigLocation {
  client: 'Claude Code' | 'Claude Desktop' | 'Cursor' | 'VS Code' | 'Windsurf' | 'Codex';
  scope: 'project' | 'user';
  path: string;
}

export interface ConfigSource extends ConfigLocation {
  found: boolean;
  /** How many servers the file declares (for ~/.claude.json: the user's plus this project's); undefined when not found or unreadable. */
  servers: number | undefined;
  /** Why a found file could not be read (line and column, never its text). */
  error: string | undefined;
}

/** Every location, in search order per client: project files first, then user files. */
export function configLocations(options: LocationOptions = {}): ConfigLocation[] {
  const { home, project, platform, env } = defaults(options);
  const p = platform === 'win32' ? path.win32 : path.posix;
  // Where each OS keeps per-user application data: Claude Desktop and VS Code live there.
  const appData =
    platform === 'darwin'
      ? p.join(home, 'Library', 'Application Support')
      : platform === 'win32'
        ? (env.APPDATA ?? p.join(home, 'AppData', 'Roaming'))
        : (env.XDG_CONFIG_HOME ?? p.join(home, '.config'));
  return [
    { client: 'Claude Code', scope: 'project', path: p.join(project, '.mcp.json') },
    { client: 'Claude Code', scope: 'user', path: p.join(home, '.claude.json') },
    { client: 'Claude Desktop', scope: 'user', path: p.join(appData, 'Claude', 'claude_desktop_config.json') },
    { client: 'Cursor', scope: 'project', path: p.join(project, '.cursor', 'mcp.json') },
    { client: 'Cursor', scope: 'user', path: p.join(home, '.cursor', 'mcp.json') },
    { client: 'VS Code', scope: 'project', path: p.join(project, '.vscode', 'mcp.json') },
    { client: 'VS Code', scope: 'user', path: p.join(appData, 'Code', 'User', 'mcp.json') },
    { client: 'Windsurf', scope: 'user', path: p.join(home, '.codeium', 'windsurf', 'mcp_config.json') },
    { client: 'Codex', scope: 'user', path: p.join(env.CODEX_HOME ?? p.join(home, '.codex'), 'config.toml') },
  ];
}

/** Each location with whether it exists and how many servers it declares. */
export function findConfigSources(options: LocationOptions = {}): ConfigSource[] {
  const { project } = defaults(options);
  return configLocations(options).map((location) => {
    if (!existsSync(location.path)) return { ...location, found: false, servers: undefined, error: undefined };
    try {
      return { ...location, found: true, servers: countServers(location.path, project), error: undefined };
    } catch (error) {
      if (!(error instanceof McpClientError)) throw error;
      return { ...location, found: true, servers: undefined, error: error.message };
    }
  });
}

const CLIENTS_OF: Record<ClientName, readonly ConfigLocation['client'][]> = {
  claude: ['Claude Code', 'Claude Desktop'],
  'claude-code': ['Claude Code'],
  'claude-desktop': ['Claude Desktop'],
  cursor: ['Cursor'],
  vscode: ['VS Code'],
  windsurf: ['Windsurf'],
  codex: ['Codex'],
};

export function isClientName(value: string): value is ClientName {
  return (CLIENT_NAMES as readonly string[]).includes(value);
}

/**
 * The file `--config <client>` means: the first of the client's locations
 * (project before user) that declares a server, else the first that exists
 * (~/.claude.json exists for every Claude Code user, servers or not).
 * Throws ConfigError listing the places looked in.
 */
export function resolveClientConfig(name: ClientName, options: LocationOptions = {}): string {
  const sources = findConfigSources(options).filter((s) => CLIENTS_OF[name].includes(s.client));
  const chosen = sources.find((s) => s.found && (s.servers ?? 0) > 0) ?? sources.find((s) => s.found);
  if (chosen) return chosen.path;
  throw new ConfigError(undefined, [], `no ${name} config found; looked in ${sources.map((s) => s.path).join(', ')} (mcpwire config sources lists every client's files)`);
}

function countServers(file: string, project: string): number {
  if (file.endsWith('.toml')) {
    const { value } = readTomlFile(file);
    return isObject(value.mcp_servers) ? Object.keys(value.mcp_servers).length : 0;
  }
  const found = findServerBlocks(readJsoncFile(file).value, project);
  return new Set(found?.blocks.flatMap((b) => (isObject(b.servers) ? Object.keys(b.servers) : [])) ?? []).size;
}

function defaults(options: LocationOptions) {
  return {
    home: options.home ?? os.homedir(),
    project: options.project ?? process.cwd(),
    platform: options.platform ?? process.platform,
    env: options.env ?? process.env,
  };
}
