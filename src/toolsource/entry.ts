// The tool source's doors in the package's main entry, loading its modules
// (the registry, the supervisor, Kestrel's layer, and through the config
// readers the YAML, TOML and zod parsers) on first use: a host that imports
// mcpwire for the client alone pays for none of them at import time.

import type { LoadToolSourceOptions } from './config/load.js';
import type { ToolSourceConfig } from './config/types.js';
import type { KestrelMcp, KestrelMcpOptions } from './kestrel/plugin.js';
import type { OpenToolSourceOptions, ToolSource } from './tool-source.js';

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
