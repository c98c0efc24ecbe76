// Garbage collections from inside a test: `node --test` passes no
// --expose-gc, and its flags are not a test's to set, so the flag is set at
// run time and gc() is taken from a fresh context (the documented v8 way).

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: { type?: 'major' | 'minor' }) => void;

function exposedGc(): Gc {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as Gc;
}

/** Node's gc(): each call is a full collection, now. */
export function fullGc(): () => void {
  const gc = exposedGc();
  return () => gc();
}

/** A young-generation collection only (a scavenge), now: what survives it is copied or promoted. */
export function minorGc(): () => void {
  const gc = exposedGc();
  return () => gc({ type: 'minor' });
}
