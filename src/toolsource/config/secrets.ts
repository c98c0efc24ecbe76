// Looks up a `secret_ref` in local.toml `[secrets]` (T4, ADR-0043 §4:
// "secret_ref: api_keys.example" is `[secrets.api_keys] example = "…"`).
// What comes back on failure says why in words that never include a value.

export type SecretLookup = { ok: true; value: string } | { ok: false; why: 'missing' | 'not-a-string' | 'empty' | 'line-break' };

export function lookupSecret(secrets: unknown, ref: string, options: { multiline?: boolean } = {}): SecretLookup {
  let at: unknown = secrets;
  for (const segment of ref.split('.')) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, segment)) return { ok: false, why: 'missing' };
    at = (at as Record<string, unknown>)[segment];
  }
  if (typeof at !== 'string') return { ok: false, why: 'not-a-string' };
  if (at.trim() === '') return { ok: false, why: 'empty' };
  // The value goes into an HTTP header, where CR or LF would let it smuggle in another header.
  // A PEM private key (#19) is never sent, only signed with: its lines are allowed, NUL is not.
  if ((options.multiline ? /\0/ : /[\r\n\0]/).test(at)) return { ok: false, why: 'line-break' };
  return { ok: true, value: at };
}

/** What a failed lookup means, for a ConfigError about `ref`. */
export function describeLookup(ref: string, why: Exclude<SecretLookup, { ok: true }>['why']): string {
  switch (why) {
    case 'missing':
      return `the secret "${ref}" is not in local.toml [secrets]`;
    case 'not-a-string':
      return `the secret "${ref}" in local.toml [secrets] is not a string`;
    case 'empty':
      return `the secret "${ref}" in local.toml [secrets] is empty`;
    case 'line-break':
      return `the secret "${ref}" in local.toml [secrets] contains a line break or NUL, which an HTTP header cannot carry`;
  }
}
