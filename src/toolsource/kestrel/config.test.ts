// Kestrel's `${NAME}` in a header is the config readers' one interpolation
// (config/interpolate.ts, #18 item 18): the same forms resolve (`${env:NAME}`
// too), a value from the environment is never expanded again, and what came
// from the environment is a secret. A canary stands for the token.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readKestrelConfig } from './config.js';

const CANARY = 'sk-canary-kestrel-8c2f';

function headersOf(headers: Record<string, string>, env: Record<string, string>) {
  const read = readKestrelConfig({ servers: { docs: { url: 'http://127.0.0.1:9/mcp', headers } } }, { env, root: '/p' });
  const server = read.source.servers[0];
  return { headers: server?.params.transport === 'streamable-http' ? server.params.headers : undefined, skipped: read.skipped, secrets: read.source.secrets };
}

test('C4/T4: ${NAME}, ${env:NAME} and ${NAME:-default} resolve once, at load; the values taken are secrets', () => {
  const read = headersOf(
    { Authorization: 'Bearer ${K_TOKEN}', 'X-Env-Form': '${env:K_TOKEN}', 'X-Default': '${K_UNSET:-fallback}', 'X-Nested': '${K_NESTED}', Accept: 'text/plain' },
    { K_TOKEN: CANARY, K_NESTED: '${K_TOKEN}' },
  );
  assert.deepEqual(read.skipped, []);
  assert.deepEqual(read.headers, { Authorization: `Bearer ${CANARY}`, 'X-Env-Form': CANARY, 'X-Default': 'fallback', 'X-Nested': '${K_TOKEN}', Accept: 'text/plain' });
  assert.ok(read.secrets.includes(CANARY) && read.secrets.includes(`Bearer ${CANARY}`), 'the token and the header holding it');
  assert.ok(!read.secrets.includes('text/plain') && !read.secrets.includes('fallback'));
});

test('C4: a header with an unset, empty or blank variable is not sent; a placeholder only an editor fills skips the server, never quoting a value', () => {
  const dropped = headersOf({ Authorization: 'Bearer ${K_UNSET}', 'X-Empty': '${K_EMPTY}', 'X-Blank': 'v=${K_BLANK}', 'X-Kept': 'k' }, { K_EMPTY: '', K_BLANK: '  ', K_TOKEN: CANARY });
  assert.deepEqual(dropped.headers, { 'X-Kept': 'k' });
  const editor = headersOf({ Authorization: 'Bearer ${input:token}', 'X-Other': '${K_TOKEN}' }, { K_TOKEN: CANARY });
  assert.equal(editor.headers, undefined);
  assert.equal(editor.skipped.length, 1);
  assert.match(editor.skipped[0]!.reason, /"headers"\."Authorization": .*VS Code input/);
  assert.ok(!JSON.stringify(editor.skipped).includes(CANARY));
});
