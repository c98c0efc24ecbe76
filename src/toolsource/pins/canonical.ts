// The canonical form a tool definition is fingerprinted in (issue #21 item 2,
// SPEC G2), and the fingerprints: SHA-256 over canonical JSON of every part
// of a tool the model reads or a call depends on. What is covered, and how
// equal definitions are made to compare equal, is decided here and nowhere else.
//
// The canonical form:
// - the covered members only: name, title, description, inputSchema (its
//   `x-mcp-header` declarations are inside it), outputSchema, annotations,
//   _meta, and execution (whether a call runs as a task); an absent member
//   and one that is `undefined` are the same, every other value counts;
// - object keys sorted by UTF-16 code unit (JavaScript's default sort), at
//   every depth; array order kept (it is meaningful in JSON Schema's enum,
//   required, prefixItems…);
// - numbers as JSON.stringify writes the parsed number: `1.0`, `1` and
//   `1e0` are all `1`, `-0` is `0`;
// - strings as JSON.stringify writes them after parsing, so `"\u0041"` and
//   `"A"` are one string. Strings are NOT Unicode-normalised: an NFC and an
//   NFD spelling are different bytes to the model's tokenizer, and a server
//   that switches between them has changed what the model reads. Under
//   `block` that errs on the side of asking.

import { nodeCrypto } from '../../util/node-builtins.js';

/** The members of a tool a fingerprint covers, in the order they are documented. */
export const COVERED_MEMBERS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', '_meta', 'execution'] as const;

/** A tool definition reduced to what a fingerprint covers (JSON values only). */
export type CoveredDefinition = { name: string } & Partial<Record<(typeof COVERED_MEMBERS)[number], unknown>>;

/** The covered members of a tool as a server listed it; everything else it carries (icons, vendor keys) is left out. */
export function coveredDefinition(tool: { name: string } & Record<string, unknown>): CoveredDefinition {
  const out: Record<string, unknown> = {};
  for (const member of COVERED_MEMBERS) if (tool[member] !== undefined) out[member] = tool[member];
  return out as CoveredDefinition;
}

/**
 * Canonical JSON of a JSON value (see the file header). A value JSON cannot
 * hold (a function, a bigint, a cycle, a non-finite number) is a bug of the
 * caller: a TypeError says where.
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set(), '');
}

function write(value: unknown, open: Set<object>, at: string): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} at ${at || '/'} is not a JSON number`);
    return JSON.stringify(value);
  }
  if (typeof value !== 'object') throw new TypeError(`canonicalJson: a ${typeof value} at ${at || '/'} is not a JSON value`);
  if (open.has(value)) throw new TypeError(`canonicalJson: a cycle at ${at || '/'}`);
  open.add(value);
  try {
    if (Array.isArray(value)) return `[${value.map((item, i) => (item === undefined ? 'null' : write(item, open, `${at}/${i}`))).join(',')}]`;
    const keys = Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${write((value as Record<string, unknown>)[key], open, `${at}/${key}`)}`).join(',')}}`;
  } finally {
    open.delete(value);
  }
}

/** `sha256:` and the hex SHA-256 of `text` (UTF-8). */
export function sha256(text: string): string {
  return `sha256:${nodeCrypto().createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

export interface ToolFingerprint {
  /** Over the whole covered definition, name included: equal means the model sees the same tool. */
  fingerprint: string;
  /** Over the covered definition without its name: equal for a tool and its rename (how a rename is recognised). */
  body: string;
}

export function fingerprintTool(definition: CoveredDefinition): ToolFingerprint {
  const { name: _name, ...body } = definition;
  return { fingerprint: sha256(canonicalJson(definition)), body: sha256(canonicalJson(body)) };
}

/** A server's whole tool set: the fingerprint over its tools' names and fingerprints, sorted by name. */
export function fingerprintSet(tools: Readonly<Record<string, { fingerprint: string }>>): string {
  return sha256(canonicalJson(Object.keys(tools).sort().map((name) => [name, tools[name]!.fingerprint])));
}
