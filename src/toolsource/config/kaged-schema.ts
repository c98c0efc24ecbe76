// The kaged config schemas (C1, C3; ADR-0043 §1, §4, §7), checked once at
// load: one project `mcp:` server, an agent's `tools:` rule, local.toml's
// `[mcp.<key>]` tables and the daemon config.toml's `[mcp]` table. The only
// module that imports zod. Objects are strict: in a config an unknown key is
// a mistake to report, not data to carry. Messages say what was expected and
// never echo a value (a value may be a secret).

import { z } from 'zod';
import type { KeyPath } from './yaml-source.js';
import { isObject } from '../../jsonrpc/message.js';

/** ADR-0043 §1: "Keys are server-key slugs (^[a-z][a-z0-9_-]{0,30}[a-z0-9]$)". */
export const SERVER_KEY = /^[a-z][a-z0-9_-]{0,30}[a-z0-9]$/;
/** ADR-0043 §1: "Max servers: 16 per project (maxProperties: 16)". */
export const MAX_SERVERS = 16;

/** Node's timers fire at once (with a warning) beyond 2^31-1 ms, so a longer timeout would silently mean none. */
const MAX_TIMER_MS = 2_147_483_647;
/** RFC 9110 §5.6.2 field-name. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A dotted path into local.toml `[secrets]`: `api_keys.example` is `[secrets.api_keys] example = …`. */
const SECRET_REF = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

const stringMap = z.record(z.string(), z.string({ error: 'expected a string' }), { error: 'expected a mapping of names to strings' });
const globs = z.array(z.string({ error: 'expected a glob pattern (a string)' }).min(1, { error: 'expected a non-empty glob pattern' }), {
  error: 'expected a list of glob patterns',
});
const milliseconds = z
  .int({ error: `expected a whole number of milliseconds` })
  .min(1, { error: 'expected at least 1 ms' })
  .max(MAX_TIMER_MS, { error: `expected at most ${MAX_TIMER_MS} ms (the largest timer Node.js keeps)` });

const toolFilter = z.strictObject(
  {
    enabled: z.boolean({ error: 'expected true or false' }).default(true),
    allow: globs.optional(),
    deny: globs.optional(),
  },
  { error: 'expected a mapping with enabled, allow and deny' },
);

const secretRef = z
  .string({ error: 'expected a secret reference such as api_keys.example' })
  .regex(SECRET_REF, { error: 'expected a dotted path into local.toml [secrets], such as api_keys.example' });

const auth = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('bearer'), secret_ref: secretRef }),
    z.strictObject({
      type: z.literal('header'),
      header_name: z.string({ error: 'expected an HTTP header name' }).regex(HEADER_NAME, { error: 'expected a valid HTTP header name' }).optional(),
      secret_ref: secretRef,
    }),
    // ADR-0043 §4 tier 3: "The schema accommodates the shape; implementation lands in a later phase."
    z.strictObject({
      type: z.literal('oauth'),
      provider: z.string({ error: 'expected the OAuth provider name' }).min(1, { error: 'expected the OAuth provider name' }),
      scopes: z.array(z.string({ error: 'expected a scope (a string)' }), { error: 'expected a list of scopes' }).optional(),
    }),
  ],
  { error: 'expected type: bearer, header or oauth' },
);

const httpUrl = z
  .string({ error: 'expected an http:// or https:// URL' })
  .refine((value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol), { error: 'expected an http:// or https:// URL' });

const command = z
  .array(z.string({ error: 'expected a string' }).min(1, { error: 'expected a non-empty string' }), {
    error: 'expected the argv as a list of strings, such as ["node", "server.js"]',
  })
  .min(1, { error: 'expected the argv as a non-empty list of strings, such as ["node", "server.js"]' });

const stdioServer = z.strictObject({
  transport: z.literal('stdio'),
  command,
  cwd: z.string({ error: 'expected a project-relative path' }).min(1, { error: 'expected a project-relative path' }).optional(),
  env: stringMap.optional(),
  tools: toolFilter.optional(),
});

const httpServer = <T extends 'sse' | 'streamable-http'>(transport: T) =>
  z.strictObject({
    transport: z.literal(transport),
    url: httpUrl,
    headers: stringMap.optional(),
    auth: auth.optional(),
    tools: toolFilter.optional(),
  });

const server = z.discriminatedUnion('transport', [stdioServer, httpServer('sse'), httpServer('streamable-http')], {
  error: 'expected transport: stdio, sse or streamable-http',
});

/** The keys each kind of object takes, for an "unknown key" message that says what would have been right. */
const KEYS_OF: Readonly<Record<string, readonly string[]>> = {
  stdio: Object.keys(stdioServer.shape),
  sse: Object.keys(httpServer('sse').shape),
  'streamable-http': Object.keys(httpServer('streamable-http').shape),
  bearer: ['type', 'secret_ref'],
  header: ['type', 'header_name', 'secret_ref'],
  oauth: ['type', 'provider', 'scopes'],
  tools: Object.keys(toolFilter.shape),
};

const agentRule = z.strictObject({ enabled: z.boolean({ error: 'expected true or false' }) }, { error: 'expected { enabled: true } or { enabled: false }' });

const localServer = z.strictObject(
  { disabled: z.boolean({ error: 'expected true or false' }).optional(), timeout_ms: milliseconds.optional() },
  { error: 'expected a table with disabled and timeout_ms' },
);

// Only the parts read here are checked: local.toml and config.toml carry other sections of the host.
const localToml = z.looseObject({
  mcp: z.record(z.string(), localServer, { error: 'expected [mcp.<server-key>] tables' }).optional(),
  secrets: z.record(z.string(), z.unknown(), { error: 'expected a [secrets] table' }).optional(),
});

const daemonToml = z.looseObject({
  mcp: z
    .strictObject(
      {
        result_cap_bytes: z.int({ error: 'expected a whole number of bytes' }).min(1, { error: 'expected at least 1 byte' }).optional(),
        default_timeout_ms: milliseconds.optional(),
      },
      { error: 'expected an [mcp] table with result_cap_bytes and default_timeout_ms' },
    )
    .optional(),
});

export type KagedServer = z.output<typeof server>;
export type KagedAuth = z.output<typeof auth>;
export type AgentRule = z.output<typeof agentRule>;
export type LocalToml = z.output<typeof localToml>;
export type DaemonToml = z.output<typeof daemonToml>;

/** The first problem found: where (relative to the checked value) and what was expected. */
export interface SchemaProblem {
  path: KeyPath;
  detail: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: SchemaProblem };

export const checkServer = (value: unknown): Checked<KagedServer> => check(server, value);
export const checkAgentRule = (value: unknown): Checked<AgentRule> => check(agentRule, value);
export const checkLocalToml = (value: unknown): Checked<LocalToml> => check(localToml, value);
export const checkDaemonToml = (value: unknown): Checked<DaemonToml> => check(daemonToml, value);

function check<T>(schema: z.ZodType<T>, value: unknown): Checked<T> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  // Zod reports issues depth-first in key order; the first is the one a reader meets first in the file.
  const issue = result.error.issues[0]!;
  const at = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    const owner = valueAt(value, at);
    return { ok: false, problem: { path: [...at, key], detail: unknownKey(key, owner, at) } };
  }
  const missing = valueAt(value, at) === undefined;
  return { ok: false, problem: { path: at, detail: missing ? `missing; ${issue.message}` : issue.message } };
}

function unknownKey(key: string, owner: unknown, at: KeyPath): string {
  const isTools = at.at(-1) === 'tools';
  const kind = isTools ? 'tools' : isObject(owner) ? String(owner.transport ?? owner.type ?? '') : '';
  const keys = KEYS_OF[kind];
  if (!keys) return `unknown key "${key}"`;
  const what = isTools ? 'a tools filter' : isObject(owner) && 'transport' in owner ? `transport ${kind}` : `auth type ${kind}`;
  return `unknown key "${key}"; ${what} takes: ${keys.join(', ')}`;
}

function valueAt(value: unknown, path: KeyPath): unknown {
  let at = value;
  for (const segment of path) at = isObject(at) || Array.isArray(at) ? (at as Record<string | number, unknown>)[segment] : undefined;
  return at;
}

