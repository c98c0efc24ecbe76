// The protocol era a config or the command line names for a server (#17 item
// 1): `auto`, `legacy`, `modern`, or one protocol version (a revision date
// such as 2025-11-25). One reader for every format and for `--era`, so a
// mistake reads the same wherever it was made. Which versions the client
// actually speaks is the client's to say at connect time: a well-formed date
// is taken here, and an unsupported one fails when the server is started.

import type { ConnectedEra, ProtocolEra } from '../../client/era.js';
import { nearest } from '../../util/suggest.js';
import { quote } from './quote.js';

export const ERA_WORDS = ['auto', 'legacy', 'modern'] as const;

/** The revisions of the MCP specification: only for a "did you mean" on a mistyped date. */
const KNOWN_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

/** The first revision of the modern era (server/discover, per-request `_meta`). */
export const FIRST_MODERN_VERSION = '2026-07-28';

/** What the era takes, for messages. */
export const ERA_EXPECTED = 'auto, legacy, modern, or a protocol version such as 2025-11-25';

export type ParsedEra = { ok: true; era: ProtocolEra } | { ok: false; detail: string };

/**
 * `value` as a ProtocolEra, or what is wrong with it (no `expected …`
 * prefix repeated by callers: `detail` is a whole clause). A TOML local date
 * (`protocol_era = 2025-11-25` unquoted) is taken as the date it writes.
 */
export function parseProtocolEra(value: unknown): ParsedEra {
  if (value instanceof Date && !Number.isNaN(value.getTime())) value = value.toISOString().slice(0, 10);
  if (typeof value !== 'string') return { ok: false, detail: `expected ${ERA_EXPECTED} (a string)` };
  if ((ERA_WORDS as readonly string[]).includes(value)) return { ok: true, era: value as (typeof ERA_WORDS)[number] };
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (date) {
    const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
    // Round-tripped through Date: 2025-02-30 would otherwise pass a digit check.
    const real = new Date(Date.UTC(year, month - 1, day));
    if (real.getUTCFullYear() === year && real.getUTCMonth() === month - 1 && real.getUTCDate() === day) return { ok: true, era: { version: value } };
    return { ok: false, detail: `${quote(value, 40)} is not a real date; a protocol version is a revision date YYYY-MM-DD, such as 2025-11-25${suggestion(value)}` };
  }
  return { ok: false, detail: `expected ${ERA_EXPECTED}, got ${quote(value, 40)}${suggestion(value)}` };
}

function suggestion(value: string): string {
  const near = nearest(value, [...ERA_WORDS, ...KNOWN_VERSIONS], 1)[0];
  return near === undefined ? '' : ` (did you mean "${near}"?)`;
}

/** How a config writes the era back: the word, or the version. */
export function formatProtocolEra(era: ProtocolEra): string {
  return typeof era === 'string' ? era : era.version;
}

/**
 * The era a negotiated protocol version belongs to: 2026-07-28 and later
 * revisions are modern, earlier ones legacy. Revision dates compare as
 * strings. For a client that does not report its era itself.
 */
export function eraOfVersion(version: string | undefined): ConnectedEra | undefined {
  if (version === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(version)) return undefined;
  return version >= FIRST_MODERN_VERSION ? 'modern' : 'legacy';
}
