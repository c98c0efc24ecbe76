// The project.local.yaml overlay (C2, ADR-0015 as ADR-0043 §1 applies it):
// mappings merge key by key, a key set to null is removed (a server key set
// to null removes the server), and anything else (a scalar, a list) replaces
// what it overlays. Lists are replaced, not appended: an overlay that
// narrows `tools.allow` must be able to drop patterns. A null for a key the
// base does not have removes nothing: it is a mistyped key, reported.

import { isObject } from '../../jsonrpc/message.js';
import type { KeyPath } from './yaml-source.js';

/** A null in the overlay at `path` removes nothing: `declared` are the keys the base has there. */
export type NullForUndeclared = (path: KeyPath, declared: readonly string[]) => never;

/** Depth is bounded by the document check (MAX_DOCUMENT_DEPTH) both files got when read, so recursion is safe here. */
export function overlay(base: unknown, top: unknown, onUndeclared: NullForUndeclared, path: KeyPath = []): unknown {
  if (!isObject(top)) return top;
  const merged: Record<string, unknown> = isObject(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(top)) {
    if (value === null) {
      if (!Object.hasOwn(merged, key)) onUndeclared([...path, key], Object.keys(merged));
      delete merged[key];
    } else merged[key] = overlay(merged[key], value, onUndeclared, [...path, key]);
  }
  return merged;
}
