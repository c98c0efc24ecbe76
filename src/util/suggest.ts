// "Did you mean …": the names nearest to a mistyped one by edit distance (the CLI's unknown tools and the config readers' unknown keys).

/** Levenshtein distance: insertions, deletions and substitutions, each costing 1. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Up to `max` candidates close to `name`, nearest first: within a third of
 * the name's length (at least 2 edits), or containing it, or contained in it.
 * Case is ignored: `Echo` is one edit from nothing, it is `echo`.
 */
export function nearest(name: string, candidates: readonly string[], max = 3): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  return [...new Set(candidates)]
    .map((candidate) => {
      const c = candidate.toLowerCase();
      const distance = editDistance(wanted, c);
      const related = c.includes(wanted) || wanted.includes(c);
      return { candidate, distance, close: distance <= limit || related };
    })
    .filter((entry) => entry.close)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, max)
    .map((entry) => entry.candidate);
}
