// McpClient (L1, W5–W7, K1): the client-side MCP methods over one
// Connection, and the handshake (a strategy, run at connect() and again when
// the transport reports an expired session). It never sends a request its
// caller did not ask for: re-discovery on list_changed belongs to the
// tool-source layer above. One client is one connection: a supervisor that
// restarts a server builds a new client (see connect()).

import { ClosedError, ProtocolError, RpcError } from '../errors.js';
import type { DiagnosticHook } from '../diagnostics.js';
import type { JsonRpcNotification } from '../jsonrpc/message.js';
import { tapTransport, type WireEntry } from '../transport/tap.js';
import type { Transport, TransportEnd, TransportKind, TransportState } from '../transport/transport.js';
import { Connection, type ProgressUpdate, type RequestHandler, type RequestOptions } from './connection.js';
import { DEFAULT_PROTOCOL_ERA, type ConnectedEra, type ProtocolEra } from './era.js';
import type { EraCache } from './era-cache.js';
import { initializeHandshake, legacyHandshake, type Handshake } from './handshake.js';
import { headerParamsOf, paramHeaders, type HeaderParam } from './header-params.js';
import { eraHandshake } from './modern-handshake.js';
import { CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY } from './request-meta.js';
import { CACHED_LISTS, ListCache } from './list-cache.js';
import { traceContextMeta, type TraceContextHook } from './trace-context.js';
import { followsTasks, isCreatedTask, legacyTaskRequest, serverCancelsTasks, taskSupportOf, withTasksExtension, type CallToolOptions, type TaskChannel, type TaskSupport } from './tasks.js';
// --- #17 items 3 and 4 (MRTR, listen): their logic lives in these modules ---
import { INPUT_REQUIRED_METHODS, moreInputRounds, needsInput, runInputRounds } from './input-required.js';
import { ListenStream, listenFilterFor } from './listen.js';
// --- end #17 items 3 and 4 ---
import {
  checkCallTool,
  checkEmpty,
  checkGetPrompt,
  checkListPrompts,
  checkListResourceTemplates,
  checkListResources,
  checkListTools,
  checkReadResource,
  type CallToolResult,
  type GetPromptResult,
  type Implementation,
  type JsonObject,
  LOGGING_LEVELS,
  type LoggingLevel,
  type ListPromptsResult,
  type ListResourceTemplatesResult,
  type ListResourcesResult,
  type ListToolsResult,
  type ReadResourceResult,
  type ResultCheck,
  type ServerProfile,
  resultTypeOf,
} from './results.js';

/** A call that became a task is followed by tasks-follow.ts (polling, input rounds, cancellation), loaded on the first (#20 item 2, X4). */
const taskFollower = () => import('./tasks-follow.js');

/** The handshake includes the server's start-up (an `npx` server may install first), so it gets longer than a call. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 60_000;
/** A server whose cursors never end is stopped after this many pages. */
export const DEFAULT_MAX_PAGES = 1_000;

const PACKAGE_VERSION = '0.1.0';

/**
 * idle → connecting (transport start + handshake) → ready → closing (close()
 * waiting for the server) → closed; ready ⇄ reconnecting while an HTTP
 * transport reopens a dropped stream (see onConnectionState).
 */
export type ClientState = 'idle' | 'connecting' | 'ready' | 'reconnecting' | 'closing' | 'closed';
export type ListChangedKind = 'tools' | 'resources' | 'prompts';

export interface McpClientOptions {
  /** Sent as clientInfo in initialize. Default {name: "mcpwire", version}. */
  clientInfo?: Implementation;
  /** Default per-request timeout, ms. Default 30 000 (W7). */
  timeoutMs?: number;
  /** Timeout for the initialize request, ms. Default 60 000. */
  connectTimeoutMs?: number;
  /** Page limit for list methods, against a server whose nextCursor never ends. Default 1000. */
  maxPages?: number;
  /**
   * Handlers for server-initiated requests. Each one installed advertises its
   * capability in initialize; without one the request is answered -32601 (W5, K6).
   */
  handlers?: {
    sampling?: RequestHandler;
    elicitation?: RequestHandler;
    roots?: RequestHandler;
  };
  /**
   * Handlers for any other server-initiated request method, by method name.
   * They advertise no capability; a method with neither kind of handler is
   * answered -32601.
   */
  requestHandlers?: Readonly<Record<string, RequestHandler>>;
  // --- #17 item 3 (MRTR) ---
  /**
   * How many `input_required` results one tools/call, resources/read or
   * prompts/get answers (through the handlers above: elicitation, sampling,
   * roots, requestHandlers) before it fails with a ProtocolError. Default
   * DEFAULT_MAX_INPUT_ROUNDS (8).
   */
  maxInputRounds?: number;
  // --- end #17 item 3 ---
  /**
   * Which protocol era to speak (#17): 'auto' (probe with server/discover,
   * fall back to `initialize`), 'legacy', 'modern', or `{ version }`. A
   * server's own `protocolEra` (ServerParams) wins. Default DEFAULT_PROTOCOL_ERA.
   */
  protocolEra?: ProtocolEra;
  /** Where 'auto' keeps its verdicts (connect() uses a process-wide one in memory); a host persists them through its own. */
  eraCache?: EraCache;
  /** The server's key in eraCache (connect() sets it: eraCacheKey(params)); without one, nothing is cached. */
  eraCacheKey?: string;
  /** How long 'auto' waits for the stdio probe's answer, start-up included, ms. Default DEFAULT_PROBE_TIMEOUT_MS (1 000). */
  probeTimeoutMs?: number;
  /**
   * Entries for the `_meta` of every request this client sends (both eras):
   * a host's trace context, for one. Per request, RequestOptions.meta adds more.
   */
  requestMeta?: (method: string, params: Record<string, unknown> | undefined) => Record<string, unknown> | undefined;
  /** The handshake to run at connect() and after an expired session. Default: the one protocolEra calls for. Overrides protocolEra. */
  handshake?: Handshake;
  /** The handshake ran again after the server lost the session; the profile is what the server said this time. */
  onSessionRenewed?: (profile: ServerProfile) => void;
  /** Every notifications/progress, with its token (per-request callbacks are in RequestOptions). */
  onProgress?: (token: string | number, update: ProgressUpdate) => void;
  /** notifications/message (server logging). In the modern era installing it asks for them (see logLevel). */
  onLog?: (params: JsonObject) => void;
  /**
   * The least severe level the server should send notifications/message at
   * (both eras; setLoggingLevel() changes it later). Legacy: `logging/setLevel`
   * after the handshake (and after a renewal), when the server declares
   * `logging`. Modern (2026-07-28): `io.modelcontextprotocol/logLevel` in every
   * request's `_meta`, since a modern server sends a request's log messages
   * only when that request asks; `logging/setLevel` is never sent. Default:
   * none; but in the modern era an installed onLog asks for 'debug', which is
   * what a 2025 server sends before anyone sets a level.
   */
  logLevel?: LoggingLevel;
  /**
   * notifications/{tools,resources,prompts}/list_changed. In the modern era
   * (#17 item 4) installing it makes connect() open a subscriptions/listen
   * stream for the lists the server says change; close() ends it.
   */
  onListChanged?: (kind: ListChangedKind) => void;
  /** Every notification, after the specific hooks. */
  onNotification?: (notification: JsonRpcNotification) => void;
  onDiagnostic?: DiagnosticHook;
  /**
   * Every message as it crosses the wire: what the client sends, and every
   * value the transport delivers (before any check). For showing the wire to
   * a person; the values are as sent, so scrub secrets before printing them.
   * Costs nothing when absent.
   */
  onWire?: (entry: WireEntry) => void;
  /**
   * The connection ended, however it ended: the transport could not start,
   * the handshake failed, the server went away, or close(). Called once.
   * (`client.closed` is the same as a promise.)
   */
  onClose?: (end: TransportEnd) => void;
  /**
   * The stream that carries the session dropped, or is back (#16 item 6):
   * `{ state: 'reconnecting', since, nextAttemptAt?, reason }` the moment
   * the legacy SSE stream drops, or the Streamable HTTP GET stream breaks
   * or cannot be reopened, and again after each failed attempt (with the
   * next attempt's time); `{ state: 'connected' }` once it is back. When the
   * transport gives up, onClose reports it as any other end (no
   * `connected` first). stdio never reports either. `client.state` is
   * 'reconnecting' in between.
   */
  onConnectionState?: (state: TransportState) => void;
  /**
   * How long a request made (or waiting to go out) while the client
   * reconnects waits for it, ms, before it fails with ClosedError reason
   * 'unavailable' whose `nextAttemptAt` says when the next attempt starts.
   * Requests whose answer the dropped stream would have carried fail at once
   * (reason 'transport'), as before. 0: fail at once. Default 1 000
   * (DEFAULT_RECONNECT_WAIT_MS): a blip is ridden out, an outage is not.
   */
  reconnectWaitMs?: number;
  /**
   * Values to remove from every error message, stderr tail and diagnostic
   * this client produces (before any of them is cut), beside the secrets the
   * transport knows itself (its auth headers): the values of a server's
   * `env`, a resolved `${VAR}` (#16 item 23). Shorter than 4 characters:
   * not scrubbed.
   */
  secrets?: readonly string[];
  /**
   * The host's trace context for each request (#17 item 6): asked with the
   * method before every request (the handshake's too) unless the request's
   * own options carry `traceContext`. Sent in `_meta` as `traceparent`,
   * `tracestate`, `baggage` in both eras, and over HTTP as the headers of
   * the same names. A value not of its W3C form is dropped with an
   * `invalid-trace-context` diagnostic, never sent.
   */
  traceContext?: TraceContextHook;
}


/**
 * A list method's options: a request's, and `refresh`: ask the server even
 * while a cached answer is fresh (the answer replaces it). See the list
 * caching in McpClient.listTools.
 */
export interface ListOptions extends RequestOptions {
  refresh?: boolean;
}

/** Per-connect() settings: the handshake's timeout (default `connectTimeoutMs`) and a signal that abandons it. */
export interface ConnectOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export class McpClient {
  private readonly connection: Connection;
  private readonly transport: Transport;
  private handshake: Handshake;
  private connectTimeoutMs: number | undefined;
  /** connect()'s handshake, which a renewal reported during it waits for. */
  private firstHandshake: Promise<ServerProfile> | undefined;
  private known: ServerProfile | undefined;
  /** Each listed tool's execution.taskSupport, from the last listTools (M5: a 'required' tool is called as a task). */
  private readonly toolTaskSupport = new Map<string, TaskSupport>();
  /** Listeners a task run adds for its progress and status notifications. */
  private readonly notificationWatchers = new Set<(notification: JsonRpcNotification) => void>();
  /** Modern Streamable HTTP: each listed tool's x-mcp-header parameters, mirrored as Mcp-Param-* on its calls. */
  private readonly headerParams = new Map<string, readonly HeaderParam[]>();
  /** #17 item 4: the modern era's subscriptions/listen request, while one is open. */
  private listen: ListenStream | undefined;
  /** Pages of tools/list, resources/list, resources/templates/list and prompts/list the server said may be reused (ttlMs). */
  private readonly listCache = new ListCache();
  /** Modern: the capabilities a request carries when its caller follows tasks (the tasks extension declared); built once. */
  private tasksMeta: Record<string, unknown> | undefined;
  /** The log level the caller set (logLevel, setLoggingLevel()): what a legacy handshake sends with logging/setLevel. */
  private logLevel: LoggingLevel | undefined;

  constructor(
    transport: Transport,
    private readonly options: McpClientOptions = {},
  ) {
    this.transport = options.onWire ? tapTransport(transport, options.onWire) : transport;
    if (options.secrets?.length) this.transport.addSecrets?.(options.secrets);
    this.handshake =
      options.handshake ??
      eraHandshake({
        era: options.protocolEra ?? DEFAULT_PROTOCOL_ERA,
        // Nobody chose: legacy, costing nothing against a 2025 server, and a modern-only server's -32022 is followed.
        upgradeOnRefusal: options.protocolEra === undefined,
        transportKind: transport.kind,
        cache: options.eraCache,
        cacheKey: options.eraCacheKey,
        probeTimeoutMs: options.probeTimeoutMs,
        onDecided: (profile, how) =>
          options.onDiagnostic?.({ kind: 'era', server: transport.server, era: profile.era ?? 'legacy', protocolVersion: profile.protocolVersion, how }),
      });
    this.connection = new Connection(this.transport, {
      defaultTimeoutMs: options.timeoutMs,
      onNotification: (n) => this.onNotification(n),
      onDiagnostic: options.onDiagnostic,
      onClose: options.onClose,
      renewSession: () => this.renewSession(),
      onConnectionState: options.onConnectionState,
      reconnectWaitMs: options.reconnectWaitMs,
      requestMeta: options.requestMeta,
      traceMeta: (method, requestOptions) => traceContextMeta(method, requestOptions.traceContext, options.traceContext, this.server, options.onDiagnostic),
    });
    if (options.logLevel !== undefined) checkLevel(options.logLevel);
    this.logLevel = options.logLevel;
    // Joins the modern envelope only: a legacy connection never carries it.
    const modernLevel = options.logLevel ?? (options.onLog ? 'debug' : undefined);
    if (modernLevel) this.connection.setEnvelopeEntries({ [LOG_LEVEL_META_KEY]: modernLevel });
    const { sampling, elicitation, roots } = options.handlers ?? {};
    for (const [method, handler] of Object.entries(options.requestHandlers ?? {})) this.connection.setRequestHandler(method, handler);
    if (sampling) this.connection.setRequestHandler('sampling/createMessage', sampling);
    if (elicitation) this.connection.setRequestHandler('elicitation/create', elicitation);
    if (roots) this.connection.setRequestHandler('roots/list', roots);
  }

  get server(): string {
    return this.connection.server;
  }

  /** Derived from the connection's state and whether the handshake has completed. */
  get state(): ClientState {
    switch (this.connection.state) {
      case 'idle':
        return 'idle';
      case 'open':
        return this.known ? (this.connection.reconnecting ? 'reconnecting' : 'ready') : 'connecting';
      case 'closing':
        return 'closing';
      case 'closed':
        return 'closed';
    }
  }

  /** What the client knows about the server, once connected: updated when a session is renewed. */
  get profile(): ServerProfile | undefined {
    return this.known;
  }
  /** The server's name and version, once connected. */
  get serverInfo(): Implementation | undefined {
    return this.known?.serverInfo;
  }
  /** The protocol version both sides agreed on, once connected. */
  get protocolVersion(): string | undefined {
    return this.known?.protocolVersion;
  }
  /** The protocol era the connection speaks, once connected (#17): 'legacy' (the 2025 `initialize`) or 'modern' (2026-07-28). */
  get era(): ConnectedEra | undefined {
    return this.known ? (this.known.era ?? 'legacy') : undefined;
  }

  /** The wire in use ('stdio', 'streamable-http' or 'sse'); after connect()'s fallback, the one it fell back to. */
  get transportKind(): TransportKind {
    return this.transport.kind;
  }
  /** The server's process id, for a stdio server that has started. */
  get pid(): number | undefined {
    return this.transport.pid;
  }
  /** The last bytes the server wrote to stderr (stdio), for a status page or an error report. */
  stderrTail(): string {
    return this.transport.stderrTail?.() ?? '';
  }

  /**
   * Settles once, with how the connection ended, whatever ended it: the one
   * place a supervisor learns that a server died. Never rejects.
   */
  get closed(): Promise<TransportEnd> {
    return this.connection.closed;
  }

  /**
   * Opens the transport and runs the handshake (L1). On any failure the
   * transport is closed and the error rethrown.
   */
  async connect(options: ConnectOptions = {}): Promise<ServerProfile> {
    if (this.connection.state !== 'idle') throw new Error(`McpClient.connect(): the client is ${this.state}, not idle`);
    this.connectTimeoutMs = options.timeoutMs;
    try {
      await this.connection.open();
      this.firstHandshake = this.runHandshake(options.signal).then((profile) => this.afterHandshake(profile, options.signal));
      this.known = await this.firstHandshake;
      // Decided once (#17): a renewal speaks the era the first handshake found, it does not probe again.
      if (!this.options.handshake && this.known.era !== 'modern') this.handshake = this.options.protocolEra === undefined || typeof this.options.protocolEra === 'string' ? initializeHandshake : legacyHandshake(this.known.protocolVersion);
      this.transport.handshakeComplete?.();
      // --- #17 item 4 (listen): modern list changes come only on a listen stream, opened when the caller wants them ---
      const filter = this.known.era === 'modern' && this.options.onListChanged ? listenFilterFor(this.known.capabilities) : undefined;
      if (filter) {
        this.listen = new ListenStream({
          server: this.server,
          filter,
          request: (method, params, options) => this.connection.request(method, params, options),
          onDiagnostic: this.options.onDiagnostic,
        });
        await this.listen.acknowledged;
      }
      // --- end #17 item 4 ---
      return this.known;
    } catch (error) {
      // A server that never completed its handshake gets no grace period: its process group is killed at once (#16 item 9).
      await this.connection.close({ force: true }).catch(() => {});
      throw error;
    }
  }

  /** The signal is connect()'s: a renewal later runs on the timeout alone. */
  private runHandshake(signal?: AbortSignal): Promise<ServerProfile> {
    const timeoutMs = this.connectTimeoutMs ?? this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    return this.handshake.run(this.connection.handshakeChannel(), {
      clientInfo: this.options.clientInfo ?? { name: 'mcpwire', version: PACKAGE_VERSION },
      capabilities: this.capabilities(),
      options: signal ? { timeoutMs, signal } : { timeoutMs },
    });
  }

  /** The transport reported an expired session: the handshake again, then what the server said this time. */
  private async renewSession(): Promise<void> {
    if (!this.known) {
      // Expired while connect() runs its handshake. If that fails, connect() reports it; if it succeeds, it
      // may have finished on the session that just ended (a legacy SSE stream that dropped after the
      // initialize answer), so the handshake runs again on the new one.
      const connected = await this.firstHandshake?.then(
        () => true,
        () => false,
      );
      if (!connected) return;
    }
    this.known = await this.afterHandshake(await this.runHandshake());
    this.listCache.clear();
    this.transport.handshakeComplete?.();
    try {
      this.options.onSessionRenewed?.(this.known);
    } catch (error) {
      // A host hook that throws is reported, like every other hook; it must not end the connection.
      this.options.onDiagnostic?.({ kind: 'handler-error', server: this.server, method: 'onSessionRenewed', error });
    }
  }

  /** Legacy: the caller's log level, sent once the server is initialized (a modern one reads it from each request's _meta). */
  private async afterHandshake(profile: ServerProfile, signal?: AbortSignal): Promise<ServerProfile> {
    if (this.logLevel !== undefined && profile.era !== 'modern' && profile.capabilities.logging) {
      const timeoutMs = this.connectTimeoutMs ?? this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
      await this.connection.handshakeChannel().request('logging/setLevel', { level: this.logLevel }, signal ? { timeoutMs, signal } : { timeoutMs });
    }
    return profile;
  }

  /**
   * Asks for the server's log messages at `level` and above (both eras).
   * Legacy: sends `logging/setLevel` (remembered for a renewed session).
   * Modern: sends nothing; every request from now on carries the level in
   * `_meta` (2026-07-28 has no logging/setLevel).
   */
  async setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
    checkLevel(level);
    if (!this.usable()) throw this.notReady('logging/setLevel');
    if (this.known?.era === 'modern') {
      this.logLevel = level;
      this.connection.setEnvelopeEntries({ [LOG_LEVEL_META_KEY]: level });
      return;
    }
    await this.connection.request('logging/setLevel', { level }, options);
    this.logLevel = level;
  }

  private capabilities(): JsonObject {
    const { sampling, elicitation, roots } = this.options.handlers ?? {};
    const capabilities: JsonObject = {};
    if (roots) capabilities.roots = {};
    if (sampling) capabilities.sampling = {};
    if (elicitation) capabilities.elicitation = {};
    return capabilities;
  }

  /**
   * Every tool, all pages. Like every list method, a page the server sent
   * with a positive `ttlMs` (2026-07-28 caching) is answered from memory
   * until that many ms have passed, unless `options.refresh`; the list's
   * list_changed notification (and a renewed session) makes it stale at once.
   */
  listTools(options?: ListOptions): Promise<ListToolsResult> {
    const listed = (this.listAll('tools/list', 'tools', checkListTools, options) as Promise<ListToolsResult>).then((result) => {
      this.toolTaskSupport.clear();
      for (const tool of result.tools) this.toolTaskSupport.set(tool.name, taskSupportOf(tool));
      return result;
    });
    return this.mirrorsHeaders() ? listed.then((result) => this.withValidHeaders(result)) : listed;
  }

  /**
   * Calls a tool; resolves with its final result. A tool that requires a
   * task (or `options.task` for one that allows it) is called as a task and
   * followed to its result (M5, see tasks.ts); so is any call a 2026-era
   * server answers with a task. Over modern Streamable HTTP its x-mcp-header
   * parameters go out as Mcp-Param-* headers.
   */
  callTool(name: string, args: JsonObject = {}, options?: CallToolOptions): Promise<CallToolResult> {
    if (!this.usable()) return Promise.reject(this.notReady('tools/call'));
    const mirrored = this.headerParams.get(name);
    if (mirrored?.length) options = { ...options, headers: { ...options?.headers, ...paramHeaders(mirrored, args) } };
    const capabilities = this.known?.capabilities as JsonObject | undefined;
    const task = legacyTaskRequest(capabilities, this.toolTaskSupport.get(name), options?.task);
    if (task) return taskFollower().then((tasks) => tasks.callToolAsTask(this.taskChannel(), name, args, options ?? {}, task, serverCancelsTasks(capabilities)));
    // 2026 tasks extension (SEP-2663): callTool follows a task answer, so it declares the extension (the caller's own _meta wins).
    if (this.known?.era === 'modern' && followsTasks(options?.task)) options = { ...options, meta: { ...this.withTasks(), ...options?.meta } };
    // #17 item 3 (MRTR): input_required rounds answered and retried first; what ends them is a result or a task.
    // The first request goes out here and the rounds' state is built only when one is asked for (#20 item 2).
    const params: JsonObject = { name, arguments: args };
    return this.connection.request('tools/call', params, options).then((first) => {
      if (!needsInput(first)) return this.toolResult(first, options);
      const rounds = {
        site: { server: this.server, method: 'tools/call' },
        params,
        send: (round: JsonObject) => this.connection.request('tools/call', round, options),
        handlerFor: (inputMethod: string) => this.connection.requestHandler(inputMethod),
        maxRounds: this.options.maxInputRounds,
        signal: options?.signal,
      };
      return moreInputRounds(rounds, first).then((value) => this.toolResult(value, options), this.toolCallFailed);
    }, this.toolCallFailed);
  }

  /** A tools/call's final answer: a task followed to its result, or the result checked. */
  private toolResult(value: unknown, options: CallToolOptions | undefined): CallToolResult | Promise<CallToolResult> {
    return isCreatedTask(value) ? taskFollower().then((tasks) => tasks.followCreatedTask(this.taskChannel(), value, options)) : (this.checked('tools/call', value, checkCallTool) as CallToolResult);
  }

  /** One function for every call, not a closure per call. */
  private readonly toolCallFailed = (error: unknown): never => {
    // Caching: "MAY re-fetch before the TTL expires" on an error that says the tool is not what the list said.
    if (error instanceof RpcError && error.rpcCode === -32602) this.listCache.invalidate('tools');
    throw error;
  };

  /** The `_meta` entry that declares the tasks extension beside the client's capabilities (modern requests only). */
  private withTasks(): Record<string, unknown> {
    return (this.tasksMeta ??= { [CLIENT_CAPABILITIES_META_KEY]: withTasksExtension(this.capabilities()) });
  }

  /** What a task run needs of this client: requests, notifications, the result check, the server-request handlers. */
  private taskChannel(): TaskChannel {
    const { sampling, elicitation, roots } = this.options.handlers ?? {};
    const handlers: Record<string, RequestHandler | undefined> = { ...this.options.requestHandlers, 'sampling/createMessage': sampling, 'elicitation/create': elicitation, 'roots/list': roots };
    // A modern task's own tasks/get, tasks/update and tasks/cancel declare the extension too (the server MUST refuse them otherwise).
    const modern = this.known?.era === 'modern';
    return {
      server: this.server,
      request: (method, params, options) => this.connection.request(method, params, modern ? { ...options, meta: { ...this.withTasks(), ...options.meta } } : options),
      watch: (listener) => {
        this.notificationWatchers.add(listener);
        return () => this.notificationWatchers.delete(listener);
      },
      check: checkCallTool,
      answer: (method, params, signal) => {
        const handler = handlers[method];
        return handler ? Promise.resolve(handler(params, { id: 'task-input', signal })) : undefined;
      },
      onDiagnostic: this.options.onDiagnostic,
    };
  }

  /** Only modern Streamable HTTP carries Mcp-Param-*: "Clients using other transports MAY ignore x-mcp-header". */
  private mirrorsHeaders(): boolean {
    return this.known?.era === 'modern' && this.transport.kind === 'streamable-http';
  }

  /** Leaves out each tool whose x-mcp-header annotations are invalid (2026-07-28 MUST), with a diagnostic; remembers the rest. */
  private withValidHeaders(result: ListToolsResult): ListToolsResult {
    this.headerParams.clear();
    const tools = result.tools.filter((tool) => {
      const found = headerParamsOf(tool.inputSchema);
      if ('invalid' in found) {
        this.options.onDiagnostic?.({ kind: 'rejected-tool', server: this.server, tool: tool.name, why: 'invalid-header', detail: found.invalid });
        return false;
      }
      if (found.params.length) this.headerParams.set(tool.name, found.params);
      return true;
    });
    return tools.length === result.tools.length ? result : { ...result, tools };
  }

  listResources(options?: ListOptions): Promise<ListResourcesResult> {
    return this.listAll('resources/list', 'resources', checkListResources, options) as Promise<ListResourcesResult>;
  }

  listResourceTemplates(options?: ListOptions): Promise<ListResourceTemplatesResult> {
    return this.listAll('resources/templates/list', 'resourceTemplates', checkListResourceTemplates, options) as Promise<ListResourceTemplatesResult>;
  }

  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.call('resources/read', { uri }, checkReadResource, options) as Promise<ReadResourceResult>;
  }

  listPrompts(options?: ListOptions): Promise<ListPromptsResult> {
    return this.listAll('prompts/list', 'prompts', checkListPrompts, options) as Promise<ListPromptsResult>;
  }

  getPrompt(name: string, args?: Record<string, string>, options?: RequestOptions): Promise<GetPromptResult> {
    return this.call('prompts/get', args === undefined ? { name } : { name, arguments: args }, checkGetPrompt, options) as Promise<GetPromptResult>;
  }

  /**
   * Any request the client does not wrap (completion/complete,
   * logging/setLevel, resources/subscribe, …): the server's result as sent,
   * unchecked. Timeouts, cancellation and typed errors work as for the rest.
   */
  request(method: string, params?: JsonObject, options?: RequestOptions): Promise<unknown> {
    if (!this.usable()) return Promise.reject(this.notReady(method));
    // 2026-07-28 has no logging/setLevel: the level rides in each request's _meta instead (setLoggingLevel).
    if (method === 'logging/setLevel' && this.known?.era === 'modern') return this.setLoggingLevel(params?.level as LoggingLevel).then(() => ({}));
    return this.connection.request(method, params, options);
  }

  /** Installs (or with undefined, removes) the handler of a server-initiated request method; no capability is advertised for it. */
  setRequestHandler(method: string, handler: RequestHandler | undefined): void {
    this.connection.setRequestHandler(method, handler);
  }

  /** A ping is the one request allowed before initialization completes (L1). */
  async ping(options?: RequestOptions): Promise<JsonObject> {
    return this.checked('ping', await this.connection.request('ping', undefined, options), checkEmpty);
  }

  /**
   * Graceful and idempotent (L2): pending requests reject with ClosedError;
   * the server process is stopped. A server still in its handshake (state
   * 'connecting') is killed at once instead: it has nothing to finish.
   * `hurry`: for a host that is itself stopping (a deadline, a signal): a
   * stdio server gets SIGTERM at once and SIGKILL 200 ms later, instead of
   * end of input and the 2 s steps.
   */
  close(options: { hurry?: boolean } = {}): Promise<void> {
    this.listen?.close(); // #17 item 4: the listen request ends before the connection does
    return this.connection.close({ force: this.connection.state === 'open' && !this.known, hurry: options.hurry === true });
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  // --- internals -----------------------------------------------------------------

  /** Not async on purpose: on the per-call path, a plain then() saves an async frame and its extra promise. */
  private call(method: string, params: JsonObject, check: ResultCheck, options?: RequestOptions): Promise<JsonObject> {
    if (!this.usable()) return Promise.reject(this.notReady(method));
    // --- #17 item 3 (MRTR): input_required results answered and retried, on the methods the spec allows them on ---
    if (INPUT_REQUIRED_METHODS.has(method)) {
      return runInputRounds({
        site: { server: this.server, method },
        params,
        send: (round) => this.connection.request(method, round, options),
        handlerFor: (inputMethod) => this.connection.requestHandler(inputMethod),
        maxRounds: this.options.maxInputRounds,
        signal: options?.signal,
      }).then((value) => this.checked(method, value, check));
    }
    // --- end #17 item 3 ---
    return this.connection.request(method, params, options).then((value) => this.checked(method, value, check));
  }

  /**
   * Follows nextCursor to the end; the result is the first page with the
   * list holding every page's items. Fresh cached pages are used as they are
   * (each page keeps its own clock); a cursor from a cached page that the
   * server refuses drops the cached pages and lists again from the start.
   */
  private async listAll(method: string, key: string, check: ResultCheck, options?: ListOptions): Promise<JsonObject> {
    if (!this.usable()) throw this.notReady(method);
    const kind = CACHED_LISTS[method]!;
    for (let attempt = 0; ; attempt++) {
      const generation = this.listCache.generation(kind);
      const cached = { used: false };
      try {
        return await this.listPages(method, key, check, options, generation, cached);
      } catch (error) {
        if (attempt > 0 || !cached.used || !(error instanceof RpcError)) throw error;
        this.listCache.dropMethod(method);
      }
    }
  }

  private async listPages(method: string, key: string, check: ResultCheck, options: ListOptions | undefined, generation: number, cached: { used: boolean }): Promise<JsonObject> {
    const maxPages = this.options.maxPages ?? DEFAULT_MAX_PAGES;
    const seen = new Set<string>();
    let first: JsonObject | undefined;
    const items: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      if (page >= maxPages) {
        throw new ProtocolError({ server: this.server, method }, `the server kept returning nextCursor after ${maxPages} pages; stopped (raise maxPages if this is real)`);
      }
      let result = options?.refresh ? undefined : this.listCache.fresh(method, cursor);
      if (result) cached.used = true;
      else {
        result = await this.call(method, cursor === undefined ? {} : { cursor }, check, options);
        this.listCache.store(method, cursor, result, generation);
      }
      first ??= result;
      for (const item of result[key] as unknown[]) items.push(item);
      const next = result.nextCursor;
      if (typeof next !== 'string' || next === '') break;
      if (seen.has(next)) throw new ProtocolError({ server: this.server, method }, `the server returned the cursor ${JSON.stringify(next)} twice; stopped to avoid a loop`);
      seen.add(next);
      cursor = next;
    }
    const { nextCursor: _ignored, ...rest } = first;
    return { ...rest, [key]: items };
  }

  private checked(method: string, value: unknown, check: ResultCheck): JsonObject {
    const kind = resultTypeOf(value);
    if (kind !== 'complete') {
      throw new ProtocolError({ server: this.server, method }, `the server answered with resultType "${kind}", which this client does not handle here (only "complete", or none, is a final result); call it through request() to see the result as sent`);
    }
    const problem = check(value);
    if (problem) throw new ProtocolError({ server: this.server, method }, `invalid result: ${problem}`);
    return value as JsonObject;
  }

  /** Ready, or reconnecting (requests then wait for it, bounded: see reconnectWaitMs). */
  private usable(): boolean {
    return this.known !== undefined && this.connection.state === 'open';
  }

  private notReady(method: string): Error {
    const state = this.connection.state;
    if (state === 'closed' || state === 'closing') return this.connection.closedError(method);
    return new ClosedError({ server: this.server, method }, { reason: 'not-connected' });
  }

  private onNotification(n: JsonRpcNotification): void {
    const params = n.params ?? {};
    const o = this.options;
    switch (n.method) {
      case 'notifications/progress': {
        const token = params.progressToken;
        if (o.onProgress && (typeof token === 'string' || typeof token === 'number') && typeof params.progress === 'number') {
          o.onProgress(token, params as unknown as ProgressUpdate);
        }
        break;
      }
      case 'notifications/message':
        o.onLog?.(params);
        break;
      // The cached list is stale before anyone hears of the change: a re-list from the hook asks the server.
      case 'notifications/tools/list_changed':
        this.listCache.invalidate('tools');
        o.onListChanged?.('tools');
        break;
      case 'notifications/resources/list_changed':
        this.listCache.invalidate('resources');
        o.onListChanged?.('resources');
        break;
      case 'notifications/prompts/list_changed':
        this.listCache.invalidate('prompts');
        o.onListChanged?.('prompts');
        break;
      case 'notifications/subscriptions/acknowledged': // #17 item 4
        this.listen?.onAcknowledged(params);
        break;
    }
    for (const watcher of this.notificationWatchers) watcher(n);
    o.onNotification?.(n);
  }
}

function checkLevel(level: unknown): void {
  if (!(LOGGING_LEVELS as readonly unknown[]).includes(level)) throw new TypeError(`logLevel: ${JSON.stringify(level)} is not a log level (${LOGGING_LEVELS.join(', ')})`);
}
