// checkOutcome against an op's expect (TRANSCRIPTS.md "op"): for list ops
// only the list is compared, all pages concatenated; it must still be
// compared with what the server sent, not with itself.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkOutcome } from './ops.js';
import type { OpEvent } from './transcript.js';

const op = (name: OpEvent['op'], result: unknown): OpEvent => ({ kind: 'op', line: 6, op: name, expect: { result } as OpEvent['expect'] });

for (const [name, key] of [['listTools', 'tools'], ['listPrompts', 'prompts'], ['listResources', 'resources'], ['listResourceTemplates', 'resourceTemplates']] as const) {
  test(`${name}: a list that differs from the expected one fails; nextCursor and _meta are not compared`, () => {
    const expected = { [key]: [{ name: 'a' }, { name: 'b' }] };
    assert.equal(checkOutcome(op(name, expected), { ok: true, value: { [key]: [{ name: 'a' }, { name: 'b' }], nextCursor: 'x', _meta: { m: 1 } } }), undefined);
    const differs = checkOutcome(op(name, expected), { ok: true, value: { [key]: [{ name: 'a' }, { name: 'c' }] } });
    assert.match(differs ?? '', new RegExp(`^result differs: result\\.${key}\\[1\\]\\.name`));
    assert.match(checkOutcome(op(name, expected), { ok: true, value: { [key]: [{ name: 'a' }] } }) ?? '', /^result differs/);
    assert.match(checkOutcome(op(name, expected), { ok: true, value: {} }) ?? '', /^result differs/);
  });
}
