// The CLI's pure helpers: signatures and k=v coercion from input schemas,
// the nearest names for a typo, and the keys of servers given on the
// command line.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { keyValueArgs, missingRequired, signature } from './schema.js';
import { nearest } from '../util/suggest.js';
import { slugForCommand, slugForUrl } from './target.js';
import { UsageError } from './usage.js';

const SCHEMA = {
  type: 'object',
  properties: {
    message: { type: 'string' },
    times: { type: 'integer' },
    ratio: { type: 'number' },
    loud: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    options: { type: 'object' },
    mode: { type: 'string', enum: ['a', 'b'] },
    any: {},
  },
  required: ['message'],
};

test('U1: a signature names every argument with its type, ? on the optional ones', () => {
  assert.equal(signature('echo', SCHEMA), 'echo(message: string, times?: integer, ratio?: number, loud?: boolean, tags?: string[], options?: object, mode?: "a" | "b", any?: any)');
  assert.equal(signature('none', { type: 'object' }), 'none()');
});

test('U1: k=v and k:v are read as the schema types each argument; untyped values as JSON when they parse', () => {
  const args = keyValueArgs(['message=42', 'times=3', 'ratio:0.5', 'loud=yes', 'tags=["x","y"]', 'options={"a":1}', 'mode=b', 'any=7', 'extra=text'], SCHEMA, 'echo');
  assert.deepEqual(args, { message: '42', times: 3, ratio: 0.5, loud: true, tags: ['x', 'y'], options: { a: 1 }, mode: 'b', any: 7, extra: 'text' });
  assert.deepEqual(keyValueArgs(['message=a=b:c'], SCHEMA, 'echo'), { message: 'a=b:c' }, 'the first = or : splits');
  for (const [word, why] of [['times=1.5', /times takes an integer/], ['ratio=x', /ratio takes a number/], ['loud=maybe', /loud takes true or false/], ['tags={"a":1}', /a JSON array/], ['nonsense', /is not an argument/]] as const) {
    assert.throws(() => keyValueArgs([word], SCHEMA, 'echo'), (e: Error) => e instanceof UsageError && why.test(e.message), word);
  }
  assert.deepEqual(missingRequired({ times: 1 }, SCHEMA), ['message']);
});

test('U1: k=@FILE reads the value from FILE, typed by the schema; k=@@x is the literal @x; errors name the file, never its text', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-at-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  const args = keyValueArgs([`message=@${file('m', 'two\nlines\n')}`, `times=@${file('t', '3\n')}`, `loud=@${file('l', 'false')}`, `tags=@${file('g', '["a"]')}`, `any=@${file('a', '{"k": [1]}')}`, 'mode=@@b'], SCHEMA, 'echo');
  assert.deepEqual(args, { message: 'two\nlines\n', times: 3, loud: false, tags: ['a'], any: { k: [1] }, mode: '@b' });
  const canary = file('secret', 'sk-canary-schema-77aa');
  for (const word of [`times=@${canary}`, `loud=@${canary}`, `options=@${canary}`]) {
    assert.throws(() => keyValueArgs([word], SCHEMA, 'echo'), (e: Error) => e instanceof UsageError && e.message.startsWith(`${word}: `) && !e.message.includes('sk-canary'), word);
  }
  assert.throws(() => keyValueArgs(['times=@yes'], SCHEMA, 'echo'), (e: Error) => e instanceof UsageError && /times=@yes: no such file; .*times=@@yes/.test(e.message), 'the escape is named');
  assert.throws(() => keyValueArgs(['message=@'], SCHEMA, 'echo'), /give a file after @/);
});

test('U1: a mistyped tool name gets the nearest names by edit distance', () => {
  assert.deepEqual(nearest('ecko', ['echo', 'add', 'get-sum']), ['echo']);
  assert.deepEqual(nearest('get_sum', ['echo', 'get-sum', 'get-env']), ['get-sum']);
  assert.deepEqual(nearest('Echo', ['echo', 'echoes']), ['echo', 'echoes'], 'case ignored; a name containing it is near too');
  assert.deepEqual(nearest('zzzzzz', ['echo', 'add']), []);
});

test('U1: a server given on the command line is keyed by its package, script or host', () => {
  assert.equal(slugForCommand(['npx', '-y', '@modelcontextprotocol/server-everything@latest', 'stdio']), 'server-everything');
  assert.equal(slugForCommand(['node', 'examples/echo-server.mjs']), 'echo-server');
  assert.equal(slugForCommand(['node', 'node_modules/server-foo/dist/index.js']), 'server-foo');
  assert.equal(slugForCommand(['uvx', 'mcp-server-git', '--repository', '.']), 'mcp-server-git');
  assert.equal(slugForCommand(['python', '-m', 'my_server']), 'my_server');
  assert.equal(slugForCommand(['/usr/local/bin/GitHub-MCP']), 'github-mcp');
  assert.equal(slugForUrl(new URL('https://www.api.example.com/mcp')), 'api-example-com');
  assert.equal(slugForUrl(new URL('http://localhost:3001/mcp')), 'localhost');
});
