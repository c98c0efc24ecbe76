// The example hosts run as a reader of the README would run them, against
// the real servers this repository installs: if one breaks, so does the
// documentation that points at it.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function run(script: string) {
  return spawnSync(process.execPath, [path.join(root, script)], { cwd: root, encoding: 'utf8', timeout: 90_000 });
}

test('examples/kaged-host: an agent turn by alias, one result cut at the example\'s 120-byte cap', () => {
  const out = run('examples/kaged-host/host.mjs');
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /^primary may use \d+ tools:/m);
  assert.match(out.stdout, /mcp\.everything\.echo → \d+ bytes, truncated: false/);
  assert.match(out.stdout, /mcp\.files\.read_text_file → \d+ bytes, truncated: true/);
  assert.match(out.stdout, /^ {2}docs +disabled/m);
  // #16 items 11, 13: dispatch through the agent's view refuses what it was not given; onCall and stats count the rest.
  assert.match(out.stdout, /^refused: \w+: .*mcp_everything_get-sum.*primary was not given it/m);
  assert.match(out.stdout, /^ {2}mcp\.files\.read_text_file ok \d+ B over \d{4}-\d\d-\d\d \((legacy|modern)\)$/m);
  assert.match(out.stdout, /^ {2}files +ready +tools \d+, calls 1, errors 0, \d+ B, 1 truncated$/m);
});

test('examples/kestrel-host: mcp__ tools with permissions, a failed server logged, another plugin through the mcp service', () => {
  const out = run('examples/kestrel-host/host.mjs');
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /mcp__everything__echo +auto /);
  assert.match(out.stdout, /mcp__memory__create_entities +ask /);
  assert.match(out.stderr, /error mcp server failed \{[\s\S]*server: 'docs'/);
  assert.match(out.stdout, /@acme\/tickets onIssue\("KES-1"\) → \[\{"type":"text"/);
});
