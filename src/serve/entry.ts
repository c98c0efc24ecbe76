// serve's door in the package entry (G1): serveToolSource() loads the bridge,
// the stdio and HTTP servers (node:http, node:crypto) on first use, so a host
// that imports mcpwire for the client alone pays for none of them (#20 item
// 2, X4). CallTracker is a class a host constructs before serving (small:
// forward.ts, peer.ts, subscriptions.ts), so it stays eager.

import type { ToolSource } from '../toolsource/tool-source.js';
import type { ServeHandle, ServeOptions, ServeTransport } from './serve.js';

export { CallTracker } from './forward.js';
export { DEFAULT_SESSION_IDLE_MS } from './defaults.js';

/** Serves a tool source as one MCP server over stdio or Streamable HTTP (see serve.ts). */
export async function serveToolSource(source: ToolSource, transport: ServeTransport, options: ServeOptions = {}): Promise<ServeHandle> {
  return (await import('./serve.js')).serveToolSource(source, transport, options);
}
