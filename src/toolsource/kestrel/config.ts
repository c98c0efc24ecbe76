// Kestrel's plugin config (C4): `plugins.config["@kestrel/plugin-mcp"]`
// with `servers.<name>` ({command, args, env, cwd} | {url, headers};
// `approval`; `timeoutMs`) and `sampling`. A server that sets both or
// neither of command and url, or a field of the wrong type, is skipped with
// the reason (the host logs it); the rest start. Checked by hand: the shape
// is small, and a bad server must not stop the others, as a whole-document
// schema would.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ServerParams } from '../../client/connect.js';
import { ConfigError } from '../../errors.js';
import { isObject } from '../../jsonrpc/message.js';
import { parseJsonc } from '../config/jsonc.js';
import { DEFAULT_CALL_TIMEOUT_MS, type SourceServer, type ToolSourceConfig } from '../config/types.js';

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

/** Kestrel's whole config file (`kestrel.config.json`): the plugin's block is read out of it. */
export function loadKestrelConfigFile(file: string): KestrelConfig {
  let doc: unknown;
  try {
    doc = parseJsonc(readFileSync(file, 'utf8')).value;
  } catch (error) {
    throw new ConfigError(file, [], `cannot read it as JSON (${(error as Error).message})`, { cause: error });
  }
  const block = pluginBlock(doc);
  if (block === undefined) throw new ConfigError(file, ['plugins', 'config', KESTREL_PLUGIN], 'no MCP plugin config here; expected {"plugins": {"config": {"@kestrel/plugin-mcp": {"servers": {...}}}}}');
  return readKestrelConfig(block, { file, root: path.dirname(path.resolve(file)) });
}

/** The plugin's block of a Kestrel config document, if it has one. */
export function pluginBlock(doc: unknown): unknown {
  if (!isObject(doc) || !isObject(doc.plugins) || !isObject(doc.plugins.config)) return undefined;
  return doc.plugins.config[KESTREL_PLUGIN];
}

/**
 * Reads the plugin's own config object (what the plugin host hands the
 * plugin). `root` resolves a relative `cwd` (the config file's folder, or
 * the host's working directory).
 */
export function readKestrelConfig(block: unknown, where: { file?: string; root?: string } = {}): KestrelConfig {
  const file = where.file ?? `${KESTREL_PLUGIN} config`;
  const at = ['plugins', 'config', KESTREL_PLUGIN];
  if (!isObject(block)) throw new ConfigError(file, at, 'expected an object with "servers"');
  const entries = block.servers === undefined ? {} : block.servers;
  if (!isObject(entries)) throw new ConfigError(file, [...at, 'servers'], 'expected an object mapping server names to {command, args} or {url, headers}');
  const root = where.root ?? process.cwd();
  const servers: SourceServer[] = [];
  const approvals = new Map<string, Approval>();
  const skipped: { server: string; reason: string }[] = [];
  for (const [name, entry] of Object.entries(entries)) {
    const read = readServer(name, entry, root);
    if (typeof read === 'string') skipped.push({ server: name, reason: read });
    else {
      servers.push(read.server);
      approvals.set(name, read.approval);
    }
  }
  return {
    source: { file, format: 'kestrel', projectRoot: root, servers, resultCapBytes: Number.MAX_SAFE_INTEGER, defaultTimeoutMs: DEFAULT_CALL_TIMEOUT_MS, agents: {}, secrets: [] },
    approvals,
    sampling: readSampling(file, [...at, 'sampling'], block.sampling),
    skipped,
  };
}

/** One server, or why it is skipped. */
function readServer(name: string, entry: unknown, root: string): { server: SourceServer; approval: Approval } | string {
  if (!isObject(entry)) return 'expected an object with "command" or "url"';
  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  if (hasCommand && hasUrl) return 'sets both "command" and "url"; a server is either local (command) or remote (url)';
  if (!hasCommand && !hasUrl) return 'sets neither "command" nor "url"';
  const approval = entry.approval ?? 'ask';
  if (approval !== 'ask' && approval !== 'auto') return `"approval" must be "ask" or "auto", got ${JSON.stringify(approval)}`;
  const timeoutMs = entry.timeoutMs;
  if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs <= 0)) return '"timeoutMs" must be a positive whole number of milliseconds';

  let params: ServerParams;
  if (hasUrl) {
    if (typeof entry.url !== 'string' || !URL.canParse(entry.url) || !/^https?:$/.test(new URL(entry.url).protocol)) return '"url" must be an absolute http(s) URL';
    const headers = stringMap(entry.headers);
    if (headers === undefined) return '"headers" must be an object of strings';
    // `${NAME}` in header values is resolved, and a header that resolves to empty dropped, by the transport (T4).
    params = { transport: 'streamable-http', url: entry.url, headers, server: name };
  } else {
    if (typeof entry.command !== 'string' || entry.command === '') return '"command" must be a non-empty string';
    const args = entry.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) return '"args" must be an array of strings';
    const env = stringMap(entry.env);
    if (env === undefined) return '"env" must be an object of strings';
    if (entry.cwd !== undefined && typeof entry.cwd !== 'string') return '"cwd" must be a string';
    params = { transport: 'stdio', command: entry.command, args: args as string[], env, server: name };
    if (typeof entry.cwd === 'string') params.cwd = path.resolve(root, entry.cwd);
  }
  return {
    server: {
      key: name,
      params,
      tools: { enabled: true, allow: undefined, deny: [] },
      disabled: false,
      timeoutMs,
      // "A slow MCP server delays readiness — set timeoutMs deliberately": it bounds the start too.
      startupTimeoutMs: timeoutMs,
      unsupported: undefined,
    },
    approval,
  };
}

function stringMap(value: unknown): Record<string, string> | undefined {
  if (value === undefined) return {};
  if (!isObject(value) || !Object.values(value).every((v) => typeof v === 'string')) return undefined;
  return value as Record<string, string>;
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
