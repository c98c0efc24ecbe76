// One-call helpers: build the transport for a server description, the
// client, and run the handshake.

import { SseTransport, type SseTransportOptions } from '../transport/sse.js';
import { StdioTransport, type StdioTransportOptions } from '../transport/stdio.js';
import { StreamableHttpTransport, type StreamableHttpTransportOptions } from '../transport/streamable-http.js';
import type { Transport } from '../transport/transport.js';
import { McpClient, type McpClientOptions } from './client.js';

/** A server to connect to, by transport. */
export type ServerParams =
  | ({ transport: 'stdio' } & StdioTransportOptions)
  | ({ transport: 'sse' } & SseTransportOptions)
  | ({ transport: 'streamable-http' } & StreamableHttpTransportOptions);

export function createTransport(params: ServerParams): Transport {
  switch (params.transport) {
    case 'stdio':
      return new StdioTransport(params);
    case 'sse':
      return new SseTransport(params);
    case 'streamable-http':
      return new StreamableHttpTransport(params);
  }
}

/** Opens the transport and completes the handshake. On failure everything is closed and the error rethrown. */
export async function connect(params: ServerParams, options: McpClientOptions = {}): Promise<McpClient> {
  const client = new McpClient(createTransport(params), options);
  await client.connect();
  return client;
}

/** Spawns a stdio server and completes the handshake. On failure the process is stopped and the error rethrown. */
export function connectStdio(server: StdioTransportOptions, options: McpClientOptions = {}): Promise<McpClient> {
  return connect({ transport: 'stdio', ...server }, options);
}
