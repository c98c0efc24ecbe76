// Turns an s2c line into the bytes the server side sends, with recorded ids
// replaced by live ones (TRANSCRIPTS.md "Matching rules" and "s2c"): a
// response's `id`, `params.requestId` of notifications/cancelled,
// `params.progressToken` of notifications/progress, and `{{id:N}}` inside
// raw / rawBase64 bytes. Server-request ids are the server's and stay as
// recorded.

import type { IdBook } from './id-book.js';
import type { JsonObject } from '../client/results.js';
import { isId, isObject } from '../jsonrpc/message.js';
import { ID_PLACEHOLDER, placeholderId } from './transcript.js';

/** An s2c `msg` (one message or a batch) with its ids rewritten. The input is not modified. */
export function rewriteMessage(msg: unknown, ids: IdBook): unknown {
  if (Array.isArray(msg)) return msg.map((item) => rewriteOne(item, ids));
  return rewriteOne(msg, ids);
}

function rewriteOne(message: unknown, ids: IdBook): unknown {
  if (!isObject(message)) return message;
  if (!('method' in message)) {
    // A response: its id is one of the client's. An id no c2s line bound (a stray answer) goes out as recorded.
    return isId(message.id) ? { ...message, id: ids.live(message.id) ?? message.id } : message;
  }
  const params = message.params;
  if (!isObject(params)) return message;
  if (message.method === 'notifications/cancelled' && isId(params.requestId)) {
    return withParams(message, { ...params, requestId: ids.live(params.requestId) ?? params.requestId });
  }
  if (message.method === 'notifications/progress' && isId(params.progressToken)) {
    return withParams(message, { ...params, progressToken: ids.liveProgressToken(params.progressToken) });
  }
  return message;
}

function withParams(message: JsonObject, params: JsonObject): JsonObject {
  return { ...message, params };
}

/**
 * Replaces every `{{id:N}}` in `bytes` with the JSON encoding of the live id
 * of recorded request N. Works on bytes through a latin1 view (one char per
 * byte), so a UTF-8 character split across two rawBase64 lines passes
 * through untouched. Throws when N was never bound (the transcript is
 * checked for this on load, so it means the case went wrong earlier).
 */
export function fillIdPlaceholders(bytes: Buffer, ids: IdBook): Buffer {
  const text = bytes.toString('latin1');
  if (!text.includes('{{id:')) return bytes;
  const filled = text.replace(ID_PLACEHOLDER, (whole, n: string) => {
    const live = ids.live(placeholderId(n));
    if (live === undefined) throw new Error(`${whole}: recorded request ${n} has no live id yet`);
    return Buffer.from(JSON.stringify(live), 'utf8').toString('latin1');
  });
  return Buffer.from(filled, 'latin1');
}

/** The exact bytes of an s2c msg line: one JSON text and a line break (W1 framing). */
export function encodeMessageLine(msg: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(msg)}\n`, 'utf8');
}
