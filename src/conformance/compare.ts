// Matches one message the client sent against a c2s line, by the rules of
// TRANSCRIPTS.md "Matching rules": recorded request ids map to live ones
// (and must stay one-to-one); params.clientInfo, everything under
// params._meta and params.reason of notifications/cancelled are not
// compared, except the two 2026-07-28 envelope entries that say which
// protocol the client speaks (protocolVersion, clientCapabilities), which
// are; absent params equals {}; an error response is compared on id
// and error.code only; a response must carry exactly the server request's
// id. Everything else is deep equality, key order irrelevant.

import { firstDifference, show } from './json-diff.js';
import type { IdBook } from './id-book.js';
import type { JsonObject } from '../client/results.js';
import { isId, isObject } from '../jsonrpc/message.js';
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY } from '../client/request-meta.js';

/**
 * The `_meta` entries a match compares (2026-07-28 per-request metadata,
 * #17): the version and the capabilities the client claims on each modern
 * request, present or absent alike. The third envelope entry, clientInfo,
 * is not compared, as params.clientInfo is not (it names mcpwire's version).
 */
export const COMPARED_META_KEYS = [PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY] as const;

type Shape = 'request' | 'notification' | 'response' | 'other';

function shapeOf(message: unknown): Shape {
  if (!isObject(message)) return 'other';
  if ('method' in message) return 'id' in message ? 'request' : 'notification';
  if ('result' in message || 'error' in message) return 'response';
  return 'other';
}

/**
 * Compares what the client sent (`got`) with a c2s line's `msg`. Returns the
 * first difference, or undefined on a match, in which case the request id
 * (and progress token) bindings are recorded in `ids`.
 */
export function matchC2s(expected: unknown, got: unknown, ids: IdBook): string | undefined {
  const shape = shapeOf(expected);
  if (shape === 'other') return firstDifference(expected, got);
  if (!isObject(got)) return `expected a JSON-RPC ${shape}, got ${show(got)}`;
  const gotShape = shapeOf(got);
  if (gotShape !== shape) return `expected a ${shape}${describeMethod(expected)}, got a ${gotShape}${describeMethod(got)}: ${show(got)}`;
  const e = expected as JsonObject;

  if (shape === 'response') return matchResponse(e, got);

  // Request / notification: the method first, so a wrong method is reported as such rather than as a params difference.
  if (e.method !== got.method) return `method: expected ${show(e.method)}, got ${show(got.method)}`;

  let binding: { recorded: string | number; live: string | number } | undefined;
  if (shape === 'request') {
    if (!isId(got.id)) return `id: expected a string or number (the client's choice), got ${show(got.id)}`;
    if (!isId(e.id)) return `id: the transcript's recorded id ${show(e.id)} is not a string or number`;
    const conflict = ids.conflict(e.id, got.id);
    if (conflict) return `id: ${conflict}`;
    binding = { recorded: e.id, live: got.id };
  }

  const difference = firstDifference(normalize(e, ids, 'expected'), normalize(got, ids, 'got'));
  if (difference) return difference;

  if (binding) {
    ids.bind(binding.recorded, binding.live);
    const recordedToken = progressTokenOf(e);
    if (recordedToken !== undefined) ids.bindProgressToken(recordedToken, progressTokenOf(got));
  }
  return undefined;
}

/** JSON-RPC 2.0 §5: the response id "MUST be the same as the value of the id member in the Request Object". */
function matchResponse(expected: JsonObject, got: JsonObject): string | undefined {
  if (!isId(got.id) || got.id !== expected.id) {
    return `id: the response must carry exactly the server request's id ${show(expected.id)}, got ${show(got.id)}`;
  }
  if ('error' in expected) {
    if (!('error' in got)) return `expected an error response, got ${show(got)}`;
    const expectedCode = isObject(expected.error) ? expected.error.code : undefined;
    const gotCode = isObject(got.error) ? got.error.code : undefined;
    return expectedCode === gotCode ? undefined : `error.code: expected ${show(expectedCode)}, got ${show(gotCode)}`;
  }
  return firstDifference(expected, got);
}

/**
 * A copy with what is not compared taken out: the request id (matched
 * separately), params.clientInfo, params._meta but for COMPARED_META_KEYS, and for
 * notifications/cancelled params.reason; the recorded requestId of
 * notifications/cancelled is replaced by its live id. Absent params becomes {}.
 */
function normalize(message: JsonObject, ids: IdBook, side: 'expected' | 'got'): JsonObject {
  const { id: _id, ...rest } = message;
  const params = rest.params === undefined ? {} : rest.params;
  if (!isObject(params)) return { ...rest, params };
  const { clientInfo: _clientInfo, _meta: meta, ...kept } = params;
  const envelope: JsonObject = {};
  if (isObject(meta)) for (const key of COMPARED_META_KEYS) if (key in meta) envelope[key] = meta[key];
  if (Object.keys(envelope).length) kept._meta = envelope;
  if (rest.method === 'notifications/cancelled') {
    delete kept.reason;
    if (side === 'expected' && isId(kept.requestId)) kept.requestId = ids.live(kept.requestId) ?? kept.requestId;
  }
  return { ...rest, params: kept };
}

function progressTokenOf(message: JsonObject): string | number | undefined {
  const params = message.params;
  if (!isObject(params) || !isObject(params._meta)) return undefined;
  const token = params._meta.progressToken;
  return isId(token) ? token : undefined;
}

function describeMethod(message: unknown): string {
  return isObject(message) && typeof message.method === 'string' ? ` (${message.method})` : '';
}
