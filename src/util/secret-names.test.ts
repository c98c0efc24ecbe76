// #18 item 18: one rule for secret-looking names, headers and variables alike.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSecretHeader, isSecretName, isSecretVariable } from './secret-names.js';

const SECRET = [
  // headers, the recorder's misses among them (#18 item 22)
  'Authorization', 'Proxy-Authorization', 'Cookie', 'Set-Cookie', 'Mcp-Session-Id', 'X-API-Key', 'X-Auth-Key', 'X-Custom-Auth', 'X-Access-Key', 'X-Github-Pat', 'X-JWT',
  // variables, those not ending in _KEY, _TOKEN or _SECRET among them
  'OPENAI_API_KEY', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'DB_PASSWORD', 'DB_PASSWD', 'GITHUB_PAT', 'STRIPE_KEY_LIVE', 'AUTH_HEADER', 'SENTRY_DSN', 'GPG_PASSPHRASE', 'apiKey', 'accessToken', 'BEARER',
];
const PLAIN = ['Accept', 'Content-Type', 'User-Agent', 'Host', 'PATH', 'PATHEXT', 'HOME', 'PORT', 'PWD', 'LANG', 'NODE_ENV', 'XDG_SESSION_TYPE', 'DBUS_SESSION_BUS_ADDRESS', 'SSH_AUTH_SOCK', 'COMPAT_MODE', 'SPATIAL'];

test('T4: credential names are secret, as headers and as variables alike; ordinary names and the desktop session variables are not', () => {
  for (const name of SECRET) assert.ok(isSecretName(name), name);
  for (const name of PLAIN) assert.ok(!isSecretName(name), name);
  for (const name of [...SECRET, ...PLAIN]) {
    assert.equal(isSecretHeader(name), isSecretName(name), `header ${name}`);
    assert.equal(isSecretVariable(name), isSecretName(name), `variable ${name}`);
  }
});
