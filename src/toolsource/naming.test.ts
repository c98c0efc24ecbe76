// Aliases (R1, R4 [+]): provider-safe, deterministic whatever the order,
// collision-free with a hash suffix for every member of a colliding group,
// short enough; and the glob rule filters and agent rules use.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_TOOL_NAME_CHARS, PROVIDER_SAFE_NAME, assignAliases, assignNames, globToRegExp, sanitize, toolNameProblem } from './naming.js';

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

test('R4 [+]: Latin letters with diacritics are transliterated, not replaced, so the alias stays readable', () => {
  assert.equal(sanitize('ünïcode'), 'unicode');
  assert.equal(sanitize('Łódź.straße'), 'Lodz_strasse');
  assert.equal(sanitize('smørrebrød-æble-œuvre-þorn-đak'), 'smorrebrod-aeble-oeuvre-thorn-dak');
  assert.equal(sanitize('ﬁle'), 'file', 'compatibility forms decompose too (NFKD)');
  assert.equal(sanitize('mcp.github.issue create'), 'mcp_github_issue_create', 'punctuation and spaces still become _ with no hash');
});

test('R4 [+]: a name that loses letters with no ASCII spelling keeps a hash of the whole name, so two such names never share an alias', () => {
  const a = sanitize('mcp.odd.ünïcode.名前');
  const b = sanitize('mcp.odd.ünïcode.日本');
  assert.match(a, /^mcp_odd_unicode_[0-9a-f]{8}$/);
  assert.match(b, /^mcp_odd_unicode_[0-9a-f]{8}$/);
  assert.notEqual(a, b);
  assert.equal(sanitize('mcp.odd.ünïcode.名前'), a, 'the same every time, whatever else is registered');
  const { aliases, adjusted } = assignAliases(['mcp.odd.ünïcode.名前']);
  assert.equal(aliases.get('mcp.odd.ünïcode.名前'), a);
  assert.deepEqual(adjusted, [], 'alone it is no collision');
  assert.match(sanitize('данные'), /^_[0-9a-f]{8}$/);
  for (const name of [a, b, sanitize('данные')]) assert.match(name, PROVIDER_SAFE_NAME);
});

test('R4 [+]: Kestrel names run through the same sanitize as the registry', () => {
  const { aliases } = assignNames([['odd/名前', sanitize('mcp__odd__名前')]]);
  assert.match(aliases.get('odd/名前')!, /^mcp__odd_[0-9a-f]{8}$/);
});

test('MCP 2025-11-25 tools, "Tool names": empty, control characters and names past 128 characters are refused', () => {
  assert.equal(toolNameProblem(''), 'empty');
  for (const bad of ['a\u0000b', 'tab\there', 'line\nbreak', 'del\u007f', 'c1\u0085', 'bidi\u202eevil', 'sep\u2028x']) assert.equal(toolNameProblem(bad), 'control-character', JSON.stringify(bad));
  assert.equal(toolNameProblem('x'.repeat(MAX_TOOL_NAME_CHARS)), undefined);
  assert.equal(toolNameProblem('x'.repeat(MAX_TOOL_NAME_CHARS + 1)), 'too-long');
  assert.equal(toolNameProblem('名'.repeat(MAX_TOOL_NAME_CHARS)), undefined, 'characters, not UTF-16 units or bytes');
  for (const fine of ['getUser', 'DATA_EXPORT_v2', 'admin.tools.list', 'ünïcode.名前', 'with space']) assert.equal(toolNameProblem(fine), undefined, fine);
});
