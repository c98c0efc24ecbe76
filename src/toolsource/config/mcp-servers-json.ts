// Reads the `mcpServers` JSON that MCP hosts commonly use (SPEC C5): Claude
// Desktop style stdio entries ({command, args, env, cwd}) and Cursor / VS
// Code style remote entries ({url, headers, type: "sse" | "http"}), checked
// by hand: the format is small and reading it must not load a schema library.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../errors.js';
import { isObject } from '../../jsonrpc/message.js';
import type { ServerParams } from '../../client/connect.js';

export type ServerConfig = ServerParams & { name: string };

/**
 * Loads `{"mcpServers": {NAME: {...}}}` (a top-level `servers` key, as in
 * VS Code's mcp.json, is read the same way). `cwd` is resolved against the
 * config file's folder, so a config can sit beside the servers it names. A
 * remote entry without `type` uses Streamable HTTP, falling back to legacy SSE
 * when the server refuses it with a 4xx (see connect()). Throws ConfigError
 * naming the file and the path.
 */
export function loadMcpServersJson(file: string): ServerConfig[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(file, [], `cannot read the file (${(error as Error).message}); pass an existing file with --config`, { cause: error });
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(file, [], `not valid JSON (${(error as Error).message})`, { cause: error });
  }
  const key = isObject(doc) && !('mcpServers' in doc) && 'servers' in doc ? 'servers' : 'mcpServers';
  const servers = isObject(doc) ? doc[key] : undefined;
  if (!isObject(servers)) throw new ConfigError(file, [key], 'expected an object mapping server names to {command, args} or {url}');
  const dir = path.dirname(path.resolve(file));
  return Object.entries(servers).map(([name, entry]) => readEntry(file, [key, name], name, entry, dir));
}

function readEntry(file: string, at: string[], name: string, entry: unknown, dir: string): ServerConfig {
  const fail = (field: string, detail: string) => new ConfigError(file, [...at, field], detail, { server: name });
  if (!isObject(entry)) throw new ConfigError(file, at, 'expected an object with "command" or "url"', { server: name });
  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  if (hasCommand === hasUrl) throw new ConfigError(file, at, 'expected exactly one of "command" (a local server) or "url" (a remote one)', { server: name });
  const type = entry.type;
  if (type !== undefined && typeof type !== 'string') throw fail('type', 'expected "stdio", "sse" or "http"');

  if (hasUrl) {
    if (typeof entry.url !== 'string' || !URL.canParse(entry.url)) throw fail('url', 'expected an absolute http(s) URL');
    const url = new URL(entry.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail('url', `expected http: or https:, got ${url.protocol}`);
    const headers = strings(entry.headers ?? {}, () => fail('headers', 'expected an object of strings'));
    const transport = type === 'sse' ? 'sse' : type === undefined || type === 'http' || type === 'streamable-http' || type === 'streamableHttp' ? 'streamable-http' : undefined;
    if (!transport) throw fail('type', `"${type}" is not a remote transport; expected "sse" or "http"`);
    // No type: Streamable HTTP first, then legacy SSE if the server refuses it (connect()), as the
    // MCP spec advises for a URL that may be either; many older configs list an SSE endpoint this way.
    if (transport === 'streamable-http' && type === undefined) return { name, transport, fallbackToSse: true, url: entry.url, headers, server: name };
    return { name, transport, url: entry.url, headers, server: name };
  }

  if (type !== undefined && type !== 'stdio') throw fail('type', `"${type}" needs "url", not "command"`);
  if (typeof entry.command !== 'string' || entry.command === '') throw fail('command', 'expected a non-empty string');
  const args = entry.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) throw fail('args', 'expected an array of strings');
  const env = strings(entry.env ?? {}, () => fail('env', 'expected an object of strings'));
  if (entry.cwd !== undefined && typeof entry.cwd !== 'string') throw fail('cwd', 'expected a string');
  const config: ServerConfig = { name, transport: 'stdio', command: entry.command, args, env, server: name };
  if (typeof entry.cwd === 'string') config.cwd = path.resolve(dir, entry.cwd);
  return config;
}

function strings(value: unknown, fail: () => ConfigError): Record<string, string> {
  if (!isObject(value) || !Object.values(value).every((v) => typeof v === 'string')) throw fail();
  return value as Record<string, string>;
}
