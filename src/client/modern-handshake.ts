// The 2026-07-28 side of connect() (#17 item 1): `server/discover` as the
// modern handshake, and `auto`, the specification's backward-compatibility
// procedure (basic/versioning, transports "Backward Compatibility"), as a
// Handshake that decides the era once:
//
//   probe server/discover (a string id, the modern _meta)
//     DiscoverResult naming a version we speak        → modern
//     -32022 listing one we speak                     → retry once at it
//     401/403, 5xx, network failure, HTTP timeout     → the error (no verdict)
//     anything else (method-not-found, another error,
//     an unparsable answer, a 4xx without a modern
//     error, no answer within the probe timeout)      → legacy: `initialize`,
//                                                       exactly as a plain legacy connect sends it
//     a stdio child that exits                        → EraProbeClosedError (connect() restarts it once, legacy)
//
// A legacy `initialize` refused with -32022 naming a modern version we speak
// (a modern-only server, slow to answer the probe, or one a cached legacy
// verdict no longer fits) goes modern: that is evidence too.

import { AuthError, ClosedError, ProtocolError, RpcError, TimeoutError, UnsupportedVersionError } from '../errors.js';
import type { EraDecision } from '../diagnostics.js';
import type { TransportKind } from '../transport/transport.js';
import type { HandshakeChannel } from './connection.js';
import type { ProtocolEra } from './era.js';
import type { EraCache } from './era-cache.js';
import { legacyHandshake, type Handshake, type HandshakeRequest } from './handshake.js';
import { isModernVersion, modernEnvelope, MODERN_PROTOCOL_VERSIONS, SERVER_INFO_META_KEY } from './request-meta.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type Implementation, type JsonObject, type ServerCapabilities, type ServerProfile } from './results.js';

/**
 * How long `auto` waits for the stdio probe's answer before it takes the
 * server for a legacy one that ignores unknown methods. It includes the
 * server's start-up: a slower modern server is still found, when it refuses
 * the fallback `initialize` with -32022. (Vercel's @ai-sdk/mcp uses 1 s too.)
 */
export const DEFAULT_PROBE_TIMEOUT_MS = 1_000;

/**
 * The stdio server ended while it was probed: a legacy server that exits on
 * a request before `initialize`. connect() starts it once more, in the
 * legacy era (and remembers that); a caller of McpClient.connect() does so itself.
 */
export class EraProbeClosedError extends ClosedError {
  override readonly name = 'EraProbeClosedError' as const;
  constructor(closed: ClosedError) {
    super({ server: closed.server, method: 'server/discover' }, { reason: closed.reason, exitCode: closed.exitCode, signal: closed.signal, stderrTail: closed.stderrTail, cause: closed });
    this.message = `${this.message} (the server ended on the server/discover era probe; connect again with protocolEra 'legacy')`;
  }
}

export interface EraHandshakeOptions {
  era: ProtocolEra;
  transportKind: TransportKind;
  /** Where `auto` reads and writes its verdict; with cacheKey. */
  cache?: EraCache;
  cacheKey?: string;
  probeTimeoutMs?: number;
  /** Told how `auto` decided the era, once the handshake is done (never for a configured era). */
  onDecided?: (profile: ServerProfile, how: EraDecision) => void;
  /**
   * With era 'legacy' only: a server that refuses the 2025 `initialize` with
   * -32022 naming a modern version we speak is spoken to in that version
   * (one more exchange, against modern-only servers alone). What the client
   * does when nobody chose an era; an era someone configured is kept to.
   */
  upgradeOnRefusal?: boolean;
}

type Probe = { verdict: 'modern'; profile: ServerProfile } | { verdict: 'legacy' };

/** The Handshake for a configured era: legacy, modern, a pinned version, or auto. */
export function eraHandshake(options: EraHandshakeOptions): Handshake {
  const { era } = options;
  // Only a decision is reported: a configured era (the default among them) changes nothing a host sees.
  const decided = (profile: ServerProfile, how: EraDecision) => {
    if (how !== 'configured') options.onDecided?.(profile, how);
    return profile;
  };
  if (era === 'legacy' && options.upgradeOnRefusal) {
    return {
      async run(channel, request) {
        const profile = await legacyOrUpgrade(channel, request, options.transportKind);
        return profile.era === 'modern' ? decided(profile, 'upgraded') : profile;
      },
    };
  }
  if (era === 'legacy') return withDecision(legacyHandshake(), decided);
  if (typeof era === 'object' && !isModernVersion(era.version)) {
    if (!(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(era.version)) throw new TypeError(`protocolEra: version ${era.version} is not one this client speaks (${[...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS].join(', ')})`);
    return withDecision(legacyHandshake(era.version), decided);
  }
  if (era === 'modern' || typeof era === 'object') {
    const versions = typeof era === 'object' ? [era.version] : [...MODERN_PROTOCOL_VERSIONS];
    return {
      async run(channel, request) {
        const probe = await discover(channel, request, versions, { fallback: false, transportKind: options.transportKind });
        if (probe.verdict === 'legacy') throw new Error('unreachable: no fallback');
        return decided(probe.profile, 'configured');
      },
    };
  }
  return {
    async run(channel, request) {
      const { cache, cacheKey } = options;
      const remember = (profile: ServerProfile) => {
        if (cache && cacheKey) cache.set(cacheKey, profile.era === 'modern' ? { era: 'modern', version: profile.protocolVersion } : { era: 'legacy' });
      };
      const cached = cache && cacheKey ? cache.get(cacheKey) : undefined;
      if (cached?.era === 'legacy' || options.transportKind === 'sse') {
        // The legacy HTTP+SSE transport has no modern form; a cached legacy verdict skips the probe.
        const profile = await legacyOrUpgrade(channel, request, options.transportKind);
        if (profile.era === 'modern') remember(profile);
        return decided(profile, profile.era === 'modern' ? 'upgraded' : options.transportKind === 'sse' ? 'configured' : 'cached');
      }
      const first = cached?.era === 'modern' ? [cached.version, ...MODERN_PROTOCOL_VERSIONS.filter((v) => v !== cached.version)] : [...MODERN_PROTOCOL_VERSIONS];
      const probe = await discover(channel, request, first, { fallback: true, transportKind: options.transportKind, probeTimeoutMs: options.probeTimeoutMs });
      if (probe.verdict === 'modern') {
        remember(probe.profile);
        return decided(probe.profile, cached ? 'cached' : 'probed');
      }
      const profile = await legacyOrUpgrade(channel, request, options.transportKind);
      remember(profile);
      return decided(profile, profile.era === 'modern' ? 'upgraded' : cached ? 'reprobed' : 'probed');
    },
  };
}

function withDecision(handshake: Handshake, decided: (profile: ServerProfile, how: EraDecision) => ServerProfile): Handshake {
  return { run: async (channel, request) => decided(await handshake.run(channel, request), 'configured') };
}

/** The plain legacy `initialize`; refused with -32022 naming a modern version we speak, the modern exchange at that version instead. */
async function legacyOrUpgrade(channel: HandshakeChannel, request: HandshakeRequest, transportKind: TransportKind): Promise<ServerProfile> {
  channel.setEnvelope(undefined);
  channel.transport.setModern?.(undefined);
  try {
    return await legacyHandshake().run(channel, request);
  } catch (error) {
    const mutual = error instanceof UnsupportedVersionError ? MODERN_PROTOCOL_VERSIONS.find((v) => error.supported.includes(v)) : undefined;
    if (mutual === undefined || transportKind === 'sse') throw error;
    const probe = await discover(channel, request, [mutual], { fallback: false, transportKind });
    if (probe.verdict === 'legacy') throw error;
    return probe.profile;
  }
}

interface DiscoverOptions {
  /** Whether a non-modern answer means legacy (auto) or is an error (modern, pinned). */
  fallback: boolean;
  transportKind: TransportKind;
  probeTimeoutMs?: number;
}

/** server/discover at the first of `versions`, retried once at a mutual version after -32022. */
async function discover(channel: HandshakeChannel, request: HandshakeRequest, versions: readonly string[], options: DiscoverOptions): Promise<Probe> {
  const { fallback, transportKind } = options;
  const site = { server: channel.server, method: 'server/discover' };
  // Over HTTP the probe is an ordinary POST: it gets the connect timeout, and running out is an error, not evidence.
  const timeoutMs = fallback && transportKind === 'stdio' ? Math.min(options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS, request.options.timeoutMs ?? Infinity) : request.options.timeoutMs;
  let version = versions[0]!;
  for (let retried = false; ; retried = true) {
    channel.setEnvelope(modernEnvelope(version, request.clientInfo, request.capabilities));
    channel.transport.setModern?.(version);
    let raw: unknown;
    try {
      raw = await channel.probe('server/discover', undefined, { ...request.options, timeoutMs });
    } catch (error) {
      if (request.options.signal?.aborted) throw error;
      if (error instanceof UnsupportedVersionError) {
        const mutual = versions.find((v) => error.supported.includes(v));
        if (mutual !== undefined && !retried) {
          version = mutual;
          continue;
        }
        // A modern server, but no version in common: no fallback hides that.
        if (error.supported.some(isModernVersion) || !fallback) throw error;
        return { verdict: 'legacy' };
      }
      if (!fallback) throw notModern(site, error, version);
      if (isLegacyEvidence(error, transportKind)) return { verdict: 'legacy' };
      if (transportKind === 'stdio' && error instanceof ClosedError && (error.reason === 'exited' || error.reason === 'output-closed')) throw new EraProbeClosedError(error);
      throw error;
    }
    const problem = checkDiscover(raw);
    if (problem) {
      if (fallback) return { verdict: 'legacy' };
      throw new ProtocolError(site, `invalid result: ${problem}`);
    }
    const result = raw as DiscoverResult;
    const mutual = versions.find((v) => result.supportedVersions.includes(v));
    if (mutual === undefined) {
      if (fallback && !result.supportedVersions.some(isModernVersion)) return { verdict: 'legacy' };
      throw new ProtocolError(site, `the server speaks ${result.supportedVersions.join(', ') || 'no version'}; this client speaks ${[...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS].join(', ')}`);
    }
    if (mutual !== version) {
      channel.setEnvelope(modernEnvelope(mutual, request.clientInfo, request.capabilities));
      channel.transport.setModern?.(mutual);
    }
    return { verdict: 'modern', profile: profileOf(result, mutual) };
  }
}

/**
 * What says "legacy server" rather than "failed": a JSON-RPC error other
 * than -32022 (the SDK v2 client agrees: -32601, and -32020/-32021 too, are
 * not era evidence on a probe); an answer that is not a JSON-RPC response;
 * on stdio a probe left unanswered; on HTTP a 4xx without a modern error
 * body (the transport hands those over as RpcErrors), except 401/403 (auth
 * first) and 429 (load).
 */
function isLegacyEvidence(error: unknown, transportKind: TransportKind): boolean {
  if (error instanceof RpcError || error instanceof ProtocolError) return true;
  if (error instanceof TimeoutError) return transportKind === 'stdio';
  if (error instanceof AuthError) return false;
  if (error instanceof ClosedError && error.reason === 'http' && error.status !== undefined) return error.status >= 400 && error.status < 500 && error.status !== 429;
  return false;
}

function notModern(site: { server: string; method: string }, error: unknown, version: string): unknown {
  if (error instanceof RpcError || error instanceof ProtocolError || error instanceof TimeoutError || (error instanceof ClosedError && error.reason === 'http' && !(error instanceof AuthError))) {
    return new ProtocolError(site, `the server does not speak protocol ${version} (protocolEra is ${JSON.stringify(version === MODERN_PROTOCOL_VERSIONS[0] ? 'modern' : version)}; use 'auto' or 'legacy' for a 2025 server): ${error.message}`);
  }
  return error;
}

interface DiscoverResult extends JsonObject {
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
  ttlMs?: number;
  cacheScope?: string;
}

function checkDiscover(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the server/discover result is not an object';
  const v = value as JsonObject;
  if (!Array.isArray(v.supportedVersions) || !v.supportedVersions.every((s) => typeof s === 'string')) return 'supportedVersions must be an array of strings';
  if (typeof v.capabilities !== 'object' || v.capabilities === null || Array.isArray(v.capabilities)) return 'capabilities must be an object';
  return undefined;
}

function isImplementation(value: unknown): value is Implementation {
  const v = value as { name?: unknown; version?: unknown } | null;
  return typeof v === 'object' && v !== null && typeof v.name === 'string' && typeof v.version === 'string';
}

function profileOf(result: DiscoverResult, version: string): ServerProfile {
  const meta = result._meta as JsonObject | undefined;
  // The spec's place is _meta["io.modelcontextprotocol/serverInfo"]; the official suite's mocks (0.2.0-alpha.12)
  // put it at the top of the result, where 2025's InitializeResult had it. Read the spec's first, then that one.
  const info = [meta?.[SERVER_INFO_META_KEY], (result as unknown as JsonObject).serverInfo].find(isImplementation);
  const serverInfo: Implementation = info ?? { name: 'unknown', version: 'unknown' };
  const profile: ServerProfile = { era: 'modern', protocolVersion: version, serverInfo, capabilities: result.capabilities, supportedVersions: result.supportedVersions };
  if (typeof result.instructions === 'string') profile.instructions = result.instructions;
  if (typeof result.ttlMs === 'number') profile.ttlMs = result.ttlMs;
  if (typeof result.cacheScope === 'string') profile.cacheScope = result.cacheScope;
  return profile;
}
