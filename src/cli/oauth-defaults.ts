// The CLI's OAuth default (#19): every HTTP server that carries no
// credential of its own (no Authorization header, no auth) gets the OAuth
// flow with the user's credentials file, so that after `mcpwire login X`
// every command reaches X with the stored token (refreshed as needed), and
// a server that needs a login says to run it. No command but `login` ever
// opens a browser: the others have no authorizer.

import { FileCredentialStore } from '../auth/store.js';
import type { ServerParams } from '../client/connect.js';
import type { ToolSourceConfig } from '../toolsource/config/types.js';

export function withCliOAuth(config: ToolSourceConfig): ToolSourceConfig {
  let store: FileCredentialStore | undefined;
  const servers = config.servers.map((server) => {
    const params = server.params;
    if (params.transport === 'stdio' || !wantsOAuth(params)) return server;
    store ??= new FileCredentialStore();
    return { ...server, params: { ...params, oauth: { store, ...params.oauth } } };
  });
  return { ...config, servers };
}

function wantsOAuth(params: Extract<ServerParams, { transport: 'sse' | 'streamable-http' }>): boolean {
  if (params.headerProvider) return false;
  if (params.oauth) return true;
  if (params.auth && params.auth.type !== 'none') return false;
  return !Object.keys(params.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
}
