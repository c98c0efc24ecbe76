// The era key of a client format's server entry (#17): read where it is
// spelt right, and a near miss (`protocol_era` in a JSON file, `protocolera`)
// refused with the right spelling. These formats ignore keys they do not
// know, so without the check a misspelt era would be dropped in silence and
// the server spoken to in the default era.

import type { ProtocolEra } from '../../client/era.js';
import { editDistance } from '../../util/suggest.js';
import { parseProtocolEra } from './era.js';
import { quote } from './quote.js';

export type EraKey = { ok: true; era: ProtocolEra | undefined } | { ok: false; key: string; detail: string };

/** Reads `entry[key]`; absent is fine (the client's default). */
export function readEraKey(entry: Readonly<Record<string, unknown>>, key: 'protocolEra' | 'protocol_era'): EraKey {
  if (entry[key] === undefined) {
    // Within two edits once case and separators are set aside: close enough to be this key, far from any other a client uses.
    const misspelt = Object.keys(entry).find((k) => k !== key && editDistance(normal(k), normal(key)) <= 2);
    if (misspelt !== undefined) return { ok: false, key: misspelt, detail: `unknown key ${quote(misspelt, 80)} (did you mean "${key}"?)` };
    return { ok: true, era: undefined };
  }
  const parsed = parseProtocolEra(entry[key]);
  return parsed.ok ? { ok: true, era: parsed.era } : { ok: false, key, detail: parsed.detail };
}

/** Case and separators ignored: `protocol_era`, `protocol-era` and `ProtocolEra` are one name. */
function normal(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}
