// An Authorizer with no browser and no user (#19): it requests the
// authorization URL itself and takes the redirect the authorization server
// answers with at once. What the official suite's mocks and test servers do;
// a real AS shows a login page instead, and this then fails with an
// OAuthError saying so. Only for hosts that know their AS approves by itself.

import { OAuthError } from '../errors.js';
import type { FetchLike } from './discovery.js';
import type { Authorizer } from './oauth-provider.js';

export function headlessAuthorizer(options: { fetch?: FetchLike; timeoutMs?: number } = {}): Authorizer {
  return async ({ url, redirectUri, server }) => {
    const response = await (options.fetch ?? fetch)(url, { redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs ?? 15_000) });
    await response.body?.cancel();
    const location = response.headers.get('location');
    const back = location ? new URL(location, url) : undefined;
    if (response.status < 300 || response.status >= 400 || !back) {
      throw new OAuthError({ server }, 'authorization', `the authorization server answered HTTP ${response.status} instead of redirecting back: it wants a person; run mcpwire login ${server}`);
    }
    const expected = new URL(redirectUri);
    if (back.origin !== expected.origin || back.pathname !== expected.pathname) {
      throw new OAuthError({ server }, 'authorization', `the authorization server redirected to ${back.origin}${back.pathname}, not to the redirect URI this client registered`);
    }
    return back;
  };
}
