// #18 item 19: the client-config readers share one entry step: the same
// wrong entry gets the same words from the MCP clients' JSON, Codex's TOML
// and Kestrel's plugin config (which skips the server with them where the
// others throw), and every reader builds the same SourceServer.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { readKestrelConfig } from '../kestrel/config.js';
import { readCodexToml } from './codex-toml.js';
import { readClientJson } from './mcp-servers-json.js';

const CASES: readonly [what: string, entry: Record<string, unknown>, toml: string, words: RegExp][] = [
  ['an ftp URL', { url: 'ftp://a.test/' }, 'url = "ftp://a.test/"', /url.*expected http: or https:, got "ftp:"/],
  ['a relative URL', { url: '/mcp' }, 'url = "/mcp"', /url.*expected an absolute http\(s\) URL/],
  ['args that are not a list', { command: 'x', args: 'a b' }, 'command = "x"\nargs = "a b"', /args.*expected an array of strings/],
  ['an empty command', { command: '' }, 'command = ""', /command.*expected a non-empty string/],
  ['a cwd that is not a string', { command: 'x', cwd: 3 }, 'command = "x"\ncwd = 3', /cwd.*expected a string/],
];

test('C4/C5: the same wrong entry gets the same words from every client format', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-entry-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [what, entry, toml, words] of CASES) {
    const json = path.join(dir, 'mcp.json');
    writeFileSync(json, JSON.stringify({ mcpServers: { s: entry } }));
    assert.throws(() => readClientJson(json, { env: {}, home: dir, project: dir }), words, `JSON: ${what}`);
    const codex = path.join(dir, 'config.toml');
    writeFileSync(codex, `[mcp_servers.s]\n${toml}\n`);
    assert.throws(() => readCodexToml(codex, { env: {}, workspaceFolder: dir }), words, `TOML: ${what}`);
    const kestrel = readKestrelConfig({ servers: { s: entry } }, { env: {}, root: dir });
    assert.equal(kestrel.skipped.length, 1, `Kestrel: ${what}`);
    assert.match(kestrel.skipped[0]!.reason, words, `Kestrel: ${what}`);
  }
});

test('C4/C5: one server shape: a plain stdio entry reads the same from every client format', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-entry-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const json = path.join(dir, 'mcp.json');
  writeFileSync(json, JSON.stringify({ mcpServers: { s: { command: 'node', args: ['a.js'], env: { PORT: '1' } } } }));
  const codex = path.join(dir, 'config.toml');
  writeFileSync(codex, '[mcp_servers.s]\ncommand = "node"\nargs = ["a.js"]\nenv = { PORT = "1" }\n');
  const fromJson = readClientJson(json, { env: {}, home: dir, project: dir }).servers[0];
  const fromToml = readCodexToml(codex, { env: {}, workspaceFolder: dir }).servers[0];
  const fromKestrel = readKestrelConfig({ servers: { s: { command: 'node', args: ['a.js'], env: { PORT: '1' } } } }, { env: {}, root: dir }).source.servers[0];
  const expected = { key: 's', params: { transport: 'stdio', command: 'node', args: ['a.js'], env: { PORT: '1' }, server: 's' }, tools: { enabled: true, allow: undefined, deny: [] }, disabled: false, timeoutMs: undefined, unsupported: undefined };
  // structuredClone: the TOML reader's tables have no prototype; the shape is what is compared.
  for (const [format, server] of [['JSON', fromJson], ['TOML', fromToml], ['Kestrel', fromKestrel]] as const) assert.deepEqual(structuredClone(server), expected, format);
});
