// The project.local.yaml overlay (C2, ADR-0015 as ADR-0043 §1 applies it):
// mappings merge key by key, a key set to null is removed (a server key set
// to null removes the server), and anything else (a scalar, a list) replaces
// what it overlays. Lists are replaced, not appended: an overlay that
// narrows `tools.allow` must be able to drop patterns.

import { isObject } from '../../jsonrpc/message.js';

export function overlay(base: unknown, top: unknown): unknown {
  if (!isObject(top)) return top;
  const merged: Record<string, unknown> = isObject(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(top)) {
    if (value === null) delete merged[key];
    else merged[key] = overlay(merged[key], value);
  }
  return merged;
}
