// The names a host gives the tools (#18 item 11): kaged's `mcp.<key>.<tool>`,
// Kestrel's `mcp__<server>__<tool>` with its `[MCP:…]` descriptions,
// permissions and resource/prompt bridges (src/toolsource/kestrel/
// agent-names.ts, the plugin's own rules), or the servers' own names. A
// Kestrel config is shown as Kestrel's agent sees it unless --names says
// otherwise; `call` takes a Kestrel name (a bridge too) whatever the config.

import type { McpClient } from '../client/client.js';
import type { JsonObject } from '../client/results.js';
import type { ToolDefinition } from '../toolsource/registry.js';
import { BRIDGE_TOOLS, describePrompt, describeResource, kestrelAgentNames, kestrelDescription, type BridgeName } from '../toolsource/kestrel/agent-names.js';
import type { Approval } from '../toolsource/kestrel/config.js';
import type { KestrelTool } from '../toolsource/kestrel/plugin.js';
import type { Session } from './session.js';
import { UsageError } from './usage.js';

export type NameScheme = 'kaged' | 'kestrel' | 'raw';

/** --names, checked; else `kestrel` for a Kestrel config; undefined: the listing's usual form (own names under each server). */
export function nameScheme(session: Session): NameScheme | undefined {
  const given = session.line.values.names;
  if (given !== undefined) {
    if (given !== 'kaged' && given !== 'kestrel' && given !== 'raw') throw new UsageError(`--names takes kaged, kestrel or raw, got "${given.slice(0, 20)}"`);
    return given;
  }
  return session.source.config.format === 'kestrel' ? 'kestrel' : undefined;
}

/** A tool as a Kestrel agent sees it: the plugin's KestrelTool without execute (the CLI calls through its own session). */
export type AgentTool = Omit<KestrelTool, 'execute'>;

/** Each server's `approval` in a Kestrel config (`ask` unless set); another format has none: Kestrel's default, `ask`. */
async function approvals(session: Session): Promise<ReadonlyMap<string, Approval>> {
  const config = session.source.config;
  if (config.format !== 'kestrel') return new Map();
  const { loadKestrelConfigFile } = await import('../toolsource/kestrel/config.js');
  return loadKestrelConfigFile(config.file).approvals;
}

/**
 * The agent's tools of the started servers among `servers`: their tools and
 * the bridges of those that declare resources or prompts and list them
 * without error (as the plugin decides), named by the plugin's rules, sorted.
 */
export async function kestrelTools(session: Session, servers: readonly string[]): Promise<(AgentTool & { definition: ToolDefinition | undefined })[]> {
  const approval = await approvals(session);
  const ready = session.source.status().filter((s) => servers.includes(s.key) && s.state === 'ready').map((s) => s.key);
  const of = (server: string): Approval => approval.get(server) ?? 'ask';
  type Draft = Omit<AgentTool, 'name'> & { id: string; definition: ToolDefinition | undefined };
  const drafts: Draft[] = session.source
    .registered()
    .filter((d) => ready.includes(d.mcp_server))
    .map((d) => ({ id: d.name, description: kestrelDescription(d.mcp_server, d.description), category: 'mcp', permission: of(d.mcp_server), parameters: d.parameters, server: d.mcp_server, tool: d.mcp_tool_name, bridge: undefined, definition: d }));
  const extras = await Promise.all(ready.map((server) => session.source.withServer(server, (client) => bridgesOf(client)).catch(() => [] as BridgeName[])));
  ready.forEach((server, i) => {
    for (const bridge of extras[i]!) {
      const spec = BRIDGE_TOOLS[bridge];
      drafts.push({ id: `bridge:${server}:${bridge}`, description: kestrelDescription(server, spec.description), category: 'mcp', permission: spec.permission(of(server)), parameters: spec.parameters, server, tool: bridge, bridge, definition: undefined });
    }
  });
  const { aliases } = kestrelAgentNames(drafts);
  return drafts.map(({ id, ...rest }) => ({ name: aliases.get(id)!, ...rest })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The bridges a server gets: a list that fails means no bridge for it, as in the plugin. */
async function bridgesOf(client: McpClient): Promise<BridgeName[]> {
  const capabilities = client.profile?.capabilities ?? {};
  const lists = async (has: unknown, list: () => Promise<unknown>) => {
    if (!has) return false;
    try {
      await list();
      return true;
    } catch {
      return false;
    }
  };
  const bridges: BridgeName[] = [];
  if (await lists(capabilities.resources, () => client.listResources())) bridges.push('list_resources', 'read_resource');
  if (await lists(capabilities.prompts, () => client.listPrompts())) bridges.push('list_prompts', 'get_prompt');
  return bridges;
}

/** A bridge as a definition `call` and the tool view can take (its parameters, its name as the tool's). */
export function bridgeDefinition(tool: AgentTool): ToolDefinition {
  return { name: tool.name, alias: tool.name, namespace: 'mcp', description: tool.description, parameters: tool.parameters, returns: {}, requires: [], source: 'mcp', mcp_server: tool.server, mcp_tool_name: tool.name };
}

/** What a bridge tool answers the agent: the plugin's text, for a call of it by name. */
export async function runBridge(session: Session, tool: AgentTool, args: Record<string, unknown>): Promise<string> {
  const { flattenResource, renderPrompt } = await import('../toolsource/kestrel/flatten.js');
  const text = (key: string) => {
    const value = args[key];
    if (typeof value !== 'string' || value === '') throw new UsageError(`${tool.name} needs ${key}=… (a non-empty string)`);
    return value;
  };
  return session.source.withServer(tool.server, async (client) => {
    switch (tool.bridge) {
      case 'list_resources':
        return (await client.listResources()).resources.map(describeResource).join('\n') || '(no resources)';
      case 'read_resource':
        return flattenResource(await client.readResource(text('uri')));
      case 'list_prompts':
        return (await client.listPrompts()).prompts.map(describePrompt).join('\n') || '(no prompts)';
      case 'get_prompt': {
        const given = args.arguments;
        if (given !== undefined && (typeof given !== 'object' || given === null || !Object.values(given).every((v) => typeof v === 'string'))) throw new UsageError(`${tool.name}: arguments must be a JSON object of strings`);
        return renderPrompt(await client.getPrompt(text('name'), given as Record<string, string> | undefined));
      }
      default:
        throw new Error(`not a bridge: ${tool.name}`);
    }
  });
}
