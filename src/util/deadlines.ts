// Request timeouts without a Node timer per request. A Node Timeout is a
// heavy object (async-hooks bookkeeping, a linked-list insert, a libuv clock
// read) and a request answered in 50 us pays for it twice, arming and
// clearing it: with 16 calls in flight against a fast echo server, taking
// the per-request timer out altogether cut the client's CPU per call by
// 15-25%; this queue, which still times every request, gains ~5%.
//
// Almost every request waits the same timeout, so deadlines are kept in one
// FIFO per duration: a deadline scheduled later ends later, so each FIFO is
// sorted by construction and needs one timer, armed for its oldest live
// deadline. Cancelling only marks the entry (and lets go of its subject);
// the FIFO skips marked entries at its front as it goes, cuts the skipped
// front off its array once it is long, and compacts itself when marked
// entries pile up behind a slow one, so memory stays bounded by the live
// deadlines even when the FIFO never runs empty (16 calls always in flight:
// before #20's fix every request of such a run stayed reachable from the
// array, and was promoted and copied by every scavenge).
//
// A FIFO that runs empty keeps its timer, unref'd, until that timer fires:
// sequential calls (one request at a time) then reuse it instead of arming
// and clearing a Node timer per call, which cost ~1 KB of garbage and the
// timer list's insert and unlink per call (#20 item 2). Unref'd, it keeps
// no process alive; it is ref'd again when the FIFO gets a live deadline.
//
// The clock is Date.now(), as for the connection's overall caps, so that
// tests can drive both with mocked timers (node:test mocks Date, not
// performance.now). A wall clock can be stepped. Stepped forwards, it fires
// deadlines early, as it would any wall-clock deadline. Stepped backwards,
// it must not make them late: the Node timer, which runs on a monotonic
// clock, is never armed for longer than the FIFO's duration, and when it
// fires, the entry it was armed for is due whatever Date.now() says.

import { MAX_TIMER_MS } from './backoff.js';

/** What schedule() returns: pass it to cancel(). */
export interface Deadline {
  /** When it expires, in Date.now() ms. */
  readonly at: number;
}

interface Entry extends Deadline {
  readonly fifo: Fifo;
  /** Cleared by cancel() and when it fires. */
  expire: ((subject: never) => void) | undefined;
  /** What expire() is called with: one expire function can then serve every deadline, not a closure each. Cleared with `expire`. */
  subject: unknown;
}

interface Fifo {
  readonly ms: number;
  entries: Entry[];
  /** Index of the first entry not yet fired or skipped. */
  head: number;
  live: number;
  timer: NodeJS.Timeout | undefined;
  /** The entry the timer is armed for: due when the timer fires. */
  armedFor: Entry | undefined;
}

/** A FIFO compacts once this many cancelled entries sit in it and they outnumber the live ones. */
const COMPACT_AFTER = 1024;
/** A FIFO cuts the entries it has passed off its array once this many sit before its head and they are at least half of it. */
export const TRIM_AFTER = 256;
/** An idle FIFO empties its array entry by entry up to this length (keeping its storage); a longer one is replaced. */
const IDLE_POP_UP_TO = 64;

export class DeadlineQueue {
  private readonly fifos = new Map<number, Fifo>();

  /**
   * Calls `expire(subject)` once `ms` have passed, unless cancel() comes
   * first. `now` is Date.now() when the caller has just read it: a clock
   * read costs ~55 ns on the bench box, and the connection needs one per
   * request anyway (startedAt).
   */
  schedule<T>(ms: number, expire: (subject: T) => void, subject?: T, now = Date.now()): Deadline {
    const duration = Math.max(0, ms);
    let fifo = this.fifos.get(duration);
    if (!fifo) {
      fifo = { ms: duration, entries: [], head: 0, live: 0, timer: undefined, armedFor: undefined };
      this.fifos.set(duration, fifo);
    }
    const entry: Entry = { at: now + duration, fifo, expire: expire as (subject: never) => void, subject };
    fifo.entries.push(entry);
    // An idle FIFO's timer was armed before this entry was scheduled, for at most the same duration:
    // it fires no later than this entry is due, and re-arms for it then.
    if (fifo.live++ === 0 && fifo.timer !== undefined) fifo.timer.ref();
    if (fifo.timer === undefined) this.arm(fifo);
    return entry;
  }

  /** Idempotent; a deadline that already fired is left alone. */
  cancel(deadline: Deadline): void {
    const entry = deadline as Entry;
    if (entry.expire === undefined) return;
    entry.expire = undefined;
    entry.subject = undefined;
    const fifo = entry.fifo;
    fifo.live--;
    if (fifo.live === 0) return this.idle(fifo);
    // The oldest entries usually finish first: skip them now, so the timer is rarely woken for nothing.
    while (fifo.entries[fifo.head]!.expire === undefined) fifo.head++;
    const dead = fifo.entries.length - fifo.head - fifo.live;
    if (dead >= COMPACT_AFTER && dead > fifo.live) {
      fifo.entries = fifo.entries.slice(fifo.head).filter((e) => e.expire !== undefined);
      fifo.head = 0;
    } else this.trim(fifo);
  }

  /** How many deadlines are neither fired nor cancelled. */
  get size(): number {
    let live = 0;
    for (const fifo of this.fifos.values()) live += fifo.live;
    return live;
  }

  /** How many entries the FIFOs' arrays hold, live, cancelled or passed over (for tests of the memory bound). */
  get held(): number {
    let held = 0;
    for (const fifo of this.fifos.values()) held += fifo.entries.length;
    return held;
  }

  /** One timer per FIFO, for its oldest live entry (the head after cancel() has skipped the dead). */
  private arm(fifo: Fifo): void {
    const head = fifo.entries[fifo.head]!;
    // Never longer than the FIFO's duration: the head was scheduled before now (see the top of the file).
    const wait = Math.ceil(Math.min(head.at - Date.now(), fifo.ms));
    // Node turns a delay past 2^31-1 ms into 1 ms: a far deadline is approached in steps, and the
    // head is due when the timer fires only if the timer waited all of its wait.
    fifo.armedFor = wait <= MAX_TIMER_MS ? head : undefined;
    fifo.timer = setTimeout(() => this.fire(fifo), Math.min(MAX_TIMER_MS, Math.max(1, wait)));
  }

  private fire(fifo: Fifo): void {
    fifo.timer = undefined;
    const armedFor = fifo.armedFor;
    fifo.armedFor = undefined;
    // A timer may run a fraction of a millisecond before Date.now() reaches its deadline.
    const now = Date.now() + 1;
    // An expire() callback may cancel or schedule entries of this FIFO (compacting it, or emptying
    // it when nothing is left): read fifo.entries afresh on every step.
    while (fifo.head < fifo.entries.length) {
      const entry = fifo.entries[fifo.head]!;
      const expire = entry.expire;
      if (expire !== undefined && entry.at > now && entry !== armedFor) break;
      fifo.head++;
      if (expire === undefined) continue;
      const subject = entry.subject;
      entry.expire = undefined;
      entry.subject = undefined;
      fifo.live--;
      (expire as (subject: unknown) => void)(subject);
    }
    if (fifo.live === 0) this.drop(fifo);
    else if (fifo.timer === undefined) {
      while (fifo.entries[fifo.head]!.expire === undefined) fifo.head++;
      this.trim(fifo);
      this.arm(fifo);
    }
  }

  /** Cuts the entries before the head off the array (each copied at most once per pass: amortized O(1) a deadline). */
  private trim(fifo: Fifo): void {
    if (fifo.head >= TRIM_AFTER && fifo.head * 2 >= fifo.entries.length) {
      fifo.entries = fifo.entries.slice(fifo.head);
      fifo.head = 0;
    }
  }

  /** Nothing live: the entries go, the timer stays for the next schedule() but no longer holds the process. */
  private idle(fifo: Fifo): void {
    const entries = fifo.entries;
    // pop() keeps the array's storage for the next deadline, where `length = 0` frees it and the next
    // push() allocates it again: per request, when requests come one at a time.
    if (entries.length > IDLE_POP_UP_TO) fifo.entries = [];
    else while (entries.length > 0) entries.pop();
    fifo.head = 0;
    fifo.armedFor = undefined;
    fifo.timer?.unref();
  }

  /** The timer fired with nothing live (the FIFO sat idle for its whole duration): forget the FIFO. */
  private drop(fifo: Fifo): void {
    if (fifo.timer !== undefined) clearTimeout(fifo.timer);
    fifo.timer = undefined;
    fifo.entries.length = 0;
    fifo.head = 0;
    this.fifos.delete(fifo.ms);
  }
}
