// The package as a consumer gets it: `npm pack`, then `npm install` of the
// tarball into an empty project under the temp dir, offline from the npm
// cache (npm ci filled it), and that project used the ways people use it:
// an ESM import and a CommonJS require on each Node at hand, a TypeScript
// file type-checked under nodenext and bundler resolution, and the CLI
// through npx. Node 22 and 24 come from tools/node-versions (each check that
// needs one skips, saying so, where it is absent).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { missingReason, nodeBinary } from '../tools/node-versions/index.mjs';
import { install, installNode, NPX_CLI, pack, ROOT, run, show, TSC, TYPES_ROOT } from './helpers/consumer-package.js';

/** What `npm install <tarball>` may bring: mcpwire and its runtime dependencies (cross-spawn's own four; zod, yaml and smol-toml for config files). */
const EXPECTED_PACKAGES = ['cross-spawn', 'isexe', 'mcpwire', 'path-key', 'shebang-command', 'shebang-regex', 'smol-toml', 'which', 'yaml', 'zod'];
const RUNNING_MAJOR = Number(process.versions.node.split('.')[0]);

/** Every Node to run the consumer on: this one, and 22 and 24 where they can be had. */
const NODES = [...new Set([RUNNING_MAJOR, 22, 24])].sort((a, b) => a - b).map((major) => ({ major, bin: nodeBinary(major) }));

const work = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-consumer-'));
after(() => rmSync(work, { recursive: true, force: true }));
const project = path.join(work, 'project');
let tarball = '';

describe('the published package, as a consumer installs and uses it', { skip: installNode === undefined ? `npm must run on Node >= 22.12 for an install without warnings, and ${missingReason(22)}` : false }, () => {
  before(() => {
    const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { encoding: 'utf8' });
    assert.equal(build.status, 0, show(build));
  });

  test('npm pack: dist, types, the CLI and the example server; no tests, fixtures, benchmarks or TypeScript sources', (t) => {
    // With its scripts: prepack keeps prepare out of the packed package.json (and its build is a no-op, dist/ being current).
    const packed = pack(work);
    assert.equal(packed.result.status, 0, show(packed.result));
    const info = packed.info;
    tarball = packed.tarball!;
    t.diagnostic(`tarball ${info!.filename}: ${info!.entryCount} files, ${(info!.size / 1024).toFixed(1)} kB packed, ${(info!.unpackedSize / 1024).toFixed(1)} kB unpacked`);
    const files = info!.files.map((f) => f.path);
    const stray = files.filter((f) => /\.test\.|(^|\/)(fixtures|bench|spec-tests|conformance\/.*\.jsonl|testing)(\/|$)|^src\//.test(f) || (/\.[cm]?ts$/.test(f) && !/\.d\.[cm]?ts$/.test(f)));
    assert.deepEqual(stray, [], 'files a consumer does not need');
    // bin/package.json makes the bin CommonJS (the root says module): without it the installed bin would not start.
    for (const needed of ['package.json', 'README.md', 'LICENSE', 'bin/mcpwire.js', 'bin/package.json', 'dist/cli/session-client.cjs', 'dist/index.js', 'dist/index.d.ts', 'dist/cli.js', 'examples/echo-server.mjs', 'examples/mcpwire.json']) {
      assert.ok(files.includes(needed), `${needed} is missing from the tarball`);
    }
    // The runtime JavaScript is the two bundles and their chunks (scripts/build.mjs), besides the files that must stay
    // files of their own; no one-file-per-module copy of src/ beside them.
    const scripts = files.filter((f) => f.startsWith('dist/') && /\.[cm]?js$/.test(f));
    assert.deepEqual(
      scripts.filter((f) => !/^dist\/(index|cli|chunk-[A-Z0-9]+)\.js$/.test(f)).sort(),
      ['dist/cli/session-client.cjs', 'dist/conformance/relay-child.mjs', 'dist/conformance/relay-protocol.mjs'],
    );
  });

  test('npm install <tarball>, offline from the cache: no warning, and only mcpwire and its runtime dependencies', () => {
    assert.ok(tarball, 'packed first');
    const installing = install(project, tarball);
    assert.equal(installing.status, 0, show(installing));
    assert.doesNotMatch(installing.stderr, /warn/i, show(installing));
    const installed = readdirSync(path.join(project, 'node_modules')).filter((name) => !name.startsWith('.'));
    assert.deepEqual(installed.sort(), EXPECTED_PACKAGES);
    const manifest = JSON.parse(readFileSync(path.join(project, 'node_modules', 'mcpwire', 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    assert.equal(manifest.scripts?.prepare, undefined, 'prepare would be an install script to approve');
  });

  const mjs = `import { connectStdio, TimeoutError } from 'mcpwire';
import { createRequire } from 'node:module';
const server = createRequire(import.meta.url).resolve('mcpwire/package.json').replace(/package\\.json$/, 'examples/echo-server.mjs');
const client = await connectStdio({ command: [process.execPath, server], server: 'example' });
const result = await client.callTool('echo', { message: 'hi' });
await client.close();
console.log(JSON.stringify({ text: result.content[0].text, timeoutCode: new TimeoutError({ server: 'x', method: 'y' }, 1).code }));
`;
  const cjs = `const { connectStdio, ClosedError } = require('mcpwire');
console.log(JSON.stringify({ connectStdio: typeof connectStdio, closed: typeof ClosedError }));
`;

  for (const { major, bin } of NODES) {
    const skip = bin === undefined ? missingReason(major) : false;
    // Below engines (>=22.12) yet the Node running the tests here: checked, not promised.
    const label = major < 22 ? `Node ${major} (below engines)` : `Node ${major}`;
    test(`${label}: an .mjs file imports mcpwire, starts the example server over stdio and calls echo`, { skip }, () => {
      writeFileSync(path.join(project, 'use.mjs'), mjs);
      const r = run(bin!, ['use.mjs'], project, 30_000);
      assert.equal(r.status, 0, show(r));
      assert.deepEqual(JSON.parse(r.stdout), { text: 'Echo: hi', timeoutCode: 'timeout' });
    });
    test(`${label}: a .cjs file can require('mcpwire') (require of ESM)`, { skip }, () => {
      writeFileSync(path.join(project, 'use.cjs'), cjs);
      const r = run(bin!, ['use.cjs'], project, 30_000);
      assert.equal(r.status, 0, show(r));
      assert.deepEqual(JSON.parse(r.stdout), { connectStdio: 'function', closed: 'function' });
    });
  }

  const ts = `import { connectStdio, ClosedError, McpClientError, RpcError, TimeoutError, type CallToolResult, type McpClientOptions, type RequestOptions, type Tool } from 'mcpwire';

type IsAny<T> = 0 extends 1 & T ? true : false;
const notAny = <T>(_value: T, _check: IsAny<T> extends false ? true : never): void => {};

const options: McpClientOptions = { timeoutMs: 5_000, onDiagnostic: (d) => notAny(d, true) };
const perCall: RequestOptions = { timeoutMs: 1_000, resetTimeoutOnProgress: true, onProgress: (u) => notAny(u.progress, true) };

export async function main(): Promise<string> {
  const client = await connectStdio({ command: ['node', 'server.mjs'], server: 'example' }, options);
  notAny(client, true);
  const { tools } = await client.listTools();
  const first: Tool | undefined = tools[0];
  notAny(first, true);
  try {
    const result: CallToolResult = await client.callTool('echo', { message: 'hi' }, perCall);
    notAny(result.content, true);
    return result.isError === true ? 'tool error' : 'ok';
  } catch (error) {
    if (error instanceof TimeoutError) {
      const code: 'timeout' = error.code;
      return code;
    }
    if (error instanceof ClosedError) return error.code;
    if (error instanceof RpcError) return String(error.rpcCode);
    if (error instanceof McpClientError) return error.code;
    throw error;
  } finally {
    await client.close();
  }
}
`;
  const resolutions = [
    { name: 'module nodenext', compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } },
    { name: 'moduleResolution bundler', compilerOptions: { module: 'esnext', moduleResolution: 'bundler' } },
  ];
  for (const { name, compilerOptions } of resolutions) {
    test(`TypeScript, ${name}, strict with exactOptionalPropertyTypes: the public types resolve, no any leaks`, () => {
      const dir = path.join(project, `ts-${compilerOptions.moduleResolution}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
      writeFileSync(path.join(dir, 'main.ts'), ts);
      // A Node consumer has @types/node; the repo's copy stands in for theirs. skipLibCheck off: mcpwire's own .d.ts are checked too.
      const tsconfig = {
        compilerOptions: { ...compilerOptions, target: 'es2022', lib: ['es2023', 'esnext.disposable'], strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, skipLibCheck: false, noEmit: true, types: ['node'], typeRoots: [TYPES_ROOT] },
        files: ['main.ts'],
      };
      writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
      const r = run(process.execPath, [TSC, '-p', 'tsconfig.json'], dir);
      assert.equal(r.status, 0, show(r));
    });
  }

  test('npx mcpwire --help, demo (the example server that ships), and bench (which says it needs a clone)', () => {
    const help = run(installNode!, [NPX_CLI, '--offline', 'mcpwire', '--help'], project);
    assert.equal(help.status, 0, show(help));
    assert.match(help.stdout, /^mcpwire — an MCP client/);
    const demo = run(installNode!, [NPX_CLI, '--offline', 'mcpwire', 'demo'], project);
    assert.equal(demo.status, 0, show(demo));
    assert.match(demo.stdout, /server example: mcpwire-example 1\.0\.0/);
    assert.match(demo.stdout, /Echo: hello from mcpwire/);
    const bench = run(installNode!, [NPX_CLI, '--offline', 'mcpwire', 'bench'], project);
    assert.equal(bench.status, 2, show(bench));
    assert.match(bench.stderr, /bench runs from a clone of the mcpwire repository/);
    assert.ok(existsSync(path.join(project, 'node_modules', '.bin', 'mcpwire')));
  });
});
