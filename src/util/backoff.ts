// Exponential backoff as a pure function: attempt 0 waits `initialMs`, each
// further attempt doubles it, never past `maxMs`. Used by HTTP reconnects
// now and by the supervisor's restarts (1 s, 2 s, 4 s … 60 s, SPEC S2).

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
}

export function nextDelay(attempt: number, policy: BackoffPolicy): number {
  return Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, attempt));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The longest delay a Node timer takes as given (2^31 − 1 ms); a longer one fires after 1 ms (TimeoutOverflowWarning). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The wait before reconnecting that a server's SSE `retry:` field asks for
 * (T2/T3, issue #20), clamped to [0, policy.maxMs] and to MAX_TIMER_MS. The
 * field is any run of digits: 99999999999 would fire a Node timer after
 * 1 ms, and a large valid one would stall the reconnect for days. No floor
 * above 0: a retry shorter than initialMs is the server's to ask (T3 honours
 * it); a stream that makes no progress still counts against maxAttempts.
 */
export function retryDelay(retryMs: number, policy: Pick<BackoffPolicy, 'maxMs'>): number {
  const ceiling = Math.min(policy.maxMs, MAX_TIMER_MS);
  return Number.isFinite(retryMs) ? Math.min(Math.max(0, retryMs), ceiling) : ceiling;
}
