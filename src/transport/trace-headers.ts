// The trace context of a request as HTTP headers (#17 item 6): the client
// has already checked the `_meta` values (client/trace-context.ts); this
// copies `traceparent`, `tracestate` and `baggage` from a request's
// `params._meta` into headers of the same names, so that an HTTP
// intermediary or server that traces by header sees the same trace as the
// MCP server that reads `_meta`. Knows no MCP method.

import { isObject, type JsonRpcMessage } from '../jsonrpc/message.js';

const KEYS = ['traceparent', 'tracestate', 'baggage'] as const;
/** What fetch accepts in a header value, and what W3C allows in these three: visible ASCII and space. */
const HEADER_VALUE = /^[\x20-\x7e]*$/;

/** The trace headers for one message: only a request's, only string values a header can carry. */
export function traceHeaders(message: JsonRpcMessage): Record<string, string> | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  const meta = message.params?._meta;
  if (!isObject(meta)) return undefined;
  let headers: Record<string, string> | undefined;
  for (const key of KEYS) {
    const value = meta[key];
    if (typeof value === 'string' && value !== '' && HEADER_VALUE.test(value)) (headers ??= {})[key] = value;
  }
  return headers;
}
