// 2026-07-28 Streamable HTTP "Custom Headers from Tool Parameters" (#17 item
// 2): a tool parameter whose schema says `x-mcp-header: Name` is mirrored as
// the header `Mcp-Param-Name` on every tools/call of that tool. A tool whose
// annotations break the spec's constraints "MUST" be left out of tools/list
// (with a warning); the rest are remembered per tool name.

import { encodeHeaderValue } from '../transport/header-value.js';
import type { JsonObject } from './results.js';

/** One mirrored parameter: its header name and the chain of `properties` keys that reaches it. */
export interface HeaderParam {
  header: string;
  path: readonly string[];
}

/** RFC 9110 token: 1*tchar. */
const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * The tool's mirrored parameters, or the reason its annotations are invalid:
 * not a token, duplicated (case-insensitively), on a type other than
 * string/integer/boolean, or not reachable through `properties` alone.
 */
export function headerParamsOf(inputSchema: unknown): { params: HeaderParam[] } | { invalid: string } {
  const params: HeaderParam[] = [];
  const seen = new Set<string>();
  let invalid: string | undefined;
  const visit = (schema: unknown, path: string[], reachable: boolean) => {
    if (invalid || typeof schema !== 'object' || schema === null) return;
    if (Array.isArray(schema)) {
      for (const item of schema) visit(item, path, false);
      return;
    }
    const s = schema as JsonObject;
    if ('x-mcp-header' in s) {
      const name = s['x-mcp-header'];
      if (!reachable) invalid = `x-mcp-header at ${path.join('.') || '(root)'} is not reachable through "properties" alone`;
      else if (typeof name !== 'string' || !TCHAR.test(name)) invalid = `x-mcp-header ${JSON.stringify(name)} is not an HTTP token`;
      else if (seen.has(name.toLowerCase())) invalid = `x-mcp-header "${name}" appears twice`;
      else if (s.type !== 'string' && s.type !== 'integer' && s.type !== 'boolean') invalid = `x-mcp-header "${name}" is on a parameter of type ${JSON.stringify(s.type)}; only string, integer and boolean may be mirrored`;
      else {
        seen.add(name.toLowerCase());
        params.push({ header: name, path });
      }
      if (invalid) return;
    }
    for (const [key, value] of Object.entries(s)) {
      if (key === 'properties' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const [prop, sub] of Object.entries(value as JsonObject)) visit(sub, [...path, prop], reachable);
      } else if (typeof value === 'object' && value !== null) {
        visit(value, path, false);
      }
    }
  };
  visit(inputSchema, [], true);
  return invalid ? { invalid } : { params };
}

/** The Mcp-Param-* headers for one call's arguments; absent and null values are omitted, as the spec says. */
export function paramHeaders(params: readonly HeaderParam[], args: JsonObject): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { header, path } of params) {
    let value: unknown = args;
    for (const key of path) value = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject)[key] : undefined;
    if (value === undefined || value === null) continue;
    let text: string;
    if (typeof value === 'string') text = value;
    else if (typeof value === 'boolean') text = String(value);
    else if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= MAX_SAFE) text = String(value);
    else continue; // not what the schema promised: the server's validation says so, not a header we invent
    headers[`mcp-param-${header.toLowerCase()}`] = encodeHeaderValue(text);
  }
  return headers;
}
