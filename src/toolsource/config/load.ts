// One entry point for a tool source's config file: tells a kaged project
// (C1) from an mcpServers JSON (C5) and hands back the one ToolSourceConfig
// shape either way. Does NOT read the Kestrel plugin config (C4).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../errors.js';
import { loadKagedProject, type KagedProjectOptions } from './kaged.js';
import { loadMcpServersJson } from './mcp-servers-json.js';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_RESULT_CAP_BYTES, type ToolSourceConfig } from './types.js';
import { parseYaml } from './yaml-source.js';

export interface LoadToolSourceOptions extends Omit<KagedProjectOptions, 'project'> {
  /**
   * The config file. `.yaml` / `.yml`, or any file whose document has a
   * top-level `mcp:` mapping, is a kaged project; a JSON document with
   * `mcpServers` or `servers` is an mcpServers config.
   */
  config: string;
}

const ACCEPTED =
  'expected a kaged project (YAML with a top-level mcp: mapping, usually .yaml or .yml) or an mcpServers JSON ({"mcpServers": {...}} or {"servers": {...}})';

/** Loads either format. Throws ConfigError for an unreadable or unrecognised file, and whatever the format's reader throws. */
export function loadToolSourceConfig(options: LoadToolSourceOptions): ToolSourceConfig {
  const { config: file, ...rest } = options;
  const format = detect(file);
  if (format === 'kaged') return loadKagedProject({ project: file, ...rest });

  // The overlay, local.toml and config.toml are kaged's; given for an mcpServers file they would do nothing, silently.
  const kagedOnly = (['projectLocal', 'local', 'daemonConfig'] as const).filter((name) => rest[name] !== undefined);
  if (kagedOnly.length > 0) {
    const which = kagedOnly.length === 1 ? `the option ${kagedOnly[0]} applies` : `the options ${kagedOnly.join(', ')} apply`;
    throw new ConfigError(file, [], `${which} to a kaged project only; this file is an mcpServers JSON`);
  }
  const servers = loadMcpServersJson(file).map(({ name, ...params }) => ({
    key: name,
    params: params.transport !== 'stdio' && rest.env ? { ...params, env: rest.env } : params,
    tools: { enabled: true, allow: undefined, deny: [] },
    disabled: false,
    timeoutMs: undefined,
    unsupported: undefined,
  }));
  return {
    file: path.resolve(file),
    format: 'mcp-servers',
    projectRoot: path.dirname(path.resolve(file)),
    servers,
    resultCapBytes: DEFAULT_RESULT_CAP_BYTES,
    defaultTimeoutMs: DEFAULT_CALL_TIMEOUT_MS,
    agents: {},
    secrets: [],
  };
}

function detect(file: string): 'kaged' | 'mcp-servers' {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') return 'kaged';
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(file, [], `cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // A .json file that does not parse is a broken mcpServers file: its reader says where.
    if (ext === '.json') return 'mcp-servers';
  }
  if (isMapping(json) && ('mcpServers' in json || 'servers' in json)) return 'mcp-servers';
  if (json === undefined) {
    let doc: unknown;
    try {
      doc = parseYaml(file, text).value;
    } catch {
      throw new ConfigError(file, [], `neither JSON nor YAML; ${ACCEPTED}`);
    }
    if (isMapping(doc) && isMapping(doc.mcp)) return 'kaged';
  } else if (isMapping(json) && isMapping(json.mcp)) {
    return 'kaged'; // JSON is YAML: a JSON document with an mcp: mapping is a kaged project written in JSON syntax.
  }
  throw new ConfigError(file, [], `unrecognised config format; ${ACCEPTED}`);
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
