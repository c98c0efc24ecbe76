// C5: `${…}` in client configs: environment variables with and without
// defaults, editor variables, and what cannot be resolved.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { describeInterpolation, interpolate, type InterpolationContext } from './interpolate.js';

const context: InterpolationContext = { env: { TOKEN: 'sk-canary-1a2b', EMPTY: '', HOST: 'db.internal' }, workspaceFolder: '/work/proj', userHome: '/home/me' };

test('${VAR} and ${env:VAR} read the environment; the values are reported as secrets', () => {
  assert.deepEqual(interpolate('Bearer ${TOKEN}', context), { ok: true, value: 'Bearer sk-canary-1a2b', fromEnv: ['sk-canary-1a2b'] });
  assert.deepEqual(interpolate('${env:HOST}:5432/${env:TOKEN}', context), { ok: true, value: 'db.internal:5432/sk-canary-1a2b', fromEnv: ['db.internal', 'sk-canary-1a2b'] });
});

test('${VAR:-default}: the default when VAR is unset or empty, the variable otherwise; a default is not a secret', () => {
  assert.deepEqual(interpolate('${MISSING:-fallback}', context), { ok: true, value: 'fallback', fromEnv: [] });
  assert.deepEqual(interpolate('${EMPTY:-x}', context), { ok: true, value: 'x', fromEnv: [] });
  assert.deepEqual(interpolate('${HOST:-x}', context), { ok: true, value: 'db.internal', fromEnv: ['db.internal'] });
  assert.deepEqual(interpolate('${env:MISSING:-}', context), { ok: true, value: '', fromEnv: [] });
});

test('an unset (or empty) variable without a default fails, naming the variable', () => {
  const failure = interpolate('Bearer ${GITHUB_TOKEN}', context);
  assert.deepEqual(failure, { ok: false, why: 'unset', variable: 'GITHUB_TOKEN' });
  assert.match(describeInterpolation(failure as Exclude<typeof failure, { ok: true }>), /environment variable GITHUB_TOKEN is not set/);
  assert.deepEqual(interpolate('${env:EMPTY}', context), { ok: false, why: 'unset', variable: 'EMPTY' });
});

test('editor variables: workspace folder, its name, the home folder, the path separator', () => {
  const out = interpolate('${workspaceFolder}/a:${workspaceFolderBasename}:${userHome}${pathSeparator}${/}', context);
  assert.deepEqual(out, { ok: true, value: `/work/proj/a:proj:/home/me${path.sep}${path.sep}`, fromEnv: [] });
});

test('${input:…} is refused, saying VS Code prompts for it and what to write instead', () => {
  const failure = interpolate('${input:api-key}', context);
  assert.deepEqual(failure, { ok: false, why: 'input', variable: 'api-key' });
  assert.match(describeInterpolation(failure as Exclude<typeof failure, { ok: true }>), /VS Code input.*\$\{env:NAME\}/);
});

test('other editor variables (${command:…}, ${config:…}) are named as unresolvable', () => {
  assert.deepEqual(interpolate('${config:python.path}', context), { ok: false, why: 'editor', variable: 'config:python.path' });
});

test('text without placeholders, and a lone $ or {, pass through', () => {
  assert.deepEqual(interpolate('a $HOME {b} $ {', context), { ok: true, value: 'a $HOME {b} $ {', fromEnv: [] });
});
