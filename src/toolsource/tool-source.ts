// The tool source a host embeds (ADR-0043; R1–R7, S1–S5): a config in,
// namespaced, filtered, supervised tools out. One ServerSupervisor per
// server, one ToolRegistry over all of them, dispatch by canonical name or
// alias with the server's timeout, the result cap, and the caller's signal.

import type { ListChangedKind, McpClient, McpClientOptions } from '../client/client.js';
import type { JsonObject } from '../client/results.js';
import type { ServerParams } from '../client/connect.js';
import { ConfigError } from '../errors.js';
import type { AgentToolRules, SourceServer, ToolSourceConfig } from './config/types.js';
import { compileFilter, enabledForAgent, ToolRegistry, type CompiledFilter, type ToolDefinition, type ToolsChange } from './registry.js';
import { DEFAULT_RESTART_POLICY, ServerSupervisor, systemClock, type Clock, type RestartPolicy, type ServerStatus } from './supervisor.js';
import { capResult, type CappedResult } from './truncate.js';
import type { LoadToolSourceOptions } from './config/load.js';
import { safeEnvironment } from './environment.js';

export interface ToolSourceOptions {
  /** The loaded configuration (see loadToolSourceConfig). */
  config: ToolSourceConfig;
  /**
   * When servers start (S1): 'first-use' (ADR-0043's default) starts a
   * server when its tools are first asked for or one is called; 'startup'
   * starts every server in openToolSource(), which resolves once each has
   * been discovered or has failed.
   */
  start?: 'first-use' | 'startup';
  /** Send one server's calls one at a time (R6), as Kestrel does. Default false. */
  serializeCalls?: boolean;
  /**
   * What a stdio server inherits (ADR-0043 §3): 'merge' (default) puts its
   * `env` over the host's whole environment; 'safe' passes only HOME,
   * LOGNAME, PATH, SHELL, TERM, USER (and the platform's equivalents) plus
   * its own `env`.
   */
  serverEnvironment?: 'merge' | 'safe';
  /** Restart policy (S2). Default: 1 s doubling to 60 s, failed after 5 in a row, recovered after 60 s up. */
  restart?: Partial<RestartPolicy>;
  /** Clock for restarts; tests inject one. */
  clock?: Clock;
  /** Client hooks for every server connection (onDiagnostic, onLog, …). */
  client?: Omit<McpClientOptions, 'handlers' | 'onClose' | 'timeoutMs'>;
  /**
   * Handlers for server-initiated requests, per server. None by default:
   * sampling and elicitation are refused and their capabilities never
   * advertised (ADR-0043 §5); a host that opts in supplies them here.
   */
  serverHandlers?: (key: string) => McpClientOptions['handlers'] | undefined;
  /** Re-run discovery when a server sends tools/list_changed (R7). Default true. */
  rediscover?: boolean;
}

export interface ToolCallOptions {
  signal?: AbortSignal;
  /** Overrides the server's timeout for this call. */
  timeoutMs?: number;
  /**
   * Runs the call inside `within`, at the call's turn: with serializeCalls,
   * after the calls before it on the same server have settled. A host that
   * attributes what a server sends during a call (Kestrel's sampling budget)
   * marks the call as running here.
   */
  within?: <T>(run: () => Promise<T>) => Promise<T>;
}

/** What a call returns: the server's result, capped, and where it came from. */
export interface ToolCallResult extends CappedResult {
  /** The canonical name. */
  name: string;
  server: string;
  tool: string;
}

export interface ToolSourceEvents {
  /** A server's tools were (re)discovered: added and removed canonical names. */
  'tools-changed': ToolsChange;
  /** A server's state changed. */
  'server-state': ServerStatus;
  /** A connected server said one of its lists changed. */
  'list-changed': { server: string; kind: ListChangedKind };
}

type Listener<K extends keyof ToolSourceEvents> = (event: ToolSourceEvents[K]) => void;

/** Which tools to list: all, an agent's by name (from the config), or an explicit `tools:` block. */
export interface ToolQuery {
  agent?: string | AgentToolRules;
  /** Start and discover servers not discovered yet first (default true); false: only what is registered already. */
  discover?: boolean;
}

export class ToolSource {
  private readonly registry = new ToolRegistry();
  private readonly supervisors = new Map<string, ServerSupervisor>();
  private readonly filters = new Map<string, CompiledFilter>();
  private readonly listeners: { [K in keyof ToolSourceEvents]: Set<Listener<K>> } = { 'tools-changed': new Set(), 'server-state': new Set(), 'list-changed': new Set() };
  private closed = false;

  constructor(private readonly options: ToolSourceOptions) {
    const restart = { ...DEFAULT_RESTART_POLICY, ...options.restart };
    const clock = options.clock ?? systemClock;
    for (const server of options.config.servers) {
      const filter = compileFilter(server.tools);
      this.filters.set(server.key, filter);
      const supervised = { ...server, params: withEnvironment(server.params, options.serverEnvironment ?? 'merge') };
      // A server whose tools are all filtered out is never contacted: it would register nothing.
      if (!server.tools.enabled && !server.disabled) Object.assign(supervised, { disabled: true });
      const handlers = options.serverHandlers?.(server.key);
      const supervisor = new ServerSupervisor(supervised, {
        clock,
        restart,
        rediscover: options.rediscover ?? true,
        secrets: options.config.secrets,
        client: {
          ...options.client,
          ...(handlers ? { handlers } : {}),
          ...(server.startupTimeoutMs !== undefined ? { connectTimeoutMs: server.startupTimeoutMs } : {}),
          timeoutMs: server.timeoutMs ?? options.config.defaultTimeoutMs,
        },
        onTools: (tools) => {
          const change = this.registry.setServerTools(server.key, tools, filter);
          this.emit('tools-changed', change);
          return this.registry.countFor(server.key);
        },
        onState: (status) => this.emit('server-state', status),
        onListChanged: (kind) => this.emit('list-changed', { server: server.key, kind }),
      });
      this.supervisors.set(server.key, supervisor);
    }
  }

  /** The config this source runs. */
  get config(): ToolSourceConfig {
    return this.options.config;
  }

  /**
   * Starts every enabled server that has not started yet and waits until
   * each is discovered or has failed (R7: concurrently; one server's failure
   * does not stop the others). Never rejects: failures show in status().
   */
  async discover(): Promise<void> {
    const pending = [...this.supervisors.values()].filter((s) => s.status().state === 'idle' || s.status().state === 'starting');
    await Promise.allSettled(pending.map((s) => s.ready()));
  }

  /**
   * The registered tools (R1, R2), discovering servers first where needed;
   * for an agent, only those its `tools:` block enables (R3).
   */
  async tools(query: ToolQuery = {}): Promise<ToolDefinition[]> {
    if (query.discover !== false) await this.discover();
    const all = this.registry.list();
    if (query.agent === undefined) return all;
    const rules = typeof query.agent === 'string' ? this.agentRules(query.agent) : query.agent;
    return all.filter((definition) => enabledForAgent(definition, rules));
  }

  /** The tools registered so far, without starting anything. */
  registered(): ToolDefinition[] {
    return this.registry.list();
  }

  /** The tool a canonical name or alias names, among those discovered so far. */
  resolve(name: string): ToolDefinition | undefined {
    return this.registry.resolve(name);
  }

  /**
   * Calls a tool by canonical name or alias (R6): the server's timeout (or
   * the default), the caller's signal, the result cap (R5). Sampling
   * requests from the server are refused (ADR-0043 §5). A call in flight
   * when its server dies fails with `closed` and is not retried (S3).
   */
  call(name: string, args: JsonObject = {}, options: ToolCallOptions = {}): Promise<ToolCallResult> {
    const definition = this.registry.resolve(name);
    // Not async on purpose: the per-call path is a lookup and one promise chain.
    if (definition) return this.dispatch(definition, args, options);
    return this.discoverFor(name).then((found) => this.dispatch(found, args, options));
  }

  private dispatch(definition: ToolDefinition, args: JsonObject, options: ToolCallOptions): Promise<ToolCallResult> {
    const supervisor = this.supervisors.get(definition.mcp_server)!;
    const server = supervisor.server;
    const tool = definition.mcp_tool_name;
    const cap = this.options.config.resultCapBytes;
    // The client's default timeout is already this server's (see the constructor); the caller's own overrides it.
    const { within, ...callOptions } = options;
    const job = within ? (client: McpClient) => within(() => client.callTool(tool, args, callOptions)) : (client: McpClient) => client.callTool(tool, args, callOptions);
    return supervisor
      .run(job, this.options.serializeCalls ?? false)
      .then((result) => {
        const capped = capResult(result, cap);
        return { result: capped.result, truncated: capped.truncated, sizeBytes: capped.sizeBytes, name: definition.name, server: server.key, tool };
      });
  }

  /**
   * Runs `job` on one server's connected client, through its supervision
   * (started at first use, counted, serialized when configured): for the
   * methods a host needs beyond tools (resources, prompts).
   */
  withServer<T>(key: string, job: (client: McpClient) => Promise<T>): Promise<T> {
    const supervisor = this.supervisors.get(key);
    if (!supervisor) return Promise.reject(this.unknownServer(key));
    return supervisor.run(job, this.options.serializeCalls ?? false);
  }

  /** Every server's state (S5). */
  status(): ServerStatus[] {
    return [...this.supervisors.values()].map((s) => s.status());
  }

  /**
   * Turns a server that failed, or that the host disabled, back on; it
   * starts at next use (S2). A server the operator's config turns off stays
   * off (a ConfigError says so): only a config change turns it on.
   */
  enable(key: string): void {
    this.supervisor(key).enable();
  }

  /** Turns a server off until enable(): its connection closed, its tools withdrawn. */
  disable(key: string): Promise<void> {
    return this.supervisor(key).disable();
  }

  /** Stops a server and starts it again now, failures forgotten; resolves once it is ready (its tools rediscovered). */
  async restart(key: string): Promise<void> {
    await this.supervisor(key).restart();
  }

  on<K extends keyof ToolSourceEvents>(event: K, listener: Listener<K>): () => void {
    this.listeners[event].add(listener);
    return () => this.listeners[event].delete(listener);
  }

  /** Closes every server (S4): stdio process groups stopped, HTTP sessions deleted. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.supervisors.values()].map((s) => s.close()));
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  // --- internals -----------------------------------------------------------------

  private supervisor(key: string): ServerSupervisor {
    const supervisor = this.supervisors.get(key);
    if (!supervisor) throw this.unknownServer(key);
    return supervisor;
  }

  private emit<K extends keyof ToolSourceEvents>(event: K, payload: ToolSourceEvents[K]): void {
    if (this.closed && event === 'tools-changed') return;
    for (const listener of this.listeners[event]) {
      try {
        listener(payload);
      } catch (error) {
        this.options.client?.onDiagnostic?.({ kind: 'handler-error', server: 'toolsource', method: event, error });
      }
    }
  }

  /**
   * A name not registered yet may belong to a server not started yet: start
   * that one (first use). A server that cannot start says why, rather than
   * the tool being unknown.
   */
  private async discoverFor(name: string): Promise<ToolDefinition> {
    const key = [...this.supervisors.keys()].find((k) => name.startsWith(`mcp.${k}.`));
    if (key) await this.supervisors.get(key)!.ready();
    else await this.discover();
    const definition = this.registry.resolve(name);
    if (!definition) throw this.unknownTool(name);
    return definition;
  }

  private agentRules(agent: string): AgentToolRules {
    const rules = this.options.config.agents[agent];
    if (rules) return rules;
    const known = Object.keys(this.options.config.agents);
    throw new ConfigError(this.options.config.file, [agent, 'tools'], `the agent "${agent}" has no tools block; agents with one: ${known.join(', ') || 'none'}`);
  }

  private unknownServer(key: string): ConfigError {
    return new ConfigError(this.options.config.file, ['mcp', key], `no server "${key}" in the config; servers: ${[...this.supervisors.keys()].join(', ') || 'none'}`);
  }

  private unknownTool(name: string): ConfigError {
    const names = this.registry.list().flatMap((d) => [d.name, d.alias]);
    const near = names.filter((candidate) => candidate.includes(name) || name.includes(candidate.split('.').pop() ?? '')).slice(0, 3);
    const unavailable = this.status().filter((s) => s.state === 'failed' || s.state === 'restarting').map((s) => s.key);
    const hints = [near.length ? `did you mean ${near.join(', ')}?` : '', unavailable.length ? `servers not available: ${unavailable.join(', ')}` : ''].filter(Boolean);
    return new ConfigError(undefined, [], `no tool named "${name}"${hints.length ? `; ${hints.join('; ')}` : ''}`);
  }
}

function withEnvironment(params: ServerParams, mode: 'merge' | 'safe'): ServerParams {
  if (params.transport !== 'stdio' || mode === 'merge') return params;
  return { ...params, env: { ...safeEnvironment(process.env), ...params.env }, inheritEnv: false };
}

/** Where the config comes from: a file (any format loadToolSourceConfig reads) with its kaged companions, or a loaded config. */
export type OpenToolSourceOptions = Omit<ToolSourceOptions, 'config'> &
  ({ config: ToolSourceConfig; project?: never } | ({ project: string; config?: never } & Omit<LoadToolSourceOptions, 'config'>));

/**
 * Opens a tool source: loads the config (a kaged project YAML with its
 * project.local.yaml, local.toml and config.toml beside it, or an
 * mcpServers JSON) unless one is given; with `start: 'startup'`, discovers
 * every server before it resolves.
 */
export async function openToolSource(options: OpenToolSourceOptions): Promise<ToolSource> {
  // The tool source's own options by name; everything else is for loading the config.
  const { config: given, project, start, serializeCalls, serverEnvironment, restart, clock, client, serverHandlers, rediscover, ...load } = options as OpenToolSourceOptions &
    Partial<LoadToolSourceOptions> & { project?: string };
  const config = given ?? (await loadToolSourceConfig({ ...load, config: project! }));
  const own: Omit<ToolSourceOptions, 'config'> = { start, serializeCalls, serverEnvironment, restart, clock, client, serverHandlers, rediscover };
  for (const key of Object.keys(own) as (keyof typeof own)[]) if (own[key] === undefined) delete own[key];
  const source = new ToolSource({ ...own, config });
  if (options.start === 'startup') await source.discover();
  return source;
}

/**
 * Reads a config file into a ToolSourceConfig (see config/load.ts). The
 * parsers (YAML, TOML, zod) load on first use: a host that only imports the
 * client never pays for them.
 */
export async function loadToolSourceConfig(options: LoadToolSourceOptions): Promise<ToolSourceConfig> {
  const { loadToolSourceConfig: load } = await import('./config/load.js');
  return load(options);
}

export type { SourceServer };
