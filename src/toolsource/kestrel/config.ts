// Kestrel's plugin config (C4): `plugins.config["@kestrel/plugin-mcp"]`
// with `servers.<name>` ({command, args, env, cwd} | {url, headers};
// `approval`; `timeoutMs`; mcpwire's `protocolEra`, #17) and `sampling`. A server that sets both or
// neither of command and url, or a field of the wrong type, is skipped with
// the reason (the host logs it); the rest start. Checked by hand: the shape
// is small, and a bad server must not stop the others, as a whole-document
// schema would. `${NAME}` in a header value is resolved here, once, at load,
// by the config readers' one interpolation: the transport sends values as
// written.

import type { OAuthSettings } from '../../auth/settings.js';
import os from 'node:os';
import path from 'node:path';
import type { ServerParams } from '../../client/connect.js';
import { ConfigError } from '../../errors.js';
import { isObject } from '../../jsonrpc/message.js';
import { isSecretHeader } from '../../util/secret-names.js';
import { checkDocument } from '../config/document-check.js';
import { misspeltHint } from '../config/hints.js';
import { describeInterpolation, interpolate } from '../config/interpolate.js';
import { JsoncSyntaxError, parseJsonc } from '../config/jsonc.js';
import { MAX_JSON_TOML_BYTES, readConfigText } from '../config/read-text.js';
import { readEraKey } from '../config/era-key.js';
import { commandFields, entryKind, isProblem, readPinKey, sourceServer, stringMap, urlProblem, type EntryProblem } from '../config/server-entry.js';
import { DEFAULT_CALL_TIMEOUT_MS, type SourceServer, type ToolSourceConfig } from '../config/types.js';
import { isProblem as isOAuthProblem, oauthSecrets, readJsonOAuth, type ResolveValue } from '../config/oauth-key.js';
import { readTlsKey } from '../config/tls-key.js';
import type { HttpTlsOptions } from '../../transport/http-client.js';

export const KESTREL_PLUGIN = '@kestrel/plugin-mcp';

export type Approval = 'ask' | 'auto';

export interface KestrelSamplingConfig {
  enabled: boolean;
  /** A registered model id; absent: the server's hints, then the host's default. */
  model: string | undefined;
  /** Ceiling on a request's maxTokens. Default 1024. */
  maxTokens: number;
  /** Sampling requests allowed per tool call. Default 8. */
  maxRequestsPerCall: number;
}

export interface KestrelConfig {
  /** The servers, as the tool source runs them. */
  source: ToolSourceConfig;
  /** `approval` per server name; `ask` unless set. */
  approvals: ReadonlyMap<string, Approval>;
  sampling: KestrelSamplingConfig;
  /** Servers left out, and why: the host logs each as `mcp server failed`. */
  skipped: readonly { server: string; reason: string }[];
}

export const DEFAULT_SAMPLING: KestrelSamplingConfig = { enabled: false, model: undefined, maxTokens: 1024, maxRequestsPerCall: 8 };

export interface KestrelReadOptions {
  /** The config file's name, for errors. */
  file?: string;
  /** The folder a relative `cwd` is taken against (the config file's folder, or the host's working directory). */
  root?: string;
  /** Where `${NAME}` in header values is looked up, once, at load. Default: process.env. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Kestrel's whole config file (`kestrel.config.json`): the plugin's block is read out of it. */
export function loadKestrelConfigFile(file: string, options: Pick<KestrelReadOptions, 'env'> = {}): KestrelConfig {
  const text = readConfigText(file, MAX_JSON_TOML_BYTES);
  let doc: unknown;
  try {
    doc = parseJsonc(text).value;
  } catch (error) {
    if (!(error instanceof JsoncSyntaxError)) throw error;
    throw new ConfigError(file, [], `not valid JSON: ${error.reason}`, { line: error.line, column: error.column });
  }
  const block = pluginBlock(doc);
  if (block === undefined) throw new ConfigError(file, ['plugins', 'config', KESTREL_PLUGIN], 'no MCP plugin config here; expected {"plugins": {"config": {"@kestrel/plugin-mcp": {"servers": {...}}}}}');
  return readKestrelConfig(block, { ...options, file, root: path.dirname(path.resolve(file)) });
}

/** The plugin's block of a Kestrel config document, if it has one. */
export function pluginBlock(doc: unknown): unknown {
  if (!isObject(doc) || !isObject(doc.plugins) || !isObject(doc.plugins.config)) return undefined;
  return doc.plugins.config[KESTREL_PLUGIN];
}

/**
 * Reads the plugin's own config object (what the plugin host hands the
 * plugin). `root` resolves a relative `cwd` (the config file's folder, or
 * the host's working directory). Every value taken from the environment
 * for a header, and every credential-named header's value, is in
 * `source.secrets`.
 */
export function readKestrelConfig(block: unknown, where: KestrelReadOptions = {}): KestrelConfig {
  const file = where.file ?? `${KESTREL_PLUGIN} config`;
  const at = ['plugins', 'config', KESTREL_PLUGIN];
  if (!isObject(block)) throw new ConfigError(file, at, 'expected an object with "servers"');
  // A prototype key (or a hostile depth) anywhere is the whole file's problem, not one server's: said before anything is read.
  const problem = checkDocument(block);
  if (problem !== undefined) throw new ConfigError(file, [...at, ...problem.path], problem.detail);
  const env = where.env ?? process.env;
  const secrets = new Set<string>();
  const entries = block.servers === undefined ? {} : block.servers;
  if (!isObject(entries)) throw new ConfigError(file, [...at, 'servers'], 'expected an object mapping server names to {command, args} or {url, headers}');
  const root = where.root ?? process.cwd();
  const servers: SourceServer[] = [];
  const approvals = new Map<string, Approval>();
  const skipped: { server: string; reason: string }[] = [];
  for (const [name, entry] of Object.entries(entries)) {
    const read = readServer(name, entry, root, { env, secrets });
    if (typeof read === 'string') skipped.push({ server: name, reason: read });
    else {
      servers.push(read.server);
      approvals.set(name, read.approval);
    }
  }
  return {
    source: { file, format: 'kestrel', projectRoot: root, servers, resultCapBytes: Number.MAX_SAFE_INTEGER, defaultTimeoutMs: DEFAULT_CALL_TIMEOUT_MS, agents: {}, secrets: [...secrets] },
    approvals,
    sampling: readSampling(file, [...at, 'sampling'], block.sampling),
    skipped,
  };
}

/** The keys a Kestrel server takes, for a "did you mean" when neither command nor url is there. */
const SERVER_KEYS = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'approval', 'timeoutMs', 'protocolEra', 'oauth', 'tls', 'pin'];

interface ReadContext {
  env: Readonly<Record<string, string | undefined>>;
  secrets: Set<string>;
}

/** The keys Kestrel's `oauth` takes: the user's flow (scopes, a pre-registered client) and the machine grants' (#19, SPEC A1). */
const OAUTH_KEYS = ['scopes', 'clientId', 'clientSecret', 'grant', 'privateKey', 'privateKeyFile', 'signingAlgorithm', 'assertion', 'assertionFile', 'idp', 'dpop', 'callbackPort'];

/**
 * A server's `oauth`: absent, `true` (the flow with no settings), or an
 * object read as the mcpServers JSON's (oauth-key.ts), `${NAME}` resolved as
 * in headers; every credential joins the values every output is scrubbed of.
 * Unlike the clients' files, a key Kestrel does not define skips the server.
 */
function readOAuth(raw: unknown, root: string, ctx: ReadContext): OAuthSettings | undefined | string {
  if (raw === undefined || raw === false) return undefined;
  if (isObject(raw)) {
    const unknown = Object.keys(raw).filter((k) => !OAUTH_KEYS.includes(k));
    if (unknown.length > 0) return `"oauth" takes ${OAUTH_KEYS.join(', ')}, not ${unknown.map((k) => JSON.stringify(k)).join(', ')}`;
  }
  let problem: string | undefined;
  const resolve: ResolveValue = (text, keys) => {
    const context = { env: ctx.env, workspaceFolder: root, userHome: os.homedir() };
    const resolved = interpolate(text, context);
    if (!resolved.ok) {
      if (resolved.why !== 'unset') problem ??= `"${keys.join('.')}": ${describeInterpolation(resolved)}`;
      return '';
    }
    for (const secret of resolved.fromEnv) ctx.secrets.add(secret);
    return resolved.value.trim() === '' ? '' : resolved.value;
  };
  const settings = readJsonOAuth({ oauth: raw }, resolve, root);
  if (problem !== undefined) return problem;
  if (isOAuthProblem(settings)) return `"${settings.field.join('.')}": ${settings.detail}`;
  for (const secret of settings ? oauthSecrets(settings) : []) ctx.secrets.add(secret);
  return settings;
}

/** A remote server's `tls` (tls-key.ts), or why the server is skipped. */
function readTls(raw: unknown, root: string, ctx: ReadContext): HttpTlsOptions | undefined | string {
  let problem: string | undefined;
  const resolve: ResolveValue = (text, keys) => {
    const resolved = interpolate(text, { env: ctx.env, workspaceFolder: root, userHome: os.homedir() });
    if (!resolved.ok) {
      problem ??= `"${keys.join('.')}": ${describeInterpolation(resolved)}`;
      return '';
    }
    for (const secret of resolved.fromEnv) ctx.secrets.add(secret);
    return resolved.value.trim() === '' ? '' : resolved.value;
  };
  const read = readTlsKey(raw, resolve, root);
  if (problem !== undefined) return problem;
  if (read === undefined) return undefined;
  if (isOAuthProblem(read)) return `"${read.field.join('.')}": ${read.detail}`;
  for (const secret of read.secrets) ctx.secrets.add(secret);
  return read.tls;
}

/** One server, or why it is skipped. */
function readServer(name: string, raw: unknown, root: string, ctx: ReadContext): { server: SourceServer; approval: Approval } | string {
  // Kestrel's own words for both and neither: its hosts log them as they are.
  if (isObject(raw) && raw.command !== undefined && raw.url !== undefined) return 'sets both "command" and "url"; a server is either local (command) or remote (url)';
  if (isObject(raw) && raw.command === undefined && raw.url === undefined) return `sets neither "command" nor "url"${misspeltHint(raw, SERVER_KEYS, ['command', 'url'])}`;
  const kind = entryKind(raw, { noun: 'an object', urlField: 'url', keys: SERVER_KEYS });
  if (isProblem(kind)) return reason(kind);
  const { entry } = kind;
  const approval = entry.approval ?? 'ask';
  if (approval !== 'ask' && approval !== 'auto') return `"approval" must be "ask" or "auto", got ${JSON.stringify(approval)}`;
  const timeoutMs = entry.timeoutMs;
  if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs <= 0)) return '"timeoutMs" must be a positive whole number of milliseconds';
  // An era that cannot be read skips the server like any bad field: guessing one could speak to it in the wrong era.
  const era = readEraKey(entry, 'protocolEra');
  if (!era.ok) return era.key === 'protocolEra' ? `"protocolEra": ${era.detail}` : era.detail;
  // mcpwire's `pin` (SPEC G2): under block, a changed tool's permission becomes ask, with the reason (see plugin.ts).
  const pin = readPinKey(entry);
  if (!pin.ok) return `"pin": ${pin.detail}`;

  let params: ServerParams;
  if (kind.kind === 'url') {
    const problem = urlProblem(entry.url, '"headers": {"Authorization": "Bearer ${TOKEN}"}');
    if (problem !== undefined) return reason({ field: 'url', detail: problem });
    const written = stringMap(entry, 'headers');
    if (written === undefined) return reason({ field: 'headers', detail: 'expected an object of strings' });
    const headers = resolveHeaders(written, root, ctx);
    if (typeof headers === 'string') return headers;
    params = { transport: 'streamable-http', url: entry.url as string, headers, server: name };
    // mcpwire's `oauth` (#19): true, or {scopes, clientId, clientSecret} with ${NAME} resolved like headers.
    const oauth = readOAuth(entry.oauth, root, ctx);
    if (typeof oauth === 'string') return oauth;
    if (oauth) params.oauth = oauth;
    // mcpwire's `tls` (#19 item 4, SPEC A3): a client certificate, ${NAME} resolved like headers.
    const tls = readTls(entry.tls, root, ctx);
    if (typeof tls === 'string') return tls;
    if (tls) params.tls = tls;
  } else {
    if (entry.oauth !== undefined) return '"oauth" applies to a remote server (url), not to a command';
    if (entry.tls !== undefined) return '"tls" (a client certificate) applies to a remote server (url), not to a command';
    const fields = commandFields(entry);
    if (isProblem(fields)) return reason(fields);
    const env = stringMap(entry, 'env');
    if (env === undefined) return reason({ field: 'env', detail: 'expected an object of strings' });
    params = { transport: 'stdio', command: fields.command, args: fields.args, env, server: name };
    if (fields.cwd !== undefined) params.cwd = path.resolve(root, fields.cwd);
  }
  if (era.era !== undefined) params.protocolEra = era.era;
  // "A slow MCP server delays readiness — set timeoutMs deliberately": it bounds the start too.
  return { server: sourceServer(name, params, { timeoutMs, startupTimeoutMs: timeoutMs, pin: pin.pin }), approval };
}

/** An entry problem as the reason a server is skipped: `"url": expected an absolute http(s) URL`. */
function reason(problem: EntryProblem): string {
  return problem.field === undefined ? problem.detail : `"${problem.field}": ${problem.detail}`;
}

/**
 * Kestrel: "${NAME} in a header value is replaced with that environment
 * variable. A header that resolves to the empty string is dropped, so an
 * unset token never turns into Authorization:". The config readers' one
 * interpolation (config/interpolate.ts) does the replacing, so `${NAME}`
 * means here what it means in every config mcpwire reads (and
 * `${NAME:-default}`, `${env:NAME}` work too). A header with any variable
 * that is unset, empty or blank is dropped whole (`Bearer ${TOKEN}` must
 * not go out as `Bearer `). One pass: a value taken from the environment is
 * never scanned again. A placeholder only an editor can fill
 * (`${input:…}`, `${command:…}`) skips the server, with the reason.
 */
function resolveHeaders(raw: Record<string, string>, root: string, ctx: ReadContext): Record<string, string> | string {
  const headers: Record<string, string> = {};
  const context = { env: ctx.env, workspaceFolder: root, userHome: os.homedir() };
  for (const [header, template] of Object.entries(raw)) {
    const resolved = interpolate(template, context);
    if (!resolved.ok) {
      if (resolved.why === 'unset') continue;
      return `"headers"."${header}": ${describeInterpolation(resolved)}`;
    }
    if (resolved.fromEnv.some((taken) => taken.trim() === '') || resolved.value.trim() === '') continue;
    headers[header] = resolved.value;
    for (const secret of resolved.fromEnv) ctx.secrets.add(secret);
    if (resolved.fromEnv.length > 0 || isSecretHeader(header)) ctx.secrets.add(resolved.value);
  }
  return headers;
}

function readSampling(file: string, at: string[], value: unknown): KestrelSamplingConfig {
  if (value === undefined) return DEFAULT_SAMPLING;
  if (!isObject(value)) throw new ConfigError(file, at, 'expected an object {enabled, model, maxTokens, maxRequestsPerCall}');
  const positive = (key: string, fallback: number) => {
    const v = value[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw new ConfigError(file, [...at, key], 'expected a positive whole number');
    return v;
  };
  if (value.enabled !== undefined && typeof value.enabled !== 'boolean') throw new ConfigError(file, [...at, 'enabled'], 'expected true or false');
  if (value.model !== undefined && (typeof value.model !== 'string' || value.model === '')) throw new ConfigError(file, [...at, 'model'], 'expected a model id');
  return {
    enabled: value.enabled === true,
    model: value.model as string | undefined,
    maxTokens: positive('maxTokens', DEFAULT_SAMPLING.maxTokens),
    maxRequestsPerCall: positive('maxRequestsPerCall', DEFAULT_SAMPLING.maxRequestsPerCall),
  };
}
