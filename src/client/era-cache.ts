// Where `auto` keeps what it learned (#17 item 1; 2026-07-28 basic/versioning,
// "Backward Compatibility"): "The era determination is a property of the
// server, not of an individual request. Clients SHOULD cache the result for
// the lifetime of the server process (stdio) or origin (HTTP), and MAY
// persist it across restarts of the same server configuration". In memory by
// default; a host persists verdicts by handing in its own EraCache.

import { nodeCrypto } from '../util/node-builtins.js';
import type { ServerParams } from './connect.js';

/** What a probe concluded about one server. */
export type EraVerdict = { era: 'legacy' } | { era: 'modern'; version: string };

/** A host's store for era verdicts, keyed by eraCacheKey(). Synchronous: it sits on every connect's path. */
export interface EraCache {
  get(key: string): EraVerdict | undefined;
  set(key: string, verdict: EraVerdict): void;
  /** The verdict no longer holds (a cached modern server stopped speaking it): probe again next time. */
  delete(key: string): void;
}

/** An EraCache in a Map. */
export function createMemoryEraCache(): EraCache & { readonly size: number } {
  const verdicts = new Map<string, EraVerdict>();
  return {
    get: (key) => verdicts.get(key),
    set: (key, verdict) => void verdicts.set(key, verdict),
    delete: (key) => void verdicts.delete(key),
    get size() {
      return verdicts.size;
    },
  };
}

/** The process-wide cache connect() uses when the host gives none. */
export const defaultEraCache: EraCache = createMemoryEraCache();

/**
 * The key of a server's verdict: for stdio a hash of the configuration that
 * starts it (command, arguments, working directory, environment: a hash, so
 * a persisted cache holds no secret a value might be); for HTTP the origin
 * of its URL (the spec's unit), with credentials and path left out.
 */
export function eraCacheKey(params: ServerParams): string {
  if (params.transport === 'stdio') {
    const config = JSON.stringify([params.command, params.args ?? [], params.cwd ?? null, params.env ?? null]);
    return `stdio:${nodeCrypto().createHash('sha256').update(config).digest('hex').slice(0, 32)}`;
  }
  return `http:${new URL(String(params.url)).origin}`;
}
