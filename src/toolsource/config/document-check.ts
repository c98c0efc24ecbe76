// Two checks every parsed config document gets once, right after parsing,
// before any reader walks it:
// - Keys that name an object's prototype in JavaScript (`__proto__`,
//   `constructor`, `prototype`). A parser may keep them as plain data, but a
//   reader that copies the object with `{...}`, zod's record or an assignment
//   silently drops them or, worse, sets a prototype: `[mcp.__proto__]` in
//   local.toml would vanish instead of being reported. Refused like an unknown key.
// - Nesting deeper than any config needs: the readers after this (the
//   overlay merge, zod, YAML's own conversion) recurse, so a hostile file
//   would end in a RangeError instead of a ConfigError.

import { isObject } from '../../jsonrpc/message.js';
import type { KeyPath } from './yaml-source.js';

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** How deep mappings and lists may nest in a config document; a config needs a handful of levels. */
export const MAX_DOCUMENT_DEPTH = 100;

export interface DocumentProblem {
  path: KeyPath;
  detail: string;
}

interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
  depth: number;
}

/**
 * The first problem in `value` (depth-first, in key order); undefined when
 * none. Iterative, with parent links instead of path copies, so a document
 * costs time linear in its size and cannot overflow the stack.
 */
export function checkDocument(value: unknown): DocumentProblem | undefined {
  const stack: Visit[] = [{ value, key: undefined, parent: undefined, depth: 0 }];
  // YAML aliases share one object between places (and could close a cycle): each is looked into once.
  const seen = new Set<object>();
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const at = visit.value;
    if (typeof at !== 'object' || at === null || seen.has(at)) continue;
    seen.add(at);
    if (visit.depth >= MAX_DOCUMENT_DEPTH) {
      return { path: pathOf(visit), detail: `mappings and lists nested deeper than ${MAX_DOCUMENT_DEPTH} levels; a config needs far fewer` };
    }
    const depth = visit.depth + 1;
    if (Array.isArray(at)) {
      // Only containers are visited: a megabyte list of numbers costs no record per element.
      for (let i = at.length - 1; i >= 0; i--) if (typeof at[i] === 'object' && at[i] !== null) stack.push({ value: at[i], key: i, parent: visit, depth });
    } else if (isObject(at)) {
      const keys = Object.keys(at);
      const bad = keys.find((key) => PROTOTYPE_KEYS.has(key));
      if (bad !== undefined) {
        return {
          path: pathOf({ value: undefined, key: bad, parent: visit, depth }),
          detail: `unknown key "${bad}": it names an object's prototype in JavaScript and is never a config key or a server name; rename or remove it`,
        };
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        const value = at[keys[i]!];
        if (typeof value === 'object' && value !== null) stack.push({ value, key: keys[i]!, parent: visit, depth });
      }
    }
  }
  return undefined;
}

function pathOf(visit: Visit): KeyPath {
  const path: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}
