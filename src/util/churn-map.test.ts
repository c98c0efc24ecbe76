import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getHeapSpaceStatistics } from 'node:v8';
import { fullGc, minorGc } from '../testing/gc.js';
import { ChurnMap, RENEW_AFTER } from './churn-map.js';

/** Sets `count` entries with at most `live` at a time, deleting the oldest first, as a connection's requests come and go. */
function churn(map: { set(key: number, value: unknown): unknown; delete(key: number): boolean }, from: number, count: number, live: number, value: (n: number) => unknown): void {
  for (let n = from; n < from + count; n++) {
    map.set(n, value(n));
    if (n - live >= from) assert.equal(map.delete(n - live), true);
  }
}

describe('ChurnMap (#20): a Map for entries that come and go', () => {
  test('answers as a Map does, through many renewals: get, has, size, delete, and insertion order', () => {
    const churned = new ChurnMap<number | string, string>();
    const reference = new Map<number | string, string>();
    for (const map of [churned, reference]) {
      churn(map, 0, RENEW_AFTER * 5 + 7, 16, (n) => `v${n}`);
      map.set('1', 'a string key');
      map.set(RENEW_AFTER * 5, 'set again');
    }
    assert.deepEqual(churned.entries(), [...reference]);
    assert.deepEqual(churned.keys(), [...reference.keys()]);
    assert.deepEqual(churned.values(), [...reference.values()]);
    assert.deepEqual([...churned], [...reference]);
    assert.equal(churned.size, 17);
    assert.equal(churned.get(RENEW_AFTER * 5), 'set again');
    assert.equal(churned.get('1'), 'a string key');
    assert.equal(churned.get(1), undefined, 'a number key is not its string');
    assert.equal(churned.has(0), false);
    assert.equal(churned.delete(0), false, 'deleting what is not there says so');
  });

  test('many live entries: a renewal waits for as many deletions as there are live entries (each entry copied at most once per pass)', () => {
    const map = new ChurnMap<number, number>();
    for (let n = 0; n < 4 * RENEW_AFTER; n++) map.set(n, n);
    // Renewed after 4 * RENEW_AFTER deletions at the soonest, never fewer than RENEW_AFTER.
    let renewals = 0;
    let inner = (map as unknown as { map: Map<number, number> }).map;
    for (let n = 0; n < 4 * RENEW_AFTER; n++) {
      map.set(4 * RENEW_AFTER + n, n);
      map.delete(n);
      const now = (map as unknown as { map: Map<number, number> }).map;
      if (now !== inner) renewals++;
      inner = now;
    }
    assert.equal(renewals, 1);
    assert.equal(map.size, 4 * RENEW_AFTER);
  });

  test('iterating walks the entries as they were: deleting as it goes visits each one once', () => {
    const map = new ChurnMap<number, number>();
    churn(map, 0, 3 * RENEW_AFTER, 2 * RENEW_AFTER, (n) => n);
    const visited: number[] = [];
    for (const [key] of map) {
      visited.push(key);
      map.delete(key);
    }
    assert.deepEqual(visited, Array.from({ length: 2 * RENEW_AFTER }, (_, i) => RENEW_AFTER + i));
    assert.equal(map.size, 0);
  });

  test('after a full GC, the values it let go of die young: scavenges do not promote them (a Map\'s chained hash tables do)', (t) => {
    const gc = fullGc();
    const scavenge = minorGc();
    const oldSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size;
    const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;
    /** Old-space growth over 4,000 entries of ~2 KiB, 16 live, after the map's table was moved to the old generation. */
    const promotedThrough = (map: { set(key: number, value: unknown): unknown; delete(key: number): boolean }) => {
      churn(map, 0, 16, 16, () => ({}));
      gc();
      gc();
      const before = oldSpace();
      churn(map, 16, 4_000, 16, (n) => new Array(250).fill(n));
      scavenge();
      scavenge();
      return oldSpace() - before;
    };
    const plain = promotedThrough(new Map());
    const churned = promotedThrough(new ChurnMap());
    t.diagnostic(`old space grew ${kib(churned)} through a ChurnMap, ${kib(plain)} through a Map`);
    // About RENEW_AFTER values may ride the chain until the first renewal; the 4,000 are ~8 MiB.
    assert.ok(churned < 1024 * 1024, `a ChurnMap let ${kib(churned)} reach the old generation`);
    if (plain < 2 * 1024 * 1024) t.diagnostic('this V8 did not promote a plain Map\'s deleted values either: the comparison shows nothing here');
    else assert.ok(churned * 4 < plain, 'a ChurnMap promotes a fraction of what a Map does');
  });
});
