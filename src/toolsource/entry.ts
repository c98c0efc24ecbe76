// The tool source's doors in the package's main entry, loading its modules
// (the registry, the supervisor, Kestrel's layer, and through the config
// readers the YAML, TOML and zod parsers) on first use: a host that imports
// mcpwire for the client alone pays for none of them at import time.

import type { KagedProjectOptions } from './config/kaged.js';
import type { LoadToolSourceOptions } from './config/load.js';
import type { ToolSourceConfig } from './config/types.js';
import type { KestrelConfig } from './kestrel/config.js';
import type { KestrelMcp, KestrelMcpOptions } from './kestrel/plugin.js';
import type { OpenToolSourceOptions, ToolSource } from './tool-source.js';

/**
 * The deadline for one server's start (spawn or connect, initialize,
 * tools/list) when neither its config nor the host sets one. Here, not in
 * tool-source.ts, so the package entry exports it without loading the tool source.
 */
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;

/** Opens a tool source over a config file or a loaded config (see tool-source.ts). */
export async function openToolSource(options: OpenToolSourceOptions): Promise<ToolSource> {
  return (await import('./tool-source.js')).openToolSource(options);
}

/** Reads a kaged project or an mcpServers file into the config a tool source runs. */
export async function loadToolSourceConfig(options: LoadToolSourceOptions): Promise<ToolSourceConfig> {
  return (await import('./tool-source.js')).loadToolSourceConfig(options);
}

/** Connects a Kestrel plugin-mcp config's servers and returns the plugin's surface (see kestrel/plugin.ts). */
export async function openKestrelMcp(options: KestrelMcpOptions): Promise<KestrelMcp> {
  return (await import('./kestrel/plugin.js')).openKestrelMcp(options);
}

/**
 * The config readers, for a host that builds or checks configs itself (#16
 * item 14). Async only because the parsers load on first use; each throws
 * (rejects with) a ConfigError naming the file, line and key.
 */

/** A kaged project: the project YAML with project.local.yaml, local.toml and config.toml beside it (see config/kaged.ts). */
export async function loadKagedProject(options: KagedProjectOptions): Promise<ToolSourceConfig> {
  return (await import('./config/kaged.js')).loadKagedProject(options);
}

/** Kestrel's plugin-mcp block (`plugins.config['@kestrel/plugin-mcp']`), already parsed; `root` is what relative paths mean. */
export async function readKestrelConfig(block: unknown, where: { file?: string; root?: string } = {}): Promise<KestrelConfig> {
  return (await import('./kestrel/config.js')).readKestrelConfig(block, where);
}

/** A Kestrel config file (JSON with comments). */
export async function loadKestrelConfigFile(file: string): Promise<KestrelConfig> {
  return (await import('./kestrel/config.js')).loadKestrelConfigFile(file);
}
