// Which servers a command talks to: a config file (--config, $MCPWIRE_CONFIG,
// ./mcpwire.json) or one server given on the command line (`-- COMMAND` or
// --url), turned into the same ToolSourceConfig a file would give, so that
// naming, the result cap and supervision do not depend on where it came from.
// The bundled example config is `demo`'s alone: a folder without a config
// must not look as if it had one.

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ServerParams } from '../client/connect.js';
import type { HttpTlsOptions } from '../transport/http-client.js';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_RESULT_CAP_BYTES, type SourceServer, type ToolSourceConfig } from '../toolsource/config/types.js';
import { loadToolSourceConfig } from '../toolsource/tool-source.js';
import type { CommandLine } from './options.js';
import { err } from './process.js';
import { PROJECT_FILE, userConfigPath } from './saved.js';
import { UsageError } from './usage.js';

/** Where a config comes from, or undefined when the command line names none and the folder has none. */
export function configPath(values: CommandLine['values']): string | undefined {
  if (values.config !== undefined) return values.config;
  if (process.env.MCPWIRE_CONFIG) return process.env.MCPWIRE_CONFIG;
  if (existsSync(PROJECT_FILE)) return PROJECT_FILE;
  // The servers saved with mcpwire add --user (#18 item 12), when the folder has no file of its own.
  const user = userConfigPath();
  return existsSync(user) ? user : undefined;
}

/** Where the config came from, for --verbose: which file, and by which rule. */
function configOrigin(values: CommandLine['values'], file: string): string {
  if (values.config !== undefined) return `--config ${file}`;
  if (process.env.MCPWIRE_CONFIG) return `${file} (from $MCPWIRE_CONFIG)`;
  return file === PROJECT_FILE ? `${path.resolve(file)} (this folder's ${PROJECT_FILE})` : `${file} (the user's saved servers: no ${PROJECT_FILE} here)`;
}

export function noServerGiven(command: string): UsageError {
  return new UsageError(
    `no server to talk to: no --config, no $MCPWIRE_CONFIG and no mcpwire.json in ${process.cwd()}, nor saved servers in ${userConfigPath()}. Give one:\n` +
      `  mcpwire ${command} -- npx -y @modelcontextprotocol/server-everything     (a stdio server's command)\n` +
      `  mcpwire ${command} --url https://example.com/mcp                         (an HTTP server)\n` +
      `  mcpwire ${command} --config FILE|CLIENT                                  (a config file, or claude, cursor, vscode, ...)\n` +
      `  mcpwire add NAME -- COMMAND… (or --url URL)                             (save a server, then mcpwire ${command} NAME)\n` +
      `  (mcpwire demo runs the bundled example; see mcpwire ${command} --help)`,
  );
}

/**
 * The config the command line asks for, with --era (when given) as every
 * server's protocol era: the command line is the more specific wish, as
 * --timeout is over the config's timeouts. Throws UsageError when it names
 * none, or names a server two ways.
 */
export async function resolveConfig(command: string, line: CommandLine): Promise<ToolSourceConfig> {
  const config = await configFromLine(command, line);
  const era = line.protocolEra;
  if (era === undefined) return config;
  return { ...config, servers: config.servers.map((s) => ({ ...s, params: { ...s.params, protocolEra: era } })) };
}

async function configFromLine(command: string, line: CommandLine): Promise<ToolSourceConfig> {
  const { values, serverCommand } = line;
  const adHoc = serverCommand.length > 0 || values.url !== undefined;
  if (adHoc) {
    if (values.config !== undefined) throw new UsageError('give the server either with --config or on the command line (-- COMMAND or --url), not both');
    if (serverCommand.length > 0 && values.url !== undefined) throw new UsageError('give either a command after -- or --url, not both');
    return adHocConfig(line);
  }
  for (const flag of ['transport', 'cwd', 'name'] as const) {
    if (values[flag] !== undefined) throw new UsageError(`--${flag} applies to a server given by -- COMMAND or --url`);
  }
  if (values.header.length > 0 || values.env.length > 0) throw new UsageError('--header and --env apply to a server given by -- COMMAND or --url');
  if (tlsFlagGiven(values)) throw new UsageError('--cert, --key and --ca apply to a server given by --url; in a config file, give the server a "tls" object');
  const file = configPath(values);
  if (file === undefined) throw noServerGiven(command);
  const config = await loadToolSourceConfig({
    config: file,
    ...(values['project-local'] !== undefined ? { projectLocal: values['project-local'] } : {}),
    ...(values.local !== undefined ? { local: values.local } : {}),
    ...(values['daemon-config'] !== undefined ? { daemonConfig: values['daemon-config'] } : {}),
  });
  const merged = file === PROJECT_FILE && values.config === undefined && !process.env.MCPWIRE_CONFIG ? await withUserServers(config) : { config, added: [] };
  if (values.verbose) err(`config: ${configOrigin(values, file)}${merged.added.length > 0 ? `, and ${merged.added.join(', ')} from the user's saved servers in ${userConfigPath()}` : ''}\n`);
  return merged.config;
}

/**
 * The folder's mcpwire.json with the user's saved servers beside it
 * (mcpwire add --user: they are meant for every folder); the folder's own
 * server wins a key both have. A user file that does not load costs a
 * note, not the command: the folder's servers are still there.
 */
async function withUserServers(config: ToolSourceConfig): Promise<{ config: ToolSourceConfig; added: string[] }> {
  const file = userConfigPath();
  if (!existsSync(file)) return { config, added: [] };
  let user: ToolSourceConfig;
  try {
    user = await loadToolSourceConfig({ config: file });
  } catch (error) {
    // A ConfigError names file, line and key, never a value.
    err(`note: the user's saved servers were not read: ${String((error as Error).message).split('\n')[0]}\n`);
    return { config, added: [] };
  }
  const own = new Set(config.servers.map((s) => s.key));
  const added = user.servers.filter((s) => !own.has(s.key));
  if (added.length === 0) return { config, added: [] };
  return { config: { ...config, servers: [...config.servers, ...added], secrets: [...new Set([...config.secrets, ...user.secrets])] }, added: added.map((s) => s.key) };
}

function adHocConfig(line: CommandLine): ToolSourceConfig {
  const { values, serverCommand } = line;
  const secrets: string[] = [];
  let params: ServerParams;
  let key: string;
  if (values.url !== undefined) {
    let url: URL;
    try {
      url = new URL(values.url);
    } catch {
      throw new UsageError(`--url "${values.url}" is not a URL; write it whole, e.g. https://example.com/mcp`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url takes an http: or https: URL, got ${url.protocol}`);
    if (values.env.length > 0 || values.cwd !== undefined) throw new UsageError('--env and --cwd apply to a stdio server (-- COMMAND), not to --url');
    const headers: Record<string, string> = {};
    values.header.forEach((header, index) => {
      const [name, value] = headerParts(header, index);
      headers[name] = value;
      // Every header given here is treated as a secret: a command line has no way to say which are.
      secrets.push(value);
    });
    key = values.name ?? slugForUrl(url);
    const transport = values.transport;
    if (transport !== undefined && transport !== 'http' && transport !== 'sse') throw new UsageError(`--transport takes http or sse, got "${transport}"`);
    params =
      transport === 'sse'
        ? { transport: 'sse', url: url.href, headers, server: key }
        : { transport: 'streamable-http', url: url.href, headers, server: key, ...(transport === undefined ? { fallbackToSse: true } : {}) };
    const tls = tlsFlags(values, url, secrets);
    if (tls !== undefined) params.tls = tls;
  } else {
    if (values.header.length > 0 || values.transport !== undefined) throw new UsageError('--header and --transport apply to --url, not to a stdio server');
    if (tlsFlagGiven(values)) throw new UsageError('--cert, --key and --ca apply to --url (an HTTPS server), not to a stdio server');
    const env: Record<string, string> = {};
    values.env.forEach((pair, index) => {
      const eq = pair.indexOf('=');
      // Never quote the pair back: `-e "API_KEY sk-…"` is a secret typed with a space for the =.
      if (eq <= 0) throw new UsageError(`the ${ordinal(index + 1)} -e is not NAME=value (it has ${eq === 0 ? 'no name before the =' : 'no ='}); write -e NAME=value`);
      env[pair.slice(0, eq)] = pair.slice(eq + 1);
      secrets.push(pair.slice(eq + 1));
    });
    key = values.name ?? slugForCommand(serverCommand);
    params = {
      transport: 'stdio',
      command: serverCommand,
      server: key,
      ...(values.env.length > 0 ? { env } : {}),
      ...(values.cwd !== undefined ? { cwd: path.resolve(values.cwd) } : {}),
    };
  }
  if (!/^[A-Za-z0-9_-]+$/.test(key)) throw new UsageError(`--name takes letters, digits, _ and -, got "${key}"`);
  const server: SourceServer = { key, params, tools: { enabled: true, allow: undefined, deny: [] }, disabled: false, timeoutMs: undefined, unsupported: undefined };
  return {
    file: '(command line)',
    format: 'mcp-servers',
    projectRoot: process.cwd(),
    servers: [server],
    resultCapBytes: DEFAULT_RESULT_CAP_BYTES,
    defaultTimeoutMs: DEFAULT_CALL_TIMEOUT_MS,
    agents: {},
    secrets: secrets.filter((s) => s !== ''),
  };
}

function tlsFlagGiven(values: CommandLine['values']): boolean {
  return values.cert !== undefined || values.key !== undefined || values.ca !== undefined;
}

/**
 * --cert, --key and --ca (#19 item 4, SPEC A3) as the server's tls options:
 * paths against this folder, read and checked by the transport when it
 * starts (a missing file is a ConfigError naming it). The passphrase of an
 * encrypted key comes from $MCPWIRE_KEY_PASSPHRASE, never a flag: a command
 * line is visible to every user of the machine. It is a secret to scrub.
 */
function tlsFlags(values: CommandLine['values'], url: URL, secrets: string[]): HttpTlsOptions | undefined {
  if (!tlsFlagGiven(values)) return undefined;
  if (url.protocol !== 'https:') throw new UsageError('--cert, --key and --ca need an https: --url');
  if ((values.cert === undefined) !== (values.key === undefined)) throw new UsageError(`a client certificate needs both --cert and --key; --${values.cert === undefined ? 'cert' : 'key'} is missing`);
  for (const flag of ['cert', 'key', 'ca'] as const) if (values[flag] === '') throw new UsageError(`--${flag} needs the path of a PEM file`);
  const passphrase = process.env.MCPWIRE_KEY_PASSPHRASE;
  const tls: HttpTlsOptions = {
    ...(values.cert !== undefined && values.key !== undefined ? { cert: path.resolve(values.cert), key: path.resolve(values.key) } : {}),
    ...(values.ca !== undefined ? { ca: path.resolve(values.ca) } : {}),
    ...(passphrase && values.key !== undefined ? { passphrase } : {}),
  };
  if (tls.passphrase !== undefined) secrets.push(tls.passphrase);
  return tls;
}

/** Programs that run another program: the key comes from what they run. */
const LAUNCHERS = new Set(['npx', 'bunx', 'pnpx', 'uvx', 'pipx', 'node', 'bun', 'deno', 'python', 'python3', 'uv', 'pnpm', 'yarn', 'npm', 'tsx', 'ts-node', 'sh', 'bash', 'env', 'docker', 'podman']);
/** Words of a launcher's own (`pnpm dlx`, `uv run`, `docker run`, `npm exec`), skipped like flags. */
const LAUNCHER_WORDS = new Set(['dlx', 'run', 'exec', 'x', 'tool', '-m']);
/** Files named like these say nothing: the folder above them does (node_modules/server-foo/dist/index.js → server-foo). */
const GENERIC_FILES = new Set(['index', 'main', 'server', 'cli', 'bin', 'mcp', 'stdio']);
const BUILD_DIRS = new Set(['dist', 'build', 'lib', 'src', 'bin', 'out', 'esm', 'cjs']);

/**
 * The key of a stdio server given by its command: the first word that is not
 * a launcher, a launcher's word or a flag; of a package its name without
 * scope or version (`@scope/server-foo@1.2` → `server-foo`), of a script its
 * file name without extension, or its folder's when the file is index.js or
 * the like. Falls back to `server`.
 */
export function slugForCommand(argv: readonly string[]): string {
  const word = argv.find((w, i) => !w.startsWith('-') && !(i > 0 && LAUNCHER_WORDS.has(w)) && !LAUNCHERS.has(path.basename(w).replace(/\.(exe|cmd)$/i, ''))) ?? argv[0] ?? 'server';
  let name = word;
  if (name.startsWith('@')) name = name.replace(/^@[^/]+\//, '');
  name = name.replace(/@[^/]*$/, ''); // a version or tag
  const parts = name.split(/[\\/]/).filter(Boolean);
  let base = (parts.pop() ?? name).replace(/\.(m?[jt]s|c[jt]s|py|exe|cmd|sh)$/i, '');
  while (GENERIC_FILES.has(base.toLowerCase()) && parts.length > 0) {
    const dir = parts.pop()!;
    if (BUILD_DIRS.has(dir.toLowerCase())) continue;
    base = dir;
    break;
  }
  return slug(base) || 'server';
}

/** The key of an HTTP server: its host name, dots as dashes, without `www.` (localhost stays localhost). */
export function slugForUrl(url: URL): string {
  return slug(url.hostname.replace(/^\[|\]$/g, '').replace(/^www\./, '')) || 'server';
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * One `--header`, as `Name: value` (curl's form) or `Name=value`
 * (mcporter's): whichever separator comes first. A malformed one is refused
 * without quoting any of it, since a header on a command line is most often
 * a credential (#18 item 2).
 */
export function headerParts(header: string, index: number): [string, string] {
  const colon = header.indexOf(':');
  const eq = header.indexOf('=');
  const at = colon === -1 ? eq : eq === -1 ? colon : Math.min(colon, eq);
  const name = at > 0 ? header.slice(0, at).trim() : '';
  if (at <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
    const why = at === -1 ? 'it has neither ": " nor "="' : at === 0 || name === '' ? 'it has no name before the separator' : 'its name is not a valid header name';
    throw new UsageError(`the ${ordinal(index + 1)} --header is not "Name: value" or Name=value (${why}); write e.g. --header "Authorization: Bearer $TOKEN"`);
  }
  return [name, header.slice(at + 1).trim()];
}

export function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}
