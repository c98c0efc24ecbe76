// Loads a kaged project's MCP configuration (C1–C3, T4; ADR-0043 §1, §4, §6,
// §7) into a ToolSourceConfig: the project YAML's `mcp:` block with the
// project.local.yaml overlay, local.toml's per-server overrides and secrets,
// the daemon config.toml's cap and default timeout, and the agents' `tools:`
// blocks. Pure apart from reading files: it starts nothing and logs nothing,
// so every problem is a ConfigError, and none carries a secret's value.

import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OAuthSettings } from '../../auth/settings.js';
import type { ServerParams } from '../../client/connect.js';
import { ConfigError } from '../../errors.js';
import type { HttpAuth } from '../../transport/http-headers.js';
import type { HttpTlsOptions } from '../../transport/http-client.js';
import { readAgentRules } from './kaged-agents.js';
import { quote } from './quote.js';
import { MAX_SERVERS, SERVER_KEY, type Checked, checkDaemonToml, checkLocalToml, checkServer, type DaemonToml, type KagedServer, type LocalToml } from './kaged-schema.js';
import { overlay } from './overlay.js';
import { readPemFile } from './pem-file.js';
import { inside, resolveProjectDir } from './project-path.js';
import { describeLookup, lookupSecret } from './secrets.js';
import { readTomlFile, type TomlSource } from './toml-source.js';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_RESULT_CAP_BYTES, type SecretRef, type SourceServer, type ToolSourceConfig } from './types.js';
import { readYamlFile, type KeyPath, type YamlSource } from './yaml-source.js';
import { isObject } from '../../jsonrpc/message.js';

export interface KagedProjectOptions {
  /** The project DSL file (YAML). Its folder is the project root that `cwd` is relative to. */
  project: string;
  /** The overlay (C2). Default: `project.local.yaml` beside the project file, when it exists. */
  projectLocal?: string;
  /** The operator's local.toml (C3: `[mcp.<key>]` overrides, `[secrets]`). Default: `local.toml` beside the project file, when it exists. */
  local?: string;
  /**
   * The daemon's config.toml (C3, ADR-0043 §6): `[mcp] result_cap_bytes`
   * (default 65536) and `[mcp] default_timeout_ms` (default 30000). Default:
   * `config.toml` beside the project file, when it exists.
   */
  daemonConfig?: string;
  /**
   * Where `${NAME}` is looked up, for the client formats that define it
   * (loadToolSourceConfig passes it on to their readers). The kaged DSL has
   * no interpolation and never reads it.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * A host resolver resolves secret_refs when the server starts: a
   * `secret_ref` missing from local.toml is then not an error at load. The
   * server's `secretRef` names it and its `params.auth` is left unset. A
   * secret that is present but unusable (not a string, empty, a line break)
   * is still an error. Default false: a missing secret stops the load
   * (ADR-0043 §4: "Missing secret → session refuses to start").
   */
  deferSecrets?: boolean;
  /**
   * The operator's own config folder: a `local.toml` found beside the project
   * may be a symlink into it (so the secrets stay out of the project tree).
   * Default: `$XDG_CONFIG_HOME/kaged`, else `~/.config/kaged`.
   */
  operatorConfigDir?: string;
}

/**
 * Reads and checks everything at once, so a host refuses to start on a bad
 * config before contacting any server. Throws ConfigError naming the file,
 * line:column where known, the key path and what was expected.
 *
 * Choices the ADR leaves open:
 * - A `[mcp.<key>]` table in local.toml for a server the project does not
 *   declare is an error: a mistyped key would otherwise leave the server the
 *   operator meant to disable running.
 * - A disabled server's secret is not required: disabling is how an operator
 *   opts out of a server they hold no credentials for. Its `auth` is left out.
 * - A stdio server without `cwd` runs in the project root, so a relative
 *   path in its `command` means the same wherever the daemon was started.
 * - Companion files found beside the project (project.local.yaml,
 *   config.toml, local.toml) must really be there: one whose real path
 *   (symlinks followed) is outside the project folder is refused, since a
 *   checked-in symlink could otherwise make the daemon read, and quote in an
 *   error, any file the operator can read. local.toml may also resolve into
 *   the operator's own config folder (`operatorConfigDir`): keeping secrets
 *   out of the project tree is what local.toml is for. A file named by an
 *   option is the caller's choice and is read where it is. No error quotes a
 *   line of a companion: they may hold secrets.
 * - `startup_timeout_ms` (the handshake's bound, process start included) is
 *   read from local.toml `[mcp.<key>]`, not the DSL: see kaged-schema.ts.
 */
export function loadKagedProject(options: KagedProjectOptions): ToolSourceConfig {
  return readKagedProject(options, readYamlFile(options.project, { quoteLines: true }));
}

/** loadKagedProject with the project file already parsed (by loadToolSourceConfig, which read it to tell its format): it is not read twice. */
export function readKagedProject(options: KagedProjectOptions, project: YamlSource): ToolSourceConfig {
  const projectFile = options.project;
  const root = realDir(projectFile);
  if (project.value !== undefined && !isObject(project.value)) throw new ConfigError(projectFile, [], 'expected a mapping at the top level (the project DSL)', { line: 1, column: 1 });

  const overlayFile = options.projectLocal ?? companion(projectFile, 'project.local.yaml', [root]);
  const over = overlayFile === undefined ? undefined : readYamlFile(overlayFile, { quoteLines: false });
  if (over && over.value !== undefined && !isObject(over.value)) throw new ConfigError(over.file, [], 'expected a mapping at the top level (an overlay of the project DSL)', { line: 1, column: 1 });

  const failYaml = yamlFailer(project, over);
  const servers = readServers(mergedMcp(project, over), failYaml);

  const localFile = options.local ?? companion(projectFile, 'local.toml', [root, operatorDir(options.operatorConfigDir)]);
  const local = localFile === undefined ? undefined : readTomlFile(localFile);
  const localConfig = checkToml(local, checkLocalToml, true) ?? {};
  for (const key of Object.keys(localConfig.mcp ?? {})) {
    if (!servers.has(key)) {
      const declared = [...servers.keys()].join(', ') || 'none';
      throw tomlFail(local!, ['mcp', key], `there is no server ${quote(key, 80)} in the project's mcp: block (declared: ${declared}); correct the key or remove the table`, key);
    }
  }

  const daemonFile = options.daemonConfig ?? companion(projectFile, 'config.toml', [root]);
  const daemon = daemonFile === undefined ? undefined : readTomlFile(daemonFile);
  const daemonConfig: DaemonToml = checkToml(daemon, checkDaemonToml, false) ?? {};

  const secrets = new Set<string>();
  const diagnostics: string[] = [];
  const built: SourceServer[] = [];
  for (const [key, server] of servers) {
    const overrides = localConfig.mcp?.[key];
    const disabled = overrides?.disabled ?? false;
    const parts = buildServer(key, server, { root, disabled, local, localConfig, failYaml, deferSecrets: options.deferSecrets === true });
    if (parts.secret !== undefined) secrets.add(parts.secret);
    for (const value of parts.secrets ?? []) secrets.add(value);
    if (server.min_version !== undefined) diagnostics.push(`server "${key}": min_version is ignored; kaged does not pin MCP server versions (ADR-0043 §5)`);
    const entry: SourceServer = {
      key,
      params: parts.params,
      tools: { enabled: server.tools?.enabled ?? true, allow: server.tools?.allow, deny: server.tools?.deny ?? [] },
      disabled,
      timeoutMs: overrides?.timeout_ms,
      unsupported: parts.unsupported,
    };
    if (overrides?.startup_timeout_ms !== undefined) entry.startupTimeoutMs = overrides.startup_timeout_ms;
    if (parts.secretRef !== undefined) entry.secretRef = parts.secretRef;
    if (server.pin !== undefined) entry.pin = server.pin;
    built.push(entry);
  }

  return {
    file: path.resolve(projectFile),
    format: 'kaged',
    projectRoot: root,
    servers: built,
    resultCapBytes: daemonConfig.mcp?.result_cap_bytes ?? DEFAULT_RESULT_CAP_BYTES,
    defaultTimeoutMs: daemonConfig.mcp?.default_timeout_ms ?? DEFAULT_CALL_TIMEOUT_MS,
    agents: readAgentRules(project, (at, detail) => failYaml(at, detail)),
    secrets: [...secrets],
    diagnostics,
  };
}

type YamlFail = (at: KeyPath, detail: string, server?: string) => ConfigError;

/**
 * Errors about the merged `mcp:` block name the file that wrote the key: the
 * one where more of the path exists, the overlay on a tie (its value won).
 */
function yamlFailer(project: YamlSource, over: YamlSource | undefined): YamlFail {
  return (at, detail, server) => {
    const inProject = project.locate(at);
    const inOverlay = over?.locate(at);
    const useOverlay = over !== undefined && inOverlay !== undefined && (inProject === undefined || inOverlay.depth >= inProject.depth);
    const source = useOverlay ? over : project;
    const where = useOverlay ? inOverlay : inProject;
    return new ConfigError(source.file, at, detail, { ...(server === undefined ? {} : { server }), ...(where ? { line: where.line, column: where.column } : {}) });
  };
}

function tomlFail(source: TomlSource, at: KeyPath, detail: string, server?: string): ConfigError {
  const where = source.locate(at);
  return new ConfigError(source.file, at, detail, { ...(server === undefined ? {} : { server }), ...(where ?? {}) });
}

/** `perServer`: the file's `[mcp.<key>]` tables are about servers (local.toml), so an error there names the server. */
function checkToml<T>(source: TomlSource | undefined, check: (value: unknown) => Checked<T>, perServer: boolean): T | undefined {
  if (source === undefined) return undefined;
  const checked = check(source.value);
  if (checked.ok) return checked.value;
  const { path: at, detail } = checked.problem;
  throw tomlFail(source, at, detail, perServer && at[0] === 'mcp' && typeof at[1] === 'string' ? at[1] : undefined);
}

function mergedMcp(project: YamlSource, over: YamlSource | undefined): unknown {
  const base = isObject(project.value) ? project.value.mcp : undefined;
  if (!over || !isObject(over.value) || !Object.hasOwn(over.value, 'mcp')) return base;
  // A null removes what the project declares; for a key it does not declare it removes nothing, so it is a typo
  // (as a [mcp.<key>] table in local.toml for an undeclared server is).
  return overlay(base, over.value.mcp, (at, declared) => {
    const where = over.locate(['mcp', ...at]);
    const what = at.length === 1 ? 'server' : 'key';
    const names = declared.length > 0 ? declared.map((k) => quote(k, 80)).join(', ') : 'none';
    throw new ConfigError(over.file, ['mcp', ...at], `null removes a ${what} the project declares, but the project declares no ${quote(String(at.at(-1)), 80)} here (declared: ${names}); correct the key or remove the line`, {
      ...(at.length >= 1 ? { server: String(at[0]) } : {}),
      ...(where ? { line: where.line, column: where.column } : {}),
    });
  });
}

/** ADR-0043 §1: the `mcp:` block, server keys, at most 16 servers, each checked by the schema. */
function readServers(block: unknown, fail: YamlFail): Map<string, KagedServer> {
  const servers = new Map<string, KagedServer>();
  if (block === undefined || block === null) return servers;
  if (!isObject(block)) throw fail(['mcp'], 'expected a mapping of server keys to servers');
  const keys = Object.keys(block);
  if (keys.length > MAX_SERVERS) throw fail(['mcp'], `${keys.length} servers are declared; a project may declare at most ${MAX_SERVERS}`);
  for (const key of keys) {
    if (!SERVER_KEY.test(key)) {
      throw fail(['mcp', key], `${quote(key, 80)} is not a valid server key; expected ${SERVER_KEY.source} (2 to 32 of a-z, 0-9, _ and -, starting with a letter, ending with a letter or digit)`);
    }
    const value = block[key];
    if (!isObject(value)) throw fail(['mcp', key], 'expected a server: a mapping with transport and its fields (set the key to null in project.local.yaml to remove a server)', key);
    const checked = checkServer(value);
    if (!checked.ok) throw fail(['mcp', key, ...checked.problem.path], checked.problem.detail, key);
    servers.set(key, checked.value);
  }
  return servers;
}

interface BuildContext {
  root: string;
  disabled: boolean;
  local: TomlSource | undefined;
  localConfig: LocalToml;
  failYaml: YamlFail;
  deferSecrets: boolean;
}

interface BuiltServer {
  params: ServerParams;
  secret?: string;
  /** More than one (an OAuth machine client's secret, key, assertion): each scrubbed like `secret`. */
  secrets?: string[];
  secretRef?: SecretRef;
  unsupported?: string;
}

function buildServer(key: string, server: KagedServer, ctx: BuildContext): BuiltServer {
  const built = buildTransport(key, server, ctx);
  if (server.protocol_era !== undefined) built.params = { ...built.params, protocolEra: server.protocol_era };
  return built;
}

function buildTransport(key: string, server: KagedServer, ctx: BuildContext): BuiltServer {
  const at = ['mcp', key];
  if (server.transport === 'stdio') {
    let cwd = ctx.root;
    if (server.cwd !== undefined) {
      const resolved = resolveProjectDir(ctx.root, server.cwd);
      if (!resolved.ok) throw ctx.failYaml([...at, 'cwd'], resolved.detail, key);
      cwd = resolved.dir;
    }
    return { params: { transport: 'stdio', server: key, command: [...server.command], cwd, ...(server.env ? { env: server.env } : {}) } };
  }

  // Headers go to the transport as written: the schema refused `${` in them, and the transport substitutes nothing.
  const base: Extract<ServerParams, { transport: 'sse' | 'streamable-http' }> = { transport: server.transport, server: key, url: server.url, ...(server.headers ? { headers: server.headers } : {}) };
  const tls = buildTls(key, server, ctx);
  const built = buildHttpAuth(key, server, ctx, tls ? { ...base, tls: tls.tls } : base);
  if (!tls || tls.secrets.length === 0) return built;
  return { ...built, secrets: [...(built.secrets ?? []), ...tls.secrets] };
}

/**
 * #19 item 4 (SPEC A3): the `tls:` block as transport options. Files are
 * resolved against the project root and read by the transport when it
 * starts (a missing one is a ConfigError then, naming the path); key_ref and
 * passphrase_ref come from local.toml now, like every other secret, and are
 * scrubbed from everything the server's errors say.
 */
function buildTls(key: string, server: Extract<KagedServer, { transport: 'sse' | 'streamable-http' }>, ctx: BuildContext): { tls: HttpTlsOptions; secrets: string[] } | undefined {
  const block = server.tls;
  if (block === undefined) return undefined;
  const at = ['mcp', key, 'tls'];
  if (block.key_file !== undefined && block.key_ref !== undefined) throw ctx.failYaml([...at, 'key_ref'], 'give key_file or key_ref, not both', key);
  const hasKey = block.key_file !== undefined || block.key_ref !== undefined;
  if ((block.cert_file === undefined) !== !hasKey) {
    throw ctx.failYaml([...at, block.cert_file === undefined ? 'cert_file' : 'key_file'], 'a client certificate needs both cert_file and key_file (or key_ref)', key);
  }
  if (block.passphrase_ref !== undefined && !hasKey) throw ctx.failYaml([...at, 'passphrase_ref'], 'passphrase_ref is for an encrypted key: give cert_file and key_file (or key_ref) too', key);
  const lookup = (ref: string | undefined, field: string, multiline: boolean): string | undefined => {
    if (ref === undefined) return undefined;
    const got = lookupSecret(ctx.localConfig.secrets, ref, { multiline });
    if (got.ok) return got.value;
    // Not deferred to a host resolver, which resolves an auth secret_ref only: a server started without its certificate would fail less clearly.
    if (got.why === 'missing' && ctx.disabled) return undefined;
    if (got.why === 'missing') throw ctx.failYaml([...at, field], `${describeLookup(ref, got.why)}${ctx.local ? '' : ' (no local.toml was found beside the project file)'}`, key);
    throw tomlFail(ctx.local!, ['secrets', ...ref.split('.')], describeLookup(ref, got.why), key);
  };
  const keyText = lookup(block.key_ref, 'key_ref', true);
  const passphrase = lookup(block.passphrase_ref, 'passphrase_ref', false);
  const file = (value: string | undefined) => (value === undefined ? undefined : path.resolve(ctx.root, value));
  const keyValue = keyText ?? file(block.key_file);
  const cert = file(block.cert_file);
  const ca = file(block.ca_file);
  const tls: HttpTlsOptions = {
    ...(cert !== undefined && keyValue !== undefined ? { cert, key: keyValue } : {}),
    ...(passphrase !== undefined ? { passphrase } : {}),
    ...(ca !== undefined ? { ca } : {}),
  };
  return { tls, secrets: [keyText, passphrase].filter((v): v is string => v !== undefined && v !== '') };
}

function buildHttpAuth(key: string, server: Extract<KagedServer, { transport: 'sse' | 'streamable-http' }>, ctx: BuildContext, params: Extract<ServerParams, { transport: 'sse' | 'streamable-http' }>): BuiltServer {
  const at = ['mcp', key];
  const auth = server.auth;
  if (auth === undefined) return { params };
  if (auth.type === 'oauth') {
    // ADR-0043 §4 tier 3 (#19): the flow runs when the server asks (a 401); a pre-registered client's id and secret come from local.toml.
    const lookup = (ref: string | undefined, field: (string | number)[], multiline = false): string | undefined => {
      if (ref === undefined) return undefined;
      const got = lookupSecret(ctx.localConfig.secrets, ref, { multiline });
      if (got.ok) return got.value;
      if (got.why === 'missing' && (ctx.disabled || ctx.deferSecrets)) return undefined;
      if (got.why === 'missing') throw ctx.failYaml([...at, 'auth', ...field], `${describeLookup(ref, got.why)}${ctx.local ? '' : ' (no local.toml was found beside the project file)'}`, key);
      throw tomlFail(ctx.local!, ['secrets', ...ref.split('.')], describeLookup(ref, got.why), key);
    };
    const clientId = lookup(auth.client_id_ref, ['client_id_ref']);
    const clientSecret = lookup(auth.client_secret_ref, ['client_secret_ref']);
    // #19 (SPEC A1): a machine client's key, assertion and IdP credentials, each from local.toml; each one is scrubbed.
    const privateKey = lookup(auth.private_key_ref, ['private_key_ref'], true) ?? readKeyFile(auth.private_key_file, ctx, [...at, 'auth', 'private_key_file'], key);
    const assertion = lookup(auth.assertion_ref, ['assertion_ref']);
    const idpSecret = lookup(auth.idp?.client_secret_ref, ['idp', 'client_secret_ref']);
    const idToken = lookup(auth.idp?.id_token_ref, ['idp', 'id_token_ref']);
    const grant = auth.grant ?? 'authorization_code';
    const machineOnly = auth.private_key_ref ?? auth.private_key_file ?? auth.assertion_ref ?? auth.assertion_file ?? auth.idp;
    if (grant === 'authorization_code' && machineOnly !== undefined) throw ctx.failYaml([...at, 'auth', 'grant'], 'private_key_ref, private_key_file, assertion_ref, assertion_file and idp are for machine clients: set grant: client_credentials or jwt_bearer', key);
    if (auth.private_key_ref !== undefined && auth.private_key_file !== undefined) throw ctx.failYaml([...at, 'auth', 'private_key_file'], 'give private_key_ref or private_key_file, not both', key);
    if (grant === 'client_credentials' && auth.client_id_ref === undefined) throw ctx.failYaml([...at, 'auth', 'client_id_ref'], 'grant: client_credentials needs client_id_ref (and client_secret_ref or private_key_ref)', key);
    if (grant === 'client_credentials' && auth.client_secret_ref === undefined && auth.private_key_ref === undefined && auth.private_key_file === undefined) throw ctx.failYaml([...at, 'auth', 'client_secret_ref'], 'grant: client_credentials needs client_secret_ref, private_key_ref or private_key_file to authenticate the client', key);
    if (grant === 'jwt_bearer' && auth.assertion_ref === undefined && auth.assertion_file === undefined && auth.idp === undefined) throw ctx.failYaml([...at, 'auth', 'grant'], 'grant: jwt_bearer needs assertion_ref, assertion_file or idp', key);
    if (auth.idp && auth.idp.id_token_ref === undefined && auth.idp.id_token_file === undefined) throw ctx.failYaml([...at, 'auth', 'idp'], 'idp needs id_token_ref or id_token_file (the user\'s ID token from single sign-on)', key);
    const assertionFile = auth.assertion_file === undefined ? undefined : path.resolve(ctx.root, auth.assertion_file);
    const idTokenFile = auth.idp?.id_token_file === undefined ? undefined : path.resolve(ctx.root, auth.idp.id_token_file);
    const oauth: OAuthSettings = {
      ...(auth.provider ? { provider: auth.provider } : {}),
      ...(auth.scopes ? { scopes: auth.scopes } : {}),
      ...(clientId ? { clientId } : {}),
      ...(clientSecret ? { clientSecret } : {}),
      ...(auth.grant ? { grant: auth.grant } : {}),
      ...(privateKey ? { privateKey } : {}),
      ...(auth.signing_algorithm ? { signingAlgorithm: auth.signing_algorithm } : {}),
      ...(assertion ? { assertion } : assertionFile ? { assertion: { file: assertionFile } } : {}),
      ...(auth.idp && (idToken || idTokenFile)
        ? { idp: { tokenEndpoint: auth.idp.token_endpoint, clientId: auth.idp.client_id, ...(idpSecret ? { clientSecret: idpSecret } : {}), idToken: idToken ?? { file: idTokenFile! } } }
        : {}),
      ...(auth.dpop !== undefined ? { dpop: auth.dpop } : {}),
    };
    const secrets = [clientSecret, privateKey, assertion, idpSecret, idToken].filter((v): v is string => v !== undefined && v !== '');
    return { params: { ...params, oauth }, ...(secrets.length ? { secrets } : {}) };
  }
  const secretRef: SecretRef = { ref: auth.secret_ref, type: auth.type, headerName: auth.type === 'bearer' ? 'Authorization' : (auth.header_name ?? 'Authorization') };
  const found = lookupSecret(ctx.localConfig.secrets, auth.secret_ref);
  if (!found.ok) {
    // Left for whoever starts the server (a host resolver), which must not start it without: `secretRef` says what it needs.
    if (found.why === 'missing' && (ctx.disabled || ctx.deferSecrets)) return { params, secretRef };
    if (found.why === 'missing') {
      const where = ctx.local ? '' : ' (no local.toml was found beside the project file)';
      throw ctx.failYaml([...at, 'auth', 'secret_ref'], `${describeLookup(auth.secret_ref, found.why)}${where}`, key);
    }
    throw tomlFail(ctx.local!, ['secrets', ...auth.secret_ref.split('.')], describeLookup(auth.secret_ref, found.why), key);
  }
  // ADR-0043 §4: "type: bearer is shorthand for type: header with header_name: Authorization and the value prefixed with Bearer".
  const resolved: HttpAuth = auth.type === 'bearer' ? { type: 'bearer', value: found.value } : { type: 'header', headerName: secretRef.headerName, value: found.value };
  return { params: { ...params, auth: resolved }, secret: found.value, secretRef };
}

/**
 * #19 (SPEC A1): an OAuth machine client's private key from a PEM file
 * (relative paths against the project root), read at load like the secrets
 * in local.toml; a disabled server's is not read. The error names the file,
 * never its contents.
 */
function readKeyFile(file: string | undefined, ctx: BuildContext, at: KeyPath, key: string): string | undefined {
  if (file === undefined || ctx.disabled) return undefined;
  const read = readPemFile(path.resolve(ctx.root, file));
  if ('problem' in read) throw ctx.failYaml(at, read.problem, key);
  return read.text;
}

function realDir(file: string): string {
  try {
    return realpathSync(path.dirname(path.resolve(file)));
  } catch (error) {
    throw new ConfigError(file, [], `cannot resolve the project folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
}

/**
 * `name` beside the project file, when there is one: its real path (symlinks
 * followed), which must lie inside one of `roots` (real paths) and be a
 * regular file (a FIFO or a device would hang or never end a read).
 */
function companion(projectFile: string, name: string, roots: readonly string[]): string | undefined {
  const candidate = path.join(path.dirname(projectFile), name);
  if (!existsSync(candidate)) return undefined;
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch (error) {
    throw new ConfigError(candidate, [], `cannot resolve the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  const where = roots.length > 1 ? `the project folder or the operator's config folder ${roots[1]}` : 'the project folder';
  if (!roots.some((root) => inside(root, real))) {
    throw new ConfigError(candidate, [], `resolves through a symlink to a file outside ${where}; a companion file must really be there (or name it with the option, if that is intended)`);
  }
  if (!statSync(real).isFile()) throw new ConfigError(candidate, [], 'is not a regular file');
  return real;
}

/** The operator's config folder as a real path (a folder that does not exist matches nothing). */
function operatorDir(given: string | undefined): string {
  const dir = given ?? path.join(process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'kaged');
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

