// What `import 'mcpwire'` loads (the import-cold and e2e-cold budget, X4;
// #20 item 2): the client, the stdio transport, and the small modules behind
// what the package exports by value (error classes, constants, the classes a
// host constructs), nothing more. The rest loads on first use: the OAuth flow
// (discovery, registration, the token endpoint) on a server's first 401, the
// servers behind serveToolSource(), the tool source and its config parsers
// (yaml, smol-toml, zod), cross-spawn (Windows only: elsewhere its spawn is
// node:child_process's), and Node's heavier built-ins (crypto, http, tls,
// net, child_process). The list below is exact, so a module that joins the
// import path fails here until it is added on purpose.
//
// dist/ is an esbuild bundle with code splitting (scripts/build.mjs): what
// loads is dist/index.js and a few chunks, each holding several of src/'s
// modules. Which modules a loaded file holds is read from its source map
// (helpers/built-modules.ts), so the list below names src/'s modules as
// their own dist files were once named; a module that only re-exports leaves
// no code of its own in a bundle, so the entry is counted by its file, and
// the pins' barrel is not listed. The number of files is pinned too: each
// costs a read, a resolve and a compile of its own.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { serveToolSource as serveDoor } from '../src/serve/entry.js';
import type { serveToolSource as serveItself } from '../src/serve/serve.js';
import { distFiles, expandBundles } from './helpers/built-modules.js';
import { tempDir } from './helpers/temp.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const recorder = path.join(root, 'spec-tests', 'fixtures', 'record-module-loads.mjs');
const DIST = pathToFileURL(path.join(root, 'dist')).href + '/';
const LAZY = /\/node_modules\/(cross-spawn|yaml|smol-toml|zod)\//;
/** Node's built-ins that cost milliseconds each to load and that a stdio client does not need at import. */
const HEAVY_BUILTINS = ['crypto', 'http', 'https', 'tls', 'net', 'child_process', 'zlib'];

/** How many files of dist/ `import 'mcpwire'` loads: the entry, the chunk scripts/build.mjs makes of the modules below, and the one of those the CLI also loads at its start (errors.js). */
const IMPORTED_FILES = 3;

/**
 * Every module of src/ whose code `import 'mcpwire'` may load. The HTTP transports' modules are here because
 * StreamableHttpTransport and SseTransport are exported classes; the auth ones for OAuthProvider, the credential
 * stores and the authorizers; serve's three for CallTracker; the tool source's for its door, the pin stores and the
 * synchronous helpers (compileFilter, enabledForAgent, capResult: #16 item 14).
 */
const IMPORTED = [
  'auth/dpop.js',
  'auth/headless.js',
  'auth/jwt.js',
  'auth/loopback.js',
  'auth/machine-check.js',
  'auth/oauth-provider.js',
  'auth/settings.js',
  'auth/store.js',
  'auth/www-authenticate.js',
  'client/client.js',
  'client/connect.js',
  'client/connection.js',
  'client/era-cache.js',
  'client/era.js',
  'client/handshake.js',
  'client/header-params.js',
  'client/input-required.js',
  'client/list-cache.js',
  'client/listen.js',
  'client/modern-handshake.js',
  'client/request-meta.js',
  'client/results.js',
  'client/tasks.js',
  'client/trace-context.js',
  'diagnostics.js',
  'errors.js',
  'index.js',
  'jsonrpc/codes.js',
  'jsonrpc/line-framer.js',
  'jsonrpc/message.js',
  'serve/defaults.js',
  'serve/entry.js',
  'serve/forward.js',
  'serve/peer.js',
  'serve/subscriptions.js',
  'toolsource/entry.js',
  'toolsource/naming.js',
  'toolsource/pins/canonical.js',
  'toolsource/pins/store.js',
  'toolsource/registry.js',
  'toolsource/truncate.js',
  'transport/header-value.js',
  'transport/http-base.js',
  'transport/http-client.js',
  'transport/http-headers.js',
  'transport/long-line-gate.js',
  'transport/node-http-tls.js',
  'transport/process-group.js',
  'transport/redact.js',
  'transport/redirects.js',
  'transport/spawn-check.js',
  'transport/sse-parser.js',
  'transport/sse-stream.js',
  'transport/sse.js',
  'transport/stdio.js',
  'transport/streamable-http.js',
  'transport/tap.js',
  'transport/tick-writer.js',
  'transport/trace-headers.js',
  'transport/transport.js', // ACCEPTS_REQUEST_SIGNAL, the one value it holds (#20)
  'util/addresses.js',
  'util/atomic-file.js',
  'util/backoff.js',
  'util/churn-map.js', // the Connection's pending requests (#20)
  'util/deadlines.js', // request timeouts, the Connection's and the node:http path's headers timeout (#20)
  'util/file-lock.js',
  'util/node-builtins.js',
  'util/process-alive.js',
  'util/ring-text.js',
  'util/secret-names.js',
];

interface Loaded {
  /** The package's own modules whose code loaded (from the loaded files' source maps), as their dist/ paths (src/a/b.ts → a/b.js), sorted. */
  dist: string[];
  /** The package's own files that loaded, as paths under dist/. */
  files: string[];
  /** Other files resolved (dependencies), as URLs. */
  other: string[];
  /** Node's public built-ins the code loaded (process.moduleLoadList: what getBuiltinModule loads counts too). */
  builtins: string[];
}

function modulesLoadedBy(t: { after(fn: () => void): void }, code: string): Loaded {
  const dir = tempDir(t, 'import');
  const log = path.join(dir, 'modules.log');
  const builtinsLog = path.join(dir, 'builtins.json');
  const program = `
    const before = new Set(process.moduleLoadList);
    ${code}
    const added = process.moduleLoadList.filter((m) => !before.has(m) && /^NativeModule [^/]+$/.test(m) && !m.startsWith('NativeModule internal'));
    (await import('node:fs')).writeFileSync(${JSON.stringify(builtinsLog)}, JSON.stringify(added.map((m) => m.slice('NativeModule '.length))));
  `;
  const run = spawnSync(process.execPath, ['--import', recorder, '--input-type=module', '-e', program], { cwd: root, encoding: 'utf8', env: { ...process.env, MCPWIRE_MODULE_LOG: log } });
  assert.equal(run.status, 0, run.stderr);
  const urls = [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))];
  const dist = expandBundles(urls).filter((url) => url.startsWith(DIST)).map((url) => url.slice(DIST.length));
  return { dist: dist.sort(), files: distFiles(urls), other: urls.filter((url) => url.startsWith('file:') && !url.startsWith(DIST)), builtins: JSON.parse(readFileSync(builtinsLog, 'utf8')) as string[] };
}


test('import "mcpwire" loads exactly its listed modules, none of the lazy dependencies, and no heavy built-in', (t) => {
  const loaded = modulesLoadedBy(t, "await import('mcpwire');");
  assert.ok(loaded.files.includes('index.js'), 'the hook saw the package load');
  assert.deepEqual(loaded.dist, IMPORTED, 'a module joined (or left) the import path: if on purpose, update IMPORTED');
  assert.equal(loaded.files.length, IMPORTED_FILES, `import 'mcpwire' loads ${loaded.files.join(', ')}`);
  assert.deepEqual(loaded.other.filter((url) => LAZY.test(url)), []);
  assert.deepEqual(loaded.builtins.filter((name) => HEAVY_BUILTINS.includes(name)), []);
});

test('a stdio connect, tools/list, call and close loads nothing more of mcpwire, and of Node only child_process', (t) => {
  const loaded = modulesLoadedBy(
    t,
    `
    const { connectStdio } = await import('mcpwire');
    const client = await connectStdio({ command: [process.execPath, 'examples/echo-server.mjs'] });
    const tools = await client.listTools();
    if (!tools.tools.some((tool) => tool.name === 'echo')) throw new Error('no echo tool');
    const result = await client.callTool('echo', { message: 'cold' });
    if (JSON.stringify(result).indexOf('cold') < 0) throw new Error('echo did not echo');
    await client.close();
  `,
  );
  assert.deepEqual(loaded.dist, IMPORTED);
  assert.equal(loaded.files.length, IMPORTED_FILES);
  // connect() keys its era verdict cache by a hash of the server's configuration: crypto comes with the first connect.
  const expected = ['child_process', 'crypto'];
  assert.deepEqual(loaded.builtins.filter((name) => HEAVY_BUILTINS.includes(name)).sort(), expected);
  // cross-spawn only where it does something (Windows).
  assert.deepEqual(loaded.other.filter((url) => LAZY.test(url)).length > 0, process.platform === 'win32');
});

test('the rest loads when used: a kaged config read, serveToolSource, the OAuth flow on a 401', (t) => {
  const loaded = modulesLoadedBy(
    t,
    `
    const { loadToolSourceConfig, serveToolSource, OAuthProvider, MemoryCredentialStore } = await import('mcpwire');
    await loadToolSourceConfig({ config: 'examples/kaged-host/kaged.yaml' });
    // An empty source is enough for the door to load the servers; closed at once.
    const handle = await serveToolSource({ tools: () => [], on: () => () => {} }, { kind: 'http', port: 0 }).catch((error) => error);
    if (handle && typeof handle.close === 'function') await handle.close();
    // A 401 with a Bearer challenge runs discovery: its fetch refuses, which is enough to have loaded the flow.
    const provider = new OAuthProvider({ serverUrl: 'https://mcp.example.test/mcp', server: 'x', store: new MemoryCredentialStore(), redirectUri: 'http://127.0.0.1/callback', fetch: async () => { throw new Error('offline'); } });
    await provider.onChallenge({ status: 401, wwwAuthenticate: 'Bearer', url: new URL('https://mcp.example.test/mcp') }).catch(() => undefined);
  `,
  );
  const lazy = new Set(loaded.other.map((url) => LAZY.exec(url)?.[1]).filter(Boolean));
  assert.deepEqual([...lazy].sort(), process.platform === 'win32' ? ['cross-spawn', 'smol-toml', 'yaml', 'zod'] : ['smol-toml', 'yaml', 'zod']);
  for (const module of ['serve/serve.js', 'serve/http.js', 'serve/bridge.js', 'auth/discovery.js', 'toolsource/tool-source.js']) {
    assert.ok(loaded.dist.includes(module), `${module} loads on first use`);
  }
});

test("no module of src/ is in two files of dist/: the entry and the CLI share their chunks, so a class has one identity", () => {
  const dist = path.join(root, 'dist');
  const maps = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) => /\.c?js\.map$/.test(file));
  const holders = new Map<string, string[]>();
  for (const map of maps) {
    for (const source of (JSON.parse(readFileSync(path.join(dist, map), 'utf8')) as { sources: string[] }).sources) {
      const module = path.relative(root, path.resolve(dist, path.dirname(map), source));
      holders.set(module, [...(holders.get(module) ?? []), map.replace(/\.map$/, '')]);
    }
  }
  assert.ok(holders.has(path.join('src', 'errors.ts')), 'the source maps were read');
  assert.deepEqual(
    [...holders].filter(([, files]) => files.length > 1),
    [],
  );
});

/** true when A and B are the same type both ways; a door whose signature drifts from its module's fails to compile. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

test('the doors keep the signatures of what they open (checked by tsc)', () => {
  const serveDoorIsServe: Same<typeof serveDoor, typeof serveItself> = true;
  assert.equal(serveDoorIsServe, true);
});
