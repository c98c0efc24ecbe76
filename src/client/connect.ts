// One-call helpers: build the transport for a server description, the
// client, and run the handshake.

import { OAuthProvider } from '../auth/oauth-provider.js';
import { DEFAULT_REDIRECT_URI, grantOptions, type OAuthSettings } from '../auth/settings.js';
import { FileCredentialStore } from '../auth/store.js';
import { AuthError, ClosedError } from '../errors.js';
import { SseTransport, type SseTransportOptions } from '../transport/sse.js';
import { StdioTransport, type StdioTransportOptions } from '../transport/stdio.js';
import { StreamableHttpTransport, type StreamableHttpTransportOptions } from '../transport/streamable-http.js';
import type { Transport } from '../transport/transport.js';
import type { ProtocolEra } from './era.js';
import { defaultEraCache, eraCacheKey } from './era-cache.js';
import { McpClient, type ConnectOptions, type McpClientOptions } from './client.js';
import { EraProbeClosedError } from './modern-handshake.js';

/** What every server description may say, whatever its transport. */
export interface CommonServerParams {
  /** Which protocol era to speak (#17; see era.ts). Default: decided by the client (see McpClientOptions). */
  protocolEra?: ProtocolEra;
  /** HTTP servers: authorize with OAuth (#19) when the server asks (a 401). Ignored for stdio and when a headerProvider is given. */
  oauth?: OAuthSettings;
}

/** A server to connect to, by transport. */
export type ServerParams = CommonServerParams &
  (
    | ({ transport: 'stdio' } & StdioTransportOptions)
    | ({ transport: 'sse' } & SseTransportOptions)
    | ({ transport: 'streamable-http'; fallbackToSse?: boolean } & StreamableHttpTransportOptions)
  );

export function createTransport(params: ServerParams): Transport {
  switch (params.transport) {
    case 'stdio':
      return new StdioTransport(params);
    case 'sse':
      return new SseTransport(withOAuth(params));
    case 'streamable-http':
      return new StreamableHttpTransport(withOAuth(params));
  }
}

/** An HTTP server's params with its OAuth settings turned into the header provider that runs the flow. */
function withOAuth<P extends Extract<ServerParams, { transport: 'sse' | 'streamable-http' }>>(params: P): P {
  const oauth = params.oauth;
  if (!oauth || params.headerProvider) return params;
  const url = String(params.url);
  const headerProvider = new OAuthProvider({
    serverUrl: url,
    server: params.server ?? new URL(url).host,
    store: oauth.store ?? new FileCredentialStore(),
    redirectUri: oauth.redirectUri ?? DEFAULT_REDIRECT_URI,
    ...(oauth.authorize ? { authorize: oauth.authorize } : {}),
    ...(oauth.scopes ? { scopes: oauth.scopes } : {}),
    ...grantOptions(oauth),
    ...(oauth.clientMetadataUrl ? { clientMetadataUrl: oauth.clientMetadataUrl } : {}),
    ...(oauth.fetch ? { fetch: oauth.fetch } : {}),
  });
  return { ...params, headerProvider };
}

/**
 * Opens the transport and completes the handshake. On failure everything is
 * closed and the error rethrown.
 *
 * With `fallbackToSse` (a Streamable HTTP server given by URL alone, as in an
 * mcpServers entry without `type`), a server that refuses the initialize POST
 * with a 4xx status is tried once more over the legacy HTTP+SSE transport at
 * the same URL: the MCP specification's backwards-compatibility procedure for
 * servers older than 2025-03-26. 401 and 403 are about credentials and 429
 * about load, not the transport: those fail at once.
 */
export async function connect(params: ServerParams, clientOptions: McpClientOptions = {}, handshake: ConnectOptions = {}): Promise<McpClient> {
  const options = eraOptions(params, clientOptions);
  // The host hears of this client's end only if it is the one connect() returns, or fails with: a server that
  // exits on the era probe and is started again is one connection to the host, not two.
  let probing = true;
  let endDuringConnect: Parameters<NonNullable<McpClientOptions['onClose']>>[0] | undefined;
  const onClose = options.onClose && ((end: Parameters<NonNullable<McpClientOptions['onClose']>>[0]) => (probing ? (endDuringConnect = end) : options.onClose!(end)));
  const client = new McpClient(createTransport(params), onClose ? { ...options, onClose } : options);
  try {
    await client.connect(handshake);
    probing = false;
    return client;
  } catch (error) {
    probing = false;
    if (!(error instanceof EraProbeClosedError) && endDuringConnect) options.onClose?.(endDuringConnect);
    if (error instanceof EraProbeClosedError) {
      // A legacy server that exits on a request before initialize (#17 item 1): started once more, legacy, and remembered.
      if (options.eraCache && options.eraCacheKey) options.eraCache.set(options.eraCacheKey, { era: 'legacy' });
      const legacy = new McpClient(createTransport(params), { ...options, protocolEra: 'legacy' });
      await legacy.connect(handshake);
      return legacy;
    }
    if (params.transport !== 'streamable-http' || !params.fallbackToSse) throw error;
    const status = legacyRefusalStatus(error);
    if (status === undefined) throw error;
    options.onDiagnostic?.({ kind: 'transport-fallback', server: client.server, from: 'streamable-http', to: 'sse', status });
    const legacy = new McpClient(new SseTransport(params), options);
    try {
      await legacy.connect(handshake);
      return legacy;
    } catch (sseError) {
      // Refused over both: the URL is the likelier mistake, and the first refusal says more about it.
      // Anything else means an SSE server answered and then failed: its error is the one to read.
      throw sseError instanceof ClosedError && sseError.reason === 'http' ? error : sseError;
    }
  }
}

/**
 * The client options for this server's era (#17): its own protocolEra wins
 * over the client's; 'auto' gets the process-wide verdict cache unless the
 * host brought its own, keyed by the server's configuration or origin.
 */
function eraOptions(params: ServerParams, options: McpClientOptions): McpClientOptions {
  if (options.handshake) return options;
  const protocolEra = params.protocolEra ?? options.protocolEra;
  return {
    ...options,
    ...(protocolEra !== undefined ? { protocolEra } : {}),
    eraCache: options.eraCache ?? defaultEraCache,
    eraCacheKey: options.eraCacheKey ?? eraCacheKey(params),
  };
}

/** The status of an HTTP refusal that may come from a legacy HTTP+SSE server, or undefined. */
function legacyRefusalStatus(error: unknown): number | undefined {
  if (!(error instanceof ClosedError) || error instanceof AuthError || error.reason !== 'http' || error.status === undefined) return undefined;
  const status = error.status;
  return status >= 400 && status < 500 && status !== 429 ? status : undefined;
}

/** Spawns a stdio server and completes the handshake. On failure the process is stopped and the error rethrown. */
export function connectStdio(server: StdioTransportOptions, options: McpClientOptions = {}): Promise<McpClient> {
  return connect({ transport: 'stdio', ...server }, options);
}
