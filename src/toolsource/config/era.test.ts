// #17 item 1: the protocol era per server, in every config format: the value
// read into `params.protocolEra`, a mistake refused with what would have been
// right, and `config show` printing it.

import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError } from '../../errors.js';
import { readKestrelConfig } from '../kestrel/config.js';
import { readCodexToml } from './codex-toml.js';
import { eraOfVersion, parseProtocolEra } from './era.js';
import { loadKagedProject } from './kaged.js';
import { readClientJson } from './mcp-servers-json.js';
import { formatShownConfig, showConfig } from './show.js';

type T = { after(fn: () => void): void };

function file(t: T, name: string, text: string): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcpwire-era-')));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
}

function refused(run: () => unknown, message: RegExp): void {
  assert.throws(run, (error) => error instanceof ConfigError && message.test(error.message), `expected a ConfigError matching ${message}`);
}

test('#17: the era value: the three words and a real revision date; anything else says what it takes, with the nearest', () => {
  assert.deepEqual(parseProtocolEra('auto'), { ok: true, era: 'auto' });
  assert.deepEqual(parseProtocolEra('legacy'), { ok: true, era: 'legacy' });
  assert.deepEqual(parseProtocolEra('modern'), { ok: true, era: 'modern' });
  assert.deepEqual(parseProtocolEra('2026-07-28'), { ok: true, era: { version: '2026-07-28' } });
  assert.deepEqual(parseProtocolEra('2025-11-25'), { ok: true, era: { version: '2025-11-25' } });
  const detail = (value: unknown) => {
    const parsed = parseProtocolEra(value);
    assert.equal(parsed.ok, false, `${String(value)} should be refused`);
    return (parsed as { detail: string }).detail;
  };
  assert.equal(detail('modrn'), 'expected auto, legacy, modern, or a protocol version such as 2025-11-25, got "modrn" (did you mean "modern"?)');
  assert.match(detail('Legacy'), /did you mean "legacy"\?/);
  assert.match(detail('2025-02-30'), /"2025-02-30" is not a real date; a protocol version is a revision date YYYY-MM-DD/);
  assert.match(detail('2026-7-28'), /did you mean "2026-07-28"\?/);
  assert.match(detail('latest'), /^expected auto, legacy, modern, or a protocol version such as 2025-11-25, got "latest"$/);
  assert.match(detail(2025), /\(a string\)$/);
  assert.equal(eraOfVersion('2025-11-25'), 'legacy');
  assert.equal(eraOfVersion('2026-07-28'), 'modern');
  assert.equal(eraOfVersion(undefined), undefined);
});

test('#17 kaged: protocol_era in a server block (stdio and HTTP) is read; absent leaves the client\'s default; a bad value is a ConfigError at its line', (t) => {
  const project = file(
    t,
    'kaged.yaml',
    'mcp:\n  local:\n    transport: stdio\n    command: [node, s.js]\n    protocol_era: legacy\n  remote:\n    transport: streamable-http\n    url: https://a.test/mcp\n    protocol_era: 2026-07-28\n  plain:\n    transport: stdio\n    command: [node, s.js]\n',
  );
  const config = loadKagedProject({ project });
  const era = Object.fromEntries(config.servers.map((s) => [s.key, s.params.protocolEra]));
  assert.deepEqual(era, { local: 'legacy', remote: { version: '2026-07-28' }, plain: undefined });
  assert.ok(!('protocolEra' in config.servers[2]!.params), 'absent, not undefined: the client decides');

  // The operator's override for one machine: project.local.yaml overlays the key like any other of the server block.
  writeFileSync(path.join(path.dirname(project), 'project.local.yaml'), 'mcp:\n  local:\n    protocol_era: modern\n');
  assert.equal(loadKagedProject({ project }).servers[0]!.params.protocolEra, 'modern');

  const bad = file(t, 'kaged.yaml', 'mcp:\n  local:\n    transport: stdio\n    command: [node, s.js]\n    protocol_era: modrn\n');
  refused(() => loadKagedProject({ project: bad }), /kaged\.yaml:5:\d+ at mcp\.local\.protocol_era: expected auto, legacy, modern, .*got "modrn" \(did you mean "modern"\?\)/);
  const misspelt = file(t, 'kaged.yaml', 'mcp:\n  local:\n    transport: stdio\n    command: [node, s.js]\n    protocol_eta: legacy\n');
  refused(() => loadKagedProject({ project: misspelt }), /unknown key "protocol_eta" \(did you mean "protocol_era"\?\)/);
});

test('#17 client JSON: protocolEra beside the client\'s keys (mcpServers, VS Code servers, Windsurf serverUrl); a bad value or a near miss of the key is refused', (t) => {
  const mcp = file(
    t,
    'mcp.json',
    JSON.stringify({ mcpServers: { a: { command: 'node', protocolEra: 'modern' }, w: { serverUrl: 'https://w.test/mcp', protocolEra: '2025-11-25' }, plain: { command: 'node' } } }),
  );
  const read = readClientJson(mcp, { env: {} }).servers;
  assert.deepEqual(read.map((s) => s.params.protocolEra), ['modern', { version: '2025-11-25' }, undefined]);
  const vscode = file(t, 'mcp.json', JSON.stringify({ servers: { v: { type: 'http', url: 'https://v.test/mcp', protocolEra: 'auto' } } }));
  assert.equal(readClientJson(vscode, { env: {} }).servers[0]!.params.protocolEra, 'auto');

  refused(() => readClientJson(file(t, 'mcp.json', JSON.stringify({ mcpServers: { a: { command: 'node', protocolEra: 'new' } } })), { env: {} }), /at mcpServers\.a\.protocolEra: expected auto, legacy, modern/);
  refused(
    () => readClientJson(file(t, 'mcp.json', JSON.stringify({ mcpServers: { a: { command: 'node', protocol_era: 'legacy' } } })), { env: {} }),
    /at mcpServers\.a\.protocol_era: unknown key "protocol_era" \(did you mean "protocolEra"\?\)/,
  );
});

test('#17 Codex TOML: protocol_era, quoted or as a bare TOML date; a bad value is refused at its line', (t) => {
  const toml = file(t, 'config.toml', '[mcp_servers.a]\ncommand = "x"\nprotocol_era = "legacy"\n\n[mcp_servers.b]\nurl = "https://b.test/mcp"\nprotocol_era = 2026-07-28\n');
  assert.deepEqual(readCodexToml(toml, { workspaceFolder: '/w', env: {} }).servers.map((s) => s.params.protocolEra), ['legacy', { version: '2026-07-28' }]);
  refused(() => readCodexToml(file(t, 'config.toml', '[mcp_servers.a]\ncommand = "x"\nprotocol_era = "legasy"\n'), { workspaceFolder: '/w', env: {} }), /config\.toml:3:1 at mcp_servers\.a\.protocol_era: .*did you mean "legacy"/);
  refused(() => readCodexToml(file(t, 'config.toml', '[mcp_servers.a]\ncommand = "x"\nprotocolEra = "legacy"\n'), { workspaceFolder: '/w', env: {} }), /did you mean "protocol_era"/);
});

test('#17 Kestrel: protocolEra on a server entry; a bad one skips that server with the reason, the others start', () => {
  const read = readKestrelConfig({
    servers: {
      files: { command: 'files-mcp', protocolEra: 'legacy' },
      docs: { url: 'https://docs.test/mcp', protocolEra: '2026-07-28' },
      typo: { command: 'x', protocolEra: 'modem' },
    },
  });
  assert.deepEqual(read.source.servers.map((s) => [s.key, s.params.protocolEra]), [['files', 'legacy'], ['docs', { version: '2026-07-28' }]]);
  assert.deepEqual(read.skipped, [{ server: 'typo', reason: '"protocolEra": expected auto, legacy, modern, or a protocol version such as 2025-11-25, got "modem" (did you mean "modern"?)' }]);
});

test('#17 config show: the era each server asks for, in JSON and for a person', (t) => {
  const project = file(t, 'kaged.yaml', 'mcp:\n  local:\n    transport: stdio\n    command: [node, s.js]\n    protocol_era: 2025-11-25\n  plain:\n    transport: stdio\n    command: [node, s.js]\n');
  const shown = showConfig(loadKagedProject({ project }));
  assert.equal(shown.servers[0]!.protocolEra, '2025-11-25');
  assert.ok(!('protocolEra' in shown.servers[1]!));
  assert.match(formatShownConfig(shown), /^local {2}stdio\n {2}command: node s\.js\n {2}cwd: .*\n {2}protocol era: 2025-11-25\nplain/m);
});
