// C5: the mcpServers JSON of common MCP hosts, stdio and remote entries.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError } from '../../errors.js';
import { loadMcpServersJson } from './mcp-servers-json.js';

function withFile(t: { after(fn: () => void): void }, doc: unknown): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-c5-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'mcp.json');
  writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
  return file;
}

test('C5: stdio entries keep command, args and env; cwd resolves against the file', (t) => {
  const file = withFile(t, { mcpServers: { fs: { command: 'npx', args: ['-y', 'server'], env: { A: '1' }, cwd: 'tools' } } });
  assert.deepEqual(loadMcpServersJson(file), [
    { name: 'fs', transport: 'stdio', command: 'npx', args: ['-y', 'server'], env: { A: '1' }, server: 'fs', cwd: path.join(path.dirname(file), 'tools') },
  ]);
});

test('C5: remote entries: no type → Streamable HTTP with fallback to legacy SSE, "http" → Streamable HTTP only, "sse" → legacy SSE, headers interpolated', (t) => {
  const file = withFile(t, {
    mcpServers: {
      modern: { url: 'https://example.test/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
      legacy: { url: 'http://127.0.0.1:9/sse', type: 'sse' },
      vscode: { url: 'http://127.0.0.1:9/mcp', type: 'http' },
    },
  });
  const byName = Object.fromEntries(loadMcpServersJson(file, { env: { TOKEN: 'sk-canary-77aa' } }).map((s) => [s.name, s]));
  assert.equal(byName.modern!.transport, 'streamable-http');
  assert.deepEqual((byName.modern as { headers?: unknown }).headers, { Authorization: 'Bearer sk-canary-77aa' });
  assert.equal(byName.legacy!.transport, 'sse');
  assert.equal(byName.vscode!.transport, 'streamable-http');
  const fallback = (name: string) => (byName[name] as { fallbackToSse?: boolean }).fallbackToSse;
  assert.equal(fallback('modern'), true, 'a URL alone may be either transport: connect() tries both');
  assert.equal(fallback('vscode'), undefined, 'an explicit "http" is taken at its word');
});

test('C5: VS Code\'s top-level "servers" key is read like mcpServers', (t) => {
  const file = withFile(t, { servers: { a: { type: 'stdio', command: 'node' } } });
  assert.equal(loadMcpServersJson(file)[0]!.transport, 'stdio');
});

test('C5: errors name the file and the path of what is wrong', (t) => {
  const cases: [unknown, string][] = [
    ['{not json', ':1:2: not valid JSON'],
    [{ other: {} }, 'mcpServers'],
    [{ mcpServers: { both: { command: 'x', url: 'http://a/' } } }, 'mcpServers.both: expected exactly one of'],
    [{ mcpServers: { neither: {} } }, 'mcpServers.neither: expected exactly one of'],
    [{ mcpServers: { s: { command: 'x', args: [1] } } }, 'mcpServers.s.args'],
    [{ mcpServers: { s: { url: 'ftp://a/b' } } }, 'mcpServers.s.url: expected http: or https:'],
    [{ mcpServers: { s: { url: 'http://a/', type: 'stdio' } } }, 'mcpServers.s.type'],
    [{ mcpServers: { s: { command: 'x', type: 'sse' } } }, 'mcpServers.s.type'],
    [{ mcpServers: { s: { url: 'http://a/', headers: { A: 1 } } } }, 'mcpServers.s.headers'],
  ];
  for (const [doc, expected] of cases) {
    const file = withFile(t, doc);
    assert.throws(() => loadMcpServersJson(file), (error: unknown) => {
      assert.ok(error instanceof ConfigError, String(error));
      assert.ok(error.message.includes(file), error.message);
      assert.ok(error.message.includes(expected), `${error.message} should mention ${expected}`);
      return true;
    });
  }
});
