// U1: --server KEY picks the server a command talks to. With two servers
// that both have `echo`, `call echo --server b` calls b's (not "a tool of 2
// servers"), and a server key nobody configured fails before anything starts.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'bin', 'mcpwire.js');
const example = path.join(root, 'examples', 'echo-server.mjs');

function twoServers(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-server-option-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'mcpwire.json');
  const server = { command: process.execPath, args: [example] };
  writeFileSync(file, JSON.stringify({ mcpServers: { a: server, b: server } }));
  return file;
}

const mcpwire = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });

test('U1: call TOOL --server KEY calls that server\'s tool by its own name, canonical name or alias', (t) => {
  const file = twoServers(t);
  for (const name of ['echo', 'mcp.b.echo', 'mcp_b_echo']) {
    const run = mcpwire('call', name, 'message=hi', '--server', 'b', '--config', file, '--json');
    assert.equal(run.status, 0, `${name}: ${run.stderr}`);
    assert.equal((JSON.parse(run.stdout) as { name: string }).name, 'mcp.b.echo', name);
  }
  const other = mcpwire('call', 'mcp.a.echo', 'message=hi', '--server', 'b', '--config', file);
  assert.equal(other.status, 3, 'a tool of another server is not this server\'s');
  const unknown = mcpwire('call', 'echo', '--server', 'c', '--config', file);
  assert.equal(unknown.status, 3, `an unknown server is 3, as an unknown tool is (#18 item 7): ${unknown.stderr}`);
  assert.match(unknown.stderr, /UnknownToolError: no server named "c"; (did you mean a, b\?; )?configured: a, b/);
});
