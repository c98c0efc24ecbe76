// Which tool a command line names (`call`, and `tools NAME`): the tool's own
// name, mcp.<key>.<tool>, <key>.<tool>, an alias, or SERVER TOOL, starting
// only the servers needed to know; a name that resolves to nothing is the
// library's UnknownToolError with the nearest names.

import type { ToolDefinition } from '../toolsource/registry.js';
import { unknownToolError } from '../toolsource/unknown-tool.js';
import { bridgeDefinition, kestrelTools, type AgentTool } from './host-names.js';
import { isKeyValue } from './schema.js';
import { kestrelName } from '../toolsource/kestrel/agent-names.js';
import { sanitize } from '../toolsource/naming.js';
import type { Session } from './session.js';
import { UsageError } from './usage.js';

/**
 * The tool the words name, starting only the servers needed to know: the
 * named server for `mcp.<key>.<tool>`, `<key>.<tool>` and `SERVER TOOL`, every server for a
 * bare name or an alias. A server that cannot start fails the call with its
 * own error (exit 4 for one that will not start).
 */
export async function findTool(session: Session, positionals: readonly string[]): Promise<{ tool: ToolDefinition; words: string[]; agent?: AgentTool & { definition: ToolDefinition | undefined } }> {
  const { source } = session;
  const keys = source.status().map((s) => s.key);
  const [first, second, ...more] = positionals as [string, ...string[]];
  // mcp__<server>__<tool>: a Kestrel agent's name (#18 item 11), a bridge's too, whatever the config's format.
  if (first.startsWith('mcp__') && source.resolve(first) === undefined) return kestrelNamed(session, first, positionals.slice(1));
  // --server KEY: the tool is that server's, by its own name, canonical name or alias; no other server starts.
  const only = session.line.values.server;
  if (only !== undefined) {
    await session.startOrThrow(only);
    const found = source.resolve(first) ?? source.resolve(`mcp.${only}.${first}`);
    if (found?.mcp_server === only) return { tool: found, words: positionals.slice(1) };
    return unknownTool(session, `mcp.${only}.${first}`);
  }
  // SERVER TOOL [ARGS]: the first word is a server's key and the second neither JSON, '-' nor k=v.
  if (second !== undefined && keys.includes(first) && !isArgument(second)) {
    await session.startOrThrow(first);
    const name = `mcp.${first}.${second}`;
    return { tool: source.resolve(name) ?? unknownTool(session, name), words: more };
  }
  const words = positionals.slice(1);
  const named = keys.find((key) => first.startsWith(`mcp.${key}.`));
  if (named !== undefined) {
    await session.startOrThrow(named);
    return { tool: source.resolve(first) ?? unknownTool(session, first), words };
  }
  // KEY.tool (#18 item 12: a saved server's tool, as `mcpwire call github.search_issues`): the longest key that prefixes it.
  const dotted = keys.filter((key) => first.startsWith(`${key}.`) && first.length > key.length + 1).sort((a, b) => b.length - a.length)[0];
  if (dotted !== undefined) {
    await session.startOrThrow(dotted);
    const name = `mcp.${dotted}.${first.slice(dotted.length + 1)}`;
    return { tool: source.resolve(name) ?? unknownTool(session, name), words };
  }
  const failed = await session.start(keys);
  const found = source.resolve(first) ?? byOwnName(session, first);
  if (found) return { tool: found, words };
  // Not found, and a server is down: its failure is the likelier story.
  if (failed.length === keys.length && failed.length > 0) await session.startOrThrow(failed[0]!.key);
  // Two words that are not arguments read as SERVER TOOL: the server is what is unknown.
  if (second !== undefined && !isArgument(second)) return unknownTool(session, `mcp.${first}.${second}`, failed.map((f) => f.key));
  return unknownTool(session, first, failed.map((f) => f.key));
}

function isArgument(word: string): boolean {
  return word === '-' || word.trimStart().startsWith('{') || isKeyValue(word);
}


function byOwnName(session: Session, name: string): ToolDefinition | undefined {
  const matches = session.source.registered().filter((d) => d.mcp_tool_name === name);
  if (matches.length > 1) {
    throw new UsageError(`"${name}" is a tool of ${matches.length} servers; name one: ${matches.map((d) => d.name).join(', ')}`);
  }
  return matches[0];
}

/**
 * The library's UnknownToolError, named as this command reads names: a tool's
 * own name where only one server has it and the caller did not write
 * `mcp.<key>.…`, else the canonical name.
 */
function unknownTool(session: Session, name: string, unavailable: readonly string[] = []): never {
  const known = session.source.registered();
  const servers = session.source.status().map((s) => s.key);
  const shared = (d: ToolDefinition) => known.filter((other) => other.mcp_tool_name === d.mcp_tool_name).length > 1;
  const naming = (d: ToolDefinition) => (name.startsWith('mcp.') || shared(d) ? d.name : d.mcp_tool_name);
  throw unknownToolError(name, known, { naming, unavailable, servers, hint: 'mcpwire tools lists them' });
}

/** A Kestrel name: the servers it may point into are started (all, when it names none), and the agent's tools named as the plugin names them. */
async function kestrelNamed(session: Session, name: string, words: string[]): Promise<{ tool: ToolDefinition; words: string[]; agent: AgentTool & { definition: ToolDefinition | undefined } }> {
  const keys = session.source.status().map((s) => s.key);
  const only = session.line.values.server;
  const pointed = keys.filter((key) => name.startsWith(`mcp__${sanitize(key)}__`));
  const wanted = only !== undefined ? [only] : pointed.length > 0 ? pointed : keys;
  const failed = await session.start(wanted);
  if (failed.length === wanted.length && failed.length > 0) await session.startOrThrow(failed[0]!.key);
  const agent = (await kestrelTools(session, wanted)).find((t) => t.name === name);
  if (agent !== undefined) return { tool: agent.definition ?? bridgeDefinition(agent), words, agent };
  throw unknownToolError(name, session.source.registered(), { naming: (d) => kestrelName(d.mcp_server, d.mcp_tool_name), unavailable: failed.map((f) => f.key), servers: keys, hint: 'mcpwire tools --names kestrel lists them' });
}
