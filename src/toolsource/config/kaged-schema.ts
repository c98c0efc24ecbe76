// The kaged config schemas (C1, C3; ADR-0043 §1, §4, §7), checked once at
// load: one project `mcp:` server, an agent's `tools:` rule, local.toml's
// `[mcp.<key>]` tables and the daemon config.toml's `[mcp]` table. The only
// module that imports zod. Objects are strict: in a config an unknown key is
// a mistake to report, not data to carry. Messages say what was expected and
// never echo a value (a value may be a secret).

import { z } from 'zod';
import { nearest } from '../../util/suggest.js';
import { hasUserinfo, URL_CREDENTIALS } from './hints.js';
import { quote } from './quote.js';
import type { KeyPath } from './yaml-source.js';
import { isObject } from '../../jsonrpc/message.js';
import { parseProtocolEra } from './era.js';

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
    // #19: the OAuth tier. `provider` names a pre-registered client; its id and secret come from local.toml like any secret.
    z.strictObject({
      type: z.literal('oauth'),
      provider: z.string({ error: 'expected the OAuth provider name' }).min(1, { error: 'expected the OAuth provider name' }).optional(),
      scopes: z.array(z.string({ error: 'expected a scope (a string)' }), { error: 'expected a list of scopes' }).optional(),
      client_id_ref: secretRef.optional(),
      client_secret_ref: secretRef.optional(),
      // #19 (SPEC A1): machine clients. Every credential by reference into local.toml, never inline.
      grant: z.enum(['authorization_code', 'client_credentials', 'jwt_bearer'], { error: 'expected grant: authorization_code, client_credentials or jwt_bearer' }).optional(),
      private_key_ref: secretRef.optional(),
      private_key_file: z.string({ error: 'expected the path of a PEM private key file' }).min(1, { error: 'expected the path of a PEM private key file' }).optional(),
      signing_algorithm: z.enum(['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'EdDSA'], { error: 'expected a JWS algorithm: ES256, ES384, ES512, RS256, RS384, RS512, PS256 or EdDSA' }).optional(),
      assertion_ref: secretRef.optional(),
      assertion_file: z.string({ error: 'expected a file path' }).min(1, { error: 'expected a file path' }).optional(),
      idp: z
        .strictObject({
          token_endpoint: z.string({ error: 'expected an https URL' }).refine((v) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol), { error: 'expected an http:// or https:// URL' }),
          client_id: z.string({ error: 'expected the client id at the identity provider' }).min(1),
          client_secret_ref: secretRef.optional(),
          id_token_ref: secretRef.optional(),
          id_token_file: z.string().min(1).optional(),
        })
        .optional(),
      dpop: z.boolean({ error: 'expected true or false' }).optional(),
    }),
  ],
  { error: 'expected type: bearer, header or oauth' },
);

/**
 * #19 item 4 (SPEC A3; ADR-0043 phase 2 "mTLS auth"): a client certificate
 * for an HTTP server. Files are project-relative paths; the key may instead
 * come from local.toml (key_ref, PEM text), and its passphrase only from
 * there: ADR-0011 keeps credentials out of the DSL, so neither is inline.
 */
const tlsBlock = z.strictObject(
  {
    cert_file: z.string({ error: 'expected the path of a PEM certificate file' }).min(1, { error: 'expected the path of a PEM certificate file' }).optional(),
    key_file: z.string({ error: 'expected the path of a PEM private key file' }).min(1, { error: 'expected the path of a PEM private key file' }).optional(),
    key_ref: secretRef.optional(),
    passphrase_ref: secretRef.optional(),
    ca_file: z.string({ error: 'expected the path of a PEM CA bundle' }).min(1, { error: 'expected the path of a PEM CA bundle' }).optional(),
  },
  { error: 'expected a mapping with cert_file, key_file or key_ref, passphrase_ref and ca_file' },
);

const isHttpUrl = (value: string) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol);

const httpUrl = z
  .string({ error: 'expected an http:// or https:// URL' })
  .refine(isHttpUrl, { error: 'expected an http:// or https:// URL', abort: true })
  // ADR-0011: credentials never in the DSL. A password in the URL is one.
  .refine((value) => !isHttpUrl(value) || !hasUserinfo(value), {
    error: `${URL_CREDENTIALS} (auth: { type: bearer or header, secret_ref: … } with the value in local.toml [secrets])`,
  });

/**
 * ADR-0043 §1: "headers (string map, optional, static headers only)". A value
 * is sent as written; `${NAME}` is refused rather than sent literally, since
 * whoever wrote it expected the environment to fill it in, and a portable
 * project must not read the operator's environment variables.
 */
const staticHeaders = z.record(
  z.string(),
  z
    .string({ error: 'expected a string' })
    .refine((value) => !value.includes('${'), {
      error:
        'a project header is static: "${…}" is not expanded, because a portable project must not read the operator\'s environment variables; ' +
        'for a credential use auth: { type: bearer or header, secret_ref: … } with the value in local.toml [secrets]',
    }),
  { error: 'expected a mapping of header names to strings' },
);

/**
 * ADR-0043 §5: "The schema accommodates the field for future opt-in; the
 * daemon rejects any sampling/createMessage request." So `false` is taken
 * (and means what the daemon does anyway), `true` is refused.
 */
const sampling = z
  .boolean({ error: 'expected false (sampling is not supported)' })
  .refine((value) => value === false, { error: 'sampling is not supported: the daemon rejects every sampling/createMessage request (ADR-0043 §5); remove the key or set it to false' });

/** ADR-0043 §5: "MCP server version pinning — min_version support. Ignored." Taken and ignored; the loader says so in its diagnostics. */
const minVersion = z.union([z.string(), z.number()], { error: 'expected a version (a string)' });

/**
 * #17: which protocol era to speak to the server (auto, legacy, modern, or a
 * version such as 2025-11-25). A key of the server block, not of local.toml:
 * the era is a property of the server the project uses (a server pinned to
 * the 2025 handshake is pinned for every operator), as its transport and URL
 * are, and ADR-0043 §7 keeps local.toml for the operator's machine (disabled,
 * timings) and secrets. An operator who must override it for their machine
 * has project.local.yaml, which overlays any server key (C2).
 */
const protocolEra = z.unknown().transform((value, ctx) => {
  const parsed = parseProtocolEra(value);
  if (parsed.ok) return parsed.era;
  ctx.addIssue({ code: 'custom', message: parsed.detail });
  return z.NEVER;
});

/** SPEC G2: what a changed tool definition does: off, warn (the default) or block (withheld until approved). A property of the project, like its servers. */
const pinPolicy = z.enum(['off', 'warn', 'block'], { error: 'expected off, warn or block' });

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
  sampling: sampling.optional(),
  min_version: minVersion.optional(),
  protocol_era: protocolEra.optional(),
  pin: pinPolicy.optional(),
});

const httpServer = <T extends 'sse' | 'streamable-http'>(transport: T) =>
  z.strictObject({
    transport: z.literal(transport),
    url: httpUrl,
    headers: staticHeaders.optional(),
    auth: auth.optional(),
    tls: tlsBlock.optional(),
    tools: toolFilter.optional(),
    sampling: sampling.optional(),
    min_version: minVersion.optional(),
    protocol_era: protocolEra.optional(),
    pin: pinPolicy.optional(),
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
  oauth: ['type', 'provider', 'scopes', 'client_id_ref', 'client_secret_ref', 'grant', 'private_key_ref', 'private_key_file', 'signing_algorithm', 'assertion_ref', 'assertion_file', 'idp', 'dpop'],
  tools: Object.keys(toolFilter.shape),
  tls: Object.keys(tlsBlock.shape),
};

const agentRule = z.strictObject({ enabled: z.boolean({ error: 'expected true or false' }) }, { error: 'expected { enabled: true } or { enabled: false }' });

/**
 * `startup_timeout_ms` lives here, beside `timeout_ms`, and not in the
 * project DSL: how long a server takes to start (an `npx` download, a cold
 * container, a slow disk) is a fact of the operator's machine, not of the
 * project, and ADR-0043 §7 puts every per-server timing knob in local.toml.
 */
const localServer = z.strictObject(
  { disabled: z.boolean({ error: 'expected true or false' }).optional(), timeout_ms: milliseconds.optional(), startup_timeout_ms: milliseconds.optional() },
  { error: 'expected a table with disabled, timeout_ms and startup_timeout_ms' },
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

/** What an object at a path takes, for an unknown-key message: its description and keys; undefined when not known. */
type KeysAt = (at: KeyPath, owner: unknown) => { what: string; keys: readonly string[] } | undefined;

const serverKeysAt: KeysAt = (at, owner) => {
  if (at.at(-1) === 'tools') return { what: 'a tools filter', keys: KEYS_OF.tools! };
  if (at.at(-1) === 'tls') return { what: 'a tls block', keys: KEYS_OF.tls! };
  if (!isObject(owner)) return undefined;
  if ('transport' in owner) {
    const keys = KEYS_OF[String(owner.transport)];
    return keys && { what: `transport ${String(owner.transport)}`, keys };
  }
  const keys = KEYS_OF[String(owner.type)];
  return keys && { what: `auth type ${String(owner.type)}`, keys };
};
const LOCAL_SERVER_KEYS = Object.keys(localServer.shape);
const DAEMON_MCP_KEYS = ['result_cap_bytes', 'default_timeout_ms'];

export const checkServer = (value: unknown): Checked<KagedServer> => check(server, value, serverKeysAt);
export const checkAgentRule = (value: unknown): Checked<AgentRule> => check(agentRule, value, () => ({ what: 'an agent tool rule', keys: ['enabled'] }));
export const checkLocalToml = (value: unknown): Checked<LocalToml> =>
  check(localToml, value, (at) => (at.length === 2 && at[0] === 'mcp' ? { what: 'a local.toml [mcp.<key>] table', keys: LOCAL_SERVER_KEYS } : undefined));
export const checkDaemonToml = (value: unknown): Checked<DaemonToml> =>
  check(daemonToml, value, (at) => (at.length === 1 && at[0] === 'mcp' ? { what: 'the config.toml [mcp] table', keys: DAEMON_MCP_KEYS } : undefined));

function check<T>(schema: z.ZodType<T>, value: unknown, keysAt: KeysAt): Checked<T> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  // An unknown key is reported before anything else: `comand` is a misspelt
  // `command`, and saying "command is missing" would send the reader looking
  // for the wrong mistake.
  const unknown = result.error.issues.find((issue) => issue.code === 'unrecognized_keys');
  if (unknown) {
    const at = pathOf(unknown);
    const key = unknown.keys[0]!;
    return { ok: false, problem: { path: [...at, key], detail: unknownKey(key, keysAt(at, valueAt(value, at))) } };
  }
  // Zod reports issues depth-first in key order; the first is the one a reader meets first in the file.
  const issue = result.error.issues[0]!;
  const at = pathOf(issue);
  const missing = valueAt(value, at) === undefined;
  return { ok: false, problem: { path: at, detail: missing ? `missing; ${issue.message}` : issue.message } };
}

function pathOf(issue: z.core.$ZodIssue): KeyPath {
  return issue.path.filter((p): p is string | number => typeof p !== 'symbol');
}

/** `unknown key "comand" (did you mean "command"?); transport stdio takes: …`. */
export function unknownKey(key: string, takes: { what: string; keys: readonly string[] } | undefined): string {
  const shown = quote(key, 80);
  if (!takes) return `unknown key ${shown}`;
  const near = nearest(key, takes.keys, 1)[0];
  const guess = near === undefined ? '' : ` (did you mean "${near}"?)`;
  return `unknown key ${shown}${guess}; ${takes.what} takes: ${takes.keys.join(', ')}`;
}

function valueAt(value: unknown, path: KeyPath): unknown {
  let at = value;
  for (const segment of path) at = isObject(at) || Array.isArray(at) ? (at as Record<string | number, unknown>)[segment] : undefined;
  return at;
}

