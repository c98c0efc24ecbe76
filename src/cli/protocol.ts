// The protocol a server's connection speaks, as the CLI shows it (#17: "The
// CLI and status() show the era in use"): the version both sides agreed on
// and its era. The era is the client's word when it gives one, else follows
// from the version (2026-07-28 and later are modern), which says the same for
// every version the client speaks.

import type { McpClient } from '../client/client.js';
import type { ServerStatus } from '../toolsource/supervisor.js';
import { eraOfVersion } from '../toolsource/config/era.js';

export interface Protocol {
  protocolVersion: string;
  era?: string;
}

/** What a connected client speaks, or undefined before the handshake. */
export function protocolOfClient(client: McpClient): Protocol | undefined {
  // `era` is read guarded: the client reports it only once era negotiation exists.
  return protocolOf(client.profile?.protocolVersion, (client as { era?: unknown }).era);
}

/** What a server's status says it speaks (ready servers only); `fromClient`'s era when the status has none of its own. */
export function protocolOfStatus(status: ServerStatus, fromClient?: Protocol): Protocol | undefined {
  const own = (status as { era?: unknown }).era;
  return protocolOf(status.protocolVersion, own ?? (fromClient?.protocolVersion === status.protocolVersion ? fromClient?.era : undefined));
}

function protocolOf(version: string | undefined, reported: unknown): Protocol | undefined {
  if (version === undefined) return undefined;
  const era = typeof reported === 'string' ? reported : eraOfVersion(version);
  return era === undefined ? { protocolVersion: version } : { protocolVersion: version, era };
}

/** `protocol 2025-11-25 (legacy)`. */
export function protocolText(protocol: Protocol): string {
  return `protocol ${protocol.protocolVersion}${protocol.era !== undefined ? ` (${protocol.era})` : ''}`;
}

/**
 * A status for --json, with the era beside the protocol version it already
 * carries: the client's word (`fromClient`, read when the server started)
 * first, then the status's.
 */
export function statusWithEra(status: ServerStatus, fromClient?: Protocol): Omit<ServerStatus, 'era'> & { era?: string } {
  const era = (status.protocolVersion !== undefined ? fromClient?.era : undefined) ?? protocolOfStatus(status)?.era;
  return era === undefined ? status : { ...status, era };
}
