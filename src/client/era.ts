// Which MCP protocol era a connection speaks (#17): the 2025 revisions'
// `initialize` handshake ("legacy"), or 2026-07-28's discovery and
// per-request metadata ("modern"). Chosen per server and decided once; the
// type lives here so the config readers, the CLI and the client agree on it.

/**
 * - `'auto'`: follow the specification's backward-compatibility procedure
 *   (probe, then fall back to the 2025 handshake); the verdict is cached.
 * - `'legacy'`: the 2025 `initialize` handshake only.
 * - `'modern'`: 2026-07-28 only; a server that does not speak it fails.
 * - `{ version }`: exactly that protocol version (its era follows from it).
 */
export type ProtocolEra = 'auto' | 'legacy' | 'modern' | { version: string };

/** The era a connection ended up speaking. */
export type ConnectedEra = 'legacy' | 'modern';

/**
 * The era connect() speaks when neither the server's params nor the client's
 * options say. 'legacy', chosen from the probe's measured cost
 * (scripts/era-probe-cost.mts, median of 9 connects each, Dec 2026): within
 * noise (±1 ms on the fastest servers) against servers that answer
 * server/discover with -32601, but +830 ms against one that ignores unknown
 * methods (the probe timeout) and +190 ms against one that exits on them (a
 * second start); the rule was 'auto' only if ≤ 10 ms against each. 'auto' is opt-in.
 */
export const DEFAULT_PROTOCOL_ERA: ProtocolEra = 'legacy';
// (With no era configured at all the client still follows a modern-only server's -32022 refusal of the
// 2025 initialize to 2026-07-28: see EraHandshakeOptions.upgradeOnRefusal. An explicit 'legacy' does not.)
