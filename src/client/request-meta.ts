// The 2026-07-28 per-request metadata (#17 item 2; spec basic/index "_meta",
// SEP-2575): a modern request carries the protocol version, the client's
// identity and the capabilities it has handlers for in params._meta, since
// there is no handshake to say them once. Also the one place other per-request
// entries (trace context, task augmentation) join a request's _meta.

import { isObject } from '../jsonrpc/message.js';
import type { Implementation, JsonObject } from './results.js';

export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_INFO_META_KEY = 'io.modelcontextprotocol/clientInfo';
export const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';
/** 2026-07-28 logging: the least severe level the server may send notifications/message at, for this request. */
export const LOG_LEVEL_META_KEY = 'io.modelcontextprotocol/logLevel';

/** The modern protocol versions this client speaks, newest first. */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
export const LATEST_MODERN_PROTOCOL_VERSION = MODERN_PROTOCOL_VERSIONS[0];

/** Whether a version string names a modern (2026-07-28 or later) revision: dates compare as strings. */
export function isModernVersion(version: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= '2026-07-28';
}

/** The `_meta` entries every modern request carries. */
export function modernEnvelope(version: string, clientInfo: Implementation, capabilities: JsonObject): JsonObject {
  return {
    [PROTOCOL_VERSION_META_KEY]: version,
    [CLIENT_INFO_META_KEY]: clientInfo,
    [CLIENT_CAPABILITIES_META_KEY]: capabilities,
  };
}

/**
 * params with `entries` added to its `_meta` (the caller's own `_meta`
 * entries win over nothing: entries given later override earlier ones).
 * Returns params itself when there is nothing to add.
 */
export function withMeta(params: Record<string, unknown> | undefined, ...entries: (JsonObject | undefined)[]): Record<string, unknown> | undefined {
  let meta: JsonObject | undefined;
  for (const e of entries) if (e) meta = meta ? { ...meta, ...e } : e;
  if (!meta) return params;
  const own = isObject(params?._meta) ? (params._meta as JsonObject) : undefined;
  return { ...params, _meta: own ? { ...meta, ...own } : meta };
}
