// List caching (2026-07-28 server/utilities/caching, SEP-2549): a list
// result whose `ttlMs` is positive may be served again, without asking the
// server, until `ttlMs` has passed since it was received. Each page is its own
// entry (method + cursor: the only parameter a list request has), with its own
// clock. A list_changed notification for that list makes every page of it
// stale at once, and a listing already under way when one arrives is not
// stored (it may have been produced before the change). `ttlMs` absent, 0 or
// negative: not cached. `cacheScope` ('public' | 'private') asks nothing of
// this cache: it belongs to one client, one connection, one authorization
// context, and is never shared.

import type { ListChangedKind } from './client.js';
import type { JsonObject } from './results.js';

/** The list methods whose results are cached, and the list_changed kind that invalidates each. */
export const CACHED_LISTS: Readonly<Record<string, ListChangedKind>> = {
  'tools/list': 'tools',
  'resources/list': 'resources',
  'resources/templates/list': 'resources',
  'prompts/list': 'prompts',
};

interface Entry {
  page: JsonObject;
  freshUntil: number;
}

/** Monotonic: a wall-clock step must not make a page fresh again. */
const now = (): number => performance.now();

export class ListCache {
  private readonly pages = new Map<string, Entry>();
  private readonly generations: Record<ListChangedKind, number> = { tools: 0, resources: 0, prompts: 0 };

  /** A token to hand back to store(): a listing that began before a list_changed stores nothing. */
  generation(kind: ListChangedKind): number {
    return this.generations[kind];
  }

  /** The page as received, while fresh (`now < received + ttlMs`). */
  fresh(method: string, cursor: string | undefined): JsonObject | undefined {
    const key = keyOf(method, cursor);
    const entry = this.pages.get(key);
    if (!entry) return undefined;
    if (now() < entry.freshUntil) return entry.page;
    this.pages.delete(key);
    return undefined;
  }

  /** Remembers a page the server just sent, if its ttlMs allows and no list_changed came while it was fetched. */
  store(method: string, cursor: string | undefined, page: JsonObject, generation: number): void {
    const kind = CACHED_LISTS[method];
    const key = keyOf(method, cursor);
    const ttl = page.ttlMs;
    if (!kind || generation !== this.generations[kind] || typeof ttl !== 'number' || !(ttl > 0)) {
      this.pages.delete(key);
      return;
    }
    this.pages.set(key, { page, freshUntil: now() + ttl });
  }

  /** A list_changed (or the caller) says the list changed: every page of it is stale. */
  invalidate(kind: ListChangedKind): void {
    this.generations[kind]++;
    for (const key of this.pages.keys()) if (CACHED_LISTS[key.slice(0, key.indexOf('\n'))] === kind) this.pages.delete(key);
  }

  /** Every page of one method (a cursor the server no longer takes: start again from the first page). */
  dropMethod(method: string): void {
    for (const key of this.pages.keys()) if (key.startsWith(`${method}\n`)) this.pages.delete(key);
  }

  /** A renewed session may be another server state altogether. */
  clear(): void {
    for (const kind of Object.keys(this.generations) as ListChangedKind[]) this.generations[kind]++;
    this.pages.clear();
  }
}

function keyOf(method: string, cursor: string | undefined): string {
  return cursor === undefined ? `${method}\n` : `${method}\n${cursor}`;
}
