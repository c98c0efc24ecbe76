// Removing secrets (auth header values) from text a server sent before it
// goes into an error or a diagnostic (T4: "Secret values never appear in
// any log, error or diagnostic"). A server may echo a credential encoded
// (Basic-style base64, a hex dump, a URL it was put in), so each secret is
// looked for in those forms too. Text that was cut short (a body excerpt
// read up to a limit) may end in the first characters of a secret, which no
// whole-secret match finds: cutTail() drops such a tail.

/** Shorter values are not scrubbed: "[redacted]" in place of every "ab" would mangle text and hide nothing. */
const MIN_SECRET_CHARS = 4;
const REDACTED = '[redacted]';

/** The forms in which `secret` may appear in server text. */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const base64 = bytes.toString('base64');
  const hex = bytes.toString('hex');
  const forms = new Set([
    secret,
    base64,
    base64.replace(/=+$/, ''),
    bytes.toString('base64url'),
    hex,
    hex.toUpperCase(),
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
  ]);
  return [...forms].filter((form) => form.length >= MIN_SECRET_CHARS);
}

/** Replaces every occurrence of a secret, in any of its forms, in `text`. */
export function redact(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_CHARS) continue;
    // Longest first: the unpadded base64 is a prefix of the padded one.
    for (const form of secretForms(secret).sort((a, b) => b.length - a.length)) {
      if (out.includes(form)) out = out.split(form).join(REDACTED);
    }
  }
  return out;
}

/**
 * `text` without a tail that is the beginning of a secret (in any of its
 * forms): for text that was cut at a length limit, after redact(). Drops
 * whatever the cut could have left of a secret, even one character of it.
 */
export function cutTail(text: string, secrets: Iterable<string>): string {
  const forms = [...secrets].filter((secret) => secret.length >= MIN_SECRET_CHARS).flatMap(secretForms);
  let end = text.length;
  // Until no form's beginning ends the text: dropping one tail may uncover another.
  for (let dropped = true; dropped; ) {
    dropped = false;
    for (const form of forms) {
      for (let k = Math.min(form.length - 1, end); k > 0; k--) {
        if (text.startsWith(form.slice(0, k), end - k)) {
          end -= k;
          dropped = true;
          break;
        }
      }
    }
  }
  return text.slice(0, end);
}

/**
 * `text` without a head that is the end of a secret (in any of its forms):
 * for text whose start was cut off (the tail of a stream, kept in a ring
 * buffer), after redact(). The mirror of cutTail().
 */
export function cutHead(text: string, secrets: Iterable<string>): string {
  const forms = [...secrets].filter((secret) => secret.length >= MIN_SECRET_CHARS).flatMap(secretForms);
  let start = 0;
  for (let dropped = true; dropped; ) {
    dropped = false;
    for (const form of forms) {
      for (let k = Math.min(form.length - 1, text.length - start); k > 0; k--) {
        if (text.startsWith(form.slice(form.length - k), start)) {
          start += k;
          dropped = true;
          break;
        }
      }
    }
  }
  return text.slice(start);
}

/** The userinfo (`user:password@`) of a URL in text: scheme, then anything up to an `@` before the host. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;

/**
 * `text` with the userinfo of every URL in it replaced (#16 item 3): a
 * `https://user:password@host/` in an error a library (fetch) wrote, or in
 * a command line a server echoes, shows as `https://[redacted]@host/`.
 */
export function redactUrlCredentials(text: string): string {
  return text.includes('@') ? text.replace(URL_USERINFO, `$1${REDACTED}@`) : text;
}

/** The credentials of a URL (user and password, as written and decoded), to treat as secrets. */
export function urlCredentials(url: URL): string[] {
  const values = new Set<string>();
  for (const part of [url.username, url.password]) {
    if (part === '') continue;
    values.add(part);
    try {
      values.add(decodeURIComponent(part));
    } catch {
      // a malformed escape: the raw form is enough
    }
  }
  return [...values];
}
