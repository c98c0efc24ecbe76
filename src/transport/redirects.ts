// Which HTTP redirects the HTTP transports follow. fetch's own following
// would carry our configured headers (all but Authorization, which it strips
// on a cross-origin hop) and, for 307/308, the message body to wherever a
// Location points; so every fetch is made with `redirect: 'manual'` (the
// node:http path never follows one) and the answer goes through nextHop(). The rule: a redirect is followed only
// within the configured origin, for at most MAX_REDIRECTS hops, and only
// when it keeps the request as it is (RFC 9110 §15.4: 307 and 308 keep the
// method and body; 301, 302 and 303 may turn a POST into a GET, which would
// drop the JSON-RPC message, so they are followed for GET alone).

/** Hops followed before giving up; fetch allows 20, an MCP endpoint has no reason to need more than one or two. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export function isRedirect(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/** Where to go next, or why not. `origin` is the configured URL's origin: nothing of ours ever leaves it. */
export type Hop = { follow: URL } | { refuse: string };

export function nextHop(response: { status: number; headers: { get(name: string): string | null } }, from: URL, origin: string, httpMethod: string, hops: number): Hop {
  const location = response.headers.get('location');
  if (location === null) return { refuse: 'a redirect without a Location header' };
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    return { refuse: 'a redirect to a Location that is not a URL' };
  }
  if (target.origin !== origin) return { refuse: `a redirect to another origin (${target.origin}); only ${origin} is ever sent requests` };
  // fetch refuses a URL with credentials in it; the configured headers are the only credentials sent.
  if (target.username !== '' || target.password !== '') return { refuse: 'a redirect to a URL with credentials in it' };
  if (httpMethod !== 'GET' && response.status !== 307 && response.status !== 308) {
    return { refuse: `a ${response.status} redirect of a ${httpMethod}, which would turn it into a GET without the message` };
  }
  if (hops >= MAX_REDIRECTS) return { refuse: `more than ${MAX_REDIRECTS} redirects` };
  return { follow: target };
}
