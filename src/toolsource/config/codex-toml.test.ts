// C5: Codex's [mcp_servers.<name>] tables: mapping onto the tool source's
// shape and the errors, which name the key and never quote a line.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError } from '../../errors.js';
import { readCodexToml } from './codex-toml.js';

function withToml(t: { after(fn: () => void): void }, text: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-codex-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'config.toml'), text);
  return path.join(dir, 'config.toml');
}

test('cwd is taken against the workspace; startup_timeout_ms is read as the older spelling', (t) => {
  const file = withToml(t, '[mcp_servers.a]\ncommand = "x"\ncwd = "tools"\nstartup_timeout_ms = 1500\n');
  const [server] = readCodexToml(file, { workspaceFolder: '/work/p', env: {} }).servers;
  assert.equal((server!.params as { cwd?: string }).cwd, path.resolve('/work/p', 'tools'));
  assert.equal(server!.startupTimeoutMs, 1500);
  assert.equal(server!.timeoutMs, undefined);
});

test('errors name the file, line, key path and what was expected', (t) => {
  const cases: [string, RegExp][] = [
    ['[mcp_servers.a]\ncommand = "x"\nurl = "https://a.test/"\n', /config\.toml:1:1 at mcp_servers\.a: expected exactly one of "command"/],
    ['[mcp_servers.a]\ncommand = "x"\ntool_timeout_sec = 0\n', /config\.toml:3:1 at mcp_servers\.a\.tool_timeout_sec: expected a positive number/],
    ['[mcp_servers.a]\ncommand = "x"\nenabled_tools = "one"\n', /at mcp_servers\.a\.enabled_tools: expected an array of tool names/],
    ['[mcp_servers.a]\nurl = "ftp://a.test/"\n', /at mcp_servers\.a\.url: expected http: or https:/],
    ['model = "x"\n', /at mcp_servers: expected \[mcp_servers\.<name>\] tables/],
  ];
  for (const [text, expected] of cases) {
    const file = withToml(t, text);
    assert.throws(() => readCodexToml(file, { workspaceFolder: '/p', env: {} }), (error: unknown) => {
      assert.ok(error instanceof ConfigError, String(error));
      assert.match(error.message, expected);
      return true;
    });
  }
});

test('#18 item 3: an unset env_http_headers variable makes only its server unsupported, with where and what to set', (t) => {
  const file = withToml(t, '[mcp_servers.a]\nurl = "https://a.test/"\nenv_http_headers = { "X-Org" = "NOT_SET_ANYWHERE" }\n\n[mcp_servers.b]\ncommand = "x"\n');
  const servers = readCodexToml(file, { workspaceFolder: '/p', env: {} }).servers;
  assert.match(servers.find((s) => s.key === 'a')!.unsupported ?? '', /config\.toml:\d+:\d+ at mcp_servers\.a\.env_http_headers\.X-Org: the environment variable NOT_SET_ANYWHERE \(header X-Org\) is not set or empty; set it, or disable this server/);
  assert.equal(servers.find((s) => s.key === 'b')!.unsupported, undefined);
});

test('a syntax error gives line and column without quoting the line (config.toml may hold tokens)', (t) => {
  const file = withToml(t, '[mcp_servers.a]\ncommand = "x"\nhttp_headers = { "Authorization" = "Bearer sk-canary-99ff" \n');
  assert.throws(() => readCodexToml(file, { workspaceFolder: '/p', env: {} }), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.match(error.message, /config\.toml:\d+:\d+: not valid TOML/);
    assert.doesNotMatch(error.message, /sk-canary/);
    return true;
  });
});
