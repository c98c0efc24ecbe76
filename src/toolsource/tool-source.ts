// The tool source a host embeds (ADR-0043; R1–R7, S1–S5): a config in,
// namespaced, filtered, supervised tools out. One ServerSupervisor per
// server, one ToolRegistry over all of them, dispatch by canonical name or
// alias with the server's timeout, the result cap, and the caller's signal.

import type { OAuthSettings } from '../auth/settings.js';
import type { ListChangedKind, McpClient, McpClientOptions } from '../client/client.js';
import type { JsonObject } from '../client/results.js';
import type { CallToolOptions } from '../client/tasks.js';
import type { ConnectedEra } from '../client/era.js';
import type { ServerParams } from '../client/connect.js';
import { ConfigError, TimeoutError, type UnknownToolError } from '../errors.js';
import type { AgentToolRules, SourceServer, ToolSourceConfig } from './config/types.js';
import { compileFilter, enabledForAgent, isEmptyChange, ToolRegistry, type CompiledFilter, type ToolDefinition, type ToolsChange } from './registry.js';
import { unknownToolError, type UnknownToolOptions } from './unknown-tool.js';
import { DEFAULT_RESTART_POLICY, ServerSupervisor, systemClock, WITHDRAWN_STATES, type Clock, type RestartPolicy, type SecretResolver, type ServerStatus } from './supervisor.js';
import { scrubError } from './scrub-error.js';
import { DEFAULT_STARTUP_TIMEOUT_MS } from './entry.js';
import { isDeepStrictEqual } from 'node:util';
import { capResult, type CappedResult } from './truncate.js';
import type { LoadToolSourceOptions } from './config/load.js';
import { safeEnvironment } from './environment.js';
import { PinGuard, type PinOptions } from './pins/guard.js';
import { defaultPinStore } from './pins/default-store.js';
import type { ToolDrift } from './pins/review.js';
import type { Tool } from '../client/results.js';
import type { JsonRpcNotification } from '../jsonrpc/message.js';

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
   * LOGNAME, PATH, SHELL, TERM, USER, LANG, TMPDIR, TZ (and the Windows
   * equivalents) plus its own `env`.
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
  /**
   * Every notification a server sends, with the server's key (after the
   * client hooks): for a host that relays them, as `mcpwire serve` relays a
   * call's log lines and resource updates to the client they belong to.
   */
  onServerNotification?: (key: string, notification: JsonRpcNotification) => void;
  /**
   * Re-run discovery when a server sends tools/list_changed (R7). Default
   * true. Either way a server whose tools/list gave a ttlMs (2026-07-28
   * caching) is listed again when tools() is asked after it ran out.
   */
  rediscover?: boolean;
  /**
   * The deadline for one server's start (spawn or connect, initialize,
   * tools/list), for servers whose config sets none. Default 30 000 ms
   * (DEFAULT_STARTUP_TIMEOUT_MS). A start past it fails like a crash and is
   * retried with backoff.
   */
  startupTimeoutMs?: number;
  /**
   * Where secrets the config names but does not hold come from (a keychain,
   * a vault): asked at each start of a server whose `auth.secret_ref` was
   * not in local.toml. The value is scrubbed like every config secret. A
   * server whose secret cannot be resolved never starts (state `failed`).
   */
  resolveSecret?: SecretResolver;
  /**
   * What a server that is not ready (crashed, failed, disabled, needing
   * auth) contributes: 'hide' (default) nothing, so no agent is offered a
   * tool that cannot run; 'mark' its last-known tools, with
   * `available: false`, for a UI that shows them greyed out. Calls to them
   * fail with `unavailable` either way.
   */
  unavailableTools?: 'hide' | 'mark';
  /** How the host names a tool, for the suggestions of an UnknownToolError (Kestrel: `mcp__<server>__<tool>`). Default: the canonical name. */
  naming?: (definition: ToolDefinition) => string;
  /** Told about every settled call (R6, S5): for a host's metrics or logs. A throwing hook is a handler-error diagnostic. */
  onCall?: (event: ToolCallEvent) => void;
  /**
   * For servers whose config says `auth: {type: oauth}` (#19): where their
   * credentials are kept (default: the user's credentials file) and who
   * takes the user through a login. Without `authorize` (a daemon), a
   * server that needs one goes to `needs-auth`, its reason naming the
   * command to run; no tool call ever waits on a browser.
   */
  oauth?: Pick<OAuthSettings, 'store' | 'authorize' | 'redirectUri' | 'fetch'>;
  /**
   * Tool-definition pinning (SPEC G2; README "Pinning"): where approved
   * definitions are kept (default: the config's pin file, see pinFileFor),
   * the policy of servers whose config sets no `pin` (default 'warn'), and
   * what `block` does. Under 'block' a tool whose definition changed, a new
   * one and a renamed one are not registered until approved (trust()).
   */
  pins?: PinOptions;
}

/** One settled call, as onCall sees it. `error` is the typed error the caller got, scrubbed. */
export interface ToolCallEvent {
  server: string;
  tool: string;
  /** The canonical name. */
  name: string;
  ms: number;
  /** The result's size in bytes before the cap (0 for a failed call). */
  bytes: number;
  truncated: boolean;
  error: Error | undefined;
  /**
   * The protocol era of the connection the call went over (#17): 'legacy'
   * (a 2025 revision, `initialize`) or 'modern' (2026-07-28); undefined for
   * a call that never reached a connection (its server was not ready).
   */
  era: ConnectedEra | undefined;
  /** The protocol version that connection agreed on ('2025-11-25', '2026-07-28', …); undefined with era. */
  protocolVersion: string | undefined;
}

/** What reload() did, by server key. */
export interface ReloadReport {
  added: string[];
  removed: string[];
  /** Their configuration changed: stopped, and started again where they were running. */
  restarted: string[];
  unchanged: string[];
}

export { DEFAULT_STARTUP_TIMEOUT_MS };

export interface ToolCallOptions {
  signal?: AbortSignal;
  /**
   * Dispatch for this agent (R3): a tool its `tools:` block does not enable
   * is refused with UnknownToolError, as if it did not exist. An agent name
   * from the config, or rules of the host's own.
   */
  agent?: string | AgentToolRules;
  /** Overrides the server's timeout for this call. */
  timeoutMs?: number;
  /** How a call answered with a task is followed: its status reports (onStatus), its whole wait (see McpClient.callTool). */
  task?: CallToolOptions['task'];
  /** Each notifications/progress of this call (asks the server for them with a progress token). */
  onProgress?: CallToolOptions['onProgress'];
  /** Each progress report restarts the call's timeout (a long job that says it is alive is not cut off); see McpClient's RequestOptions. */
  resetTimeoutOnProgress?: CallToolOptions['resetTimeoutOnProgress'];
  /** With resetTimeoutOnProgress: the call's limit however much progress it reports. Default 10 minutes. */
  maxTotalTimeoutMs?: CallToolOptions['maxTotalTimeoutMs'];
  /**
   * Runs the call inside `within`, at the call's turn: with serializeCalls,
   * after the calls before it on the same server have settled. A host that
   * attributes what a server sends during a call (Kestrel's sampling budget)
   * marks the call as running here.
   */
  within?: <T>(run: () => Promise<T>) => Promise<T>;
}

/** call()'s options when the caller passes none; dispatch checks for this object to skip the copy below. */
const NO_CALL_OPTIONS: ToolCallOptions = Object.freeze({});

/** The caller's options as the client takes them: without the tool source's own (`within`, `agent`). */
function clientCallOptions(options: ToolCallOptions): CallToolOptions {
  const { within: _within, agent: _agent, ...callOptions } = options;
  return callOptions;
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
  /**
   * Wait at most this long for discovery, ms: the tools of servers ready by
   * then are listed, and the others go on starting (their tools arrive with
   * a tools-changed event). Default: until each server is ready or has
   * failed, which each server's start deadline bounds.
   */
  deadlineMs?: number;
}

/** A tool as listed; `available: false` only with `unavailableTools: 'mark'`, for a server that is not ready. */
export type ListedTool = ToolDefinition & { available?: false };

/** One agent's view of the source: only the tools its `tools:` block enables, listed and dispatched (R3). */
export interface AgentToolView {
  readonly agent: string;
  tools(query?: Omit<ToolQuery, 'agent'>): Promise<ListedTool[]>;
  call(name: string, args?: JsonObject, options?: Omit<ToolCallOptions, 'agent'>): Promise<ToolCallResult>;
}

export class ToolSource {
  private readonly registry = new ToolRegistry();
  private readonly supervisors = new Map<string, ServerSupervisor>();
  private readonly filters = new Map<string, CompiledFilter>();
  /** Each server's tools when it was last ready: what a call to a withdrawn tool names, and what 'mark' lists. */
  private readonly lastKnown = new Map<string, ToolDefinition[]>();
  private readonly listeners: { [K in keyof ToolSourceEvents]: Set<Listener<K>> } = { 'tools-changed': new Set(), 'server-state': new Set(), 'list-changed': new Set() };
  private current: ToolSourceConfig;
  private closed = false;
  private readonly pins: PinGuard;
  /** Each server's registration of a listing: what a pin approval runs again to release what it withheld. */
  private readonly registerers = new Map<string, (tools: readonly Tool[]) => number>();

  constructor(private readonly options: ToolSourceOptions) {
    this.current = options.config;
    this.pins = new PinGuard(options.pins?.store ?? defaultPinStore(options.config.file), options.pins ?? {});
    for (const server of options.config.servers) this.supervisors.set(server.key, this.supervise(server, options.config));
    this.tellNotes(options.config);
  }

  /** What the loader noticed and accepted (a key the ADR says to ignore): the host hears it once per load. */
  private tellNotes(config: ToolSourceConfig): void {
    for (const text of config.diagnostics ?? []) this.options.client?.onDiagnostic?.({ kind: 'config-note', server: 'toolsource', file: config.file, text });
  }

  private supervise(server: SourceServer, config: ToolSourceConfig): ServerSupervisor {
    const options = this.options;
    const filter = compileFilter(server.tools);
    this.filters.set(server.key, filter);
    const supervised = { ...server, params: withHostOAuth(withEnvironment(server.params, options.serverEnvironment ?? 'merge'), options.oauth) };
    // A server whose tools are all filtered out is never contacted: it would register nothing.
    if (!server.tools.enabled && !server.disabled) Object.assign(supervised, { disabled: true });
    const handlers = options.serverHandlers?.(server.key);
    const register = (tools: readonly Tool[]): number => {
      // SPEC G2: reviewed against the pins before registration, so a withheld tool is never listed, not even briefly.
      const { offered, report } = this.pins.review(server, tools, filter.accepts);
      for (const pattern of this.pins.unusedDeny(server, tools)) options.client?.onDiagnostic?.({ kind: 'unused-deny', server: server.key, pattern, tools: tools.length });
      const change = this.registry.setServerTools(server.key, offered, filter);
      if (report) {
        change.pins = report;
        options.client?.onDiagnostic?.({ kind: 'tool-drift', server: server.key, policy: report.policy, withheld: report.withheld, text: report.text });
      }
      // A duplicate or unusable name is dropped (the first of a name kept): the host hears why.
      for (const rejected of change.rejected) options.client?.onDiagnostic?.({ kind: 'rejected-tool', server: server.key, tool: rejected.tool, why: rejected.why });
      this.lastKnown.set(server.key, this.registry.list().filter((d) => d.mcp_server === server.key));
      this.announce(change);
      return this.registry.countFor(server.key);
    };
    this.registerers.set(server.key, register);
    return new ServerSupervisor(supervised, {
      clock: options.clock ?? systemClock,
      restart: { ...DEFAULT_RESTART_POLICY, ...options.restart },
      rediscover: options.rediscover ?? true,
      // The server's own env and header values too, whatever their names (#18 item 20): its stderr tail may print any of them.
      secrets: [...config.secrets, ...configuredValues(server.params)],
      startupTimeoutMs: server.startupTimeoutMs ?? options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
      resolveSecret: options.resolveSecret,
      client: {
        ...options.client,
        ...(handlers ? { handlers } : {}),
        ...(options.onServerNotification ? { onNotification: (n: JsonRpcNotification) => this.serverNotification(server.key, n) } : {}),
        timeoutMs: server.timeoutMs ?? config.defaultTimeoutMs,
      },
      onTools: (tools) => register(tools),
      onUnavailable: () => this.announce(this.registry.setServerTools(server.key, [], filter)),
      onState: (status) => this.emit('server-state', status),
      onListChanged: (kind) => this.emit('list-changed', { server: server.key, kind }),
    });
  }

  /** A server's notification: the host's own client hook first, then onServerNotification with the key. */
  private serverNotification(key: string, notification: JsonRpcNotification): void {
    this.options.client?.onNotification?.(notification);
    this.options.onServerNotification?.(key, notification);
  }

  /** tools-changed, only when something did change (a restart that found the same tools says nothing). */
  private announce(change: ToolsChange): void {
    if (!isEmptyChange(change)) this.emit('tools-changed', change);
  }

  /** The config this source runs. */
  get config(): ToolSourceConfig {
    return this.current;
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

  /** Lists again the tools of each ready server whose list's ttlMs ran out (2026-07-28 caching); never rejects. */
  private async refreshStale(): Promise<void> {
    await Promise.all([...this.supervisors.values()].map((s) => s.refreshTools()));
  }

  /**
   * The registered tools (R1, R2), discovering servers first where needed;
   * for an agent, only those its `tools:` block enables (R3).
   */
  async tools(query: ToolQuery = {}): Promise<ListedTool[]> {
    // Checked first: a mistyped agent name fails before anything starts.
    const rules = query.agent === undefined ? undefined : typeof query.agent === 'string' ? this.agentRules(query.agent) : query.agent;
    if (query.discover !== false) await withDeadline(this.discover().then(() => this.refreshStale()), query.deadlineMs);
    this.recheckPins();
    const all: ListedTool[] = this.registry.list();
    if (this.options.unavailableTools === 'mark') all.push(...this.withdrawn().map((d): ListedTool => ({ ...d, available: false })));
    return rules === undefined ? all : all.filter((definition) => enabledForAgent(definition, rules));
  }

  /** The view of one agent (R3): list and call only what its `tools:` block enables. How a host dispatches for an agent. */
  forAgent(agent: string): AgentToolView {
    this.agentRules(agent); // an unknown agent fails here, not at its first call
    return {
      agent,
      tools: (query = {}) => this.tools({ ...query, agent }),
      call: (name, args, options = {}) => this.call(name, args, { ...options, agent }),
    };
  }

  /** Last-known tools of servers that are not ready now, sorted by name. */
  private withdrawn(): ToolDefinition[] {
    const out: ToolDefinition[] = [];
    for (const [key, definitions] of this.lastKnown) if (this.registry.countFor(key) === 0 && this.supervisors.has(key)) out.push(...definitions);
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
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
  call(name: string, args: JsonObject = {}, options: ToolCallOptions = NO_CALL_OPTIONS): Promise<ToolCallResult> {
    const definition = this.registry.resolve(name);
    // Not async on purpose: the per-call path is a lookup and one promise chain.
    if (definition && options.agent === undefined) return this.dispatch(definition, args, options);
    if (definition) return this.permitted(definition, name, options.agent!).then((d) => this.dispatch(d, args, options));
    return this.discoverFor(name)
      .then((found) => (options.agent === undefined ? found : this.permitted(found, name, options.agent)))
      .then((found) => this.dispatch(found, args, options));
  }

  /** R3 at dispatch: a tool the agent was not given is, to that agent, a tool that does not exist. */
  private async permitted(definition: ToolDefinition, asked: string, agent: string | AgentToolRules): Promise<ToolDefinition> {
    const rules = typeof agent === 'string' ? this.agentRules(agent) : agent;
    if (enabledForAgent(definition, rules)) return definition;
    const agentName = typeof agent === 'string' ? agent : 'this agent';
    throw this.unknownTool(asked, (d) => enabledForAgent(d, rules), ` (${agentName} was not given it)`);
  }

  private dispatch(definition: ToolDefinition, args: JsonObject, options: ToolCallOptions): Promise<ToolCallResult> {
    const supervisor = this.supervisors.get(definition.mcp_server)!;
    const server = supervisor.server;
    const tool = definition.mcp_tool_name;
    const cap = this.current.resultCapBytes;
    const started = performance.now();
    let era: ConnectedEra | undefined;
    let protocolVersion: string | undefined;
    // The client's default timeout is already this server's (see supervise()); the caller's own overrides it.
    // A call with no options (the common one) hands the client none: no copy made per call.
    const within = options.within;
    const callOptions = options === NO_CALL_OPTIONS ? undefined : clientCallOptions(options);
    const call = (client: McpClient) => {
      era = client.era;
      protocolVersion = client.protocolVersion;
      return client.callTool(tool, args, callOptions);
    };
    const job = within ? (client: McpClient) => within(() => call(client)) : call;
    return supervisor.run(job, this.options.serializeCalls ?? false).then(
      (result) => {
        const capped = capResult(result, cap);
        const ms = performance.now() - started;
        supervisor.recordCall(ms, capped.sizeBytes, capped.truncated);
        if (this.options.onCall) this.tell({ server: server.key, tool, name: definition.name, ms, bytes: capped.sizeBytes, truncated: capped.truncated, error: undefined, era, protocolVersion });
        return { result: capped.result, truncated: capped.truncated, sizeBytes: capped.sizeBytes, name: definition.name, server: server.key, tool };
      },
      (error: unknown) => {
        const scrubbed = scrubError(error, supervisor.secrets());
        const ms = performance.now() - started;
        supervisor.recordFailure(ms, scrubbed instanceof TimeoutError);
        if (this.options.onCall) this.tell({ server: server.key, tool, name: definition.name, ms, bytes: 0, truncated: false, error: scrubbed instanceof Error ? scrubbed : undefined, era, protocolVersion });
        throw scrubbed;
      },
    );
  }

  private tell(event: ToolCallEvent): void {
    try {
      this.options.onCall!(event);
    } catch (error) {
      this.options.client?.onDiagnostic?.({ kind: 'handler-error', server: event.server, method: 'onCall', error });
    }
  }

  /**
   * Runs `job` on one server's connected client, through its supervision
   * (started at first use, counted, serialized when configured): for the
   * methods a host needs beyond tools (resources, prompts).
   */
  withServer<T>(key: string, job: (client: McpClient) => Promise<T>): Promise<T> {
    const supervisor = this.supervisors.get(key);
    if (!supervisor) return Promise.reject(this.unknownServer(key));
    return supervisor.run(job, this.options.serializeCalls ?? false).catch((error: unknown) => {
      supervisor.recordFailure(undefined, false);
      throw scrubError(error, supervisor.secrets());
    });
  }

  /** Every server's state (S5). */
  status(): ServerStatus[] {
    // A ready server's count is the registry's: a pin approval can release tools between two listings.
    return [...this.supervisors.values()].map((s) => {
      const status = s.status();
      return status.state === 'ready' ? { ...status, tools: this.registry.countFor(status.key) } : status;
    });
  }

  /**
   * Approves what a server lists now (SPEC G2): one tool of it, or all (the
   * pins then hold exactly its listing). Written to the pin store; what
   * `block` withheld is registered at once, with a tools-changed. Starts
   * the server if it has not been listed yet.
   */
  async trust(key: string, tool?: string): Promise<void> {
    const supervisor = this.supervisor(key);
    if (this.pins.listed(key) === undefined) await supervisor.ready();
    if (!this.pins.trust(key, tool)) throw new ConfigError(this.current.file, ['mcp', key], `server "${key}" has not listed its tools; start it first`, { server: key });
    this.registerers.get(key)?.(this.pins.listed(key)!);
  }

  /** How a server's listing differs from its pins (SPEC G2); undefined when it does not, or it was not listed yet. */
  pinDrift(key: string): ToolDrift | undefined {
    return this.pins.drift(key);
  }

  /**
   * Why a tool is held back by the pin policy (a canonical name, or a server
   * key and the tool's own name), with how to approve it; undefined when it
   * is not. With `pins.onBlock: 'ask'` such a tool is registered, and this
   * is the reason a host gives a person before each call.
   */
  pinReason(name: string, tool?: string): string | undefined {
    if (tool !== undefined) return this.pins.reason(name, tool);
    const key = [...this.supervisors.keys()].find((k) => name.startsWith(`mcp.${k}.`));
    return key === undefined ? undefined : this.pins.reason(key, name.slice(`mcp.${key}.`.length));
  }

  /** A pin store that changed under withheld tools (mcpwire trust in another process): their servers' listings reviewed again. */
  private recheckPins(): void {
    if (!this.pins.holdsAny()) return;
    for (const key of this.pins.stale()) this.registerers.get(key)?.(this.pins.listed(key)!);
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
    const supervisor = this.supervisor(key);
    await supervisor.restart().catch((error: unknown) => {
      throw scrubError(error, supervisor.secrets());
    });
  }

  /**
   * Runs a new configuration (a config file edited while the host runs):
   * servers whose configuration is the same keep running, untouched, with
   * their calls in flight; changed ones are stopped and started again if
   * they were running (idle ones stay idle); removed ones are closed and
   * their tools withdrawn; added ones start as a new server would. The
   * agents' rules, the result cap and the default timeout are the new
   * config's from the next call on.
   */
  async reload(config: ToolSourceConfig): Promise<ReloadReport> {
    if (this.closed) throw new ConfigError(config.file, [], 'the tool source is closed; open a new one');
    const report: ReloadReport = { added: [], removed: [], restarted: [], unchanged: [] };
    const before = new Map(this.current.servers.map((server) => [server.key, server]));
    const next = new Map(config.servers.map((server) => [server.key, server]));
    const stopping: Promise<void>[] = [];
    const starting: ServerSupervisor[] = [];
    const supervisors = new Map<string, ServerSupervisor>();
    for (const [key, old] of before) {
      if (next.has(key)) continue;
      // Removed: closed (the host hears it `closed`, its last state), its tools withdrawn.
      stopping.push(this.supervisors.get(key)!.close());
      this.lastKnown.delete(key);
      this.pins.forget(key);
      this.registerers.delete(key);
      this.announce(this.registry.setServerTools(key, [], this.filters.get(key) ?? compileFilter(old.tools)));
      this.filters.delete(key);
      report.removed.push(key);
    }
    // The new config is in place before any new supervisor runs: its secrets, cap and defaults.
    // (A server's own secrets are in its params, so a rotated credential makes it a changed server.)
    this.current = config;
    this.tellNotes(config);
    for (const [key, server] of next) {
      const old = before.get(key);
      const running = old === undefined ? undefined : this.supervisors.get(key)!;
      if (old !== undefined && sameServer(old, server)) {
        supervisors.set(key, running!);
        report.unchanged.push(key);
        continue;
      }
      const wasRunning = running !== undefined && ['starting', 'ready', 'reconnecting', 'restarting'].includes(running.status().state);
      if (running) stopping.push(running.retire());
      const supervisor = this.supervise(server, config);
      supervisors.set(key, supervisor);
      if (old === undefined) {
        report.added.push(key);
        if (this.options.start === 'startup') starting.push(supervisor);
      } else {
        report.restarted.push(key);
        // Started again: its discovery replaces what it registered, so a host hears only what differs.
        // Not started again (off now, or it was idle): what it registered goes.
        if (wasRunning && !server.disabled && server.tools.enabled) starting.push(supervisor);
        else this.announce(this.registry.setServerTools(key, [], this.filters.get(key)!));
      }
    }
    // In the new config's order, as status() lists them.
    this.supervisors.clear();
    for (const [key, supervisor] of supervisors) this.supervisors.set(key, supervisor);
    await Promise.allSettled(stopping);
    await Promise.allSettled(starting.map((s) => s.ready()));
    return report;
  }

  on<K extends keyof ToolSourceEvents>(event: K, listener: Listener<K>): () => void {
    this.listeners[event].add(listener);
    return () => this.listeners[event].delete(listener);
  }

  /**
   * Closes every server (S4): stdio process groups stopped, HTTP sessions
   * deleted. Idempotent. `hurry`, for a host that is itself stopping (a
   * deadline, a signal): stdio servers get SIGTERM at once and SIGKILL 200 ms
   * later, instead of end of input and the graceful 2 s steps.
   */
  async close(options: { hurry?: boolean } = {}): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.supervisors.values()].map((s) => s.close(options)));
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
    // A tool of a server that is not ready now (withdrawn) is not unknown: its server's state is the answer.
    const withdrawn = this.withdrawn().find((d) => d.name === name || d.alias === name);
    // Dispatched: its server refuses it with its state (unavailable), counted and told to onCall like any failed call.
    if (withdrawn) return withdrawn;
    const key = [...this.supervisors.keys()].find((k) => name.startsWith(`mcp.${k}.`));
    const supervisor = key === undefined ? undefined : this.supervisors.get(key)!;
    try {
      if (supervisor) await supervisor.ready();
      else await this.discover();
      // A name the registry lacks may be a tool added since a list whose ttlMs has run out.
      await (supervisor ? supervisor.refreshTools() : this.refreshStale());
    } catch (error) {
      throw scrubError(error, supervisor?.secrets() ?? this.current.secrets);
    }
    this.recheckPins();
    const definition = this.registry.resolve(name);
    if (definition) return definition;
    const held = this.pinReason(name);
    throw this.unknownTool(name, () => true, held === undefined ? '' : ` (withheld by the pin policy: ${held})`);
  }

  private agentRules(agent: string): AgentToolRules {
    const rules = Object.hasOwn(this.current.agents, agent) ? this.current.agents[agent] : undefined;
    if (rules) return rules;
    const known = Object.keys(this.current.agents);
    throw new ConfigError(this.current.file, [agent, 'tools'], `the agent "${agent}" has no tools block; agents with one: ${known.join(', ') || 'none'}`);
  }

  private unknownServer(key: string): UnknownToolError {
    // Any tool of that server: the error says the server is the part nothing matches.
    return unknownToolError(`mcp.${key}.*`, [], { servers: [...this.supervisors.keys()] });
  }

  /** The UnknownToolError for `name`: the nearest names among those `offered` (an agent's), in the host's naming, and which servers are not available. */
  private unknownTool(name: string, offered: (d: ToolDefinition) => boolean = () => true, why = ''): UnknownToolError {
    const unavailable = this.status().filter((s) => WITHDRAWN_STATES.has(s.state)).map((s) => s.key);
    const options: UnknownToolOptions = { unavailable, servers: [...this.supervisors.keys()], ...(this.options.naming ? { naming: this.options.naming } : {}) };
    const error = unknownToolError(name, this.registry.list().filter(offered), options);
    if (why) Object.defineProperty(error, 'message', { value: error.message.replace(`"${name}"`, `"${name}"${why}`), configurable: true, writable: true });
    return error;
  }

}

/** Two configurations of one server mean the same process or session (secrets included, by value). */
function sameServer(a: SourceServer, b: SourceServer): boolean {
  return isDeepStrictEqual(a, b);
}

/** Settles when `work` does, or after `ms`, whichever is first; `work` goes on either way. */
function withDeadline(work: Promise<void>, ms: number | undefined): Promise<void> {
  if (ms === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms));
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** A server that declares OAuth gets the host's parts of it (the store, the authorizer); the config's own settings win. */
function withHostOAuth(params: ServerParams, host: ToolSourceOptions['oauth']): ServerParams {
  if (!host || params.transport === 'stdio' || !params.oauth) return params;
  return { ...params, oauth: { ...host, ...params.oauth } };
}

function withEnvironment(params: ServerParams, mode: 'merge' | 'safe'): ServerParams {
  if (params.transport !== 'stdio' || mode === 'merge') return params;
  return { ...params, env: { ...safeEnvironment(process.env), ...params.env }, inheritEnv: false };
}

/**
 * Every option of ToolSourceOptions but `config`, by name: openToolSource()
 * hands these to the tool source and the rest to the config loader. The
 * type below fails to compile when an option is added to ToolSourceOptions
 * and not here, so a new option can never be dropped on its way in.
 */
const TOOL_SOURCE_OPTION_KEYS = ['start', 'serializeCalls', 'serverEnvironment', 'restart', 'clock', 'client', 'serverHandlers', 'onServerNotification', 'rediscover', 'startupTimeoutMs', 'resolveSecret', 'unavailableTools', 'onCall', 'naming', 'oauth', 'pins'] as const satisfies readonly (keyof ToolSourceOptions)[];
type UnlistedOption = Exclude<keyof ToolSourceOptions, 'config' | (typeof TOOL_SOURCE_OPTION_KEYS)[number]>;
const EVERY_OPTION_LISTED: [UnlistedOption] extends [never] ? true : { unlisted: UnlistedOption } = true;
void EVERY_OPTION_LISTED;
const OWN_OPTION_KEYS: ReadonlySet<string> = new Set(TOOL_SOURCE_OPTION_KEYS);

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
  // The tool source's own options by name (TOOL_SOURCE_OPTION_KEYS); everything else is for loading the config.
  const own: Record<string, unknown> = {};
  const load: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (key === 'config' || key === 'project' || value === undefined) continue;
    (OWN_OPTION_KEYS.has(key) ? own : load)[key] = value;
  }
  const { config: given, project, resolveSecret } = options as OpenToolSourceOptions & { project?: string };
  const config = given ?? (await loadToolSourceConfig({ ...(load as Omit<LoadToolSourceOptions, 'config'>), config: project!, ...(resolveSecret ? { deferSecrets: true } : {}) }));
  const source = new ToolSource({ ...(own as Omit<ToolSourceOptions, 'config'>), config });
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

/** The values a server entry was configured with (its env and headers), as written in the config after interpolation. */
function configuredValues(params: SourceServer['params']): string[] {
  const values: unknown[] = [...Object.values('env' in params && params.env ? params.env : {}), ...Object.values('headers' in params && params.headers ? params.headers : {})];
  return values.filter((value): value is string => typeof value === 'string' && value !== '');
}
