// Audit tests for classify() and isId() (W4; issue #20 item 3): a number id
// must be finite. JSON.parse never yields NaN or Infinity, but a message can
// reach classify() without going through text (an in-process transport), so
// the guard is pinned here, on every shape that reads an id.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classify, isId } from './message.js';

test('W4 audit: an id that is a number must be finite: NaN and Infinity are refused in requests and answers', () => {
  for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    assert.equal(isId(bad), false, String(bad));
    assert.deepEqual(classify({ jsonrpc: '2.0', id: bad, method: 'ping' }), { kind: 'invalid', detail: 'request "id" is not a string or number' });
    assert.deepEqual(classify({ jsonrpc: '2.0', id: bad, result: {} }), { kind: 'invalid', detail: 'response "id" is not a string or number' });
  }
  for (const good of [0, -1, 1.5, Number.MAX_SAFE_INTEGER, '', 'x']) assert.equal(isId(good), true, String(good));
});
