// One entry point for a tool source's config file: tells a kaged project
// (C1) from the configs of MCP clients (C5: mcpServers JSON, VS Code's
// servers, Codex's TOML), takes a client's name for its file, and hands back
// the one ToolSourceConfig shape. Does NOT read the Kestrel plugin config (C4).

import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../errors.js';
import { isClientName, resolveClientConfig } from './client-locations.js';
import { readCodexToml } from './codex-toml.js';
import { JsoncSyntaxError, parseJsonc, type JsoncDocument } from './jsonc.js';
import { loadKagedProject, readKagedProject, type KagedProjectOptions } from './kaged.js';
import { checkedDocument, findServerBlocks, readClientJson } from './mcp-servers-json.js';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_RESULT_CAP_BYTES, type ToolSourceConfig } from './types.js';
import { workspaceOf } from './workspace.js';
import { MAX_JSON_TOML_BYTES, MAX_YAML_BYTES, readConfigText } from './read-text.js';
import { parseYaml, type YamlSource } from './yaml-source.js';
import { pluginBlock, readKestrelConfig } from '../kestrel/config.js';
import { sourceServer } from './server-entry.js';
import { isObject } from '../../jsonrpc/message.js';

/**
 * Options of every format, and kaged's own: `projectLocal`, `local`,
 * `daemonConfig` (refused for another format), `deferSecrets` and
 * `operatorConfigDir` (kaged's secret_ref and local.toml; another format has
 * neither, so they change nothing there). `env` is where the client formats
 * and Kestrel look up `${NAME}`, once, at load.
 */
export interface LoadToolSourceOptions extends Omit<KagedProjectOptions, 'project'> {
  /**
   * The config file, or a client's name (`claude`, `claude-code`,
   * `claude-desktop`, `cursor`, `vscode`, `windsurf`, `codex`: its project
   * file, else its user file; write `./cursor` for a file of that name).
   * `.yaml` / `.yml`, or any file whose document has a top-level `mcp:`
   * mapping, is a kaged project; `.toml` is Codex's config.toml; a JSON
   * document (comments and trailing commas allowed) with `mcpServers` or
   * `servers` is a client's config.
   */
  config: string;
  /** `${userHome}`, and where client files are looked for. Default: the user's home folder. */
  home?: string;
  /** The project being worked on: where project-level client files are looked for, `${workspaceFolder}` of user-level files. Default: the current folder. */
  projectDir?: string;
}

const ACCEPTED =
  'expected a kaged project (YAML with a top-level mcp: mapping, usually .yaml or .yml), an MCP client\'s JSON ({"mcpServers": {...}} or {"servers": {...}}), a Kestrel config ({"plugins": {"config": {"@kestrel/plugin-mcp": {...}}}}) or Codex\'s config.toml ([mcp_servers.NAME])';

type Format = ToolSourceConfig['format'];

/** Loads any of the formats. Throws ConfigError for an unreadable or unrecognised file, and whatever the format's reader throws. */
export function loadToolSourceConfig(options: LoadToolSourceOptions): ToolSourceConfig {
  const { config, home = os.homedir(), projectDir = process.cwd(), ...rest } = options;
  const file = isClientName(config) ? resolveClientConfig(config, { home, project: projectDir, ...(rest.env ? { env: rest.env } : {}) }) : config;
  // The file is read and parsed once, here, to tell its format; the format's reader takes what was parsed.
  const found = detect(file, projectDir);
  const { format } = found;
  if (format === 'kaged') return found.yaml ? readKagedProject({ project: file, ...rest }, found.yaml) : loadKagedProject({ project: file, ...rest });
  // Kestrel's plugin config: its servers, as the tool source runs them (approvals and sampling are the Kestrel layer's).
  // A server Kestrel would skip stays in the list, marked with why, so that tools and doctor say so.
  if (format === 'kestrel') {
    const kestrel = readKestrelConfig(pluginBlock(checkedDocument(file, found.document!).value), { file, root: path.dirname(path.resolve(file)), ...(rest.env ? { env: rest.env } : {}) });
    const skipped = kestrel.skipped.map(({ server, reason }) => sourceServer(server, { transport: 'stdio', command: [server], server }, { unsupported: `skipped: ${reason}` }));
    return { ...kestrel.source, servers: [...kestrel.source.servers, ...skipped] };
  }

  // The overlay, local.toml and config.toml are kaged's; given for another format they would do nothing, silently.
  const kagedOnly = (['projectLocal', 'local', 'daemonConfig'] as const).filter((name) => rest[name] !== undefined);
  if (kagedOnly.length > 0) {
    const which = kagedOnly.length === 1 ? `the option ${kagedOnly[0]} applies` : `the options ${kagedOnly.join(', ')} apply`;
    throw new ConfigError(file, [], `${which} to a kaged project only; this file is ${format === 'codex' ? "Codex's config.toml" : 'an MCP client\'s JSON'}`);
  }
  const env = rest.env ?? process.env;
  const read =
    format === 'codex'
      ? { format, ...readCodexToml(file, { env, workspaceFolder: workspaceOf(file, { home, project: projectDir, userDirs: env.CODEX_HOME ? [env.CODEX_HOME] : [] }) }) }
      : readClientJson(file, { env, home, project: projectDir, ...(found.document ? { document: found.document } : found.text !== undefined ? { text: found.text } : {}) });
  return {
    file: path.resolve(file),
    format: read.format,
    projectRoot: 'workspaceFolder' in read ? read.workspaceFolder : path.dirname(path.resolve(file)),
    servers: read.servers,
    resultCapBytes: DEFAULT_RESULT_CAP_BYTES,
    defaultTimeoutMs: DEFAULT_CALL_TIMEOUT_MS,
    agents: {},
    secrets: read.secrets,
  };
}

/**
 * The file's format, with what was parsed to tell it, so that the format's
 * reader does not read or parse the file again: the JSON document, the YAML
 * of a kaged project found by its content, or the text of a .json file that
 * did not parse (its reader says where).
 */
interface Detected {
  format: Format;
  document?: JsoncDocument;
  yaml?: YamlSource;
  text?: string;
}

function detect(file: string, projectDir: string): Detected {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') return { format: 'kaged' };
  // Codex's file is always config.toml; its reader says when the [mcp_servers] table is missing.
  if (ext === '.toml') return { format: 'codex' };
  const text = readConfigText(file, MAX_JSON_TOML_BYTES);
  let document: JsoncDocument | undefined;
  try {
    document = parseJsonc(text);
  } catch (error) {
    if (!(error instanceof JsoncSyntaxError)) throw error;
    // A .json file that does not parse is a broken client config: its reader says where.
    if (ext === '.json') return { format: 'mcp-servers', text };
  }
  const json = document?.value;
  if (pluginBlock(json) !== undefined) return { format: 'kestrel', document: document! };
  const blocks = findServerBlocks(json, projectDir);
  if (blocks) return { format: blocks.format, document: document! };
  if (json === undefined) {
    // Not JSON: YAML then, whose reader takes no more than MAX_YAML_BYTES (it would be slow to find out on more).
    if (text.length > MAX_YAML_BYTES) throw new ConfigError(file, [], `not JSON, and too large for a kaged project (YAML, at most ${MAX_YAML_BYTES / 1024 / 1024} MiB); ${ACCEPTED}`);
    let yaml: YamlSource;
    try {
      yaml = parseYaml(file, text, { quoteLines: true });
    } catch {
      throw new ConfigError(file, [], `neither JSON nor YAML; ${ACCEPTED}`);
    }
    // (More bytes than characters past the bound: the kaged reader reads it again, to refuse it by size as always.)
    if (isObject(yaml.value) && isObject(yaml.value.mcp)) return Buffer.byteLength(text) > MAX_YAML_BYTES ? { format: 'kaged' } : { format: 'kaged', yaml };
  } else if (isObject(json) && isObject(json.mcp)) {
    // JSON is YAML: a JSON document with an mcp: mapping is a kaged project written in JSON syntax, read as YAML for its locations.
    return Buffer.byteLength(text) > MAX_YAML_BYTES ? { format: 'kaged' } : { format: 'kaged', yaml: parseYaml(file, text, { quoteLines: true }) };
  }
  throw new ConfigError(file, [], `unrecognised config format; ${ACCEPTED}`);
}
