// WWW-Authenticate, parsed as RFC 9110 §11.6.1 writes it (#19 item 1): a
// list of challenges, each a scheme followed by a token68 or by auth-params,
// where a quoted string may hold commas, equals signs and escaped quotes. A
// split on commas (what peers do) breaks `scope="a, b"` and merges the next
// challenge's params into this one; this reads it character by character.
// Nothing here throws: a malformed header yields what could be read.

/** One challenge: its scheme (as sent; compare case-insensitively), and its params by lower-cased name, or a token68. */
export interface AuthChallenge {
  scheme: string;
  params: Record<string, string>;
  token68?: string;
}

/** RFC 9110 tchar. */
const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
/** RFC 9110 token68, without its trailing "=" padding. */
const TOKEN68_CHAR = /[A-Za-z0-9\-._~+/]/;
/** Headers longer than this are cut: a server's header is not a place for megabytes. */
const MAX_HEADER_CHARS = 16_384;

export function parseWwwAuthenticate(header: string): AuthChallenge[] {
  const text = header.length > MAX_HEADER_CHARS ? header.slice(0, MAX_HEADER_CHARS) : header;
  const challenges: AuthChallenge[] = [];
  let i = 0;
  const skip = (chars: RegExp) => {
    while (i < text.length && chars.test(text[i]!)) i++;
  };
  const token = (): string => {
    const start = i;
    while (i < text.length && TCHAR.test(text[i]!)) i++;
    return text.slice(start, i);
  };
  const quoted = (): string => {
    // At the opening quote. A backslash escapes the next character; an unterminated string ends at the end.
    i++;
    let value = '';
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\' && i + 1 < text.length) i++;
      value += text[i];
      i++;
    }
    i++; // the closing quote
    return value;
  };
  /** name = value at i, or undefined with i unchanged. */
  const param = (): [string, string] | undefined => {
    const start = i;
    const name = token();
    if (name === '') return undefined;
    skip(/[ \t]/);
    if (text[i] !== '=') {
      i = start;
      return undefined;
    }
    i++;
    skip(/[ \t]/);
    if (text[i] === '"') return [name.toLowerCase(), quoted()];
    const value = token();
    if (value === '') {
      i = start;
      return undefined;
    }
    return [name.toLowerCase(), value];
  };

  while (i < text.length) {
    skip(/[ \t,]/);
    if (i >= text.length) break;
    const scheme = token();
    if (scheme === '') {
      i++; // not a token character where a scheme should start: skip it
      continue;
    }
    const challenge: AuthChallenge = { scheme, params: {} };
    challenges.push(challenge);
    skip(/[ \t]/);
    // A token68 (`Basic dXNlcjpwYXNz`), unless what follows is an auth-param.
    const first = param();
    if (first === undefined) {
      const start = i;
      while (i < text.length && TOKEN68_CHAR.test(text[i]!)) i++;
      while (text[i] === '=') i++;
      const candidate = text.slice(start, i);
      const after = i;
      skip(/[ \t]/);
      if (candidate !== '' && (i >= text.length || text[i] === ',')) challenge.token68 = candidate;
      else i = candidate === '' ? after : start;
      continue;
    }
    if (!(first[0] in challenge.params)) challenge.params[first[0]] = first[1];
    // More params, comma-separated; a comma followed by something that is not `name=` starts the next challenge.
    for (;;) {
      const mark = i;
      skip(/[ \t]/);
      if (text[i] !== ',') {
        i = mark;
        break;
      }
      skip(/[ \t,]/);
      const next = param();
      if (next === undefined) break;
      if (!(next[0] in challenge.params)) challenge.params[next[0]] = next[1];
    }
  }
  return challenges;
}

/** The first Bearer challenge's params, or undefined when the header has none. */
export function bearerChallenge(header: string | null | undefined): Record<string, string> | undefined {
  if (!header) return undefined;
  return parseWwwAuthenticate(header).find((c) => c.scheme.toLowerCase() === 'bearer')?.params;
}
