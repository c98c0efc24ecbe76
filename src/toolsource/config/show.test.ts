// C5, T4: what `config show` prints: every secret as ***, the rest as read.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatShownConfig, showConfig } from './show.js';
import type { SourceServer, ToolSourceConfig } from './types.js';

const tools = { enabled: true, allow: undefined, deny: [] };
const base = { disabled: false, timeoutMs: undefined, unsupported: undefined, tools };

function config(servers: SourceServer[], secrets: string[]): ToolSourceConfig {
  return { file: '/p/mcp.json', format: 'mcp-servers', projectRoot: '/p', servers, resultCapBytes: 65_536, defaultTimeoutMs: 30_000, agents: {}, secrets };
}

test('a secret inside a longer value is masked where it appears; a credential-named variable or header is masked whole', () => {
  const shown = showConfig(
    config(
      [
        { ...base, key: 'a', params: { transport: 'stdio', server: 'a', command: 'run', args: ['--token=sk-canary-abcd', '--port', '8080'], env: { API_KEY: 'literal', PORT: '80' } } },
        { ...base, key: 'b', params: { transport: 'sse', server: 'b', url: 'https://b.test/sse?key=sk-canary-abcd', headers: { Cookie: 'c=1', Accept: 'x' }, auth: { type: 'header', headerName: 'X-Key', value: 'v' } } },
      ],
      ['sk-canary-abcd', '80'],
    ),
  );
  const [a, b] = shown.servers;
  assert.deepEqual(a!.args, ['--token=***', '--port', '8080'], 'a value shorter than 4 characters is not masked inside others');
  assert.deepEqual(a!.env, { API_KEY: '***', PORT: '***' }, 'PORT is masked because its whole value is a recorded secret');
  assert.equal(b!.url, 'https://b.test/sse?key=***');
  assert.deepEqual(b!.headers, { Cookie: '***', Accept: 'x' });
  assert.deepEqual(b!.auth, { type: 'header', headerName: 'X-Key', value: '***' });
  assert.doesNotMatch(formatShownConfig(shown), /sk-canary/);
});

test('the human view shows state, command line, filters and timeouts', () => {
  const shown = showConfig(
    config([{ ...base, key: 'x', params: { transport: 'stdio', server: 'x', command: 'node', args: ['a b.js'] }, tools: { enabled: true, allow: ['r*'], deny: ['rm'] }, timeoutMs: 5000, startupTimeoutMs: 20_000, unsupported: 'server "x": why' }], []),
  );
  assert.equal(
    formatShownConfig(shown),
    '/p/mcp.json (mcp-servers), 1 server\nx  stdio (unsupported: server "x": why)\n  command: node "a b.js"\n  tools: allow r*; deny rm\n  timeout: 5000 ms per call\n  startup timeout: 20000 ms\n',
  );
});
