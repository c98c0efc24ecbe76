// Unit tests for the JSON-RPC 2.0 guards (W4) and the line encoder (W1).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classify, encodeLine, isId, isObject } from './message.js';

describe('classify', () => {
  test('a request', () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'ping' };
    assert.deepEqual(classify(message), { kind: 'request', message });
    const withParams = { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x' } };
    assert.deepEqual(classify(withParams), { kind: 'request', message: withParams });
  });

  test('a notification (no id)', () => {
    const message = { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } };
    assert.deepEqual(classify(message), { kind: 'notification', message });
  });

  test('a success response, also with a falsy result', () => {
    for (const result of [{ tools: [] }, null, 0, false, '']) {
      const message = { jsonrpc: '2.0', id: 3, result };
      assert.deepEqual(classify(message), { kind: 'response', message });
    }
  });

  test('an error response, with data, and with id null (JSON-RPC 2.0 §5: id null when it could not be read)', () => {
    const message = { jsonrpc: '2.0', id: 'x', error: { code: -32000, message: 'boom', data: { why: 1 } } };
    assert.deepEqual(classify(message), { kind: 'response', message });
    const nullId = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
    assert.deepEqual(classify(nullId), { kind: 'response', message: nullId });
  });

  describe('invalid shapes', () => {
    const cases: [string, unknown, { id?: string | number }][] = [
      ['not an object: array', [1], {}],
      ['not an object: null', null, {}],
      ['not an object: string', 'hello', {}],
      ['missing jsonrpc on a response (id kept)', { id: 4, result: {} }, { id: 4 }],
      ['missing jsonrpc on a request (no id: a request id is the server’s, not one of ours)', { id: 4, method: 'ping' }, {}],
      ['jsonrpc "1.0"', { jsonrpc: '1.0', id: 'q', result: {} }, { id: 'q' }],
      ['both result and error (id kept)', { jsonrpc: '2.0', id: 5, result: {}, error: { code: 1, message: 'm' } }, { id: 5 }],
      ['neither method, result nor error', { jsonrpc: '2.0', id: 6 }, { id: 6 }],
      ['error without a code', { jsonrpc: '2.0', id: 7, error: { message: 'm' } }, { id: 7 }],
      ['error with a non-integer code', { jsonrpc: '2.0', id: 8, error: { code: 1.5, message: 'm' } }, { id: 8 }],
      ['error with a string code', { jsonrpc: '2.0', id: 9, error: { code: '-32000', message: 'm' } }, { id: 9 }],
      ['error without a message', { jsonrpc: '2.0', id: 10, error: { code: -1 } }, { id: 10 }],
      ['error that is not an object', { jsonrpc: '2.0', id: 11, error: 'bad' }, { id: 11 }],
      // JSON-RPC 2.0 §5: the id "is REQUIRED"; null is for an id that could not be read, absence is not allowed.
      ['error response with no id at all', { jsonrpc: '2.0', error: { code: -1, message: 'm' } }, {}],
      ['id null on a success', { jsonrpc: '2.0', id: null, result: {} }, {}],
      ['id an object on a success', { jsonrpc: '2.0', id: { a: 1 }, result: {} }, {}],
      ['id a boolean on an error', { jsonrpc: '2.0', id: true, error: { code: 1, message: 'm' } }, {}],
      ['params an array (MCP never sends one)', { jsonrpc: '2.0', id: 12, method: 'x', params: [1, 2] }, {}],
      ['params a string on a notification', { jsonrpc: '2.0', method: 'x', params: 'p' }, {}],
      ['method not a string', { jsonrpc: '2.0', id: 13, method: 42 }, {}],
      ['request id null', { jsonrpc: '2.0', id: null, method: 'x' }, {}],
      ['request id a float NaN-like value', { jsonrpc: '2.0', id: {}, method: 'x' }, {}],
    ];
    for (const [name, value, expected] of cases) {
      test(name, () => {
        const c = classify(value);
        assert.equal(c.kind, 'invalid');
        if (c.kind !== 'invalid') return;
        assert.equal(typeof c.detail, 'string');
        assert.ok(c.detail.length > 0);
        assert.equal(c.id, expected.id);
      });
    }
  });

  test('the invalid detail says what is wrong', () => {
    const both = classify({ jsonrpc: '2.0', id: 1, result: 1, error: { code: 1, message: 'm' } });
    assert.match(both.kind === 'invalid' ? both.detail : '', /both "result" and "error"/);
    const version = classify({ id: 1, result: 1 });
    assert.match(version.kind === 'invalid' ? version.detail : '', /jsonrpc/);
  });
});

describe('isId / isObject', () => {
  test('ids are strings or finite numbers', () => {
    assert.equal(isId(0), true);
    assert.equal(isId(''), true);
    assert.equal(isId(null), false);
    assert.equal(isId(Number.NaN), false);
    assert.equal(isId(Number.POSITIVE_INFINITY), false);
    assert.equal(isId(undefined), false);
  });
  test('arrays and null are not objects', () => {
    assert.equal(isObject({}), true);
    assert.equal(isObject([]), false);
    assert.equal(isObject(null), false);
  });
});

describe('encodeLine', () => {
  test('one line, newline-terminated, with no raw newline inside (W1)', () => {
    const line = encodeLine({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { text: 'a\nb\r\nc\u2028d' } });
    assert.equal(line.endsWith('\n'), true);
    assert.equal(line.indexOf('\n'), line.length - 1);
    assert.equal(line.includes('\r'), false);
    assert.deepEqual(JSON.parse(line), { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { text: 'a\nb\r\nc\u2028d' } });
  });
});
