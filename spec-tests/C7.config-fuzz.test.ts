// C1–C5 under fuzzing: every config reader, fed mutated files of its format
// (and the kaged companions), YAML alias bombs, deep nesting, prototype keys
// and 10 MB files, ends each input in a loaded config or a ConfigError, never
// another exception, within a bound per input. Seeded (helpers/property.ts):
// a failure names MCPWIRE_SEED; MCPWIRE_STRESS=1 runs many more inputs.

import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { ConfigError } from '../src/errors.js';
import { loadKagedProject } from '../src/toolsource/config/kaged.js';
import { loadToolSourceConfig } from '../src/toolsource/config/load.js';
import { check, describeReport, runs, STRESS } from './helpers/property.js';
import { tempDir } from './helpers/temp.js';

/**
 * Generous, as the machine is shared and noisy: a quadratic path on these
 * inputs takes seconds to minutes (a 64 kB TOML line took 6 s, a 1 MB one
 * would take half an hour). A 10 MB file gets more: reading and parsing it
 * once is about half a second here.
 */
// Bounds that say "it ends", not how fast: generous, for a machine shared with other work.
const PER_INPUT_MS = 10_000;
const PER_10MB_INPUT_MS = 30_000;
const CANARY = 'sk-canary-c7-0123456789abcdef';

const SEEDS: Record<string, { name: string; text: string }> = {
  kaged: {
    name: 'kaged.yaml',
    text: `mcp:
  github:
    transport: sse
    url: https://api.example.com/mcp
    auth: { type: bearer, secret_ref: api_keys.example }
    headers:
      X-Feature-Flag: mcp-beta
    tools:
      allow: [repo.*, issue.*]
      deny: [repo.delete]
  database:
    transport: stdio
    command: ["node", "server.js"]
    env:
      DB_PATH: ./data/app.db
primary:
  tools:
    "mcp.github.issue.*": { enabled: true }
`,
  },
  json: { name: 'mcp.json', text: `{"mcpServers": {"a": {"command": "node", "args": ["s.js"], "env": {"TOKEN": "${CANARY}"}}, "b": {"url": "https://x.example/mcp", "headers": {"Authorization": "Bearer \${env:TOK}"}}}}` },
  vscode: { name: '.vscode/mcp.json', text: `{\n  // servers\n  "servers": {\n    "a": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/s.js"], },\n    "b": { "type": "http", "url": "https://x.example/mcp" },\n  },\n}\n` },
  codex: { name: 'config.toml', text: `model = "x"\n[mcp_servers.a]\ncommand = "node"\nargs = ["s.js"]\nstartup_timeout_sec = 5\n[mcp_servers.a.env]\nTOKEN = "${CANARY}"\n[mcp_servers.b]\nurl = "https://x.example/mcp"\nbearer_token_env_var = "TOK"\n` },
  kestrel: { name: 'kestrel.config.json', text: `{"plugins": {"config": {"@kestrel/plugin-mcp": {"servers": {"docs": {"url": "https://x.example/mcp", "headers": {"Authorization": "Bearer \${TOK}"}, "timeoutMs": 5000}, "files": {"command": "node"}}, "sampling": {"enabled": false}}}}}` },
};
const COMPANIONS: Record<string, string> = {
  'project.local.yaml': 'mcp:\n  github:\n    tools:\n      deny: [x]\n  database: null\n',
  'local.toml': `[mcp.github]\ntimeout_ms = 5000\nstartup_timeout_ms = 3000\n[secrets.api_keys]\nexample = "${CANARY}"\n`,
  'config.toml': '[mcp]\nresult_cap_bytes = 1024\ndefault_timeout_ms = 2000\n',
};

/** Fragments that hit the readers' edges: YAML anchors and aliases, interpolation, prototype keys, brackets, quotes, control characters. */
const TOKENS = ['&a ', '*a', '*nope', '<<: *a', '${TOK}', '${env:X}', '${', '__proto__', 'constructor', 'prototype', '[', ']', '{', '}', '[[', '"', "'", '"""', ':', ': ', '=', ',', '#', '//', '/*', '\n', '\n  ', '\t', '\0', '\r', '\\', 'null', 'true', '-1', '1e999', 'user:pw@', 'https://', '- ', '? ', '|', '>', '!!binary ', '%YAML 1.1\n', '\uFEFF', 'é', '😀'];

type Mutation = { at: number; delete: number; insert: string; repeat: number };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  delete: fc.nat({ max: 20 }),
  insert: fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 12 }), fc.constantFrom('mcp', 'transport', 'command', 'url', 'servers', 'mcpServers', 'secrets', 'disabled')),
  repeat: fc.oneof({ weight: 9, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 400 }) }),
});

function mutate(text: string, mutations: readonly Mutation[]): string {
  let out = text;
  for (const m of mutations) {
    const at = out.length === 0 ? 0 : m.at % (out.length + 1);
    out = out.slice(0, at) + m.insert.repeat(m.repeat) + out.slice(at + m.delete);
  }
  return out;
}

/** Loads what is in `dir` and says how it ended: 'loaded', 'config-error', or throws what escaped. */
function outcome(run: () => unknown): 'loaded' | 'config-error' {
  try {
    run();
    return 'loaded';
  } catch (error) {
    if (error instanceof ConfigError) {
      assert.ok(error.message.length <= 4_000, `an unbounded message (${error.message.length} characters)`);
      assert.ok(!inspect(error, { depth: 5 }).includes(CANARY), `a secret in an error: ${error.message}`);
      return 'config-error';
    }
    throw new Error(`not a ConfigError: ${inspect(error).slice(0, 2_000)}`, { cause: error });
  }
}

function timed<T>(what: string, run: () => T, bound = PER_INPUT_MS): T {
  const started = performance.now();
  const result = run();
  const ms = performance.now() - started;
  assert.ok(ms < bound, `${what} took ${Math.round(ms)} ms (bound ${bound} ms)`);
  return result;
}

function writeAll(dir: string, files: Record<string, string>): void {
  rmSync(dir, { recursive: true, force: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
}

const load = (dir: string, file: string) => () => loadToolSourceConfig({ config: path.join(dir, file), projectDir: dir, home: dir, env: { TOK: CANARY, X: 'x' }, operatorConfigDir: path.join(dir, 'none') });

test('C1–C5: a mutated file of every format loads or is a ConfigError, within the bound per input', (t) => {
  const dir = path.join(tempDir(t, 'c7'), 'p');
  const formats = Object.keys(SEEDS);
  const report = check(
    fc.property(fc.constantFrom(...formats), fc.array(mutation, { minLength: 1, maxLength: 6 }), (format, mutations) => {
      const seed = SEEDS[format]!;
      writeAll(dir, { [seed.name]: mutate(seed.text, mutations) });
      timed(`${format} ${JSON.stringify(mutations).slice(0, 300)}`, () => outcome(load(dir, seed.name)));
    }),
    runs(1_000, 50_000),
  );
  t.diagnostic(describeReport(report));
});

test('C2/C3: mutated kaged companions (overlay, local.toml, config.toml) load or are a ConfigError, within the bound per input', (t) => {
  const dir = path.join(tempDir(t, 'c7'), 'p');
  const names = Object.keys(COMPANIONS);
  const report = check(
    fc.property(fc.constantFrom(...names), fc.array(mutation, { minLength: 1, maxLength: 6 }), (name, mutations) => {
      writeAll(dir, { ...COMPANIONS, 'kaged.yaml': SEEDS.kaged!.text, [name]: mutate(COMPANIONS[name]!, mutations) });
      timed(`${name} ${JSON.stringify(mutations).slice(0, 300)}`, () => outcome(() => loadKagedProject({ project: path.join(dir, 'kaged.yaml'), operatorConfigDir: path.join(dir, 'none') })));
    }),
    runs(500, 20_000),
  );
  t.diagnostic(describeReport(report));
});

/** Hostile documents, each in the place a reader meets it. */
function hostile(depth: number, width: number): [string, Record<string, string>, string][] {
  const laughs = (levels: number) => ['l0: &l0 [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: levels }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(width).fill(`*l${i}`).join(', ')}]`)].join('\n');
  const kagedBase = SEEDS.kaged!.text;
  const big = 10 * 1024 * 1024;
  return [
    ['a YAML alias bomb in kaged.yaml', { 'kaged.yaml': `${laughs(9)}\n${kagedBase}` }, 'kaged.yaml'],
    ['a YAML alias bomb in project.local.yaml', { 'kaged.yaml': kagedBase, 'project.local.yaml': laughs(9) }, 'kaged.yaml'],
    ['a YAML alias bomb in a server env', { 'kaged.yaml': `x: &e {A: a}\n${kagedBase.replace('DB_PATH: ./data/app.db', `E: *e\n${laughs(6).replace(/^/gm, '      ')}`)}` }, 'kaged.yaml'],
    ['an undefined alias', { 'kaged.yaml': kagedBase.replace('mcp-beta', '*nowhere') }, 'kaged.yaml'],
    ['YAML flow nesting', { 'kaged.yaml': `mcp: ${'['.repeat(depth)}${']'.repeat(depth)}\n` }, 'kaged.yaml'],
    ['YAML block nesting', { 'kaged.yaml': `mcp:\n${Array.from({ length: Math.min(depth, 3000) }, (_, i) => `${' '.repeat(i + 2)}k${i}:`).join('\n')}\n` }, 'kaged.yaml'],
    ['JSON array nesting', { 'mcp.json': `{"mcpServers": {"a": {"command": "x", "args": ${'['.repeat(depth)}${']'.repeat(depth)}}}}` }, 'mcp.json'],
    ['JSON object nesting, unclosed', { 'mcp.json': `{"mcpServers": ${'{"a":'.repeat(depth)}` }, 'mcp.json'],
    ['Kestrel nesting', { 'k.json': `{"plugins": {"config": {"@kestrel/plugin-mcp": {"servers": ${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}}}` }, 'k.json'],
    ['TOML nesting', { 'config.toml': `[mcp_servers.a]\ncommand = "x"\nargs = ${'['.repeat(depth)}${']'.repeat(depth)}\n` }, 'config.toml'],
    ['TOML dotted depth', { 'config.toml': `[mcp_servers.a]\ncommand = "x"\n[${Array.from({ length: depth }, (_, i) => `k${i}`).join('.')}]\n` }, 'config.toml'],
    ['a 1 MB TOML line and a schema error', { 'config.toml': `[x]\nnote = """\nk${' '.repeat(1 << 20)}x\n"""\n[mcp_servers.a]\ncommand = 5\n` }, 'config.toml'],
    ['[mcp.__proto__] in local.toml', { 'kaged.yaml': kagedBase, 'local.toml': '[mcp.__proto__]\ndisabled = true\n' }, 'kaged.yaml'],
    ['__proto__ as a server name', { 'mcp.json': '{"mcpServers": {"__proto__": {"command": "x"}}}' }, 'mcp.json'],
    ['constructor in Codex env', { 'config.toml': '[mcp_servers.a]\ncommand = "x"\nenv = { constructor = "y" }\n' }, 'config.toml'],
    ['prototype in a Kestrel server', { 'k.json': '{"plugins": {"config": {"@kestrel/plugin-mcp": {"servers": {"prototype": {"command": "x"}}}}}}' }, 'k.json'],
    ['a 10 MB kaged.yaml', { 'kaged.yaml': `${kagedBase}#${'x'.repeat(big)}\n` }, 'kaged.yaml'],
    ['a 10 MB mcpServers JSON', { 'mcp.json': `{"mcpServers": {"a": {"command": "x", "args": ["${'y'.repeat(big)}"]}}}` }, 'mcp.json'],
    ['a 10 MB Codex TOML', { 'config.toml': `[mcp_servers.a]\ncommand = "x"\nargs = ["${'y'.repeat(big)}"]\n` }, 'config.toml'],
    ['a 10 MB Kestrel JSON', { 'k.json': `{"plugins": {"config": {"@kestrel/plugin-mcp": {"servers": {"a": {"command": "x", "args": ["${'y'.repeat(big)}"]}}}}}}` }, 'k.json'],
    ['a 10 MB line of JSON tokens', { 'mcp.json': `{"mcpServers": {"a": {"command": "x", "args": [${'1,'.repeat(big / 2)}1]}}}` }, 'mcp.json'],
  ];
}

test('C1–C5: YAML bombs, deep nesting, prototype keys, megabyte lines and 10 MB files end in a config or a ConfigError, within the bound per input', (t) => {
  const dir = path.join(tempDir(t, 'c7'), 'p');
  for (const depth of STRESS ? [5_000, 50_000, 200_000] : [5_000]) {
    for (const [what, files, entry] of hostile(depth, runs(10, 30))) {
      writeAll(dir, files);
      const ended = timed(`${what} (depth ${depth})`, () => outcome(load(dir, entry)), /10 MB/.test(what) ? PER_10MB_INPUT_MS : PER_INPUT_MS);
      t.diagnostic(`${what}: ${ended}`);
    }
  }
});
