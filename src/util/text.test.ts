// describeDiagnostic for a tool left out of the list: the reason is shown
// (why the tool is missing is the first thing a user asks), escaped and capped,
// since it quotes names from the server's own schema.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { headerParamsOf } from '../client/header-params.js';
import { describeDiagnostic } from './text.js';

test('rejected-tool: the header check\'s detail is shown, control characters escaped, a long one capped', () => {
  const found = headerParamsOf({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Bad Name\u001b[31m' } } });
  assert.ok('invalid' in found);
  const line = describeDiagnostic({ kind: 'rejected-tool', server: 's', tool: 'weather', why: 'invalid-header', detail: found.invalid });
  assert.match(line, /^tool "weather" not registered \(invalid-header: x-mcp-header .*Bad Name.* is not an HTTP token\)$/);
  assert.ok(!line.includes('\u001b'), 'no raw escape reaches a terminal');
  const long = describeDiagnostic({ kind: 'rejected-tool', server: 's', tool: 't', why: 'invalid-header', detail: 'x'.repeat(5000) });
  assert.ok(long.length < 300, `capped: ${long.length}`);
  assert.equal(describeDiagnostic({ kind: 'rejected-tool', server: 's', tool: 't', why: 'duplicate' }), 'tool "t" not registered (duplicate)');
});
