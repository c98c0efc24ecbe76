// Sentences the config readers of every format share, so a mistake reads the
// same whichever file it is in: a URL carrying credentials, a key that is a
// near miss of the one the reader looked for. No schema library here: the
// client formats' readers must not load one.

import { nearest } from '../../util/suggest.js';
import { quote } from './quote.js';

/**
 * The message for a URL with `user:password@`. It never repeats the URL,
 * whose password it would show; each format appends how it sends a credential.
 */
export const URL_CREDENTIALS =
  'the URL carries credentials (user:password@ before the host), which would show up in logs and errors; remove them and send the credential as a header instead';

/** A URL (already known to parse) with a user name or password in it. */
export function hasUserinfo(url: string): boolean {
  const parsed = new URL(url);
  return parsed.username !== '' || parsed.password !== '';
}

/**
 * `; is "comand" a misspelt "command"?` for the first key of `entry` that is
 * not one of `known` and is a near miss of one of `wanted`; '' when none is.
 */
export function misspeltHint(entry: Record<string, unknown>, known: readonly string[], wanted: readonly string[]): string {
  for (const key of Object.keys(entry)) {
    if (known.includes(key)) continue;
    const near = nearest(key, wanted, 1)[0];
    if (near !== undefined) return `; is ${quote(key, 80)} a misspelt "${near}"?`;
  }
  return '';
}
