// What `mcpwire serve` checks of a POST without a session: it must be one
// 2026-07-28 request (or notification) whose standard headers mirror its
// body. 2026-07-28 transports, "Standard Request Headers" and "Server
// Validation": MCP-Protocol-Version, Mcp-Method on every request, Mcp-Name
// on tools/call, resources/read and prompts/get are REQUIRED; a missing
// one, a value that differs from the body, or an invalid encoding is
// answered 400 with HeaderMismatch (-32020 in the 2026-07-28 schema and in
// the SDK v2 server, which checks the same).

import type { IncomingMessage } from 'node:http';
import { PROTOCOL_VERSION_META_KEY } from '../client/request-meta.js';
import { ErrorCodes } from '../jsonrpc/codes.js';
import { isId, isObject, type JsonRpcId } from '../jsonrpc/message.js';
// The body fields Mcp-Name mirrors: the client's own table (and the tasks extension's taskId), so the two sides cannot disagree.
import { NAMED_METHODS } from '../transport/streamable-http.js';

export type ModernCheck = { ok: true } | { ok: false; code: number; why: string; id: JsonRpcId | null };

export function checkModernPost(req: IncomingMessage, messages: unknown[]): ModernCheck {
  const only = messages.length === 1 && isObject(messages[0]) ? messages[0] : undefined;
  const params = only && isObject(only.params) ? only.params : undefined;
  const meta = params && isObject(params._meta) ? params._meta : undefined;
  const version = meta?.[PROTOCOL_VERSION_META_KEY];
  const id = only && isId(only.id) ? only.id : null;
  const method = only?.method;
  if (typeof version !== 'string' || typeof method !== 'string') {
    return { ok: false, code: ErrorCodes.InvalidRequest, id, why: 'no session: a 2025 client starts with initialize; a 2026-07-28 request carries _meta["io.modelcontextprotocol/protocolVersion"]' };
  }
  const mismatch = (why: string): ModernCheck => ({ ok: false, code: ErrorCodes.HeaderMismatch, id, why: `the request headers and body disagree: ${why}` });
  const headerVersion = header(req, 'mcp-protocol-version');
  const headerMethod = header(req, 'mcp-method');
  // Presence is asked of requests only, as the SDK v2 server does and its client sends (no headers on notifications);
  // a notification's headers that are there must still agree.
  if (id !== null) {
    if (headerVersion === undefined) return mismatch(`the body names protocol version ${version} but the required MCP-Protocol-Version header is absent`);
    if (headerMethod === undefined) return mismatch(`the body names method ${method} but the required Mcp-Method header is absent`);
  }
  if (headerVersion !== undefined && headerVersion !== version) return mismatch(`MCP-Protocol-Version ${headerVersion} does not match the body's ${version}`);
  if (headerMethod !== undefined && headerMethod !== method) return mismatch(`Mcp-Method ${headerMethod} does not match the body's ${method}`);
  const field = Object.hasOwn(NAMED_METHODS, method) ? NAMED_METHODS[method] : undefined;
  const bodyName = field && typeof params?.[field] === 'string' ? (params[field] as string) : undefined;
  const headerName = header(req, 'mcp-name');
  if (field === undefined) return { ok: true };
  if (headerName === undefined) {
    if (bodyName === undefined || id === null) return { ok: true };
    return mismatch(`the body carries params.${field} ${JSON.stringify(bodyName)} but the required Mcp-Name header is absent`);
  }
  const decoded = decodeHeaderValue(headerName.trim());
  if (decoded === undefined) return mismatch('the Mcp-Name header carries an invalid =?base64?…?= value');
  if (bodyName !== undefined && decoded !== bodyName) return mismatch(`Mcp-Name ${JSON.stringify(decoded)} does not match the body's params.${field} ${JSON.stringify(bodyName)}`);
  return { ok: true };
}

/** 2026-07-28 "Value Encoding": `=?base64?…?=` is Base64 of UTF-8; anything else is the value itself. Undefined: a broken sentinel. */
export function decodeHeaderValue(value: string): string | undefined {
  if (!(value.startsWith('=?base64?') && value.endsWith('?=') && value.length >= 11)) return value;
  const body = value.slice(9, -2);
  if (body.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(body)) return undefined;
  const bytes = Buffer.from(body, 'base64');
  const text = new TextDecoder('utf-8', { fatal: true });
  try {
    return text.decode(bytes);
  } catch {
    return undefined;
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
