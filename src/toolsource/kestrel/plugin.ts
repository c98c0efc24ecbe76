// What a Kestrel-style host embeds (Kestrel's plugin-mcp; SPEC C4, R4, R5,
// K1–K3, K6), on the tool source's registry, dispatch and supervision:
// servers connect at startup, concurrently, and one failure is logged as
// `mcp server failed` without stopping the others; tools are named
// `mcp__<server>__<tool>`, described `[MCP:<server>] …`, with a permission
// from the server's approval; results are flattened to text with
// structuredContent kept beside; servers with resources or prompts get
// bridge tools; calls to one server are serialized (the tool source's
// queue), and with sampling on each call ends with a ping, so a sampling
// request is charged to the call in flight when it arrived or refused; and
// the `mcp` service gives other plugins the same connections. A server that
// comes up after startup (restarted in the background) is published then,
// with an event: see the class comment. Beyond Kestrel's stated limits, and
// off by default: re-discovery on list_changed and an elicitation bridge.

import type { RequestHandler } from '../../client/connection.js';
import type { CallToolResult, GetPromptResult, JsonObject, Prompt, ReadResourceResult, Resource } from '../../client/results.js';
import { ConfigError, McpClientError, TimeoutError, UnknownToolError } from '../../errors.js';
import { unknownToolError } from '../unknown-tool.js';
import { BRIDGE_TOOLS, describePrompt, describeResource, kestrelAgentNames, kestrelDescription, kestrelName, type BridgeName } from './agent-names.js';
import type { Clock, RestartPolicy, ServerStatus } from '../supervisor.js';
import { openToolSource, type ToolSource, type ToolSourceOptions } from '../tool-source.js';
import { loadKestrelConfigFile, readKestrelConfig, type Approval, type KestrelConfig } from './config.js';
import { flattenContent, flattenResource, renderPrompt } from './flatten.js';
import { CallAttribution, samplingHandler, type Sampler } from './sampling.js';

/** The host's logger; console by default. */
export interface KestrelLogger {
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

export interface KestrelMcpOptions {
  /** The plugin's config object, a Kestrel config file, or a config already read. */
  config: { plugin: unknown; root?: string } | { file: string } | KestrelConfig;
  logger?: KestrelLogger;
  /** Answers sampling requests when `sampling.enabled`; mcpwire ships no LLM client. */
  sampler?: Sampler;
  /** The model ids the host's registry knows (hints are matched against them), and its default. */
  models?: readonly string[];
  defaultModel?: string;
  /** Beyond Kestrel's documented behaviour; each off by default. */
  beyond?: {
    /** Discover tools, resources and prompts again when a server says they changed. */
    rediscover?: boolean;
    /** Answers elicitation/create (and advertises the capability). */
    elicitation?: RequestHandler;
  };
  clock?: Clock;
  restart?: Partial<RestartPolicy>;
  /**
   * For servers whose config says `"oauth"` (mcpwire's key, #19): where
   * their credentials are kept and who takes the user through a login (see
   * ToolSourceOptions.oauth). Without `authorize`, a server that needs a
   * login is `needs-auth` and offers nothing until the host has one done.
   */
  oauth?: ToolSourceOptions['oauth'];
}

/** A tool as the agent sees it. */
export interface KestrelTool {
  /** `mcp__<server>__<tool>`, provider-safe. */
  name: string;
  /** `[MCP:<server>] ` and the server's description. */
  description: string;
  category: 'mcp';
  permission: Approval;
  /**
   * Why the permission is `ask` whatever the server's approval says: the
   * server's `pin` is `block` and this tool's definition changed, is new or
   * was renamed since it was approved (SPEC G2). The host shows it to the
   * person it asks; `mcpwire trust SERVER TOOL` approves the definition.
   */
  permissionReason?: string;
  /** The tool's inputSchema, unchanged. */
  parameters: JsonObject;
  server: string;
  /** The MCP tool's own name; for a bridge tool, which bridge. */
  tool: string;
  bridge: BridgeName | undefined;
  execute(args?: JsonObject, options?: { signal?: AbortSignal }): Promise<KestrelToolResult>;
}

export interface KestrelToolResult {
  /** What the model reads. */
  content: string;
  isError: boolean;
  /** For consumers that understand more than text. */
  data?: { structuredContent: JsonObject };
  /**
   * Why the call did not complete, for the host (the model reads `content`):
   * the server died or is unavailable (ClosedError), no answer in time
   * (TimeoutError), a broken answer (ProtocolError), a JSON-RPC error
   * (RpcError), a tool no longer offered (UnknownToolError).
   */
  error?: McpClientError;
}

/** The agent's tools that appeared and disappeared, by their `mcp__…` names. Fires only on a real change. */
export interface KestrelToolsChange {
  added: string[];
  removed: string[];
  /** Tools whose permission changed (a pinned definition drifted under `pin: block`, or was approved). */
  changed?: string[];
}

export interface KestrelMcpEvents {
  /** The agent's tools changed: a server came up, went away, was disabled, or (with beyond.rediscover) changed its lists. */
  'tools-changed': KestrelToolsChange;
  /** A server's state changed (the tool source's status). `ready` is announced once its tools are published. */
  'server-state': ServerStatus;
}

const consoleLogger: KestrelLogger = {
  info: (message, data) => console.info(message, data ?? ''),
  warn: (message, data) => console.warn(message, data ?? ''),
  error: (message, data) => console.error(message, data ?? ''),
};

/** Connects every server (concurrently), discovers tools, resources and prompts, and returns the plugin's surface. */
export async function openKestrelMcp(options: KestrelMcpOptions): Promise<KestrelMcp> {
  const config = 'source' in options.config ? options.config : 'file' in options.config ? loadKestrelConfigFile(options.config.file) : readKestrelConfig(options.config.plugin, options.config.root !== undefined ? { root: options.config.root } : {});
  const mcp = new KestrelMcp(config, options);
  await mcp.start();
  return mcp;
}

/**
 * States in which a server offers nothing, as in the tool source: a call
 * would fail at once (it crashed and restarts, or it waits for the host, the
 * config or a credential). Its tools return when it is ready again.
 */
const WITHDRAWN: ReadonlySet<string> = new Set(['restarting', 'failed', 'disabled', 'closed', 'needs-auth']);

/** How long the sampling barrier's ping may take: a server that does not answer holds its queue no longer. */
const BARRIER_TIMEOUT_MS = 5_000;

type Listener<K extends keyof KestrelMcpEvents> = (event: KestrelMcpEvents[K]) => void;
type Within = <T>(run: () => Promise<T>) => Promise<T>;

/**
 * The plugin's surface. Servers connect in openKestrelMcp(); one that
 * fails there is logged `mcp server failed` and restarted in the
 * background by the tool source (1 s, 2 s, 4 s …, failed after 5).
 * Kestrel's page says the plugin "publishes only what connected": we read
 * that as "publishes a server once it has connected", whenever that is
 * (#16 item 5). When a server becomes ready after startup, its resources
 * and prompts are discovered, its tools and bridges join agentTools() and
 * tools(), `tools-changed` names them, then `server-state` says `ready`
 * and `mcp server connected` is logged. A server that fails for good, is
 * disabled, or needs a credential offers nothing until it is ready again.
 */
export class KestrelMcp {
  private source!: ToolSource;
  private readonly logger: KestrelLogger;
  private readonly attribution = new CallAttribution();
  private readonly sampling: boolean;
  private tools_: KestrelTool[] = [];
  private readonly discovered = new Map<string, { resources: Resource[] | undefined; prompts: Prompt[] | undefined }>();
  /** Each server's publication after it became ready (extras discovered, tools rebuilt); openKestrelMcp waits for them. */
  private readonly publishing = new Map<string, Promise<void>>();
  private readonly states = new Map<string, string>();
  /**
   * The servers whose tools and bridges are offered: added once a server is
   * ready and its extras are discovered, removed when it is withdrawn.
   * Kept here rather than read from the state, so a server that was
   * withdrawn comes back all at once, when it is ready again.
   */
  private readonly offering = new Set<string>();
  private readonly listeners: { [K in keyof KestrelMcpEvents]: Set<Listener<K>> } = { 'tools-changed': new Set(), 'server-state': new Set() };
  /** Renames already reported: a rebuild reports only new ones. */
  private readonly renamed = new Set<string>();
  /** openKestrelMcp is done: before, startup reports every server at once. */
  private started = false;
  /** close() was called: servers going down then are not news. */
  private closing = false;

  constructor(
    private readonly config: KestrelConfig,
    private readonly options: KestrelMcpOptions,
  ) {
    this.logger = options.logger ?? consoleLogger;
    if (config.sampling.enabled && !options.sampler) {
      throw new ConfigError(config.source.file, ['sampling', 'enabled'], 'sampling is enabled but the host supplied no sampler; pass one, or set enabled to false');
    }
    this.sampling = config.sampling.enabled;
  }

  /** @internal Called once by openKestrelMcp. */
  async start(): Promise<void> {
    for (const { server, reason } of this.config.skipped) this.logger.error('mcp server failed', { server, error: reason });
    const { sampling } = this.config;
    const sampler = this.options.sampler;
    const rediscover = this.options.beyond?.rediscover === true;
    // Opened without start: 'startup' so the listeners are in place before any server starts.
    this.source = await openToolSource({
      config: this.config.source,
      serializeCalls: true,
      // Suggestions for an unknown tool in the names this host's agents see.
      naming: (d) => kestrelName(d.mcp_server, d.mcp_tool_name),
      rediscover,
      // SPEC G2 on Kestrel's approval flow: a drifted tool under `pin: block` stays offered, and is asked for.
      pins: { onBlock: 'ask' },
      ...(this.options.clock ? { clock: this.options.clock } : {}),
      ...(this.options.restart ? { restart: this.options.restart } : {}),
      ...(this.options.oauth ? { oauth: this.options.oauth } : {}),
      // The tap costs a call per message: only a host that samples needs it.
      ...(this.sampling ? { client: { onWire: this.attribution.observe } } : {}),
      serverHandlers: (key) => ({
        ...(sampling.enabled && sampler
          ? { sampling: samplingHandler(key, { config: sampling, sampler, models: this.options.models ?? [], defaultModel: this.options.defaultModel, currentCall: (s) => this.attribution.current(s) }) }
          : {}),
        ...(this.options.beyond?.elicitation ? { elicitation: this.options.beyond.elicitation } : {}),
      }),
    });
    this.source.on('server-state', (status) => this.onServerState(status));
    // Always, not only with rediscover (which governs list_changed): a server restarted in the background registers its tools here.
    this.source.on('tools-changed', ({ server }) => {
      // A start in progress is published whole once it is ready (see onServerState).
      // A server leaving ready is rebuilt once, by its server-state event, with its bridges.
      const state = this.stateOf(server) ?? '';
      if (this.started && state !== 'starting' && !WITHDRAWN.has(state)) this.rebuildTools();
    });
    if (rediscover) {
      this.source.on('list-changed', ({ server, kind }) => {
        if (kind !== 'tools') void this.discoverExtras(server).then(() => this.rebuildTools());
      });
    }
    await this.source.discover();
    await Promise.all(this.publishing.values());
    for (const status of this.source.status()) {
      if (status.state !== 'ready' && status.state !== 'disabled') this.logger.error('mcp server failed', { server: status.key, error: status.lastError ?? status.reason ?? status.state });
    }
    this.rebuildTools();
    this.started = true;
    for (const server of this.servers()) this.announce(server);
  }

  // --- what the agent sees ---------------------------------------------------------

  /** Every tool the agent may be offered: each server's tools and its bridge tools (R4, K1, K2). */
  agentTools(): KestrelTool[] {
    return [...this.tools_];
  }

  // --- the mcp service (K3) --------------------------------------------------------

  /** The servers' tools as `{server, tool}` pairs (bridge tools are the agent's, not the service's). */
  tools(): { server: string; tool: string }[] {
    return this.tools_.filter((t) => t.bridge === undefined).map(({ server, tool }) => ({ server, tool }));
  }

  /** The servers that are connected now. */
  servers(): string[] {
    return this.source.status().filter((s) => s.state === 'ready').map((s) => s.key);
  }

  /** Calls one server's tool through the same connection the agent's tools use. Rejects with the typed error (execute() answers it instead). */
  call(server: string, tool: string, args: JsonObject = {}, options: { signal?: AbortSignal } = {}): Promise<CallToolResult> {
    const { signal } = options;
    return this.onServer(server, 'tools/call', signal, (within) => this.source.call(`mcp.${server}.${tool}`, args, { ...(signal ? { signal } : {}), within })).then(
      (r) => r.result,
      (error: unknown) => {
        // Said in this host's terms: the name it would have used, and the nearest among that server's tools.
        if (!(error instanceof UnknownToolError)) throw error;
        const known = this.source.registered().filter((d) => d.mcp_server === server);
        throw unknownToolError(kestrelName(server, tool), known, { naming: (d) => kestrelName(d.mcp_server, d.mcp_tool_name), servers: this.source.status().map((s) => s.key), unavailable: error.unavailable });
      },
    );
  }

  /** What servers listed when they connected (or since, with re-discovery on); nothing from a server that offers nothing now. */
  resources(): (Resource & { server: string })[] {
    return [...this.discovered].flatMap(([server, found]) => (found.resources ?? []).map((r) => ({ ...r, server })));
  }

  prompts(): (Prompt & { server: string })[] {
    return [...this.discovered].flatMap(([server, found]) => (found.prompts ?? []).map((p) => ({ ...p, server })));
  }

  readResource(server: string, uri: string): Promise<ReadResourceResult> {
    return this.onServer(server, 'resources/read', undefined, (within) => this.source.withServer(server, (c) => within(() => c.readResource(uri))));
  }

  getPrompt(server: string, name: string, args?: Record<string, string>): Promise<GetPromptResult> {
    return this.onServer(server, 'prompts/get', undefined, (within) => this.source.withServer(server, (c) => within(() => c.getPrompt(name, args))));
  }

  /** Every server's state (the tool source's status). */
  status(): ServerStatus[] {
    return this.source.status();
  }

  /**
   * Turns on a server the host disabled or one that failed, and connects it
   * now (Kestrel has no "first use" to start it later): resolves once it is
   * ready and its tools are published, rejects with the start's error (the
   * tool source then retries in the background, as at startup). A server
   * the operator's config turns off stays off: a ConfigError says so.
   */
  async enable(key: string): Promise<void> {
    if (this.stateOf(key) === 'ready') return;
    this.source.enable(key);
    await this.restart(key);
  }

  /**
   * Approves a server's tool definitions as listed now (one tool, or all):
   * written to the pin store (SPEC G2), so a tool that `pin: block` made
   * `ask` is back to the server's approval, with a tools-changed.
   */
  async trust(server: string, tool?: string): Promise<void> {
    await this.source.trust(server, tool);
    this.rebuildTools();
  }

  /** Turns a server off until enable(): its connection closed, its tools and bridges withdrawn (with a tools-changed). */
  async disable(key: string): Promise<void> {
    await this.source.disable(key);
  }

  /** Stops a server and starts it again now, failures forgotten; resolves once it is ready and its tools are published. */
  async restart(key: string): Promise<void> {
    await this.source.restart(key);
    await this.publishing.get(key);
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on<K extends keyof KestrelMcpEvents>(event: K, listener: Listener<K>): () => void {
    this.listeners[event].add(listener);
    return () => this.listeners[event].delete(listener);
  }

  /** Closes stdio children and DELETEs HTTP sessions. No event fires after it. */
  close(): Promise<void> {
    this.closing = true;
    return this.source.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  // --- internals -----------------------------------------------------------------

  /**
   * One server's work, queued in the tool source (serializeCalls) and marked
   * at its turn as the call in flight for sampling (see CallAttribution).
   * With sampling on, a ping follows it in the same queue: a stdio server's
   * output is ordered, so every request it wrote before answering the ping
   * arrives before that answer, while no call is in flight, and is refused;
   * none can be charged to the next call. `enqueue` must queue at once, so
   * that nothing gets between the call and its barrier. Over HTTP a request
   * on the standalone stream may still overtake the ping's answer.
   */
  private onServer<T>(server: string, method: string, signal: AbortSignal | undefined, enqueue: (within: Within) => Promise<T>): Promise<T> {
    const result = enqueue((run) => this.attribution.within(server, method, signal, run));
    if (this.sampling) void this.source.withServer(server, (client) => client.ping({ timeoutMs: BARRIER_TIMEOUT_MS })).catch(() => {});
    return result;
  }

  private stateOf(key: string): string | undefined {
    return this.source.status().find((s) => s.key === key)?.state;
  }

  private onServerState(status: ServerStatus): void {
    const previous = this.states.get(status.key);
    this.states.set(status.key, status.state);
    if (status.state === 'ready') {
      this.publishing.set(status.key, this.publish(status.key));
      return; // announced once published
    }
    if (WITHDRAWN.has(status.state)) {
      this.offering.delete(status.key);
      this.discovered.delete(status.key);
    }
    if (!this.started || this.closing) return;
    this.rebuildTools();
    const state: string = status.state; // 'needs-auth' and 'reconnecting' are coming to ServerState (#16 items 6, 8)
    if (state === 'failed' || state === 'needs-auth') this.logger.error('mcp server failed', { server: status.key, error: status.lastError ?? status.reason ?? status.state });
    else if (previous === 'ready' && (state === 'restarting' || state === 'reconnecting')) this.logger.warn('mcp server disconnected', { server: status.key, state, error: status.lastError });
    this.emit('server-state', status);
  }

  /** A server became ready: its resources and prompts discovered, then its tools offered and (after startup) announced. */
  private async publish(server: string): Promise<void> {
    await this.discoverExtras(server);
    // Gone again meanwhile: its own state event has said so.
    if (this.stateOf(server) !== 'ready') return;
    this.offering.add(server);
    if (!this.started) return;
    this.rebuildTools();
    this.announce(server);
  }

  private announce(server: string): void {
    this.logger.info('mcp server connected', { server, tools: this.tools_.filter((t) => t.server === server).length });
    const status = this.source.status().find((s) => s.key === server);
    if (status) this.emit('server-state', status);
  }

  private emit<K extends keyof KestrelMcpEvents>(event: K, payload: KestrelMcpEvents[K]): void {
    for (const listener of this.listeners[event]) {
      try {
        listener(payload);
      } catch (error) {
        this.logger.warn('mcp event listener failed', { event, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  /** resources/list and prompts/list for a server that advertises them; an error means no bridge for that list (K1, K2). */
  private async discoverExtras(server: string): Promise<void> {
    const found = await this.source
      .withServer(server, async (client) => {
        const capabilities = client.profile?.capabilities ?? {};
        const listed = async <T>(has: unknown, list: () => Promise<T[]>, what: string): Promise<T[] | undefined> => {
          if (!has) return undefined;
          try {
            return await list();
          } catch (error) {
            this.logger.warn(`mcp server ${what} unavailable`, { server, error: error instanceof Error ? error.message : String(error) });
            return undefined;
          }
        };
        return {
          resources: await listed(capabilities.resources, async () => (await client.listResources()).resources, 'resources'),
          prompts: await listed(capabilities.prompts, async () => (await client.listPrompts()).prompts, 'prompts'),
        };
      })
      .catch(() => ({ resources: undefined, prompts: undefined }));
    if (WITHDRAWN.has(this.stateOf(server) ?? '')) return;
    this.discovered.set(server, found);
  }

  /**
   * The agent's tools from the registry and the bridges, for servers that
   * offer any, with names unique and provider-safe (R4); `tools-changed`
   * when the names changed.
   */
  private rebuildTools(): void {
    type Draft = Omit<KestrelTool, 'name'> & { id: string };
    const drafts: Draft[] = [];
    const approval = (server: string): Approval => this.config.approvals.get(server) ?? 'ask';
    for (const definition of this.source.registered()) {
      const { mcp_server: server, mcp_tool_name: tool } = definition;
      if (!this.offering.has(server)) continue;
      const held = this.source.pinReason(server, tool);
      drafts.push({
        id: definition.name,
        description: kestrelDescription(server, definition.description),
        category: 'mcp',
        permission: held === undefined ? approval(server) : 'ask',
        ...(held === undefined ? {} : { permissionReason: held }),
        parameters: definition.parameters,
        server,
        tool,
        bridge: undefined,
        execute: (args = {}, options = {}) => this.call(server, tool, args, options).then(toToolResult, (error: unknown) => failedCall(server, error, options.signal)),
      });
    }
    for (const [server, found] of this.discovered) {
      if (!this.offering.has(server)) continue;
      const bridge = (name: BridgeName, run: (args: JsonObject) => Promise<string>) =>
        drafts.push({
          id: `bridge:${server}:${name}`,
          description: kestrelDescription(server, BRIDGE_TOOLS[name].description),
          category: 'mcp',
          permission: BRIDGE_TOOLS[name].permission(approval(server)),
          parameters: BRIDGE_TOOLS[name].parameters,
          server,
          tool: name,
          bridge: name,
          execute: async (args = {}, options = {}) => {
            try {
              return { content: await run(args), isError: false };
            } catch (error) {
              // The model's arguments were wrong: it reads why and can try again.
              if (error instanceof BridgeArgumentError) return { content: error.message, isError: true };
              return failedCall(server, error, options.signal);
            }
          },
        });
      if (found.resources) {
        bridge('list_resources', () =>
          this.onServer(server, 'resources/list', undefined, (within) => this.source.withServer(server, (c) => within(() => c.listResources()))).then(
            (r) => r.resources.map(describeResource).join('\n') || '(no resources)',
          ),
        );
        bridge('read_resource', (args) =>
          this.readResource(server, requireString(args, 'uri')).then(flattenResource),
        );
      }
      if (found.prompts) {
        bridge('list_prompts', () =>
          this.onServer(server, 'prompts/list', undefined, (within) => this.source.withServer(server, (c) => within(() => c.listPrompts()))).then(
            (r) => r.prompts.map(describePrompt).join('\n') || '(no prompts)',
          ),
        );
        bridge('get_prompt', (args) =>
          this.getPrompt(server, requireString(args, 'name'), promptArguments(args.arguments)).then(renderPrompt),
        );
      }
    }
    const { aliases, adjusted } = kestrelAgentNames(drafts);
    for (const a of adjusted) {
      const key = `${a.canonical}\u0000${a.alias}`;
      if (this.renamed.has(key)) continue;
      this.renamed.add(key);
      this.logger.warn('mcp tool renamed', { tool: a.canonical, name: a.alias, why: a.why });
    }
    const before = new Set(this.tools_.map((t) => t.name));
    const asked = new Map(this.tools_.map((t) => [t.name, t.permissionReason]));
    this.tools_ = drafts.map(({ id, ...rest }) => ({ name: aliases.get(id)!, ...rest })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const after = new Set(this.tools_.map((t) => t.name));
    const change: KestrelToolsChange = { added: [...after].filter((n) => !before.has(n)), removed: [...before].filter((n) => !after.has(n)).sort() };
    const changed = this.tools_.filter((t) => before.has(t.name) && asked.get(t.name) !== t.permissionReason).map((t) => t.name);
    if (changed.length > 0) change.changed = changed;
    if (this.started && !this.closing && (change.added.length > 0 || change.removed.length > 0 || changed.length > 0)) this.emit('tools-changed', change);
  }
}

/**
 * A call that did not complete, as a result the model reads (#16 item 13):
 * the reason, with the typed error kept for the host. An abort by the
 * host's own signal is not a result: it rejects with the signal's reason,
 * as the client does, because the host cancelled the turn and no model is
 * waiting to read it. Anything not the library's (a bug) rejects too.
 */
function failedCall(server: string, error: unknown, signal: AbortSignal | undefined): KestrelToolResult {
  if (signal?.aborted || !(error instanceof McpClientError)) throw error;
  return { content: `The MCP server "${server}" did not complete the call: ${readableReason(error)}`, isError: true, error };
}

/** The error's message without the server's stderr (on its own or in a cause's text), which is for the host's logs, not the model's context. */
function readableReason(error: McpClientError): string {
  const message = error.message.split('; last stderr:')[0]!;
  return error instanceof TimeoutError ? `${message} (the tool may still be running on the server)` : message;
}

function toToolResult(result: CallToolResult): KestrelToolResult {
  const out: KestrelToolResult = { content: flattenContent(result.content), isError: result.isError === true };
  if (result.structuredContent !== undefined) out.data = { structuredContent: result.structuredContent };
  return out;
}


/** Arguments a bridge tool cannot use: answered as a tool error the model reads, not thrown at the host. */
class BridgeArgumentError extends Error {}

function requireString(args: JsonObject, key: string): string {
  const value = args[key];
  if (typeof value !== 'string' || value === '') throw new BridgeArgumentError(`"${key}" is required: a non-empty string`);
  return value;
}

function promptArguments(value: unknown): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    throw new BridgeArgumentError('"arguments" must be an object of strings');
  }
  return value as Record<string, string>;
}
