// `mcpwire login SERVER`, `mcpwire logout SERVER`, `mcpwire auth status`
// (#19 item 3): the OAuth credentials of HTTP servers, kept in the user's
// credentials file (mode 0600; $MCPWIRE_CREDENTIALS overrides where). A
// login connects with a loopback receiver and the browser (or, with
// --paste, prints the URL and reads the address the browser ended on), and
// proves itself by listing the server's tools. Nothing here prints a token.

import { createInterface } from 'node:readline';
import type { ServerParams } from '../../client/connect.js';
import { browserAuthorizer, startLoopbackReceiver } from '../../auth/loopback.js';
import { FileCredentialStore, resourceOfKey } from '../../auth/store.js';
import type { Authorizer } from '../../auth/oauth-provider.js';
import { parseCommandLine } from '../options.js';
import { err, out } from '../process.js';
import { resolveConfig } from '../target.js';
import { UsageError } from '../usage.js';

type HttpParams = Extract<ServerParams, { transport: 'sse' | 'streamable-http' }>;

/** The HTTP server `key` names in the command's config (or the one given by --url). */
async function httpServer(command: string, args: string[]): Promise<{ key: string; params: HttpParams; json: boolean; paste: boolean }> {
  const paste = args.includes('--paste');
  const line = parseCommandLine(command, args.filter((a) => a !== '--paste'));
  const config = await resolveConfig(command, line);
  const wanted = line.positionals[0] ?? line.values.server ?? (config.servers.length === 1 ? config.servers[0]!.key : undefined);
  if (wanted === undefined) throw new UsageError(`${command} needs the server: mcpwire ${command} SERVER (one of ${config.servers.map((s) => s.key).join(', ') || 'none'})`);
  const server = config.servers.find((s) => s.key === wanted);
  if (!server) throw new UsageError(`no server "${wanted}"; servers: ${config.servers.map((s) => s.key).join(', ') || '(none)'}`);
  if (server.params.transport === 'stdio') throw new UsageError(`server "${wanted}" runs over stdio: OAuth is for HTTP servers`);
  return { key: wanted, params: server.params, json: line.values.json, paste };
}

function pasteAuthorizer(): Authorizer {
  return async ({ url, server }) => {
    err(`To authorize ${server}, open this URL in a browser:\n  ${url.href}\nThen paste the address the browser ended on (it may show an error page; its address is what counts):\n`);
    const lines = createInterface({ input: process.stdin });
    try {
      for await (const line of lines) {
        const text = line.trim();
        if (text === '') continue;
        if (!URL.canParse(text)) throw new UsageError('that is not a URL: paste the whole address from the browser');
        return new URL(text);
      }
    } finally {
      lines.close();
    }
    throw new UsageError('no address was pasted');
  };
}

export async function login(args: string[]): Promise<number> {
  const { key, params, json, paste } = await httpServer('login', args);
  // A pre-registered client's redirect URI may name its port (Claude Code's oauth.callbackPort).
  const receiver = paste ? undefined : await startLoopbackReceiver('/callback', params.oauth?.callbackPort ?? 0);
  const store = new FileCredentialStore();
  try {
    const { connect } = await import('../../client/connect.js');
    // MCPWIRE_NO_BROWSER=1: print the URL only (tests, and machines whose browser should not be started).
    const authorize = receiver ? browserAuthorizer({ receiver, print: (text) => err(`${text}\n`), ...(process.env.MCPWIRE_NO_BROWSER ? { open: false as const } : {}) }) : pasteAuthorizer();
    const client = await connect({
      ...params,
      oauth: { ...params.oauth, store, authorize, redirectUri: receiver?.redirectUri ?? 'http://127.0.0.1/callback' },
    });
    try {
      const { tools } = await client.listTools();
      if (json) out(`${JSON.stringify({ server: key, loggedIn: true, tools: tools.length, credentials: store.file })}\n`);
      else out(`logged in to ${key}: ${tools.length} tool${tools.length === 1 ? '' : 's'}; credentials in ${store.file}\n`);
      return 0;
    } finally {
      await client.close();
    }
  } finally {
    await receiver?.close();
  }
}

export async function logout(args: string[]): Promise<number> {
  const { key, params, json } = await httpServer('logout', args);
  const store = new FileCredentialStore();
  const resource = String(params.url);
  const mine = store.keys().filter((k) => resourceOfKey(k) === resource);
  for (const k of mine) store.delete(k);
  if (json) out(`${JSON.stringify({ server: key, removed: mine.length })}\n`);
  else out(mine.length ? `logged out of ${key} (${mine.length} credential${mine.length === 1 ? '' : 's'} removed from ${store.file})\n` : `no credentials stored for ${key}\n`);
  return 0;
}

/** `auth status`: every stored credential, by resource and issuer, with what it holds; never a value. */
export async function authStatus(args: string[]): Promise<number> {
  const line = parseCommandLine('auth', args);
  const store = new FileCredentialStore();
  const now = Date.now();
  const rows = store.keys().map((k) => {
    const entry = store.get(k)!;
    const tokens = entry.tokens;
    return {
      resource: resourceOfKey(k),
      issuer: entry.issuer,
      client: entry.client?.how ?? null,
      token: tokens ? (tokens.expires_at === undefined ? 'valid (no expiry given)' : tokens.expires_at > now ? `valid for ${Math.round((tokens.expires_at - now) / 1000)} s` : 'expired') : 'none',
      refresh: tokens?.refresh_token !== undefined,
      scope: tokens?.scope ?? null,
    };
  });
  if (line.values.json) {
    out(`${JSON.stringify({ credentials: store.file, entries: rows })}\n`);
    return 0;
  }
  if (rows.length === 0) {
    out(`no OAuth credentials stored (${store.file})\n`);
    return 0;
  }
  out(`${store.file}\n`);
  for (const r of rows) out(`  ${r.resource}\n    issuer ${r.issuer}; token ${r.token}${r.refresh ? ', refreshable' : ''}${r.scope ? `; scope ${r.scope}` : ''}${r.client ? `; client ${r.client}` : ''}\n`);
  return 0;
}
