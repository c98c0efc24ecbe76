// Errors leave the tool source scrubbed (T4, #16 item 23): a stdio server's
// stderr tail rides on the ClosedError of a crash, and a server may print
// its environment (config `env` values, `${VAR}` results, credentials) there.
// status() was always scrubbed; every error a library call rejects with goes
// through the same redaction, message and stderr tail and causes alike,
// before anything cuts them.

import { redact } from '../transport/redact.js';

/** How deep a cause chain is followed: causes are short chains; a cycle must not loop. */
const MAX_CAUSES = 8;

/** `error` with every secret value removed from its text, in place (its class, code and fields kept); returns it. */
export function scrubError<T>(error: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return error;
  let at: unknown = error;
  for (let depth = 0; depth < MAX_CAUSES && at instanceof Error; depth++) {
    scrubOwn(at, secrets);
    at = at.cause;
  }
  return error;
}

function scrubOwn(error: Error, secrets: readonly string[]): void {
  const fields = error as unknown as Record<string, unknown>;
  for (const field of ['message', 'stderrTail', 'detail', 'stack'] as const) {
    const value = fields[field];
    if (typeof value !== 'string') continue;
    const clean = redact(value, secrets);
    if (clean === value) continue;
    // Some of these are readonly on the class; the error is ours to clean before it leaves.
    Object.defineProperty(error, field, { value: clean, writable: true, configurable: true, enumerable: field !== 'message' && field !== 'stack' });
  }
}
