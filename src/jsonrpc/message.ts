// JSON-RPC 2.0 message types and hand-written guards (no zod: these run on
// every message). A guard answers "is this shaped like X"; deciding what to
// do with a malformed message is the connection's job.

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: unknown;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON-RPC 2.0 §4: "An identifier ... MUST contain a String, Number, or NULL value". MCP forbids null. */
export function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

export type Classified =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'invalid'; detail: string; id?: JsonRpcId };

/**
 * Sorts one decoded JSON value into request / notification / response, or
 * says why it is not valid JSON-RPC 2.0. `id` is set on an invalid response
 * when one could still be read, so a malformed answer can fail its request
 * at once instead of leaving it to time out.
 */
export function classify(value: unknown): Classified {
  if (!isObject(value)) return { kind: 'invalid', detail: 'not a JSON object' };
  const id = value.id;
  if (value.jsonrpc !== '2.0') {
    // Only a would-be response carries one of our ids: a request's id is the server's own (W4).
    return { kind: 'invalid', detail: 'the "jsonrpc" member is not "2.0"', ...(isId(id) && !('method' in value) ? { id } : {}) };
  }
  const params = value.params;
  if ('method' in value) {
    if (typeof value.method !== 'string') return { kind: 'invalid', detail: '"method" is not a string' };
    // MCP: params, when present, is an object (JSON-RPC allows arrays, MCP never sends them).
    if (params !== undefined && !isObject(params)) return { kind: 'invalid', detail: '"params" is not an object' };
    if (id === undefined) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    if (!isId(id)) return { kind: 'invalid', detail: 'request "id" is not a string or number' };
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult === hasError) {
    return {
      kind: 'invalid',
      detail: hasResult ? 'a response carries both "result" and "error"' : 'neither method, result nor error',
      ...(isId(id) ? { id } : {}),
    };
  }
  if (hasError) {
    const error = value.error;
    if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      return { kind: 'invalid', detail: '"error" is not {code: integer, message: string}', ...(isId(id) ? { id } : {}) };
    }
    if (id !== null && !isId(id)) return { kind: 'invalid', detail: 'response "id" is not a string or number' };
    return { kind: 'response', message: value as unknown as JsonRpcFailure };
  }
  if (!isId(id)) return { kind: 'invalid', detail: 'response "id" is not a string or number' };
  return { kind: 'response', message: value as unknown as JsonRpcSuccess };
}

/** Serialises one message for a newline-delimited stream. JSON.stringify escapes every newline inside strings (W1). */
export function encodeLine(message: JsonRpcMessage): string {
  return `${JSON.stringify(message)}\n`;
}
