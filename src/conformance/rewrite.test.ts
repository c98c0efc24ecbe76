// s2c rewriting: recorded ids become live ones where they refer to the
// client's requests, and stay as recorded where they are the server's.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { IdBook } from './id-book.js';
import { fillIdPlaceholders, rewriteMessage } from './rewrite.js';

function book(pairs: [number | string, number | string][]): IdBook {
  const ids = new IdBook();
  for (const [recorded, live] of pairs) ids.bind(recorded, live);
  return ids;
}

describe('rewriteMessage', () => {
  test('a response gets the live id of the recorded request', () => {
    assert.deepEqual(rewriteMessage({ jsonrpc: '2.0', id: 1, result: {} }, book([[1, 'live-1']])), { jsonrpc: '2.0', id: 'live-1', result: {} });
  });

  test('a response to an id no request had goes out as recorded', () => {
    assert.deepEqual(rewriteMessage({ jsonrpc: '2.0', id: 987654, result: {} }, book([[1, 0]])), { jsonrpc: '2.0', id: 987654, result: {} });
  });

  test('a server request keeps its own id, even when a client id has the same value', () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    assert.deepEqual(rewriteMessage(ping, book([[1, 99]])), ping);
  });

  test('each item of a batch is rewritten', () => {
    const batch = [{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }, { jsonrpc: '2.0', id: 2, result: {} }];
    assert.deepEqual(rewriteMessage(batch, book([[2, 5]])), [batch[0], { jsonrpc: '2.0', id: 5, result: {} }]);
  });

  test('notifications/cancelled params.requestId is mapped', () => {
    const msg = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'x' } };
    assert.deepEqual(rewriteMessage(msg, book([[3, 30]])), { ...msg, params: { requestId: 30, reason: 'x' } });
  });

  test('notifications/progress token: mapped when the live request carried one, unchanged otherwise', () => {
    const progress = (token: number | string) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1 } });
    const ids = new IdBook();
    ids.bindProgressToken(1, 'live-token');
    ids.bindProgressToken(2, undefined);
    assert.deepEqual(rewriteMessage(progress(1), ids), progress('live-token'));
    assert.deepEqual(rewriteMessage(progress(2), ids), progress(2));
    assert.deepEqual(rewriteMessage(progress('unknown'), ids), progress('unknown'));
  });

  test('the recorded message is not modified', () => {
    const msg = { jsonrpc: '2.0', id: 1, result: {} };
    rewriteMessage(msg, book([[1, 2]]));
    assert.equal(msg.id, 1);
  });
});

describe('fillIdPlaceholders', () => {
  test('{{id:N}} becomes the JSON encoding of the live id: a number, or a quoted string', () => {
    const raw = Buffer.from('{"id":{{id:1}},"other":{{id:2}}}\n');
    assert.equal(fillIdPlaceholders(raw, book([[1, 7], [2, 'abc']])).toString(), '{"id":7,"other":"abc"}\n');
  });

  test('bytes around the placeholder survive exactly, including half a UTF-8 character', () => {
    const crab = Buffer.from('🦀');
    const raw = Buffer.concat([Buffer.from('{"id":{{id:1}},"t":"'), crab.subarray(0, 2)]);
    const out = fillIdPlaceholders(raw, book([[1, 12]]));
    assert.deepEqual(out, Buffer.concat([Buffer.from('{"id":12,"t":"'), crab.subarray(0, 2)]));
  });

  test('a placeholder for a request that has no live id is an error, not a guess', () => {
    assert.throws(() => fillIdPlaceholders(Buffer.from('{{id:9}}'), new IdBook()), /\{\{id:9\}\}/);
  });
});
