// What `import 'mcpwire'` loads (the import-cold budget): the client, and
// none of what only some hosts need — cross-spawn until a stdio server
// starts (SSE is read by mcpwire's own parser, no dependency), the config
// parsers (yaml, smol-toml, zod) until a config file is read.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers/temp.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const recorder = path.join(root, 'spec-tests', 'fixtures', 'record-module-loads.mjs');
const LAZY = /\/node_modules\/(cross-spawn|yaml|smol-toml|zod)\//;

function modulesLoadedBy(t: { after(fn: () => void): void }, code: string): string[] {
  const dir = tempDir(t, 'import');
  const log = path.join(dir, 'modules.log');
  const run = spawnSync(process.execPath, ['--import', recorder, '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8', env: { ...process.env, MCPWIRE_MODULE_LOG: log } });
  assert.equal(run.status, 0, run.stderr);
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

test('import "mcpwire" loads neither cross-spawn, the SSE parser nor the config parsers', (t) => {
  const modules = modulesLoadedBy(t, "await import('mcpwire')");
  assert.ok(modules.some((url) => url.endsWith('/dist/index.js')), 'the hook saw the package load');
  assert.deepEqual(modules.filter((url) => LAZY.test(url)), []);
  // The tool source itself (supervisor, config readers, Kestrel's layer) loads on first use too: only its door is
  // imported, and the three small pure modules behind the synchronous helpers a host calls on its own results
  // (compileFilter, enabledForAgent, capResult: #16 item 14), which import nothing outside node:crypto.
  // The pin stores and fingerprints a host may construct before opening a source (SPEC G2): small, node:crypto/node:fs only.
  const eager = new Set(['entry.js', 'registry.js', 'naming.js', 'truncate.js', 'pins/index.js', 'pins/canonical.js', 'pins/store.js']);
  assert.deepEqual(modules.filter((url) => /\/dist\/toolsource\//.test(url) && !eager.has(url.split('/dist/toolsource/')[1]!)), []);
});

test('they load when used: a stdio server started, a kaged config read', (t) => {
  const code = `
    const { connectStdio, loadToolSourceConfig } = await import('mcpwire');
    const client = await connectStdio({ command: [process.execPath, 'examples/echo-server.mjs'] });
    await client.close();
    await loadToolSourceConfig({ config: 'examples/kaged-host/kaged.yaml' });
  `;
  const loaded = new Set(modulesLoadedBy(t, code).map((url) => LAZY.exec(url)?.[1]).filter(Boolean));
  assert.deepEqual([...loaded].sort(), ['cross-spawn', 'smol-toml', 'yaml', 'zod']);
});
