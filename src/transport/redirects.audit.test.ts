// Audit tests for nextHop() (T2/T3 with T4; issue #20 item 3): each reason a
// redirect is refused, with the words that tell the user why, and the hop
// limit at its edge. spec-tests/T2-T3.redirects.test.ts drives the same
// rule end to end through two real servers; these pin each branch with a
// Response built in memory, because nextHop() reads nothing else.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isRedirect, MAX_REDIRECTS, nextHop } from './redirects.js';

const FROM = new URL('http://127.0.0.1:8123/mcp');
const ORIGIN = FROM.origin;

function redirect(status: number, location?: string): Response {
  return new Response(null, { status, headers: location === undefined ? {} : { location } });
}

function refusal(hop: ReturnType<typeof nextHop>): string {
  assert.ok('refuse' in hop, `expected a refusal, got ${JSON.stringify(hop)}`);
  return hop.refuse;
}

test('T2 audit: the redirect statuses are 301, 302, 303, 307 and 308, no others', () => {
  assert.deepEqual([300, 301, 302, 303, 304, 305, 306, 307, 308, 309, 200].filter(isRedirect), [301, 302, 303, 307, 308]);
});

test('T2 audit: a redirect within the origin is followed, relative Locations resolved against the request URL', () => {
  assert.deepEqual(nextHop(redirect(307, '/other'), FROM, ORIGIN, 'POST', 0), { follow: new URL('http://127.0.0.1:8123/other') });
  assert.deepEqual(nextHop(redirect(302, 'next'), FROM, ORIGIN, 'GET', 0), { follow: new URL('http://127.0.0.1:8123/next') });
});

test('T2 audit: each refusal says why', () => {
  assert.equal(refusal(nextHop(redirect(307), FROM, ORIGIN, 'POST', 0)), 'a redirect without a Location header');
  assert.equal(refusal(nextHop(redirect(307, 'http://[bad'), FROM, ORIGIN, 'POST', 0)), 'a redirect to a Location that is not a URL');
  assert.equal(
    refusal(nextHop(redirect(307, 'http://localhost:8123/mcp'), FROM, ORIGIN, 'POST', 0)),
    'a redirect to another origin (http://localhost:8123); only http://127.0.0.1:8123 is ever sent requests',
  );
  assert.equal(refusal(nextHop(redirect(303, '/x'), FROM, ORIGIN, 'POST', 0)), 'a 303 redirect of a POST, which would turn it into a GET without the message');
  assert.equal(refusal(nextHop(redirect(301, '/x'), FROM, ORIGIN, 'DELETE', 0)), 'a 301 redirect of a DELETE, which would turn it into a GET without the message');
});

test('T4 audit: a redirect to a URL with a user name, a password or both is refused, though the origin is the same', () => {
  for (const location of ['http://user@127.0.0.1:8123/mcp', 'http://:pw@127.0.0.1:8123/mcp', 'http://user:pw@127.0.0.1:8123/mcp']) {
    assert.equal(refusal(nextHop(redirect(307, location), FROM, ORIGIN, 'POST', 0)), 'a redirect to a URL with credentials in it', location);
  }
});

test(`T2 audit: hop ${MAX_REDIRECTS} is the last followed; the one after is refused`, () => {
  assert.ok('follow' in nextHop(redirect(308, '/x'), FROM, ORIGIN, 'POST', MAX_REDIRECTS - 1));
  assert.equal(refusal(nextHop(redirect(308, '/x'), FROM, ORIGIN, 'POST', MAX_REDIRECTS)), `more than ${MAX_REDIRECTS} redirects`);
  assert.equal(MAX_REDIRECTS, 5);
});
