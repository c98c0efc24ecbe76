// The tool registry (R1–R3, ADR-0043 §2): each discovered MCP tool as a
// ToolDefinition named `mcp.<key>.<tool>`, filtered by the server's
// allow/deny globs at registration (deny wins; `enabled: false` registers
// nothing), with a provider-safe alias for each, and per-agent resolution of
// a `tools:` block.

import type { JsonObject, Tool, ToolAnnotations } from '../client/results.js';
import type { AgentToolRules, ToolFilter } from './config/types.js';
import { assignAliases, canonicalName, globToRegExp, matchesAny, TOOL_NAMESPACE, type AliasReport } from './naming.js';

/** A tool as ADR-0043 §2 defines it, plus the provider-safe alias. */
export interface ToolDefinition {
  /** `mcp.<key>.<tool>` */
  name: string;
  /** Matches `^[a-zA-Z0-9_-]{1,64}$`; resolves back to `name` through the registry. */
  alias: string;
  namespace: typeof TOOL_NAMESPACE;
  description: string;
  /** The tool's inputSchema. */
  parameters: JsonObject;
  /** The tool's outputSchema, or `{}`. */
  returns: JsonObject;
  /** Host-side requirements (ADR-0043 ToolRequirement); MCP tools declare none. */
  requires: readonly unknown[];
  source: 'mcp';
  mcp_server: string;
  mcp_tool_name: string;
  title?: string;
  annotations?: ToolAnnotations;
}

/** What changed for one server's tools. */
export interface ToolsChange {
  server: string;
  added: string[];
  removed: string[];
  /** Aliases that had to take a hash suffix (a collision, or a name past 64 characters). */
  adjusted: AliasReport['adjusted'];
}

export interface CompiledFilter {
  accepts(toolName: string): boolean;
}

/** R2: nothing when disabled; else the allow globs (every tool when absent), minus the deny globs. */
export function compileFilter(filter: ToolFilter): CompiledFilter {
  if (!filter.enabled) return { accepts: () => false };
  const allow = filter.allow?.map(globToRegExp);
  const deny = filter.deny.map(globToRegExp);
  return { accepts: (name) => (allow === undefined || matchesAny(name, allow)) && !matchesAny(name, deny) };
}

export class ToolRegistry {
  private readonly byServer = new Map<string, ToolDefinition[]>();
  private readonly byName = new Map<string, ToolDefinition>();
  private readonly byAlias = new Map<string, ToolDefinition>();
  private adjusted: AliasReport['adjusted'] = [];

  /** Replaces one server's tools with what discovery found, filtered; every alias is recomputed over the new set. */
  setServerTools(server: string, tools: readonly Tool[], filter: CompiledFilter): ToolsChange {
    const before = new Set((this.byServer.get(server) ?? []).map((d) => d.name));
    const definitions = tools.filter((tool) => filter.accepts(tool.name)).map((tool) => define(server, tool));
    this.byServer.set(server, definitions);
    this.reindex();
    const after = new Set(definitions.map((d) => d.name));
    return {
      server,
      added: [...after].filter((name) => !before.has(name)),
      removed: [...before].filter((name) => !after.has(name)),
      adjusted: this.adjusted.filter((a) => after.has(a.canonical)),
    };
  }

  /** Every registered tool, sorted by name. */
  list(): ToolDefinition[] {
    return [...this.byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** How many tools of one server are registered. */
  countFor(server: string): number {
    return this.byServer.get(server)?.length ?? 0;
  }

  /** A canonical name or an alias. */
  resolve(name: string): ToolDefinition | undefined {
    return this.byName.get(name) ?? this.byAlias.get(name);
  }

  private reindex(): void {
    this.byName.clear();
    this.byAlias.clear();
    const all = [...this.byServer.values()].flat();
    const { aliases, adjusted } = assignAliases(all.map((d) => d.name));
    this.adjusted = adjusted;
    for (const definition of all) {
      definition.alias = aliases.get(definition.name)!;
      this.byName.set(definition.name, definition);
      this.byAlias.set(definition.alias, definition);
    }
  }
}

function define(server: string, tool: Tool): ToolDefinition {
  const definition: ToolDefinition = {
    name: canonicalName(server, tool.name),
    alias: '',
    namespace: TOOL_NAMESPACE,
    description: tool.description ?? '',
    parameters: tool.inputSchema,
    returns: tool.outputSchema ?? {},
    requires: [],
    source: 'mcp',
    mcp_server: server,
    mcp_tool_name: tool.name,
  };
  if (tool.title !== undefined) definition.title = tool.title;
  if (tool.annotations !== undefined) definition.annotations = tool.annotations;
  return definition;
}

/**
 * R3: whether an agent's `tools:` block enables a tool. Entries are read in
 * order and the last one that matches decides, so a later entry overrides
 * an earlier one; a tool no entry matches is not enabled (agents opt in). An
 * entry matches a tool when it is the tool's name, `mcp` or `mcp.<key>`
 * (the namespace or the whole server), or a glob (`*`, `?`) over the name.
 */
export function enabledForAgent(definition: ToolDefinition, rules: AgentToolRules): boolean {
  let enabled = false;
  for (const [pattern, rule] of rules) if (ruleMatches(pattern, definition)) enabled = rule.enabled;
  return enabled;
}

function ruleMatches(pattern: string, definition: ToolDefinition): boolean {
  if (pattern === definition.name || pattern === TOOL_NAMESPACE || pattern === `${TOOL_NAMESPACE}.${definition.mcp_server}`) return true;
  return (pattern.includes('*') || pattern.includes('?')) && globToRegExp(pattern).test(definition.name);
}
