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
