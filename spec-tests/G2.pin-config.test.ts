// SPEC G2: the per-server `pin` key in each config reader (kaged project
// YAML, Kestrel JSON, mcpServers JSON): off, warn or block reach the
// SourceServer; absent is undefined (the tool source's default, warn); any
// other value is a ConfigError naming the key and the values allowed.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadKagedProject } from '../src/toolsource/config/kaged.js';
import { loadToolSourceConfig } from '../src/toolsource/tool-source.js';
import { readKestrelConfig } from '../src/toolsource/kestrel/config.js';
import { tempDir } from './helpers/temp.js';

describe('G2: the pin key in every config reader', () => {
  test('G2: kaged project YAML: pin: block reaches the server; a bad value is refused', (t) => {
    const dir = tempDir(t, 'pin-config');
    const project = path.join(dir, 'kaged.yaml');
    const load = () => loadKagedProject({ project, operatorConfigDir: path.join(dir, 'none') });
    writeFileSync(project, 'mcp:\n  aa:\n    transport: stdio\n    command: [node, a.mjs]\n    pin: block\n  bb:\n    transport: stdio\n    command: [node, b.mjs]\n');
    assert.deepEqual(load().servers.map((s) => [s.key, s.pin]), [['aa', 'block'], ['bb', undefined]]);
    writeFileSync(project, 'mcp:\n  aa:\n    transport: stdio\n    command: [node, a.mjs]\n    pin: blok\n');
    assert.throws(load, (error: Error) => error.name === 'ConfigError' && /pin/.test(error.message) && /off, warn or block/.test(error.message));
  });

  test('G2: Kestrel JSON: "pin": "warn" reaches the server; a server with a bad value is skipped with the reason', () => {
    const config = readKestrelConfig({ servers: { a: { command: 'a', pin: 'warn' }, b: { command: 'b' } } });
    assert.deepEqual(config.source.servers.map((s) => [s.key, s.pin]), [['a', 'warn'], ['b', undefined]]);
    // Kestrel skips a bad server with the reason (and starts the others), as for any other bad key.
    const bad = readKestrelConfig({ servers: { a: { command: 'a', pin: true }, b: { command: 'b' } } });
    assert.deepEqual(bad.source.servers.map((s) => s.key), ['b']);
    assert.equal(bad.skipped.length, 1);
    assert.match(JSON.stringify(bad.skipped[0]), /"pin\\": expected \\"off\\", \\"warn\\" or \\"block\\", got true/);
  });

  test('G2: mcpServers JSON: "pin": "off" reaches the server; a bad value is refused at its path', async (t) => {
    const dir = tempDir(t, 'pin-config');
    const file = path.join(dir, 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { a: { command: 'a', pin: 'off' } } }));
    assert.equal((await loadToolSourceConfig({ config: file })).servers[0]!.pin, 'off');
    writeFileSync(file, JSON.stringify({ mcpServers: { a: { command: 'a', pin: 'BLOCK' } } }));
    await assert.rejects(loadToolSourceConfig({ config: file }), /mcpServers\.a\.pin: expected "off", "warn" or "block", got "BLOCK"/);
  });
});
