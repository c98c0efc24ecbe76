// The step every client-config reader shares (#18 item 19): the checks on a
// server entry that the MCP clients' JSON, Codex's TOML and Kestrel's plugin
// config all make (an object; exactly one of a command and a URL; an
// absolute http(s) URL without credentials; a command, its args and cwd of
// the right types), and the one SourceServer literal they build. Each
// reader keeps its own keys, its own `${…}` rules and how it reports a
// failure (JSON and TOML throw a ConfigError at the key, Kestrel skips the
// server with the reason); the words of a failure are the same everywhere.

import type { ServerParams } from '../../client/connect.js';
import { hasUserinfo, misspeltHint, URL_CREDENTIALS } from './hints.js';
import { quote } from './quote.js';
import type { SourceServer } from './types.js';

/** What is wrong with an entry: the key (undefined: the entry itself) and what was expected, never quoting a value. */
export interface EntryProblem {
  field: string | undefined;
  detail: string;
}

/** How a format writes its entries: what an entry is called, its URL key, and the keys it defines (for a did-you-mean). */
export interface EntryForm {
  /** `an object` (JSON) or `a table` (TOML). */
  noun: string;
  /** The key holding the URL: `url`, or Windsurf's `serverUrl`. */
  urlField: string;
  keys: readonly string[];
}

/** An object with exactly one of a command and a URL, or what is wrong with it. */
export function entryKind(entry: unknown, form: EntryForm): { kind: 'command' | 'url'; entry: Record<string, unknown> } | EntryProblem {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return { field: undefined, detail: `expected ${form.noun} with "command" or "url"` };
  const fields = entry as Record<string, unknown>;
  const hasCommand = fields.command !== undefined;
  const hasUrl = fields[form.urlField] !== undefined;
  if (hasCommand === hasUrl) {
    return { field: undefined, detail: `expected exactly one of "command" (a local server) or "url" (a remote one)${hasCommand ? '' : misspeltHint(fields, form.keys, ['command', 'url'])}` };
  }
  return { kind: hasCommand ? 'command' : 'url', entry: fields };
}

/**
 * What is wrong with a server's URL (after any `${…}` in it is resolved),
 * or undefined. `credentialHint` says how the format sends a credential
 * instead of putting it in the URL.
 */
export function urlProblem(url: unknown, credentialHint: string): string | undefined {
  if (typeof url !== 'string' || !URL.canParse(url)) return 'expected an absolute http(s) URL';
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `expected http: or https:, got ${quote(parsed.protocol, 40)}`;
  if (hasUserinfo(parsed.href)) return `${URL_CREDENTIALS} (${credentialHint})`;
  return undefined;
}

/** A local server's `command`, `args` and `cwd`, checked for their types (values as written), or what is wrong. */
export function commandFields(entry: Record<string, unknown>): { command: string; args: string[]; cwd: string | undefined } | EntryProblem {
  if (typeof entry.command !== 'string' || entry.command === '') return { field: 'command', detail: 'expected a non-empty string' };
  const args = entry.args ?? [];
  if (!isStringArray(args)) return { field: 'args', detail: 'expected an array of strings' };
  if (entry.cwd !== undefined && typeof entry.cwd !== 'string') return { field: 'cwd', detail: 'expected a string' };
  return { command: entry.command, args, cwd: entry.cwd as string | undefined };
}

/** `entry[field]` as a map of strings (absent: empty), or undefined when it is not one. */
export function stringMap(entry: Record<string, unknown>, field: string): Record<string, string> | undefined {
  const value = entry[field] ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string')) return undefined;
  return value as Record<string, string>;
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

export function isProblem(value: object): value is EntryProblem {
  return 'detail' in value && 'field' in value;
}

/** The parts of a server a client format can set; the rest are the defaults every client format shares. */
export interface ServerFields {
  allow?: string[] | undefined;
  deny?: string[];
  disabled?: boolean;
  timeoutMs?: number | undefined;
  startupTimeoutMs?: number | undefined;
  unsupported?: string | undefined;
  pin?: 'off' | 'warn' | 'block' | undefined;
}

/** The one SourceServer literal of the client formats: every tool enabled unless allow/deny say otherwise. */
export function sourceServer(key: string, params: ServerParams, fields: ServerFields = {}): SourceServer {
  const server: SourceServer = {
    key,
    params,
    tools: { enabled: true, allow: fields.allow, deny: fields.deny ?? [] },
    disabled: fields.disabled === true,
    timeoutMs: fields.timeoutMs,
    unsupported: fields.unsupported,
  };
  if (fields.startupTimeoutMs !== undefined) server.startupTimeoutMs = fields.startupTimeoutMs;
  if (fields.pin !== undefined) server.pin = fields.pin;
  return server;
}

/** mcpwire's `pin` key beside a client's own (SPEC G2): off, warn or block; absent is undefined (the tool source's default). */
export function readPinKey(entry: Record<string, unknown>): { ok: true; pin: 'off' | 'warn' | 'block' | undefined } | { ok: false; detail: string } {
  const value = entry.pin;
  if (value === undefined) return { ok: true, pin: undefined };
  if (value === 'off' || value === 'warn' || value === 'block') return { ok: true, pin: value };
  return { ok: false, detail: `expected "off", "warn" or "block", got ${JSON.stringify(value)?.slice(0, 40)}` };
}
