// A deny pattern that matches none of a server's tools (issue #21 item 2):
// most often a typo (`delete_repo` for `delete_repository`), and a typo in a
// deny rule looks exactly like a rule that works. Reported, never refused:
// a server may add the tool later.

import { globToRegExp } from '../naming.js';
import type { ToolFilter } from '../config/types.js';

/** The deny patterns of `filter` that match none of `toolNames` (the server's own names, as listed). */
export function unusedDenyPatterns(filter: ToolFilter, toolNames: readonly string[]): string[] {
  if (!filter.enabled) return [];
  return filter.deny.filter((pattern) => {
    const re = globToRegExp(pattern);
    return !toolNames.some((name) => re.test(name));
  });
}
