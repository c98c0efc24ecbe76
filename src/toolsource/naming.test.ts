// Aliases (R1, R4 [+]): provider-safe, deterministic whatever the order,
// collision-free with a hash suffix for every member of a colliding group,
// short enough; and the glob rule filters and agent rules use.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROVIDER_SAFE_NAME, assignAliases, globToRegExp } from './naming.js';

test('R1: a unique name is sanitised and kept readable', () => {
  const { aliases, adjusted } = assignAliases(['mcp.github.issue.create', 'mcp.db.query']);
  assert.equal(aliases.get('mcp.github.issue.create'), 'mcp_github_issue_create');
  assert.equal(aliases.get('mcp.db.query'), 'mcp_db_query');
  assert.deepEqual(adjusted, []);
});

test('R1: names that collide after sanitising all get a hash suffix; none wins by order; every alias is provider-safe and distinct', () => {
  const names = ['mcp.gh.issue.create', 'mcp.gh.issue_create', 'mcp.gh.issue-create'];
  const forward = assignAliases(names).aliases;
  const backward = assignAliases([...names].reverse()).aliases;
  assert.deepEqual([...forward].sort(), [...backward].sort(), 'the order of discovery does not matter');
  const aliases = names.map((n) => forward.get(n)!);
  assert.equal(aliases.filter((a) => a.startsWith('mcp_gh_issue_create_')).length, 2, 'the two that collide');
  assert.equal(forward.get('mcp.gh.issue-create'), 'mcp_gh_issue-create', 'a hyphen is already safe');
  assert.equal(new Set(aliases).size, 3);
  for (const alias of aliases) assert.match(alias, PROVIDER_SAFE_NAME);
});

test('R1: a name past 64 characters is cut and suffixed, and stays at most 64', () => {
  const long = `mcp.server.${'very_long_tool_name_'.repeat(5)}`;
  const { aliases, adjusted } = assignAliases([long]);
  const alias = aliases.get(long)!;
  assert.equal(alias.length, 64);
  assert.match(alias, PROVIDER_SAFE_NAME);
  assert.match(alias, /_[0-9a-f]{8}$/);
  assert.deepEqual(adjusted.map((a) => a.why), ['too-long']);
  assert.equal(assignAliases([long]).aliases.get(long), alias, 'the same every time');
});

test('globs: * crosses dots, ? is one character, everything else is literal', () => {
  assert.ok(globToRegExp('repo.*').test('repo.delete'));
  assert.ok(globToRegExp('mcp.github.*').test('mcp.github.issue.create'));
  assert.ok(!globToRegExp('repo.*').test('repoXdelete'), 'the dot is literal');
  assert.ok(globToRegExp('issue.?et').test('issue.get'));
  assert.ok(!globToRegExp('a+b').test('aab'), 'regex characters are literal');
  assert.ok(globToRegExp('a+b').test('a+b'));
});
