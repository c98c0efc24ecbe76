// What `mcpwire serve` offers, read from a tool source: its tools (filtered,
// per agent, named by alias or canonical name, results capped) as MCP tools;
// the upstream servers' resources and prompts with their URIs and names
// namespaced by server key, so two servers never collide; and the changes
// the source hears, as list_changed kinds. No wire here: protocol.ts speaks.

import type { JsonObject, Tool } from '../client/results.js';
import type { ListChangedKind } from '../client/client.js';
import type { ProgressUpdate } from '../client/connection.js';
import type { ListedTool, ToolSource } from '../toolsource/tool-source.js';
import { ConfigError, McpClientError, RpcError, UnknownToolError } from '../errors.js';
import { ErrorCodes } from '../jsonrpc/codes.js';
import { RpcFault } from './peer.js';

/** How served tools are named: `alias` (provider-safe, `^[a-zA-Z0-9_-]{1,64}$`, the default) or `canonical` (`mcp.<key>.<tool>`). */
export type ServedNames = 'alias' | 'canonical';

/** A resource URI as served: `mcpwire:<key>:<the upstream's URI>` (server keys hold no `:`), so it reads back unambiguously. */
const URI_SCHEME = 'mcpwire:';

export interface BridgeCallOptions {
  signal: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  /** Runs the upstream call inside `within`, at its turn (see ToolCallOptions.within). */
  within?: <T>(run: () => Promise<T>) => Promise<T>;
}

export class ToolSourceBridge {
  constructor(
    readonly source: ToolSource,
    private readonly names: ServedNames = 'alias',
  ) {}

  /** The tools `agent` may use (all of them without one), as MCP Tool objects. */
  async listTools(agent: string | undefined): Promise<Tool[]> {
    const listed = await this.source.tools(agent === undefined ? {} : { agent });
    return listed.filter((d) => d.available !== false).map((d) => this.toTool(d));
  }

  private toTool(d: ListedTool): Tool {
    const tool: Tool = { name: this.names === 'alias' ? d.alias : d.name, description: d.description, inputSchema: d.parameters as Tool['inputSchema'] };
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
      const done = await this.source.call(name, args, {
        signal: options.signal,
        ...(agent === undefined ? {} : { agent }),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(options.within ? { within: options.within } : {}),
      });
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
    return this.source.resolve(name)?.mcp_server;
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

  /** Every server's resources, URIs namespaced. A server whose list fails is left out (K2: its tools still work). */
  async listResources(): Promise<JsonObject[]> {
    const out: JsonObject[] = [];
    for (const key of await this.serversWith('resources')) {
      const listed = await this.source.withServer(key, (c) => c.listResources()).catch(() => undefined);
      for (const r of listed?.resources ?? []) out.push({ ...r, uri: servedUri(key, r.uri) });
    }
    return out;
  }

  async listResourceTemplates(): Promise<JsonObject[]> {
    const out: JsonObject[] = [];
    for (const key of await this.serversWith('resources')) {
      const listed = await this.source.withServer(key, (c) => c.listResourceTemplates()).catch(() => undefined);
      for (const t of listed?.resourceTemplates ?? []) out.push({ ...t, uriTemplate: servedUri(key, t.uriTemplate) });
    }
    return out;
  }

  async readResource(uri: string, signal: AbortSignal): Promise<JsonObject> {
    const { key, upstream } = upstreamUri(uri);
    const result = await this.upstream(() => this.source.withServer(key, (c) => c.readResource(upstream, { signal })));
    // The contents name the URI they are of: the served form, so a client can match them to what it asked.
    const contents = Array.isArray(result.contents) ? result.contents.map((c) => (typeof c.uri === 'string' ? { ...c, uri: servedUri(key, c.uri) } : c)) : result.contents;
    return { ...result, contents } as JsonObject;
  }

  /** Every server's prompts, named `<key>.<prompt>`. */
  async listPrompts(): Promise<JsonObject[]> {
    const out: JsonObject[] = [];
    for (const key of await this.serversWith('prompts')) {
      const listed = await this.source.withServer(key, (c) => c.listPrompts()).catch(() => undefined);
      for (const p of listed?.prompts ?? []) out.push({ ...p, name: `${key}.${p.name}` });
    }
    return out;
  }

  async getPrompt(name: string, args: Record<string, string> | undefined, signal: AbortSignal): Promise<JsonObject> {
    const dot = name.indexOf('.');
    const key = dot > 0 ? name.slice(0, dot) : '';
    if (!this.source.status().some((s) => s.key === key)) throw new RpcFault(ErrorCodes.InvalidParams, `no prompt "${name}": served prompts are named <server>.<prompt>; prompts/list lists them`);
    return (await this.upstream(() => this.source.withServer(key, (c) => c.getPrompt(name.slice(dot + 1), args, { signal })))) as JsonObject;
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
