// Reads Codex's config.toml `[mcp_servers.<name>]` tables (C5) into servers
// for the tool source. Only that table is read; the rest of the file is
// Codex's own. Values are taken literally, as Codex takes them: it has no
// `${VAR}` syntax, its environment references are the `*_env_var` and
// `env_http_headers` keys, which are resolved here.

import path from 'node:path';
import type { ServerParams } from '../../client/connect.js';
import { ConfigError } from '../../errors.js';
import { isObject } from '../../jsonrpc/message.js';
import { isSecretHeader, isSecretVariable } from '../../util/secret-names.js';
import { readTomlFile, type TomlSource } from './toml-source.js';
import { commandFields, entryKind, isProblem, sourceServer, stringMap, urlProblem } from './server-entry.js';
import type { SourceServer } from './types.js';
import type { KeyPath } from './yaml-source.js';
import { readEraKey } from './era-key.js';
import { isProblem as isOAuthProblem, oauthSecrets, readCodexOAuth } from './oauth-key.js';

export interface CodexOptions {
  /** Where `bearer_token_env_var` and `env_http_headers` are looked up. Default: process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The folder a relative `cwd` is taken against. */
  workspaceFolder: string;
}

export interface CodexConfig {
  servers: SourceServer[];
  /** The bearer token, values taken from the environment, and values of credential-named headers and variables. */
  secrets: string[];
}

/**
 * Reads `[mcp_servers.<name>]`: `command`, `args`, `env`, `cwd` | `url`,
 * `bearer_token_env_var`, `http_headers`, `env_http_headers`; `enabled`,
 * `enabled_tools` / `disabled_tools` (exact tool names), `startup_timeout_sec`
 * (or the older `startup_timeout_ms`), `tool_timeout_sec`; a url server's
 * `scopes` and `[mcp_servers.<name>.oauth]` (#19, oauth-key.ts); and mcpwire's own
 * `protocol_era` (#17: auto, legacy, modern or a version, snake_case as Codex's
 * keys are; Codex ignores it). A syntax error
 * gives line and column only: the file may hold tokens. Throws ConfigError.
 */
export function readCodexToml(file: string, options: CodexOptions): CodexConfig {
  // config.toml may hold literal tokens in http_headers or env: never quote its lines.
  const source = readTomlFile(file);
  const servers = source.value.mcp_servers;
  if (!isObject(servers)) throw new ConfigError(file, ['mcp_servers'], 'expected [mcp_servers.<name>] tables (Codex config.toml)');
  const secrets: string[] = [];
  const list = Object.entries(servers).map(([name, entry]) => readEntry({ source, name, options, secrets }, entry));
  return { servers: list, secrets: [...new Set(secrets.filter((s) => s !== ''))] };
}

interface EntryContext {
  source: TomlSource;
  name: string;
  options: CodexOptions;
  secrets: string[];
}

function readEntry(ctx: EntryContext, raw: unknown): SourceServer {
  const { source, name } = ctx;
  const env = ctx.options.env ?? process.env;
  const at: KeyPath = ['mcp_servers', name];
  const fail = (field: string | KeyPath | undefined, detail: string) => {
    const keys = field === undefined ? at : [...at, ...(Array.isArray(field) ? field : [field])];
    return new ConfigError(source.file, keys, detail, { ...source.locate(keys), server: name });
  };
  const kind = entryKind(raw, { noun: 'a table', urlField: 'url', keys: ENTRY_KEYS });
  if (isProblem(kind)) throw fail(kind.field, kind.detail);
  const { entry } = kind;
  const hasUrl = kind.kind === 'url';

  const strings = (field: string): Record<string, string> => {
    const value = stringMap(entry, field);
    if (value === undefined) throw fail(field, 'expected a table of strings');
    return value;
  };
  const names = (field: string): string[] | undefined => {
    const value = entry[field];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw fail(field, 'expected an array of tool names');
    return value as string[];
  };
  const seconds = (field: string, unitMs: number): number | undefined => {
    const value = entry[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw fail(field, 'expected a positive number');
    return Math.round(value * unitMs);
  };
  // An unset variable fails this server only (#18 item 3): it is marked unsupported with the
  // reason, where it is and what to set, and the file's other servers load.
  let unset: string | undefined;
  const fromEnv = (variable: string, keys: KeyPath, what: string): string => {
    const value = env[variable];
    if (value === undefined || value === '') {
      unset ??= fail(keys.join('.'), `the environment variable ${variable} (${what}) is not set or empty; set it, or disable this server`).message;
      return '';
    }
    ctx.secrets.push(value);
    return value;
  };

  let params: ServerParams;
  if (hasUrl) {
    const problem = urlProblem(entry.url, 'bearer_token_env_var, or env_http_headers');
    if (problem !== undefined) throw fail('url', problem);
    const headers: Record<string, string> = { ...strings('http_headers') };
    for (const [header, value] of Object.entries(headers)) if (isSecretHeader(header)) ctx.secrets.push(value);
    for (const [header, variable] of Object.entries(strings('env_http_headers'))) headers[header] = fromEnv(variable, ['env_http_headers', header], `header ${header}`);
    // Codex speaks Streamable HTTP to a url; no fallback to legacy SSE is implied.
    params = { transport: 'streamable-http', url: entry.url as string, headers, server: name };
    if (entry.bearer_token_env_var !== undefined) {
      if (typeof entry.bearer_token_env_var !== 'string') throw fail('bearer_token_env_var', 'expected the name of an environment variable');
      params.auth = { type: 'bearer', value: fromEnv(entry.bearer_token_env_var, ['bearer_token_env_var'], 'the bearer token') };
    }
    // #19 item 2: `scopes` and an [mcp_servers.x.oauth] table (client_id; mcpwire's machine-grant keys) as the OAuth settings.
    const oauth = readCodexOAuth(entry, fromEnv, ctx.options.workspaceFolder);
    // A grant missing what an unset variable would have given: the server is already unsupported, saying which variable.
    if (isOAuthProblem(oauth) && unset === undefined) throw fail(oauth.field, oauth.detail);
    if (oauth && !isOAuthProblem(oauth)) {
      params.oauth = oauth;
      ctx.secrets.push(...oauthSecrets(oauth));
    }
  } else {
    const fields = commandFields(entry);
    if (isProblem(fields)) throw fail(fields.field, fields.detail);
    const envVars = strings('env');
    for (const [variable, value] of Object.entries(envVars)) if (isSecretVariable(variable)) ctx.secrets.push(value);
    params = { transport: 'stdio', command: fields.command, args: fields.args, env: envVars, server: name };
    if (fields.cwd !== undefined) params.cwd = path.resolve(ctx.options.workspaceFolder, fields.cwd);
  }
  const era = readEraKey(entry, 'protocol_era');
  if (!era.ok) throw fail(era.key, era.detail);
  if (era.era !== undefined) params.protocolEra = era.era;
  if (entry.enabled !== undefined && typeof entry.enabled !== 'boolean') throw fail('enabled', 'expected true or false');
  if (entry.startup_timeout_sec !== undefined && entry.startup_timeout_ms !== undefined) throw fail('startup_timeout_ms', 'give startup_timeout_sec or startup_timeout_ms, not both');
  const startupTimeoutMs = seconds('startup_timeout_sec', 1000) ?? seconds('startup_timeout_ms', 1);
  return sourceServer(name, params, {
    // Codex lists exact tool names; as globs they match only themselves, since MCP tool names (2025-11-25: letters, digits, _ - .) hold no * or ?.
    allow: names('enabled_tools'),
    deny: names('disabled_tools') ?? [],
    disabled: entry.enabled === false,
    timeoutMs: seconds('tool_timeout_sec', 1000),
    startupTimeoutMs,
    unsupported: unset,
  });
}

/** Keys the format defines for a server: a near miss of "command" or "url" among the others is probably a typo of one. */
const ENTRY_KEYS = ['command', 'args', 'env', 'cwd', 'url', 'bearer_token_env_var', 'http_headers', 'env_http_headers', 'enabled', 'enabled_tools', 'disabled_tools', 'startup_timeout_sec', 'startup_timeout_ms', 'tool_timeout_sec', 'protocol_era', 'scopes', 'oauth'];
