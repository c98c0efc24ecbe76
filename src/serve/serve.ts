// serveToolSource(): a tool source as one MCP server (G1), the library entry
// `mcpwire serve` runs. The host keeps the source (its config, supervision,
// close); this serves it over stdio or Streamable HTTP until close().

import type { Readable, Writable } from 'node:stream';
import type { Implementation } from '../client/results.js';
import { ConfigError } from '../errors.js';
import type { ToolSource } from '../toolsource/tool-source.js';
import { isWildcardAddress } from '../util/addresses.js';
import { isLoopbackAddress } from '../util/http-guard.js';
import { ToolSourceBridge, type ServedNames } from './bridge.js';
import { CallTracker } from './forward.js';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, serveHttp } from './http.js';
import { serveStdio } from './stdio.js';

export { CallTracker, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, type ServedNames };

/** Where the downstream clients are. */
export type ServeTransport =
  | {
      kind: 'stdio';
      /** Default process.stdin. */
      input?: Readable;
      /** Default process.stdout: nothing else may write to it. */
      output?: Writable;
    }
  | {
      kind: 'http';
      /** Default 127.0.0.1. Any other than a loopback address needs `token`. */
      host?: string;
      /** Default 0 (a free port; see ServeHandle.url). */
      port?: number;
      /** The bearer token every request must carry. Required for a bind that is not loopback. */
      token?: string;
      /** Host names accepted besides loopback names and the listen address (DNS-rebinding guard). */
      allowHosts?: readonly string[];
      /** Origins accepted besides those of accepted hosts. */
      allowOrigins?: readonly string[];
      /** Default DEFAULT_SESSION_IDLE_MS (10 minutes). */
      sessionIdleMs?: number;
      /** Largest request body, bytes. Default 32 MiB. */
      maxBodyBytes?: number;
      /** Live sessions at most (2025 clients); an initialize over it is answered 503. Default DEFAULT_MAX_SESSIONS (256). */
      maxSessions?: number;
      /** Bytes an SSE stream may hold unread before it is closed (a client that stopped reading). Default 8 MiB. */
      maxUnreadBytes?: number;
    };

export interface ServeOptions {
  /** Serve only this agent's tools (R3). Over HTTP `/mcp/<agent>` serves any agent of the config besides. */
  agent?: string;
  /** How tools are named to the clients. Default 'alias'. */
  names?: ServedNames;
  /** Default {name: "mcpwire-serve", version}. */
  serverInfo?: Implementation;
  instructions?: string;
  /**
   * Routes upstream requests (sampling, elicitation, roots) to the client
   * whose call they belong to. Takes effect only when the source was opened
   * with `serverHandlers: (key) => calls.handlers(key)`; otherwise they are
   * refused upstream, as by any tool source without handlers.
   */
  calls?: CallTracker;
  /** Told about refused requests and malformed messages; never given a secret. */
  onProblem?: (text: string) => void;
}

export interface ServeHandle {
  /** Over HTTP, the `/mcp` endpoint. */
  url: string | undefined;
  /** Over stdio, settles when the client has closed its input. Over HTTP, at close(). */
  closed: Promise<void>;
  /** Stops serving: sessions end and their calls are cancelled. The source stays open (the host's). */
  close(): Promise<void>;
}

export async function serveToolSource(source: ToolSource, transport: ServeTransport, options: ServeOptions = {}): Promise<ServeHandle> {
  const bridge = new ToolSourceBridge(source, options.names ?? 'alias');
  const common = {
    bridge,
    serverInfo: options.serverInfo ?? { name: 'mcpwire-serve', version: '0.1.0' },
    ...(options.instructions ? { instructions: options.instructions } : {}),
    ...(options.calls ? { calls: options.calls } : {}),
    ...(options.onProblem ? { onProblem: options.onProblem } : {}),
  };
  // An unknown agent fails now, not at the first request.
  if (options.agent !== undefined) source.forAgent(options.agent);
  if (transport.kind === 'stdio') {
    const served = serveStdio({ ...common, ...(options.agent === undefined ? {} : { agent: options.agent }), input: transport.input ?? process.stdin, output: transport.output ?? process.stdout });
    // The bridge follows the source's registry while serving; the source outlives it.
    const closed = served.closed.then(() => bridge.close());
    return {
      url: undefined,
      closed,
      close: async () => {
        served.close();
        await closed;
      },
    };
  }
  const host = transport.host ?? '127.0.0.1';
  if (!isLoopbackAddress(host) && !transport.token) {
    throw new ConfigError(undefined, ['token'], `listening on ${host}${isWildcardAddress(host) ? ' (every interface)' : ''} is reachable from other machines: a bearer token is required (give one, or listen on 127.0.0.1)`);
  }
  if (transport.token !== undefined && transport.token.length < 16) throw new ConfigError(undefined, ['token'], 'the bearer token must be at least 16 characters');
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  const http = await serveHttp({
    ...common,
    host,
    port: transport.port ?? 0,
    agents: Object.keys(source.config.agents),
    ...(options.agent === undefined ? {} : { agent: options.agent }),
    ...(transport.token === undefined ? {} : { token: transport.token }),
    ...(transport.allowHosts ? { allowHosts: transport.allowHosts } : {}),
    ...(transport.allowOrigins ? { allowOrigins: transport.allowOrigins } : {}),
    ...(transport.sessionIdleMs === undefined ? {} : { sessionIdleMs: transport.sessionIdleMs }),
    ...(transport.maxBodyBytes === undefined ? {} : { maxBodyBytes: transport.maxBodyBytes }),
    ...(transport.maxSessions === undefined ? {} : { maxSessions: transport.maxSessions }),
    ...(transport.maxUnreadBytes === undefined ? {} : { maxUnreadBytes: transport.maxUnreadBytes }),
  });
  return {
    url: http.url,
    closed,
    close: async () => {
      await http.close();
      bridge.close();
      done();
    },
  };
}
