// The tool registry (R1–R3, ADR-0043 §2): each discovered MCP tool as a
// ToolDefinition named `mcp.<key>.<tool>`, filtered by the server's
// allow/deny globs at registration (deny wins; `enabled: false` registers
// nothing), with a provider-safe alias for each, and per-agent resolution of
// a `tools:` block. Names no host can use, and a server's second tool of one
// name, are refused and reported; each discovery says what it changed, so a
// rediscovery of the same tools says nothing.

import type { JsonObject, Tool, ToolAnnotations } from '../client/results.js';
import { excerpt } from '../diagnostics.js';
import type { AgentToolRules, ToolFilter } from './config/types.js';
import type { ToolDrift } from './pins/review.js';
import { assignAliases, canonicalName, globToRegExp, matchesAny, TOOL_NAMESPACE, toolNameProblem, type AliasReport, type ToolNameProblem } from './naming.js';

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

/** A tool a server listed that was not registered, and why (MCP 2025-11-25, server/tools, "Tool names"). */
export interface RejectedTool {
  /** The name as the server sent it, cut past 200 characters (it may hold control characters: escape it before printing). */
  tool: string;
  /** `duplicate`: a tool of the same name came earlier in the list, and that first one is kept. */
  why: 'duplicate' | ToolNameProblem;
}

/**
 * What one discovery of a server changed. Discovering the same tools again
 * (a restart, a list_changed that changed nothing) gives an empty change:
 * see isEmptyChange.
 */
export interface ToolsChange {
  server: string;
  /** Canonical names registered now that were not before. */
  added: string[];
  /** Canonical names no longer registered. */
  removed: string[];
  /**
   * Canonical names registered before and now whose definition differs: the
   * description, title, annotations, either schema, or the alias. An alias can
   * change when a colliding name joins or leaves, so this may name tools of
   * another server.
   */
  changed: string[];
  /**
   * Aliases that took a hash suffix (a collision, or a name past 64
   * characters) and are new or differ from the last report: an alias
   * reported once is not reported again while it stays the same. It may
   * name tools of another server, for the same reason as `changed`.
   */
  adjusted: AliasReport['adjusted'];
  /** Tools of this discovery that were not registered; every discovery reports its own. */
  rejected: RejectedTool[];
  /**
   * The listing differs from the server's pinned definitions (SPEC G2):
   * changed (with a diff), added, renamed, and what `block` withheld. Present
   * once per distinct finding, not at every rediscovery.
   */
  pins?: ToolDrift;
}

/** Whether a change has nothing for a host to show or re-read (`rejected` aside: it is a diagnostic, not a change). */
export function isEmptyChange(change: ToolsChange): boolean {
  return change.added.length === 0 && change.removed.length === 0 && change.changed.length === 0 && change.adjusted.length === 0 && change.pins === undefined;
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

  /**
   * Replaces one server's tools with what discovery found: names that cannot
   * be registered and later duplicates are refused (the first of a name is
   * kept), the rest filtered; every alias is recomputed over the new set.
   */
  setServerTools(server: string, tools: readonly Tool[], filter: CompiledFilter): ToolsChange {
    const previous = new Map([...this.byName].map(([name, d]) => [name, { ...d }]));
    const previousAdjusted = new Map(this.adjusted.map((a) => [a.canonical, a.alias]));
    const before = new Set((this.byServer.get(server) ?? []).map((d) => d.name));
    const { valid, rejected } = validTools(tools);
    const definitions = valid.filter((tool) => filter.accepts(tool.name)).map((tool) => define(server, tool));
    this.byServer.set(server, definitions);
    this.reindex();
    const after = new Set(definitions.map((d) => d.name));
    const changed: string[] = [];
    for (const [name, now] of this.byName) {
      const then = previous.get(name);
      if (then !== undefined && !sameDefinition(then, now)) changed.push(name);
    }
    return {
      server,
      added: [...after].filter((name) => !before.has(name)),
      removed: [...before].filter((name) => !after.has(name)),
      changed: changed.sort(),
      adjusted: this.adjusted.filter((a) => previousAdjusted.get(a.canonical) !== a.alias),
      rejected,
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

/** The tools that can be registered, in order, and why the others cannot. */
function validTools(tools: readonly Tool[]): { valid: Tool[]; rejected: RejectedTool[] } {
  const seen = new Set<string>();
  const valid: Tool[] = [];
  const rejected: RejectedTool[] = [];
  for (const tool of tools) {
    const problem = toolNameProblem(tool.name);
    // A name can be megabytes long: what is reported is bounded like any diagnostic excerpt.
    if (problem !== undefined) rejected.push({ tool: excerpt(tool.name), why: problem });
    else if (seen.has(tool.name)) rejected.push({ tool: tool.name, why: 'duplicate' });
    else {
      seen.add(tool.name);
      valid.push(tool);
    }
  }
  return { valid, rejected };
}

/** What a host shows or hands a model; `name`, `mcp_server` and `mcp_tool_name` are equal by construction. */
function sameDefinition(a: ToolDefinition, b: ToolDefinition): boolean {
  return (
    a.alias === b.alias &&
    a.description === b.description &&
    a.title === b.title &&
    sameJson(a.annotations, b.annotations) &&
    sameJson(a.parameters, b.parameters) &&
    sameJson(a.returns, b.returns)
  );
}

/** Deep equality of JSON values; object keys in any order (a server may list them differently each time). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, i) => sameJson(item, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((key) => Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
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
