// What a call path costs in promises and Node timers, counted with
// async_hooks: exact where a timing would be noise on a shared machine, so
// a test can hold a budget (T3 and R6 call-path-weight tests, #20).

import { createHook } from 'node:async_hooks';

export interface CallWeight<R> {
  /** Promises created per call, the caller's own await included. */
  promises: number;
  /** Node timers (`Timeout`) created per call. */
  timers: number;
  /** Each call's result, in order, for the test to check (outside the count). */
  results: R[];
}

/** Makes `calls` calls one after another, `call(0)` to `call(calls - 1)`, and counts what they create. */
export async function weighCalls<R>(calls: number, call: (i: number) => Promise<R>): Promise<CallWeight<R>> {
  let promises = 0;
  let timers = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') promises++;
      else if (type === 'Timeout') timers++;
    },
  });
  const results: R[] = [];
  // Counting starts after the caller has awaited this function's promise (that await is the caller's, not a call's).
  await undefined;
  hook.enable();
  try {
    for (let i = 0; i < calls; i++) results.push(await call(i));
  } finally {
    hook.disable();
  }
  return { promises: promises / calls, timers: timers / calls, results };
}
