// A full garbage collection from inside a test: `node --test` passes no
// --expose-gc, and its flags are not a test's to set, so the flag is set at
// run time and gc() is taken from a fresh context (the documented v8 way).

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Node's gc(): each call is a full collection, now. */
export function fullGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
