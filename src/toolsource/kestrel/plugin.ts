// What a Kestrel-style host embeds (Kestrel's plugin-mcp; SPEC C4, R4, R5,
// K1–K3, K6), on the tool source's registry, dispatch and supervision:
// servers connect at startup, concurrently, and one failure is logged as
// `mcp server failed` without stopping the others; tools are named
// `mcp__<server>__<tool>`, described `[MCP:<server>] …`, with a permission
// from the server's approval; results are flattened to text with
// structuredContent kept beside; servers with resources or prompts get
// bridge tools; calls to one server are serialized, so each sampling
// request is charged to exactly one tool call; and the `mcp` service gives
// other plugins the same connections. Beyond Kestrel's stated limits, and
// off by default: re-discovery on list_changed and an elicitation bridge.

import type { RequestHandler } from '../../client/connection.js';
import type { CallToolResult, GetPromptResult, JsonObject, Prompt, ReadResourceResult, Resource } from '../../client/results.js';
import { ConfigError } from '../../errors.js';
import { assignNames, sanitize } from '../naming.js';
import type { Clock, RestartPolicy } from '../supervisor.js';
import { openToolSource, type ToolSource } from '../tool-source.js';
import { loadKestrelConfigFile, readKestrelConfig, type Approval, type KestrelConfig } from './config.js';
import { flattenContent, flattenResource, renderPrompt } from './flatten.js';
import { samplingHandler, type CallBudget, type Sampler } from './sampling.js';

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
}

/** A tool as the agent sees it. */
export interface KestrelTool {
  /** `mcp__<server>__<tool>`, provider-safe. */
  name: string;
  /** `[MCP:<server>] ` and the server's description. */
  description: string;
  category: 'mcp';
  permission: Approval;
  /** The tool's inputSchema, unchanged. */
  parameters: JsonObject;
  server: string;
  /** The MCP tool's own name; for a bridge tool, which bridge. */
  tool: string;
  bridge: 'list_resources' | 'read_resource' | 'list_prompts' | 'get_prompt' | undefined;
  execute(args?: JsonObject, options?: { signal?: AbortSignal }): Promise<KestrelToolResult>;
}

export interface KestrelToolResult {
  /** What the model reads. */
  content: string;
  isError: boolean;
  /** For consumers that understand more than text. */
  data?: { structuredContent: JsonObject };
}

const consoleLogger: KestrelLogger = {
  info: (message, data) => console.info(message, data ?? ''),
  warn: (message, data) => console.warn(message, data ?? ''),
  error: (message, data) => console.error(message, data ?? ''),
};

const NOTHING: JsonObject = { type: 'object', properties: {} };
const URI_SCHEMA: JsonObject = { type: 'object', properties: { uri: { type: 'string', description: 'The resource URI' } }, required: ['uri'] };
const PROMPT_SCHEMA: JsonObject = {
  type: 'object',
  properties: { name: { type: 'string', description: 'The prompt name' }, arguments: { type: 'object', additionalProperties: { type: 'string' } } },
  required: ['name'],
};

/** Connects every server (concurrently), discovers tools, resources and prompts, and returns the plugin's surface. */
export async function openKestrelMcp(options: KestrelMcpOptions): Promise<KestrelMcp> {
  const config = 'source' in options.config ? options.config : 'file' in options.config ? loadKestrelConfigFile(options.config.file) : readKestrelConfig(options.config.plugin, options.config.root !== undefined ? { root: options.config.root } : {});
  const mcp = new KestrelMcp(config, options);
  await mcp.start();
  return mcp;
}

export class KestrelMcp {
  private source!: ToolSource;
  private readonly logger: KestrelLogger;
  /** The tool call running on each server: calls to one server are serialized, so there is at most one. */
  private readonly running = new Map<string, CallBudget>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private tools_: KestrelTool[] = [];
  private readonly discovered = new Map<string, { resources: Resource[] | undefined; prompts: Prompt[] | undefined }>();

  constructor(
    private readonly config: KestrelConfig,
    private readonly options: KestrelMcpOptions,
  ) {
    this.logger = options.logger ?? consoleLogger;
    if (config.sampling.enabled && !options.sampler) {
      throw new ConfigError(config.source.file, ['sampling', 'enabled'], 'sampling is enabled but the host supplied no sampler; pass one, or set enabled to false');
    }
  }

  /** @internal Called once by openKestrelMcp. */
  async start(): Promise<void> {
    for (const { server, reason } of this.config.skipped) this.logger.error('mcp server failed', { server, error: reason });
    const { sampling } = this.config;
    const sampler = this.options.sampler;
    this.source = await openToolSource({
      config: this.config.source,
      start: 'startup',
      rediscover: this.options.beyond?.rediscover === true,
      ...(this.options.clock ? { clock: this.options.clock } : {}),
      ...(this.options.restart ? { restart: this.options.restart } : {}),
      serverHandlers: (key) => ({
        ...(sampling.enabled && sampler
          ? { sampling: samplingHandler(key, { config: sampling, sampler, models: this.options.models ?? [], defaultModel: this.options.defaultModel, currentCall: (s) => this.running.get(s) }) }
          : {}),
        ...(this.options.beyond?.elicitation ? { elicitation: this.options.beyond.elicitation } : {}),
      }),
    });
    for (const status of this.source.status()) {
      if (status.state !== 'ready') this.logger.error('mcp server failed', { server: status.key, error: status.lastError ?? status.reason ?? status.state });
    }
    await Promise.all(this.servers().map((server) => this.discoverExtras(server)));
    this.rebuildTools();
    if (this.options.beyond?.rediscover) {
      this.source.on('tools-changed', () => this.rebuildTools());
      this.source.on('list-changed', ({ server, kind }) => {
        if (kind !== 'tools') void this.discoverExtras(server).then(() => this.rebuildTools());
      });
    }
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

  /** The servers that connected. */
  servers(): string[] {
    return this.source.status().filter((s) => s.state === 'ready').map((s) => s.key);
  }

  /** Calls one server's tool through the same connection the agent's tools use. */
  call(server: string, tool: string, args: JsonObject = {}, options: { signal?: AbortSignal } = {}): Promise<CallToolResult> {
    return this.onServer(server, options.signal, () => this.source.call(`mcp.${server}.${tool}`, args, options.signal ? { signal: options.signal } : {}).then((r) => r.result));
  }

  /** What servers listed at startup (or since, with re-discovery on). */
  resources(): (Resource & { server: string })[] {
    return [...this.discovered].flatMap(([server, found]) => (found.resources ?? []).map((r) => ({ ...r, server })));
  }

  prompts(): (Prompt & { server: string })[] {
    return [...this.discovered].flatMap(([server, found]) => (found.prompts ?? []).map((p) => ({ ...p, server })));
  }

  readResource(server: string, uri: string): Promise<ReadResourceResult> {
    return this.onServer(server, undefined, () => this.source.withServer(server, (c) => c.readResource(uri)));
  }

  getPrompt(server: string, name: string, args?: Record<string, string>): Promise<GetPromptResult> {
    return this.onServer(server, undefined, () => this.source.withServer(server, (c) => c.getPrompt(name, args)));
  }

  status() {
    return this.source.status();
  }

  /** Closes stdio children and DELETEs HTTP sessions. */
  close(): Promise<void> {
    return this.source.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  // --- internals -----------------------------------------------------------------

  /**
   * One server's work, one at a time: the protocol gives a server's requests
   * no parent id, so serializing is what charges each sampling request to
   * exactly one tool call.
   */
  private onServer<T>(server: string, signal: AbortSignal | undefined, job: () => Promise<T>): Promise<T> {
    const run = async () => {
      this.running.set(server, { used: 0, signal: signal ?? new AbortController().signal });
      try {
        return await job();
      } finally {
        this.running.delete(server);
      }
    };
    const previous = this.queues.get(server) ?? Promise.resolve();
    const result = previous.then(run, run);
    this.queues.set(server, result.catch(() => {}));
    return result;
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
    this.discovered.set(server, found);
  }

  /** The agent's tools from the registry and the bridges, with names unique and provider-safe (R4). */
  private rebuildTools(): void {
    type Draft = Omit<KestrelTool, 'name'> & { id: string };
    const drafts: Draft[] = [];
    const approval = (server: string): Approval => this.config.approvals.get(server) ?? 'ask';
    for (const definition of this.source.registered()) {
      const { mcp_server: server, mcp_tool_name: tool } = definition;
      drafts.push({
        id: definition.name,
        description: `[MCP:${server}] ${definition.description}`,
        category: 'mcp',
        permission: approval(server),
        parameters: definition.parameters,
        server,
        tool,
        bridge: undefined,
        execute: (args = {}, options = {}) => this.call(server, tool, args, options).then(toToolResult),
      });
    }
    for (const [server, found] of this.discovered) {
      const bridge = (name: NonNullable<KestrelTool['bridge']>, permission: Approval, description: string, parameters: JsonObject, run: (args: JsonObject) => Promise<string>) =>
        drafts.push({
          id: `bridge:${server}:${name}`,
          description: `[MCP:${server}] ${description}`,
          category: 'mcp',
          permission,
          parameters,
          server,
          tool: name,
          bridge: name,
          execute: async (args = {}) => {
            try {
              return { content: await run(args), isError: false };
            } catch (error) {
              // The model's arguments were wrong: it reads why and can try again.
              if (error instanceof BridgeArgumentError) return { content: error.message, isError: true };
              throw error;
            }
          },
        });
      if (found.resources) {
        bridge('list_resources', 'auto', 'List the resources this server offers: URIs, names and MIME types.', NOTHING, () =>
          this.onServer(server, undefined, () => this.source.withServer(server, (c) => c.listResources())).then((r) => r.resources.map(describeResource).join('\n') || '(no resources)'),
        );
        bridge('read_resource', approval(server), 'Read one resource by URI: text is returned, binary content is described by size.', URI_SCHEMA, (args) =>
          this.readResource(server, requireString(args, 'uri')).then(flattenResource),
        );
      }
      if (found.prompts) {
        bridge('list_prompts', 'auto', 'List the prompt templates this server offers, with their arguments.', NOTHING, () =>
          this.onServer(server, undefined, () => this.source.withServer(server, (c) => c.listPrompts())).then((r) => r.prompts.map(describePrompt).join('\n') || '(no prompts)'),
        );
        bridge('get_prompt', approval(server), 'Render a prompt template into [role] text blocks.', PROMPT_SCHEMA, (args) =>
          this.getPrompt(server, requireString(args, 'name'), promptArguments(args.arguments)).then(renderPrompt),
        );
      }
    }
    const base = (d: Draft) => sanitize(`mcp__${d.server}__${d.tool}`);
    const { aliases, adjusted } = assignNames(drafts.map((d) => [d.id, base(d)] as const));
    for (const a of adjusted) this.logger.warn('mcp tool renamed', { tool: a.canonical, name: a.alias, why: a.why });
    this.tools_ = drafts.map(({ id, ...rest }) => ({ name: aliases.get(id)!, ...rest })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}

function toToolResult(result: CallToolResult): KestrelToolResult {
  const out: KestrelToolResult = { content: flattenContent(result.content), isError: result.isError === true };
  if (result.structuredContent !== undefined) out.data = { structuredContent: result.structuredContent };
  return out;
}

function describeResource(r: Resource): string {
  return `${r.uri} — ${r.name}${r.mimeType ? ` (${r.mimeType})` : ''}`;
}

function describePrompt(p: Prompt): string {
  const args = (p.arguments ?? []).map((a) => `${a.name}${a.required ? '' : '?'}`).join(', ');
  return `${p.name}(${args})${p.description ? ` — ${p.description}` : ''}`;
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
