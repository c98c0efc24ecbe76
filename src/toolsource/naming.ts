// Tool names (R1, R3, R4): the canonical `mcp.<key>.<tool>` of ADR-0043,
// a provider-safe alias for each (LLM APIs accept only
// `^[a-zA-Z0-9_-]{1,64}$`), and the glob patterns of filters and agent
// rules.

import { nodeCrypto } from '../util/node-builtins.js';

export const TOOL_NAMESPACE = 'mcp';
/** What LLM provider APIs accept as a tool name. */
export const PROVIDER_SAFE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_ALIAS = 64;
const HASH_CHARS = 8;

export function canonicalName(serverKey: string, toolName: string): string {
  return `${TOOL_NAMESPACE}.${serverKey}.${toolName}`;
}

/**
 * Latin letters that Unicode decomposition leaves whole (NFKD has no mapping
 * for them), spelt as they are usually written in ASCII.
 */
const LATIN_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss', ẞ: 'SS', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D',
  ð: 'd', Ð: 'D', þ: 'th', Þ: 'TH', ı: 'i', ħ: 'h', Ħ: 'H', ŧ: 't', Ŧ: 'T', ŋ: 'ng', Ŋ: 'NG', ĸ: 'k', ſ: 's',
};

/**
 * The provider-safe form of a name: Latin letters with diacritics lose
 * them (NFKD, then the combining marks dropped: `ünïcode` → `unicode`, and
 * the letters in LATIN_LETTERS spelt out: `straße` → `strasse`); every other
 * character a provider refuses becomes `_`. A letter or digit that has no
 * ASCII spelling (`名前`, `данные`) is lost that way, so the result then ends
 * in `_` and a hash of the whole name: two names that differ only there never
 * share a form, and a name's form does not depend on what else is registered.
 */
export function sanitize(name: string): string {
  let lossy = false;
  const safe = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-zA-Z0-9_-]/gu, (char) => {
      const spelt = LATIN_LETTERS[char];
      if (spelt !== undefined) return spelt;
      if (/[\p{L}\p{N}]/u.test(char)) lossy = true;
      return '_';
    });
  return lossy ? `${safe.replace(/_+$/, '')}_${shortHash(name, HASH_CHARS)}` : safe;
}

/** The MCP spec's bound on a tool name (2025-11-25, server/tools, "Tool names": "SHOULD be between 1 and 128 characters"). */
export const MAX_TOOL_NAME_CHARS = 128;

/** Why a tool name a server sent cannot be registered (see toolNameProblem). */
export type ToolNameProblem = 'empty' | 'control-character' | 'too-long';

// C0, DEL and C1 controls, line and paragraph separators, and the bidirectional
// formatting characters: a name holding one can print as another name (or
// break a log line), and no tool needs one.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/u;

/**
 * Why a tool name cannot be registered, or undefined when it can. The MCP
 * spec (2025-11-25, server/tools, "Tool names") says names SHOULD be 1–128
 * characters of `A-Za-z0-9_-.`; mcpwire refuses only what no host can show or
 * dispatch safely (nothing, a control character, past 128 characters) and
 * gives every other name a provider-safe alias.
 */
export function toolNameProblem(name: string): ToolNameProblem | undefined {
  if (name.length === 0) return 'empty';
  if (CONTROL.test(name)) return 'control-character';
  if ([...name].length > MAX_TOOL_NAME_CHARS) return 'too-long';
  return undefined;
}

function shortHash(name: string, chars: number): string {
  return nodeCrypto().createHash('sha256').update(name).digest('hex').slice(0, chars);
}

/** `base` cut to leave room for `_<hash>` of the canonical name: at most 64 characters. */
function hashed(base: string, canonical: string, chars: number): string {
  return `${base.slice(0, MAX_ALIAS - chars - 1)}_${shortHash(canonical, chars)}`;
}

export interface AliasReport {
  /** canonical name → alias */
  aliases: Map<string, string>;
  /** Names whose alias needed a hash suffix, and why: hosts may show this. */
  adjusted: { canonical: string; alias: string; why: 'collision' | 'too-long' }[];
}

/**
 * Provider-safe aliases for a set of canonical names: the sanitised name
 * where it is unique and short enough; otherwise the sanitised name cut
 * short with `_` and a hash of the canonical name, for every member of a
 * colliding group (so no member wins by order). The result depends only on
 * the set, never on its order; an alias can change when a colliding name
 * joins the set, which the report says.
 */
export function assignAliases(canonicalNames: Iterable<string>): AliasReport {
  return assignNames([...new Set(canonicalNames)].map((canonical) => [canonical, sanitize(canonical)]));
}

/**
 * The same rule over names built another way: each entry is a canonical
 * name and its provider-safe base (Kestrel's `mcp__<server>__<tool>`).
 */
export function assignNames(entries: Iterable<readonly [canonical: string, base: string]>): AliasReport {
  const groups = new Map<string, string[]>();
  for (const [canonical, base] of entries) {
    const group = groups.get(base);
    if (group) group.push(canonical);
    else groups.set(base, [canonical]);
  }
  const aliases = new Map<string, string>();
  const adjusted: AliasReport['adjusted'] = [];
  const taken = new Set<string>();
  for (const [base, members] of groups) if (members.length === 1 && base.length <= MAX_ALIAS) taken.add(base);
  for (const [base, members] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (members.length === 1 && base.length <= MAX_ALIAS) {
      aliases.set(members[0]!, base);
      continue;
    }
    const why = members.length > 1 ? 'collision' : 'too-long';
    for (const canonical of [...members].sort()) {
      // A hash that meets a name already taken (vanishingly rare) grows until it is unique.
      let chars = HASH_CHARS;
      let alias = hashed(base, canonical, chars);
      while (taken.has(alias) && chars < 32) alias = hashed(base, canonical, (chars += 4));
      taken.add(alias);
      aliases.set(canonical, alias);
      adjusted.push({ canonical, alias, why });
    }
  }
  return { aliases, adjusted };
}

/**
 * A glob over tool names: `*` matches any run of characters (dots
 * included, so `mcp.github.*` covers `mcp.github.issue.create`), `?` one
 * character; everything else is literal.
 */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (const char of pattern) {
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

export function matchesAny(name: string, patterns: readonly RegExp[]): boolean {
  return patterns.some((pattern) => pattern.test(name));
}
