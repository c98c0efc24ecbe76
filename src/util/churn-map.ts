// A Map for a long-lived owner whose entries come and go all the time: the
// Connection's pending requests, one set() and one delete() per request.
//
// Why not a plain Map: V8 keeps a Map's entries in a hash table that it
// replaces whenever deletions and insertions fill it, and the table it
// leaves links to its successor (for iterators still walking the old one).
// Once a full GC has moved the Map's current table to the old generation,
// that dead table keeps every later table alive, and with them every value
// the Map held since: each scavenge finds the requests of the last few
// hundred milliseconds reachable, copies and promotes them, and only the
// next full GC lets them go, after which the chain starts again from the
// table that GC promoted. Measured (#20, Node 20): 4,000 entries of 1 KB
// through a Map with 16 live promoted 4.7 MB after a full GC, against
// 0.35 MB with this class; the HTTP client at 16 in flight carried 2.2 MB
// through every scavenge (5-14 ms each) until the pending Map and the
// transport's abort waiters stopped churning hash tables.
//
// The fix is to start a new Map now and then: the old one's chain ends
// where it was left, and a fresh table is young and dies young. Renewing
// after max(RENEW_AFTER, size) deletions copies each live entry at most
// once per as many deletions: amortized O(1).
//
// Iteration walks a copy, so a caller may delete entries as it goes (the
// Connection settles requests in its loops) whatever a renewal does.

/** Deletions between renewals, at least; more when more entries are live. */
export const RENEW_AFTER = 256;

export class ChurnMap<K, V> {
  private map = new Map<K, V>();
  private deletions = 0;

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): this {
    this.map.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    if (!this.map.delete(key)) return false;
    if (++this.deletions >= RENEW_AFTER && this.deletions >= this.map.size) {
      this.deletions = 0;
      this.map = new Map(this.map);
    }
    return true;
  }

  /** The entries in insertion order, as they are now. */
  entries(): [K, V][] {
    return [...this.map];
  }

  keys(): K[] {
    return [...this.map.keys()];
  }

  values(): V[] {
    return [...this.map.values()];
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries()[Symbol.iterator]();
  }
}
