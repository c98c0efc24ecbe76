// One rule for secret-looking names (#18 item 18): `config show` masks,
// the HTTP transport scrubs and `doctor` warns of the same names, DB_PASSWD,
// GITHUB_PAT and X-Github-Pat among them. A canary stands for the secret.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveHeaders } from '../transport/http-headers.js';
import { isSecretName } from '../util/secret-names.js';
import { showConfig } from './config/show.js';
import { secretLookingVariables } from './environment.js';

const CANARY = 'sk-canary-rule-5d1e';
const NAMES = ['DB_PASSWD', 'GITHUB_PAT', 'X_ACCESS_KEY', 'OPENAI_API_KEY', 'PORT', 'XDG_SESSION_TYPE', 'LOG_LEVEL'];
const HEADERS = ['X-Github-Pat', 'X-Custom-Auth', 'X-Access-Key', 'Authorization', 'Accept', 'X-Trace'];

test('T4: doctor warns of exactly the host variables config show masks', () => {
  const env = Object.fromEntries(NAMES.map((name) => [name, CANARY]));
  const warned = secretLookingVariables(env);
  const shown = showConfig({
    file: '/p/mcp.json',
    format: 'mcp-servers',
    projectRoot: '/p',
    servers: [{ key: 's', params: { transport: 'stdio', server: 's', command: 'x', env }, disabled: false, timeoutMs: undefined, unsupported: undefined, tools: { enabled: true, allow: undefined, deny: [] } }],
    resultCapBytes: 65_536,
    defaultTimeoutMs: 30_000,
    agents: {},
    secrets: [],
  });
  const masked = Object.entries(shown.servers[0]!.env ?? {}).filter(([, value]) => value === '***').map(([name]) => name).sort();
  assert.deepEqual(warned, masked);
  assert.deepEqual(warned, ['DB_PASSWD', 'GITHUB_PAT', 'OPENAI_API_KEY', 'X_ACCESS_KEY']);
  assert.deepEqual(warned, NAMES.filter(isSecretName).sort());
});

test('T4: the HTTP transport treats as secret the values of exactly the headers the rule names', () => {
  const { secrets } = resolveHeaders('s', { headers: Object.fromEntries(HEADERS.map((name, k) => [name, `${CANARY}-${k}`])) });
  const secretHeaders = HEADERS.filter((_, k) => secrets.includes(`${CANARY}-${k}`));
  assert.deepEqual(secretHeaders, ['X-Github-Pat', 'X-Custom-Auth', 'X-Access-Key', 'Authorization']);
  assert.deepEqual(secretHeaders, HEADERS.filter(isSecretName));
});
