// What `mcpwire serve` offers, read from a tool source: its tools (filtered,
// per agent, named by alias or canonical name, results capped) as MCP tools;
// the upstream servers' resources and prompts with their URIs and names
// namespaced by server key, so two servers never collide; and the changes
// the source hears, as list_changed kinds. No wire here: protocol.ts speaks.

import type { JsonObject, Tool } from '../client/results.js';
import type { ListChangedKind } from '../client/client.js';
import type { ProgressUpdate } from '../client/connection.js';
import type { ListedTool, ToolCallOptions, ToolSource } from '../toolsource/tool-source.js';
import { ConfigError, McpClientError, RpcError, UnknownToolError } from '../errors.js';
import { ErrorCodes } from '../jsonrpc/codes.js';
import { RpcFault } from './peer.js';

/**
 * How served tools are named: `alias` (provider-safe, `^[a-zA-Z0-9_-]{1,64}$`,
 * the default), `canonical` (`mcp.<key>.<tool>`), or `short` (the upstream's
 * own name where no other server has a tool of that name, else the alias:
 * a gateway in front of one server then looks like that server).
 */
export type ServedNames = 'alias' | 'canonical' | 'short';

/** A resource URI as served: `mcpwire:<key>:<the upstream's URI>` (server keys hold no `:`), so it reads back unambiguously. */
const URI_SCHEME = 'mcpwire:';

export interface BridgeCallOptions {
  signal: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  /** Runs the upstream call inside `within`, at its turn (see ToolCallOptions.within). */
  within?: <T>(run: () => Promise<T>) => Promise<T>;
}

export class ToolSourceBridge {
  /** With `short` names: prompt names served bare, and the server each is of (from the last prompts/list). */
  private readonly shortPrompts = new Map<string, string>();
  /**
   * With `short` names: the upstream tool names only one registered tool
   * has, kept until the registered tools change (#21 item 1: worked out per
   * call, they copied and sorted every registered tool on each tools/call).
   */
  private unique: Map<string, string> | undefined;
  private readonly offRegistry: (() => void) | undefined;

  constructor(
    readonly source: ToolSource,
    private readonly names: ServedNames = 'alias',
  ) {
    // tools-changed comes with every change of the registered names (a change that alters nothing is not one).
    this.offRegistry = names === 'short' ? source.on('tools-changed', () => (this.unique = undefined)) : undefined;
  }

  /** Stops following the source (serving has ended; the source is the host's). */
  close(): void {
    this.offRegistry?.();
    this.unique = undefined;
  }

  /** The tools `agent` may use (all of them without one), as MCP Tool objects. */
  async listTools(agent: string | undefined): Promise<Tool[]> {
    const listed = await this.source.tools(agent === undefined ? {} : { agent });
    const unique = this.names === 'short' ? this.uniqueUpstreamNames() : undefined;
    return listed.filter((d) => d.available !== false).map((d) => this.toTool(d, unique));
  }

  /** Upstream tool names that only one registered tool has (counted over every server, not one agent's view, so a name does not change with the view). */
  private uniqueUpstreamNames(): Map<string, string> {
    if (this.unique !== undefined) return this.unique;
    const count = new Map<string, number>();
    const canonical = new Map<string, string>();
    for (const d of this.source.registered()) {
      count.set(d.mcp_tool_name, (count.get(d.mcp_tool_name) ?? 0) + 1);
      canonical.set(d.mcp_tool_name, d.name);
    }
    for (const [name, n] of count) if (n > 1) canonical.delete(name);
    // Kept only while something would clear it: before any tool is registered the source may not have announced yet.
    if (this.offRegistry !== undefined && canonical.size > 0) this.unique = canonical;
    return canonical;
  }

  /**
   * The canonical name a served name stands for: a short name maps back; an
   * alias or canonical name is the source's to resolve. Undefined when
   * nothing is registered yet (discover, then ask again: sourceNameAfterDiscovery).
   */
  private sourceName(name: string): string | undefined {
    if (this.names !== 'short' || this.source.resolve(name)) return name;
    const found = this.uniqueUpstreamNames().get(name);
    return found === undefined && this.source.registered().length === 0 ? undefined : (found ?? name);
  }

  /** Nothing discovered yet (a first call before any tools/list): discover, then look again. */
  private async sourceNameAfterDiscovery(name: string): Promise<string> {
    await this.source.discover();
    return this.sourceName(name) ?? name;
  }

  private toTool(d: ListedTool, unique: Map<string, string> | undefined): Tool {
    const name = this.names === 'canonical' ? d.name : unique?.get(d.mcp_tool_name) === d.name ? d.mcp_tool_name : d.alias;
    const tool: Tool = { name, description: d.description, inputSchema: d.parameters as Tool['inputSchema'] };
    if (d.title !== undefined) tool.title = d.title;
    if (Object.keys(d.returns).length > 0) tool.outputSchema = d.returns as Tool['outputSchema'];
    if (d.annotations !== undefined) tool.annotations = d.annotations;
    return tool;
  }

  /**
   * Calls a tool by the name it was served under (either form resolves).
   * An unknown name, or one the agent was not given, is -32602 (MCP
   * 2025-11-25 server/tools "Error Handling": unknown tools are a protocol
   * error); the upstream's JSON-RPC error is passed on as it came; a local
   * failure (timeout, the server down) is a result with isError, which the
   * model can read and act on.
   */
  async callTool(name: string, args: JsonObject, agent: string | undefined, options: BridgeCallOptions): Promise<JsonObject> {
    try {
      const callOptions: ToolCallOptions = { signal: options.signal };
      if (agent !== undefined) callOptions.agent = agent;
      if (options.onProgress) callOptions.onProgress = options.onProgress;
      if (options.within) callOptions.within = options.within;
      const done = await this.source.call(this.sourceName(name) ?? (await this.sourceNameAfterDiscovery(name)), args, callOptions);
      return done.result as JsonObject;
    } catch (error) {
      if (options.signal.aborted) throw error;
      if (error instanceof UnknownToolError) throw new RpcFault(ErrorCodes.InvalidParams, error.message);
      if (error instanceof RpcError) throw new RpcFault(error.rpcCode, error.rpcMessage, error.data);
      if (error instanceof ConfigError) throw new RpcFault(ErrorCodes.InvalidParams, error.message);
      if (error instanceof McpClientError) return { content: [{ type: 'text', text: `${error.name}: ${error.message}` }], isError: true };
      throw error;
    }
  }

  /** The server key of a served tool name, when it is registered. */
  serverOf(name: string): string | undefined {
    const found = this.source.resolve(name) ?? (this.names === 'short' ? this.source.resolve(this.uniqueUpstreamNames().get(name) ?? '') : undefined);
    return found?.mcp_server;
  }

  /** Ready servers whose capabilities include `kind`, in config order. Starting them first, as tools/list would. */
  private async serversWith(kind: 'resources' | 'prompts'): Promise<string[]> {
    await this.source.discover();
    const keys: string[] = [];
    for (const status of this.source.status()) {
      if (status.state !== 'ready') continue;
      const has = await this.source.withServer(status.key, (client) => Promise.resolve(client.profile?.capabilities[kind] !== undefined)).catch(() => false);
      if (has) keys.push(status.key);
    }
    return keys;
  }

  /**
   * Whether resource URIs are served as the upstream sent them: with `short`
   * names, when only one server has resources (no two can collide then);
   * otherwise they are `mcpwire:<key>:<uri>`.
   */
  private async resourceKeys(): Promise<{ keys: string[]; bare: boolean }> {
    const keys = await this.serversWith('resources');
    return { keys, bare: this.names === 'short' && keys.length === 1 };
  }

  /** The server and upstream URI of a served resource URI (or template). */
  async resourceTarget(uri: string): Promise<{ key: string; upstream: string; bare: boolean }> {
    if (this.names === 'short' && !uri.startsWith(URI_SCHEME)) {
      const { keys, bare } = await this.resourceKeys();
      if (bare) return { key: keys[0]!, upstream: uri, bare };
    }
    return { ...upstreamUri(uri), bare: false };
  }

  /** Every server's resources, URIs namespaced. A server whose list fails is left out (K2: its tools still work). */
  async listResources(): Promise<JsonObject[]> {
    const out: JsonObject[] = [];
    const { keys, bare } = await this.resourceKeys();
    for (const key of keys) {
      const listed = await this.source.withServer(key, (c) => c.listResources()).catch(() => undefined);
      for (const r of listed?.resources ?? []) out.push(bare ? r : { ...r, uri: servedUri(key, r.uri) });
    }
    return out;
  }

  async listResourceTemplates(): Promise<JsonObject[]> {
    const out: JsonObject[] = [];
    const { keys, bare } = await this.resourceKeys();
    for (const key of keys) {
      const listed = await this.source.withServer(key, (c) => c.listResourceTemplates()).catch(() => undefined);
      for (const t of listed?.resourceTemplates ?? []) out.push(bare ? t : { ...t, uriTemplate: servedUri(key, t.uriTemplate) });
    }
    return out;
  }

  async readResource(uri: string, signal: AbortSignal): Promise<JsonObject> {
    const { key, upstream, bare } = await this.resourceTarget(uri);
    const result = await this.upstream(() => this.source.withServer(key, (c) => c.readResource(upstream, { signal })));
    if (bare) return result as JsonObject;
    // The contents name the URI they are of: the served form, so a client can match them to what it asked.
    const contents = Array.isArray(result.contents) ? result.contents.map((c) => (typeof c.uri === 'string' ? { ...c, uri: servedUri(key, c.uri) } : c)) : result.contents;
    return { ...result, contents } as JsonObject;
  }

  /** completion/complete, sent to the server whose prompt or resource template the ref names, in that server's own names. */
  async complete(params: Record<string, unknown>, signal: AbortSignal): Promise<JsonObject> {
    const ref = params.ref as Record<string, unknown> | undefined;
    let key: string;
    let upstreamRef: Record<string, unknown>;
    if (ref?.type === 'ref/prompt' && typeof ref.name === 'string') {
      const target = await this.promptTarget(ref.name);
      if (!target) throw new RpcFault(ErrorCodes.InvalidParams, `completion/complete: no prompt "${ref.name}"; prompts/list lists them`);
      key = target.key;
      upstreamRef = { ...ref, name: target.prompt };
    } else if (ref?.type === 'ref/resource' && typeof ref.uri === 'string') {
      const target = await this.resourceTarget(ref.uri);
      key = target.key;
      upstreamRef = { ...ref, uri: target.upstream };
    } else {
      throw new RpcFault(ErrorCodes.InvalidParams, 'completion/complete needs params.ref: {type: "ref/prompt", name} or {type: "ref/resource", uri}');
    }
    return (await this.upstream(() => this.source.withServer(key, (c) => c.request('completion/complete', { ...params, ref: upstreamRef } as JsonObject, { signal })))) as JsonObject;
  }

  /** Every server's prompts, named `<key>.<prompt>` (with `short` names, a prompt no other server has keeps its own name). */
  async listPrompts(): Promise<JsonObject[]> {
    const all: { key: string; prompt: JsonObject & { name: string } }[] = [];
    for (const key of await this.serversWith('prompts')) {
      const listed = await this.source.withServer(key, (c) => c.listPrompts()).catch(() => undefined);
      for (const p of listed?.prompts ?? []) all.push({ key, prompt: p as JsonObject & { name: string } });
    }
    const count = new Map<string, number>();
    for (const { prompt } of all) count.set(prompt.name, (count.get(prompt.name) ?? 0) + 1);
    this.shortPrompts.clear();
    return all.map(({ key, prompt }) => {
      if (this.names === 'short' && count.get(prompt.name) === 1) {
        this.shortPrompts.set(prompt.name, key);
        return prompt;
      }
      return { ...prompt, name: `${key}.${prompt.name}` };
    });
  }

  async getPrompt(name: string, args: Record<string, string> | undefined, signal: AbortSignal): Promise<JsonObject> {
    const target = await this.promptTarget(name);
    if (!target) throw new RpcFault(ErrorCodes.InvalidParams, `no prompt "${name}": served prompts are named <server>.<prompt>${this.names === 'short' ? ' (or their own name, where only one server has it)' : ''}; prompts/list lists them`);
    return (await this.upstream(() => this.source.withServer(target.key, (c) => c.getPrompt(target.prompt, args, { signal })))) as JsonObject;
  }

  /** The server and upstream name of a served prompt name. */
  private async promptTarget(name: string): Promise<{ key: string; prompt: string } | undefined> {
    if (this.names === 'short') {
      if (!this.shortPrompts.has(name)) await this.listPrompts();
      const key = this.shortPrompts.get(name);
      if (key !== undefined) return { key, prompt: name };
    }
    const dot = name.indexOf('.');
    const key = dot > 0 ? name.slice(0, dot) : '';
    return this.source.status().some((s) => s.key === key) ? { key, prompt: name.slice(dot + 1) } : undefined;
  }

  /** An upstream failure as the downstream client should see it. */
  private async upstream<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof RpcError) throw new RpcFault(error.rpcCode, error.rpcMessage, error.data);
      if (error instanceof UnknownToolError) throw new RpcFault(ErrorCodes.InvalidParams, error.message);
      throw error;
    }
  }

  /** Tells `listener` each kind of list that changed upstream; returns the unsubscriber. */
  onChange(listener: (kind: ListChangedKind) => void): () => void {
    const offTools = this.source.on('tools-changed', () => listener('tools'));
    const offOther = this.source.on('list-changed', ({ kind }) => {
      // tools/list_changed arrives as tools-changed, once rediscovery has run and only when something did change.
      if (kind !== 'tools') listener(kind);
    });
    return () => {
      offTools();
      offOther();
    };
  }
}

export function servedUri(key: string, uri: string): string {
  return `${URI_SCHEME}${key}:${uri}`;
}

/** The server key and the upstream's URI of a served one; -32602 when it is not one of ours. */
export function upstreamUri(uri: string): { key: string; upstream: string } {
  const rest = uri.startsWith(URI_SCHEME) ? uri.slice(URI_SCHEME.length) : '';
  const colon = rest.indexOf(':');
  if (colon <= 0) throw new RpcFault(ErrorCodes.InvalidParams, `"${uri}" is not a resource this server lists: its URIs read mcpwire:<server>:<uri>; resources/list lists them`);
  return { key: rest.slice(0, colon), upstream: rest.slice(colon + 1) };
}
