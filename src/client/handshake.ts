// How a client and a server come to know each other, as a strategy: the
// client runs it at connect() and again whenever the transport reports an
// expired session. The 2025 protocol revisions use the `initialize`
// exchange below; a later era (no `initialize`, discovery per request) is a
// second strategy with the same shape.

import { ProtocolError } from '../errors.js';
import type { HandshakeChannel, RequestOptions } from './connection.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, checkInitialize, type InitializeResult, type JsonObject, type ServerProfile } from './results.js';

/** What the client brings to a handshake. */
export interface HandshakeRequest {
  clientInfo: { name: string; version: string; [key: string]: unknown };
  /** The client capabilities to advertise: only those with a handler installed (W5, K6). */
  capabilities: JsonObject;
  /** Timeout and signal for the exchange (it includes the server's start-up). */
  options: Pick<RequestOptions, 'timeoutMs' | 'signal'>;
}

export interface Handshake {
  /** Runs the exchange over the channel and returns what the client now knows about the server. Throws a typed error on failure. */
  run(channel: HandshakeChannel, request: HandshakeRequest): Promise<ServerProfile>;
}

/**
 * MCP lifecycle, "Initialization" (2024-11-05 to 2025-11-25): 1. send
 * initialize with the newest version we speak; 2. the server's version must
 * be one we speak, else fail naming both; 3. tell the transport the version
 * (HTTP sends it as a header from now on); 4. send notifications/initialized.
 */
export const initializeHandshake: Handshake = legacyHandshake();

/** The `initialize` exchange offering `version` (default the newest 2025 revision); a pinned version must come back as sent. */
export function legacyHandshake(version: string = LATEST_PROTOCOL_VERSION): Handshake {
  const pinned = version !== LATEST_PROTOCOL_VERSION;
  return {
  async run(channel, { clientInfo, capabilities, options }) {
    const raw = await channel.request('initialize', { protocolVersion: version, capabilities, clientInfo }, options);
    const problem = checkInitialize(raw);
    if (problem) throw new ProtocolError({ server: channel.server, method: 'initialize' }, `invalid result: ${problem}`);
    const result = raw as InitializeResult;
    if (pinned ? result.protocolVersion !== version : !(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(result.protocolVersion)) {
      throw new ProtocolError(
        { server: channel.server, method: 'initialize' },
        `the server answered with protocol version ${result.protocolVersion}; this client requested ${version} and speaks ${pinned ? 'only that (pinned)' : SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`,
      );
    }
    channel.transport.setProtocolVersion?.(result.protocolVersion);
    await channel.notify('notifications/initialized');
    const profile: ServerProfile = { protocolVersion: result.protocolVersion, serverInfo: result.serverInfo, capabilities: result.capabilities };
    if (typeof result.instructions === 'string') profile.instructions = result.instructions;
    return profile;
  },
  };
}
