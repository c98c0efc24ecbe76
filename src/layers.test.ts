// The layering rule of STYLE.md, checked on every src/**/*.ts: a module
// imports only its own layer or the ones below it; errors.ts, diagnostics.ts
// and util/ are leaves everyone may import; each runtime dependency has one
// importing module; no MCP SDK anywhere. Test support lives in src/testing/,
// which tests (here and in spec-tests/, conformance/) may import and no
// product module may; nothing under src/, tests included, imports from the
// test folders outside it, so src/ builds and tests on its own. The checks
// are pure functions, unit-tested on fake violations below, so this test can
// fail.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, posix, relative } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SELF = 'src/layers.test.ts';

/** Layer ranks, lowest first. A module may import its own rank or lower, and the leaves. */
const LAYERS: readonly (readonly [prefix: string, rank: number])[] = [
  ['src/jsonrpc/', 0],
  ['src/auth/', 1],
  ['src/transport/', 1],
  ['src/client/', 2],
  ['src/toolsource/', 3],
  ['src/conformance/', 4],
  ['src/serve/', 4],
  ['src/recorder/', 5],
  ['src/cli.ts', 6],
  ['src/cli/', 6],
  ['src/index.ts', 6],
];

/**
 * Leaves: importable by all; what each may import from src/. util/ may read
 * the other two leaves (util/text.ts renders a Diagnostic); errors.ts and
 * diagnostics.ts never import util/, so no cycle can form.
 */
const LEAVES: Readonly<Record<string, (target: string) => boolean>> = {
  'src/errors.ts': (t) => t === 'src/diagnostics.ts',
  'src/diagnostics.ts': (t) => t === 'src/errors.ts',
  'src/util/': (t) => t.startsWith('src/util/') || t === 'src/errors.ts' || t === 'src/diagnostics.ts',
};

/** Runtime dependencies that must stay behind one module (the seam where they can be swapped). */
const DEPENDENCY_HOMES: Readonly<Record<string, string>> = {
  'cross-spawn': 'src/transport/stdio.ts',
  yaml: 'src/toolsource/config/yaml-source.ts',
  'smol-toml': 'src/toolsource/config/toml-source.ts',
  zod: 'src/toolsource/config/kaged-schema.ts',
};

const FORBIDDEN_PACKAGE = /^@modelcontextprotocol\//;

/** Test support: helpers the tests under src/ and the suites outside it share. Ranked above every product layer. */
const TEST_SUPPORT = 'src/testing/';

/** The test suites outside src/: they import src/, never the other way round. */
const TEST_FOLDERS = ['spec-tests/', 'conformance/', 'bench/'] as const;

// --- pure checks -------------------------------------------------------------------

/** Every module specifier a TS source imports or re-exports: static, type-only, side-effect and dynamic. */
function extractImports(source: string): string[] {
  // Comments could hold example imports; strip them first (string contents are left alone, so `//` in a URL string survives).
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const specifiers: string[] = [];
  const patterns = [
    // Static forms start a line (a statement), so `'--import', x` inside an argv array is not one.
    /^\s*(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm, // import x from '…', import {…} from '…' (multi-line), export * from '…'
    /^\s*import\s*['"]([^'"]+)['"]/gm, // import '…' (side effect)
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // import('…')
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // require('…') through createRequire
  ];
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) specifiers.push(match[1]!);
  return specifiers;
}

function isTest(file: string): boolean {
  return file.endsWith('.test.ts');
}

function isTestSupport(file: string): boolean {
  return file.startsWith(TEST_SUPPORT);
}

function layerOf(file: string): number | undefined {
  return LAYERS.find(([prefix]) => (prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix))?.[1];
}

function leafOf(file: string): string | undefined {
  return Object.keys(LEAVES).find((leaf) => (leaf.endsWith('/') ? file.startsWith(leaf) : file === leaf));
}

/** `../errors.js` from `src/client/x.ts` → `src/errors.ts`. */
function resolveRelative(file: string, specifier: string): string {
  return posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(packageName(specifier));
}

interface Module {
  /** Path from the repository root, with forward slashes: `src/client/client.ts`. */
  file: string;
  imports: readonly string[];
}

/** Every rule broken by these modules, as readable lines; empty when all is well. */
function layerViolations(modules: readonly Module[], runtimeDependencies: readonly string[]): string[] {
  const problems: string[] = [];
  const importers = new Map<string, Set<string>>();
  for (const { file, imports } of modules) {
    if (isTest(file) || isTestSupport(file)) {
      problems.push(...testSideViolations(file, imports));
      continue;
    }
    const rank = layerOf(file);
    const leaf = leafOf(file);
    if (rank === undefined && leaf === undefined) {
      problems.push(`${file}: not in any layer; add it to LAYERS or LEAVES in src/layers.test.ts`);
      continue;
    }
    for (const specifier of imports) {
      if (specifier.startsWith('.')) {
        const target = resolveRelative(file, specifier);
        if (!target.startsWith('src/')) {
          problems.push(`${file}: imports ${specifier}, outside src/`);
          continue;
        }
        if (isTestSupport(target)) {
          problems.push(`${file}: a product module, imports ${target}; src/testing/ is test support, left out of the package`);
          continue;
        }
        const targetLeaf = leafOf(target);
        if (leaf !== undefined) {
          if (!LEAVES[leaf]!(target)) problems.push(`${file}: a leaf module, imports ${target}`);
          continue;
        }
        if (targetLeaf !== undefined) continue;
        const targetRank = layerOf(target);
        if (targetRank === undefined) problems.push(`${file}: imports ${target}, which is in no layer`);
        else if (targetRank > rank!) problems.push(`${file}: imports ${target}, a layer above it`);
        continue;
      }
      if (isBuiltin(specifier)) continue;
      const name = packageName(specifier);
      if (FORBIDDEN_PACKAGE.test(name)) {
        problems.push(`${file}: imports ${specifier}; mcpwire depends on no MCP SDK`);
        continue;
      }
      if (!runtimeDependencies.includes(name)) {
        problems.push(`${file}: imports ${name}, which is not in package.json "dependencies"`);
        continue;
      }
      let set = importers.get(name);
      if (!set) importers.set(name, (set = new Set()));
      set.add(file);
    }
  }
  for (const [name, files] of importers) {
    const home = DEPENDENCY_HOMES[name];
    if (files.size > 1) problems.push(`${name} is imported by ${files.size} modules (${[...files].sort().join(', ')}); keep it behind one`);
    else if (home !== undefined && !files.has(home)) problems.push(`${name} may only be imported by ${home}, not ${[...files].join(', ')}`);
  }
  return problems;
}

/**
 * Tests under src/ and the modules of src/testing/ may import anything in
 * src/ and any package, but nothing from the test suites outside src/:
 * what they need from there belongs in src/testing/.
 */
function testSideViolations(file: string, imports: readonly string[]): string[] {
  const problems: string[] = [];
  for (const specifier of imports) {
    if (!specifier.startsWith('.')) continue;
    const target = resolveRelative(file, specifier);
    const folder = TEST_FOLDERS.find((prefix) => target.startsWith(prefix));
    if (folder !== undefined) problems.push(`${file}: imports ${target} from the test folder ${folder}; move what it needs to ${TEST_SUPPORT}`);
    else if (!target.startsWith('src/')) problems.push(`${file}: imports ${specifier}, outside src/`);
  }
  return problems;
}

// --- the real tree -------------------------------------------------------------------

/** Every .ts file under `dir` except declarations; tests too when `withTests`. */
function sourceFiles(dir: string, withTests = false): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path, withTests));
    else if (entry.name.endsWith('.ts') && (withTests || !entry.name.endsWith('.test.ts')) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

describe('layering (STYLE.md: cli → toolsource → client → transport → jsonrpc)', () => {
  test('every module and test in src/ respects the layers, the leaves, the dependency seams and the test-support rules', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    const modules = sourceFiles(join(ROOT, 'src'), true)
      .map((path) => ({ file: relative(ROOT, path).split('\\').join('/'), path }))
      // This file's fake violations are import lines inside strings: it is the checker, not a subject.
      .filter(({ file }) => file !== SELF)
      .map(({ file, path }) => ({ file, imports: extractImports(readFileSync(path, 'utf8')) }));
    assert.ok(modules.some((m) => m.file === 'src/client/client.ts'), 'the walk found the sources');
    assert.ok(modules.some((m) => m.file === 'src/client/client.test.ts'), 'the walk found the tests');
    assert.ok(modules.some((m) => m.file.startsWith(TEST_SUPPORT)), 'the walk found the test support');
    assert.deepEqual(layerViolations(modules, Object.keys(pkg.dependencies ?? {})), []);
  });

  test('cross-spawn is imported, and only by src/transport/stdio.ts', () => {
    const files = sourceFiles(join(ROOT, 'src')).filter((path) => extractImports(readFileSync(path, 'utf8')).some((s) => packageName(s) === 'cross-spawn'));
    assert.deepEqual(files.map((path) => relative(ROOT, path).split('\\').join('/')), ['src/transport/stdio.ts']);
  });
});

describe('layerViolations (the checker itself)', () => {
  const deps = ['cross-spawn', 'yaml'];
  const ok = (modules: Module[]) => assert.deepEqual(layerViolations(modules, deps), []);
  const fails = (modules: Module[], pattern: RegExp) => {
    const problems = layerViolations(modules, deps);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0]!, pattern);
  };

  test('downward, same-layer and leaf imports pass', () => {
    ok([
      { file: 'src/client/client.ts', imports: ['./connection.js', '../transport/transport.js', '../jsonrpc/message.js', '../errors.js', '../diagnostics.js', '../util/ring-text.js', 'node:events', 'events'] },
      { file: 'src/index.ts', imports: ['./client/client.js', './toolsource/x.js', './conformance/y.js', './cli.js'] },
      { file: 'src/util/a.ts', imports: ['./b.js', '../errors.js', '../diagnostics.js'] },
      { file: 'src/errors.ts', imports: ['./diagnostics.js'] },
    ]);
  });

  test('an upward import fails: transport → client', () => {
    fails([{ file: 'src/transport/stdio.ts', imports: ['../client/connection.js'] }], /src\/transport\/stdio\.ts: imports src\/client\/connection\.ts, a layer above/);
  });

  test('an upward import fails: jsonrpc → transport, client → toolsource, toolsource → conformance, conformance → cli', () => {
    fails([{ file: 'src/jsonrpc/message.ts', imports: ['../transport/transport.js'] }], /layer above/);
    fails([{ file: 'src/client/client.ts', imports: ['../toolsource/tool-source.js'] }], /layer above/);
    fails([{ file: 'src/toolsource/config/dsl.ts', imports: ['../../conformance/runner.js'] }], /layer above/);
    fails([{ file: 'src/conformance/runner.ts', imports: ['../index.js'] }], /layer above/);
  });

  test('a leaf importing beyond its allowance fails: errors → jsonrpc, util → client, diagnostics → util', () => {
    fails([{ file: 'src/errors.ts', imports: ['./jsonrpc/codes.js'] }], /leaf module/);
    fails([{ file: 'src/util/ring-text.ts', imports: ['../client/connection.js'] }], /leaf module/);
    fails([{ file: 'src/diagnostics.ts', imports: ['./util/ring-text.js'] }], /leaf module/);
  });

  test('a type-only, multi-line, side-effect, dynamic or re-export import counts like any other; strings and comments do not', () => {
    const source = `
      import type {
        Connection,
      } from '../client/connection.js';
      export { x } from "../client/x.js";
      export * from '../client/y.js';
      const lazy = await import('../client/z.js');
      // import { nope } from '../client/in-a-comment.js';
      const argv = [process.execPath, '--import', loader, fileURLToPath(new URL('./child.ts', import.meta.url))];
      const where = import.meta.resolve('tsx');
      import '../client/side-effect.js';
    `;
    const imports = extractImports(source);
    assert.deepEqual(imports.sort(), ['../client/connection.js', '../client/side-effect.js', '../client/x.js', '../client/y.js', '../client/z.js']);
    assert.equal(layerViolations([{ file: 'src/transport/t.ts', imports }], deps).length, 5);
  });

  test('a module in no layer fails, so new directories get placed deliberately', () => {
    fails([{ file: 'src/http/fetch.ts', imports: [] }], /not in any layer/);
  });

  test('a dependency imported by two modules fails; cross-spawn outside stdio.ts fails', () => {
    fails(
      [
        { file: 'src/toolsource/config/dsl.ts', imports: ['yaml'] },
        { file: 'src/toolsource/config/local.ts', imports: ['yaml'] },
      ],
      /yaml is imported by 2 modules/,
    );
    fails([{ file: 'src/client/client.ts', imports: ['cross-spawn'] }], /cross-spawn may only be imported by src\/transport\/stdio\.ts/);
  });

  test('a product module importing test support fails, from any layer or leaf', () => {
    fails([{ file: 'src/client/client.ts', imports: ['../testing/scripted-transport.js'] }], /src\/client\/client\.ts: a product module, imports src\/testing\/scripted-transport\.ts/);
    fails([{ file: 'src/cli.ts', imports: ['./testing/http-fixture.js'] }], /a product module, imports src\/testing\//);
    fails([{ file: 'src/util/a.ts', imports: ['../testing/wire-message.js'] }], /src\/util\/a\.ts: a product module, imports src\/testing\//);
  });

  test('a product module importing a test folder outside src/ fails', () => {
    fails([{ file: 'src/conformance/runner.ts', imports: ['../../spec-tests/helpers/transcripts.js'] }], /imports \.\.\/\.\.\/spec-tests\/helpers\/transcripts\.js, outside src\//);
    fails([{ file: 'src/toolsource/x.ts', imports: ['../../bench/harness.js'] }], /outside src\//);
  });

  test('a test under src/ or a test-support module importing spec-tests/, conformance/ or bench/ fails', () => {
    fails([{ file: 'src/client/client.test.ts', imports: ['../../spec-tests/helpers/scripted-transport.js'] }], /src\/client\/client\.test\.ts: imports spec-tests\/helpers\/scripted-transport\.ts from the test folder spec-tests\/; move what it needs to src\/testing\//);
    fails([{ file: 'src/conformance/runner.test.ts', imports: ['../../conformance/replay.test.js'] }], /from the test folder conformance\//);
    fails([{ file: 'src/jsonrpc/line-framer.test.ts', imports: ['../../bench/framers.js'] }], /from the test folder bench\//);
    fails([{ file: 'src/testing/http-fixture.ts', imports: ['../../spec-tests/helpers/interop.js'] }], /src\/testing\/http-fixture\.ts: imports spec-tests\/helpers\/interop\.ts from the test folder spec-tests\//);
  });

  test('tests and test support may import any layer, test support, packages and dev dependencies', () => {
    ok([
      { file: 'src/client/client.test.ts', imports: ['./client.js', '../testing/scripted-transport.js', '../cli.js', '@modelcontextprotocol/sdk/types.js', 'node:test'] },
      { file: 'src/testing/http-fixture.ts', imports: ['./wire-message.js', '../conformance/http-server-side.js', '../transport/transport.js'] },
    ]);
  });

  test('an MCP SDK import fails, as does a package not in dependencies', () => {
    fails([{ file: 'src/client/client.ts', imports: ['@modelcontextprotocol/sdk/client/index.js'] }], /no MCP SDK/);
    fails([{ file: 'src/client/client.ts', imports: ['zod'] }], /not in package\.json "dependencies"/);
  });
});
