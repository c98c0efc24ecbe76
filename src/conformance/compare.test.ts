// c2s matching rules (TRANSCRIPTS.md "Matching rules"). Each rule is tested
// both ways: what must match, and what must be reported as a difference,
// so a matcher that accepts everything fails here.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { matchC2s } from './compare.js';
import { IdBook } from './id-book.js';
import { firstDifference } from './json-diff.js';

const call = (id: number | string, params: Record<string, unknown> = { name: 'echo', arguments: { message: 'hi' } }) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params,
});
const cancelled = (requestId: number | string, reason = 'timed out') => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId, reason },
});

describe('matchC2s: requests', () => {
  test('an identical request matches and binds recorded id → live id', () => {
    const ids = new IdBook();
    assert.equal(matchC2s(call(1), call(1), ids), undefined);
    assert.equal(ids.live(1), 1);
  });

  test('ids are the client\'s to choose: recorded 5, live 0 matches and is remembered', () => {
    const ids = new IdBook();
    assert.equal(matchC2s(call(5), call(0), ids), undefined);
    assert.equal(ids.live(5), 0);
  });

  test('a wrong method is reported as such', () => {
    const d = matchC2s(call(1), { ...call(1), method: 'tools/list' }, new IdBook());
    assert.equal(d, 'method: expected "tools/call", got "tools/list"');
  });

  test('an extra key is a difference, with its path', () => {
    const d = matchC2s(call(1), call(1, { name: 'echo', arguments: { message: 'hi', extra: true } }), new IdBook());
    assert.equal(d, 'params.arguments.extra: unexpected key (got true)');
  });

  test('a missing key is a difference, with its path', () => {
    const d = matchC2s(call(1), call(1, { name: 'echo' }), new IdBook());
    assert.equal(d, 'params.arguments: missing (expected {"message":"hi"})');
  });

  test('a different value is a difference, with its path', () => {
    const d = matchC2s(call(1), call(1, { name: 'echo', arguments: { message: 'ho' } }), new IdBook());
    assert.equal(d, 'params.arguments.message: expected "hi", got "ho"');
  });

  test('key order does not matter', () => {
    const live = { params: { arguments: { message: 'hi' }, name: 'echo' }, method: 'tools/call', id: 1, jsonrpc: '2.0' };
    assert.equal(matchC2s(call(1), live, new IdBook()), undefined);
  });

  test('params.clientInfo and everything under params._meta are not compared', () => {
    const recorded = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'recorder', version: '1' } } };
    const live = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcpwire', version: '0.1.0' }, _meta: { anything: 1 } } };
    assert.equal(matchC2s(recorded, live, new IdBook()), undefined);
  });

  test('a modern request\'s _meta protocolVersion and clientCapabilities are compared; its clientInfo and progressToken are not (#17)', () => {
    const meta = (version: string, capabilities: Record<string, unknown>, name: string) => ({
      'io.modelcontextprotocol/protocolVersion': version,
      'io.modelcontextprotocol/clientInfo': { name, version: '1' },
      'io.modelcontextprotocol/clientCapabilities': capabilities,
    });
    const recorded = call(1, { name: 'echo', arguments: {}, _meta: { ...meta('2026-07-28', {}, 'recorder'), progressToken: 1 } });
    assert.equal(matchC2s(recorded, call(1, { name: 'echo', arguments: {}, _meta: { ...meta('2026-07-28', {}, 'mcpwire'), progressToken: 'p' } }), new IdBook()), undefined);
    assert.match(matchC2s(recorded, call(1, { name: 'echo', arguments: {}, _meta: meta('2026-07-29', {}, 'recorder') }), new IdBook())!, /protocolVersion"\]: expected "2026-07-28", got "2026-07-29"/);
    assert.match(matchC2s(recorded, call(1, { name: 'echo', arguments: {}, _meta: meta('2026-07-28', { elicitation: {} }, 'recorder') }), new IdBook())!, /clientCapabilities"\]\.elicitation: unexpected key/);
    // A legacy request where a modern one was recorded (and the other way round) is a difference too.
    assert.match(matchC2s(recorded, call(1, { name: 'echo', arguments: {}, _meta: { progressToken: 1 } }), new IdBook())!, /_meta/);
    assert.match(matchC2s(call(1, { name: 'echo', arguments: {} }), recorded, new IdBook())!, /_meta/);
  });

  test('but the rest of initialize params is: a different capability is a difference', () => {
    const recorded = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } };
    const live = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { sampling: {} } } };
    assert.equal(matchC2s(recorded, live, new IdBook()), 'params.capabilities.sampling: unexpected key (got {})');
  });

  test('absent params equals {}, both ways', () => {
    assert.equal(matchC2s({ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 1, method: 'ping', params: {} }, new IdBook()), undefined);
    assert.equal(matchC2s({ jsonrpc: '2.0', id: 1, method: 'ping', params: {} }, { jsonrpc: '2.0', id: 1, method: 'ping' }, new IdBook()), undefined);
    // params holding only _meta also counts as empty.
    assert.equal(matchC2s({ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: 1 } } }, new IdBook()), undefined);
  });

  test('a client that reuses a live id for a second request is reported', () => {
    const ids = new IdBook();
    assert.equal(matchC2s(call(1), call(0), ids), undefined);
    const d = matchC2s(call(2), call(0), ids);
    assert.match(d ?? '', /reused id 0/);
  });

  test('a live id that is not a string or number is reported', () => {
    assert.match(matchC2s(call(1), call(null as unknown as number), new IdBook()) ?? '', /^id: expected a string or number/);
  });

  test('a request where a notification was recorded is reported', () => {
    const d = matchC2s({ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 3, method: 'notifications/initialized' }, new IdBook());
    assert.match(d ?? '', /^expected a notification \(notifications\/initialized\), got a request/);
  });

  test('the progress token of a matched request is remembered (recorded → live)', () => {
    const ids = new IdBook();
    const recorded = call(1, { name: 'slow', arguments: {}, _meta: { progressToken: 1 } });
    const live = call(4, { name: 'slow', arguments: {}, _meta: { progressToken: 'tok-4' } });
    assert.equal(matchC2s(recorded, live, ids), undefined);
    assert.equal(ids.liveProgressToken(1), 'tok-4');
  });
});

describe('matchC2s: notifications/cancelled', () => {
  test('params.requestId is mapped to the live id; params.reason is not compared', () => {
    const ids = new IdBook();
    assert.equal(matchC2s(call(1), call(7), ids), undefined);
    assert.equal(matchC2s(cancelled(1, 'recorded reason'), cancelled(7, 'another reason'), ids), undefined);
  });

  test('a wrong requestId mapping is a difference', () => {
    const ids = new IdBook();
    assert.equal(matchC2s(call(1), call(7), ids), undefined);
    // The client cancels the recorded number instead of the id it actually used.
    assert.equal(matchC2s(cancelled(1), cancelled(1), ids), 'params.requestId: expected 7, got 1');
  });
});

describe('matchC2s: responses to server requests', () => {
  const pingAnswer = (id: number | string) => ({ jsonrpc: '2.0', id, result: {} });
  const methodNotFound = (id: number | string, message = 'Method not found') => ({ jsonrpc: '2.0', id, error: { code: -32601, message } });

  test('a response carries exactly the server request\'s id (not mapped, even when a client id has the same value)', () => {
    const ids = new IdBook();
    assert.equal(matchC2s(call(1), call(0), ids), undefined); // recorded client id 1 → live 0
    assert.equal(matchC2s(pingAnswer(1), pingAnswer(1), ids), undefined);
    assert.match(matchC2s(pingAnswer(1), pingAnswer(0), ids) ?? '', /^id: the response must carry exactly the server request's id 1, got 0/);
  });

  test('number and string ids are different ids', () => {
    assert.match(matchC2s(pingAnswer('1'), pingAnswer(1), new IdBook()) ?? '', /exactly the server request's id "1", got 1/);
  });

  test('an error response is compared on id and error.code only', () => {
    assert.equal(matchC2s(methodNotFound('r-1'), methodNotFound('r-1', 'Unhandled method roots/list'), new IdBook()), undefined);
    const withData = { jsonrpc: '2.0', id: 'r-1', error: { code: -32601, message: 'x', data: { method: 'roots/list' } } };
    assert.equal(matchC2s(methodNotFound('r-1'), withData, new IdBook()), undefined);
  });

  test('a different error code is a difference', () => {
    const d = matchC2s(methodNotFound(0), { jsonrpc: '2.0', id: 0, error: { code: -32603, message: 'Internal error' } }, new IdBook());
    assert.equal(d, 'error.code: expected -32601, got -32603');
  });

  test('a result where an error was recorded is a difference', () => {
    assert.match(matchC2s(methodNotFound(0), pingAnswer(0), new IdBook()) ?? '', /^expected an error response/);
  });

  test('a result response is compared in full', () => {
    const d = matchC2s(pingAnswer(1), { jsonrpc: '2.0', id: 1, result: { extra: 1 } }, new IdBook());
    assert.equal(d, 'result.extra: unexpected key (got 1)');
  });
});

describe('firstDifference', () => {
  test('equal values, any key order', () => {
    assert.equal(firstDifference({ a: [1, { b: null }], c: 'x' }, { c: 'x', a: [1, { b: null }] }), undefined);
  });

  test('array length is reported before items', () => {
    assert.equal(firstDifference({ tools: [1, 2, 3] }, { tools: [1, 3] }), 'tools: expected 3 items, got 2');
  });

  test('array order matters', () => {
    assert.equal(firstDifference([1, 2], [2, 1]), '[0]: expected 1, got 2');
  });

  test('keys that are not identifiers are quoted in the path', () => {
    assert.equal(firstDifference({ 'a-b': { $ok: 1 } }, { 'a-b': { $ok: 2 } }), '["a-b"].$ok: expected 1, got 2');
  });

  test('type differences: null vs object, number vs string', () => {
    assert.equal(firstDifference({ a: null }, { a: {} }), 'a: expected null, got {}');
    assert.equal(firstDifference(1, '1'), 'expected 1, got "1"');
  });

  test('long values are cut in the message', () => {
    const d = firstDifference('x'.repeat(500), 'y');
    assert.match(d ?? '', /… \(502 chars\), got "y"$/);
  });
});
