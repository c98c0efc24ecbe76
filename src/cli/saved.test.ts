// What `mcpwire add` takes for a secret and what it writes as given
// (#18 item 12), and the example `call` line of a tool's view (#18 item 4).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { argsProblem, secretProblem, urlProblem } from './saved.js';
import { exampleCall, shellWord } from './tool-view.js';

const SECRET = 'Zq81xW4kPv0RmT7sLc2NyH6dJa9FgB3e';

test('a value under a credential\'s name, or shaped like a token, must be a ${VAR} reference; the answer never quotes it', () => {
  for (const [kind, name, value] of [
    ['header', 'Authorization', 'Bearer abc'],
    ['header', 'X-Api-Key', 'short'],
    ['header', 'X-Anything', 'sk-ant-api03-xyz'],
    ['header', 'X-Anything', SECRET],
    ['env', 'GITHUB_TOKEN', 'x'],
    ['env', 'OPTIONS', 'ghp_0123456789abcdefghij'],
    ['env', 'OPTIONS', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig'],
    ['env', 'OPTIONS', '0123456789abcdef0123456789abcdef'],
  ] as const) {
    const problem = secretProblem(kind, name, value);
    assert.ok(problem !== undefined, `${kind} ${name} should be refused`);
    assert.ok(!problem.includes(value), 'the value is not quoted');
  }
  for (const [kind, name, value] of [
    ['header', 'Authorization', 'Bearer ${TOKEN}'],
    ['env', 'API_KEY', '${API_KEY}'],
    ['env', 'API_KEY', ''],
    ['header', 'X-Tenant', 'acme'],
    ['env', 'LOG_LEVEL', 'debug'],
    ['env', 'NODE_OPTIONS', '--max-old-space-size=4096'],
    ['arg', '', '@modelcontextprotocol/server-filesystem@2025.11.25'],
    ['arg', '', '/home/someone/projects/a-rather-long-folder-name-2025-edition'],
    ['arg', '', 'mcp-server-with-a-long-name-v2-2025-11-25-edition'],
  ] as const) {
    assert.equal(secretProblem(kind, name, value), undefined, `${kind} ${name}=${value} is not a secret`);
  }
});

test('a command line: the value of a credential flag, in either form, and token-shaped words', () => {
  assert.ok(argsProblem(['server', '--api-key', 'hunter2']));
  assert.ok(argsProblem(['server', '--token=hunter2']));
  assert.ok(argsProblem(['server', SECRET]));
  assert.equal(argsProblem(['server', '--api-key', '${API_KEY}']), undefined);
  assert.equal(argsProblem(['server', '--token=${T}', '--verbose', '--port', '3000']), undefined);
  assert.equal(argsProblem(['server', '--auth-mode', '--verbose']), undefined, 'a flag followed by a flag has no value');
});

test('a URL: credentials before the host, a secret-named query parameter with a literal value', () => {
  assert.ok(urlProblem(new URL('https://u:p@example.com/mcp')));
  assert.ok(urlProblem(new URL('https://example.com/mcp?api_key=abc')));
  assert.equal(urlProblem(new URL('https://example.com/mcp?api_key=${KEY}&v=2')), undefined);
  assert.ok(urlProblem(new URL('https://actions.example.com/mcp/sk-ak-0123456789abcdef/sse')), 'a key in the path');
  assert.equal(urlProblem(new URL('https://example.com/api/v1/mcp/sse?v=%E0%A4%A')), undefined, 'a malformed %-sequence is not a crash');
});

test('the example call: required parameters with a value of their type, defaults and enums first, quoted for the shell', () => {
  const schema = {
    type: 'object',
    properties: {
      query: { type: 'string' },
      limit: { type: 'integer', minimum: 5 },
      mode: { type: 'string', enum: ['fast', 'full'] },
      filters: { type: 'object' },
      depth: { type: 'number', default: 2 },
      verbose: { type: 'boolean' },
    },
    required: ['query', 'limit', 'mode', 'filters', 'depth'],
  };
  assert.equal(exampleCall('gh.search', schema, ['--config', 'my file.json']), "mcpwire call gh.search query=text limit=5 mode=fast 'filters={}' depth=2 --config 'my file.json'");
  assert.equal(exampleCall('ping', { type: 'object', properties: { verbose: { type: 'boolean' } } }, []), 'mcpwire call ping verbose=true', 'none required: the first');
  assert.equal(exampleCall('now', {}, []), 'mcpwire call now');
  assert.equal(shellWord("it's"), `'it'\\''s'`);
});
