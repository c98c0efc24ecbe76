// Reads the JSON MCP configs of the common clients (SPEC C5) into servers for
// the tool source: `mcpServers` (Claude Desktop, Claude Code's .mcp.json and
// ~/.claude.json, Cursor, Windsurf with `serverUrl`), VS Code's `servers`
// (mcp.json, or the `mcp` key of settings.json). Checked by hand: the forms are
// small and reading them must not load a schema library. Keys a client adds
// for itself (`autoApprove`, `description`, `gallery`, …) are ignored.
// `protocolEra` is mcpwire's own key beside the client's (#17): the clients
// ignore a key they do not know, so the file stays theirs. A remote server's
// `oauth` (Claude Code) or `auth` (Cursor) is its OAuth settings (#19,
// oauth-key.ts).

import os from 'node:os';
import path from 'node:path';
import type { ServerParams } from '../../client/connect.js';
import { ConfigError } from '../../errors.js';
import { isObject } from '../../jsonrpc/message.js';
import { checkDocument } from './document-check.js';
import { describeInterpolation, interpolate, type InterpolationContext } from './interpolate.js';
import { JsoncSyntaxError, parseJsonc, type JsoncDocument, type KeyPath } from './jsonc.js';
import { isSecretHeader, isSecretVariable } from '../../util/secret-names.js';
import { commandFields, entryKind, isProblem, isStringArray, readPinKey, sourceServer, stringMap, urlProblem } from './server-entry.js';
import { MAX_JSON_TOML_BYTES, readConfigText } from './read-text.js';
import type { SourceServer } from './types.js';
import { workspaceOf } from './workspace.js';
import { readEraKey } from './era-key.js';
import { isProblem as isOAuthProblem, oauthSecrets, readJsonOAuth } from './oauth-key.js';
import { readTlsKey } from './tls-key.js';

export type ServerConfig = ServerParams & { name: string };

export interface ClientJsonOptions {
  /** Where `${VAR}` and `${env:VAR}` are looked up. Default: process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** `${userHome}`. Default: the user's home folder. */
  home?: string;
  /**
   * The project being worked on: `${workspaceFolder}` of a user-level file, and
   * which `projects` entry of Claude Code's ~/.claude.json applies. Default: the current folder.
   */
  project?: string;
  /** `file` already parsed, by a caller that read it to tell its format: it is not read twice. */
  document?: JsoncDocument;
  /** `file`'s text, read by such a caller but not JSON: parsed here for the error, not read again. */
  text?: string;
}

export interface ClientJsonConfig {
  /** `vscode` for the `servers` form, `mcp-servers` for every `mcpServers` one. */
  format: 'mcp-servers' | 'vscode';
  /** The folder `cwd` and `${workspaceFolder}` are relative to. */
  workspaceFolder: string;
  servers: SourceServer[];
  /** Values taken from the environment, and the values of credential-named headers and variables. */
  secrets: string[];
}

/** Where a document keeps its servers: one or more objects of NAME → entry, later ones overriding earlier ones. */
interface ServerBlocks {
  format: 'mcp-servers' | 'vscode';
  blocks: { at: KeyPath; servers: Record<string, unknown> }[];
}

/**
 * Reads `file` as JSON with comments; a syntax error is a ConfigError with
 * line and column, never quoting the text. A prototype key (`__proto__`, …)
 * anywhere is refused like an unknown key.
 */
export function readJsoncFile(file: string, text = readConfigText(file, MAX_JSON_TOML_BYTES)): JsoncDocument {
  let doc: JsoncDocument;
  try {
    doc = parseJsonc(text);
  } catch (error) {
    if (!(error instanceof JsoncSyntaxError)) throw error;
    throw new ConfigError(file, [], `not valid JSON: ${error.reason}`, { line: error.line, column: error.column });
  }
  return checkedDocument(file, doc);
}

/** The document, once it has passed the checks every config gets (prototype keys, depth). Throws ConfigError. */
export function checkedDocument(file: string, doc: JsoncDocument): JsoncDocument {
  const problem = checkDocument(doc.value);
  if (problem !== undefined) throw new ConfigError(file, problem.path, problem.detail, { ...doc.locate(problem.path) });
  return doc;
}

/**
 * Finds the server objects of a client's document. ~/.claude.json holds
 * Claude Code's user servers at the top and each project's own under
 * `projects["/abs/path"].mcpServers`; the project's win on a name clash, as in
 * Claude Code. VS Code's settings.json holds them under `mcp.servers`.
 * Undefined when the document has none of these shapes.
 */
export function findServerBlocks(doc: unknown, project: string): ServerBlocks | undefined {
  if (!isObject(doc)) return undefined;
  if (isObject(doc.mcpServers) || isObject(doc.projects)) {
    const blocks: ServerBlocks['blocks'] = [];
    if (isObject(doc.mcpServers)) blocks.push({ at: ['mcpServers'], servers: doc.mcpServers });
    const key = path.resolve(project);
    const own = isObject(doc.projects) && Object.hasOwn(doc.projects, key) ? doc.projects[key] : undefined;
    if (isObject(own) && isObject(own.mcpServers)) blocks.push({ at: ['projects', key, 'mcpServers'], servers: own.mcpServers });
    return { format: 'mcp-servers', blocks };
  }
  if ('mcpServers' in doc) return { format: 'mcp-servers', blocks: [{ at: ['mcpServers'], servers: doc.mcpServers as Record<string, unknown> }] };
  if ('servers' in doc) return { format: 'vscode', blocks: [{ at: ['servers'], servers: doc.servers as Record<string, unknown> }] };
  // A kaged project written as JSON also has `mcp:`, but its entries carry `transport`, and a server named `servers` would too.
  if (isObject(doc.mcp) && isObject(doc.mcp.servers) && !('transport' in doc.mcp.servers)) return { format: 'vscode', blocks: [{ at: ['mcp', 'servers'], servers: doc.mcp.servers as Record<string, unknown> }] };
  return undefined;
}

/** Reads a client's JSON config into servers, interpolating `${…}`. Throws ConfigError naming the file, line:column, key path and server. */
export function readClientJson(file: string, options: ClientJsonOptions = {}): ClientJsonConfig {
  const doc = options.document ? checkedDocument(file, options.document) : readJsoncFile(file, options.text);
  const home = options.home ?? os.homedir();
  const project = options.project ?? process.cwd();
  const found = findServerBlocks(doc.value, project);
  if (!found) throw new ConfigError(file, [], 'expected {"mcpServers": {NAME: {...}}} or VS Code\'s {"servers": {NAME: {...}}}');
  const context: InterpolationContext = { env: options.env ?? process.env, userHome: home, workspaceFolder: workspaceOf(file, { home, project }) };
  const byName = new Map<string, SourceServer>();
  const secrets: string[] = [];
  for (const block of found.blocks) {
    if (!isObject(block.servers)) throw at(file, doc, block.at, 'expected an object mapping server names to {command, args} or {url}');
    for (const [name, entry] of Object.entries(block.servers)) {
      byName.delete(name); // an override takes the later position too
      byName.set(name, readEntry({ file, doc, at: [...block.at, name], name, context, secrets }, entry));
    }
  }
  return { format: found.format, workspaceFolder: context.workspaceFolder, servers: [...byName.values()], secrets: [...new Set(secrets)] };
}

/**
 * Loads `{"mcpServers": {NAME: {...}}}` or `{"servers": …}` as connect()
 * params, one per server (the CLI's demo reads its bundled config this way).
 * Throws ConfigError naming the file and the path.
 */
export function loadMcpServersJson(file: string, options: ClientJsonOptions = {}): ServerConfig[] {
  return readClientJson(file, options).servers.map((server) => ({ ...server.params, name: server.key }));
}

function at(file: string, doc: JsoncDocument, keys: KeyPath, detail: string, server?: string): ConfigError {
  return new ConfigError(file, keys, detail, { ...doc.locate(keys), ...(server !== undefined ? { server } : {}) });
}

interface EntryContext {
  file: string;
  doc: JsoncDocument;
  at: KeyPath;
  name: string;
  context: InterpolationContext;
  secrets: string[];
}

function readEntry(ctx: EntryContext, raw: unknown): SourceServer {
  const { file, doc, name } = ctx;
  const fail = (field: string | undefined, detail: string) => at(file, doc, field === undefined ? ctx.at : [...ctx.at, field], detail, name);
  if (isObject(raw) && raw.url !== undefined && raw.serverUrl !== undefined) throw fail('serverUrl', 'give "url" or Windsurf\'s "serverUrl", not both');
  const urlField = isObject(raw) && raw.serverUrl !== undefined ? 'serverUrl' : 'url';
  const kind = entryKind(raw, { noun: 'an object', urlField, keys: ENTRY_KEYS });
  if (isProblem(kind)) throw fail(kind.field, kind.detail);
  const { entry } = kind;
  const hasUrl = kind.kind === 'url';
  const type = entry.type;
  if (type !== undefined && typeof type !== 'string') throw fail('type', 'expected "stdio", "sse" or "http"');
  if (entry.disabled !== undefined && typeof entry.disabled !== 'boolean') throw fail('disabled', 'expected true or false');
  const deny = entry.disabledTools ?? [];
  if (!isStringArray(deny)) throw fail('disabledTools', 'expected an array of tool names');

  let unsupported: string | undefined;
  /**
   * The value with `${…}` resolved. What cannot be resolved (an unset
   * variable, an editor-only one) makes this server unsupported with the
   * reason and where it is, and the file's other servers load (#18 item 3).
   */
  const resolve = (raw: string, keys: KeyPath, secret: boolean): string => {
    const result = interpolate(raw, ctx.context);
    if (result.ok) {
      ctx.secrets.push(...result.fromEnv);
      if (secret && result.value !== '') ctx.secrets.push(result.value);
      return result.value;
    }
    unsupported ??= result.why === 'unset' ? at(file, doc, [...ctx.at, ...keys], describeInterpolation(result), name).message : `server "${name}": ${describeInterpolation(result)}`;
    return raw;
  };
  const strings = (field: string, secretName: (key: string) => boolean): Record<string, string> => {
    const value = stringMap(entry, field);
    if (value === undefined) throw fail(field, 'expected an object of strings');
    return Object.fromEntries(Object.entries(value).map(([key, text]) => [key, resolve(text, [field, key], secretName(key))]));
  };

  let params: ServerParams;
  if (hasUrl) {
    const written = entry[urlField];
    if (typeof written !== 'string') throw fail(urlField, 'expected an absolute http(s) URL');
    const url = resolve(written, [urlField], false);
    if (unsupported === undefined) {
      const problem = urlProblem(url, '"headers": {"Authorization": "Bearer ${env:TOKEN}"}');
      if (problem !== undefined) throw fail(urlField, problem);
    }
    const headers = strings('headers', isSecretHeader);
    const transport = type === 'sse' ? 'sse' : type === undefined || type === 'http' || type === 'streamable-http' || type === 'streamableHttp' ? 'streamable-http' : undefined;
    if (!transport) throw fail('type', `"${type}" is not a remote transport; expected "sse" or "http"`);
    // No type: Streamable HTTP first, then legacy SSE if the server refuses it (connect()), as the
    // MCP spec advises for a URL that may be either; many older configs list an SSE endpoint this way.
    params =
      transport === 'sse'
        ? { transport, url, headers, server: name }
        : { transport, url, headers, server: name, ...(type === undefined ? { fallbackToSse: true } : {}) };
    // #19 item 2: Claude Code's "oauth", Cursor's "auth" (and mcpwire's machine-grant keys) as the server's OAuth settings.
    const oauth = readJsonOAuth(entry, resolve, ctx.context.workspaceFolder);
    // A grant missing what an unset variable would have given: the server is already unsupported, saying which variable.
    if (isOAuthProblem(oauth) && unsupported === undefined) throw at(file, doc, [...ctx.at, ...oauth.field], oauth.detail, name);
    if (oauth && !isOAuthProblem(oauth)) {
      params.oauth = oauth;
      ctx.secrets.push(...oauthSecrets(oauth));
    }
    // #19 item 4 (SPEC A3): mcpwire's `tls` key, a client certificate (tls-key.ts).
    const tls = readTlsKey(entry.tls, resolve, ctx.context.workspaceFolder);
    if (isOAuthProblem(tls) && unsupported === undefined) throw at(file, doc, [...ctx.at, ...tls.field], tls.detail, name);
    if (tls && !isOAuthProblem(tls)) {
      params.tls = tls.tls;
      ctx.secrets.push(...tls.secrets);
    }
  } else {
    if (type !== undefined && type !== 'stdio') throw fail('type', `"${type}" needs "url", not "command"`);
    if (entry.tls !== undefined) throw fail('tls', '"tls" (a client certificate) applies to a remote server (url), not to a command');
    const fields = commandFields(entry);
    if (isProblem(fields)) throw fail(fields.field, fields.detail);
    const command = resolve(fields.command, ['command'], false);
    const resolvedArgs = fields.args.map((arg, index) => resolve(arg, ['args', index], false));
    const env = strings('env', isSecretVariable);
    params = { transport: 'stdio', command, args: resolvedArgs, env, server: name };
    if (fields.cwd !== undefined) params.cwd = path.resolve(ctx.context.workspaceFolder, resolve(fields.cwd, ['cwd'], false));
  }
  const era = readEraKey(entry, 'protocolEra');
  if (!era.ok) throw fail(era.key, era.detail);
  if (era.era !== undefined) params.protocolEra = era.era;
  const pin = readPinKey(entry);
  if (!pin.ok) throw fail('pin', pin.detail);
  // VS Code's envFile names a dotenv file the editor loads into env; reading it silently wrong would be worse than saying so.
  if (entry.envFile !== undefined) unsupported ??= `server "${name}": "envFile" is not read by mcpwire; put the variables in "env" (with \${env:VAR} for secrets)`;
  return sourceServer(name, params, { deny, disabled: entry.disabled === true, unsupported, pin: pin.pin });
}

/** Keys the format defines for a server: a near miss of "command" or "url" among the others is probably a typo of one. */
const ENTRY_KEYS = ['command', 'args', 'env', 'cwd', 'url', 'serverUrl', 'headers', 'type', 'disabled', 'disabledTools', 'envFile', 'protocolEra', 'oauth', 'auth', 'tls', 'pin'];

