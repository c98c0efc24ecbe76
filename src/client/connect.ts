// One-call helpers: build the transport, the client, and run the handshake.

import { StdioTransport, type StdioTransportOptions } from '../transport/stdio.js';
import { McpClient, type McpClientOptions } from './client.js';

/** Spawns a stdio server and completes the handshake. On failure the process is stopped and the error rethrown. */
export async function connectStdio(server: StdioTransportOptions, options: McpClientOptions = {}): Promise<McpClient> {
  const client = new McpClient(new StdioTransport(server), options);
  await client.connect();
  return client;
}
