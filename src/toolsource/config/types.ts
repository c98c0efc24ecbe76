// What every config reader produces for the tool source: the servers to
// supervise with everything resolved (secrets in, paths checked), the
// filters, the per-agent rules, and the two daemon-wide knobs. Readers of
// other formats (kaged project YAML, the JSON and TOML of MCP clients, Kestrel JSON) all
// produce this one shape, so naming, truncation and supervision have one
// implementation.

import type { ServerParams } from '../../client/connect.js';

/** Which tools of a server are registered (R2): `enabled: false` registers none; deny wins over allow. */
export interface ToolFilter {
  enabled: boolean;
  /** Glob patterns over the server's own tool names; undefined means every tool. */
  allow: readonly string[] | undefined;
  deny: readonly string[];
}

export interface SourceServer {
  /** The config key: the `<key>` of `mcp.<key>.<tool>`. */
  key: string;
  /** What connect() takes, with secrets resolved into headers/auth and cwd resolved and checked. `server` is the key. */
  params: ServerParams;
  tools: ToolFilter;
  /** The operator turned it off (kaged local.toml `[mcp.<key>] disabled = true`): not contacted, no tools. */
  disabled: boolean;
  /** Per-call timeout for this server's tools, ms; undefined: the daemon default. */
  timeoutMs: number | undefined;
  /** The deadline for one start (spawn or connect, initialize, tools/list), ms; absent: the tool source's startupTimeoutMs, else 30 s (DEFAULT_STARTUP_TIMEOUT_MS). */
  startupTimeoutMs?: number | undefined;
  /** Set when the server is declared in a form this version cannot start (e.g. `auth.type: oauth`): the reason, said at start. */
  unsupported: string | undefined;
  /**
   * The server's auth names a secret (kaged `auth.secret_ref`), set whether
   * or not the value was resolved at load. When it was, `params.auth` holds it;
   * when it was not (missing from local.toml and the server disabled, or the
   * loader's `deferSecrets`), `params.auth` is absent and the host must
   * resolve `ref` before starting the server, and never start it without.
   * `type: 'bearer'` sends `Authorization: Bearer <value>`; `'header'` sends
   * `<headerName>: <value>`.
   */
  secretRef?: SecretRef | undefined;
  /**
   * Tool-definition pinning (SPEC G2): 'off', 'warn' (the tool source's
   * default when absent) or 'block'; see src/toolsource/pins/.
   */
  pin?: 'off' | 'warn' | 'block' | undefined;
}

/** A credential a server needs, by reference: `ref` is a dotted path into local.toml `[secrets]` (or the host's own store). */
export interface SecretRef {
  ref: string;
  type: 'bearer' | 'header';
  /** `Authorization` for bearer. */
  headerName: string;
}

/**
 * An agent's `tools:` block (R3), entries in file order: keys are exact tool
 * names, `mcp.<key>` for a whole server, or globs such as `mcp.github.issue.*`.
 */
export type AgentToolRules = readonly (readonly [pattern: string, rule: { enabled: boolean }])[];

export interface ToolSourceConfig {
  /** The file the config came from (the project file for kaged). */
  file: string;
  format: 'kaged' | 'mcp-servers' | 'vscode' | 'codex' | 'kestrel';
  /** The folder paths in the config are relative to (the project file's folder). */
  projectRoot: string;
  servers: readonly SourceServer[];
  /** Result cap in bytes (R5); kaged daemon config.toml, default 65536. */
  resultCapBytes: number;
  /** Default per-call timeout, ms (R6); default 30000. */
  defaultTimeoutMs: number;
  /** Per-agent tool rules by agent name (kaged: `primary`, and each of `subagents`). */
  agents: Readonly<Record<string, AgentToolRules>>;
  /** Every secret value resolved into the config (secret_ref values, values taken from the environment): scrubbed from anything shown. */
  secrets: readonly string[];
  /**
   * Things the loader noticed that are not errors, one sentence each (a kaged
   * `min_version` that is ignored). Loaders are pure and log nothing: the
   * host shows or logs these. Absent or empty when there is nothing to say.
   */
  diagnostics?: readonly string[];
}

export const DEFAULT_RESULT_CAP_BYTES = 65_536;
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
