// The error for a call to a name nothing is registered under, with the
// nearest names in the naming scheme of the host that asked: one
// implementation for the tool source, Kestrel's layer and the CLI, so all
// three suggest alike.

import { UnknownToolError } from '../errors.js';
import { nearest } from '../util/suggest.js';
import type { ToolDefinition } from './registry.js';
import { sanitize } from './naming.js';

export interface UnknownToolOptions {
  /**
   * How the host that asked names a tool: the suggestions are in this
   * scheme, and the name asked for is compared with these names (and with
   * the tools' own names). Default: the canonical `mcp.<key>.<tool>`. A
   * Kestrel host passes its `mcp__<server>__<tool>` names; the CLI a tool's
   * own name where only one server has it.
   */
  naming?: (definition: ToolDefinition) => string;
  /** Configured servers that are not available now (failed, restarting, disabled): their tools are not registered. */
  unavailable?: readonly string[];
  /**
   * Every configured server key. With it, a name that points into no
   * configured server (`mcp.<key>.…` or `mcp__<key>__…`) is reported as an
   * unknown server, with the nearest keys.
   */
  servers?: readonly string[];
  /** Said last, in parentheses: where the caller can list the names (the CLI: "mcpwire tools lists them"). */
  hint?: string;
}

/** How many registered names a message lists when none is near the one asked for. */
const LISTED_WHEN_NONE_NEAR = 10;

/**
 * The UnknownToolError for `name`, which resolved to no definition among
 * `registered`: "no tool named X; did you mean A, B?; servers not
 * available: s1", or "no server named K; did you mean J?; configured: …"
 * when the name points into a server that is not configured.
 */
export function unknownToolError(name: string, registered: readonly ToolDefinition[], options: UnknownToolOptions = {}): UnknownToolError {
  const naming = options.naming ?? ((d: ToolDefinition) => d.name);
  const unavailable = [...(options.unavailable ?? [])];
  const keys = [...new Set([...(options.servers ?? []), ...registered.map((d) => d.mcp_server)])];
  const target = pointsInto(name, keys);
  const tail = (parts: string[]) => `${parts.filter(Boolean).join('; ')}${options.hint ? ` (${options.hint})` : ''}`;

  const named = options.servers === undefined || target !== undefined ? undefined : namedServer(name);
  if (named !== undefined) {
    const suggestions = nearest(named, options.servers!);
    const message = tail([
      `no server named "${named}"`,
      suggestions.length ? `did you mean ${suggestions.join(', ')}?` : '',
      `configured: ${options.servers!.join(', ') || '(none)'}`,
    ]);
    return new UnknownToolError({ server: '' }, { tool: name, missing: 'server', suggestions, unavailable, message });
  }

  // The tool's own name against the tools' own names catches a typo a long canonical name would hide (`ecko` for `mcp.fs.echo`).
  const pool = target === undefined ? registered : registered.filter((d) => d.mcp_server === target.key);
  const own = target?.rest ?? name;
  const byOwnName = nearest(own, pool.map((d) => d.mcp_tool_name)).flatMap((tool) => pool.filter((d) => d.mcp_tool_name === tool).map(naming));
  // Against whole host names only when the name names no server: a shared `mcp.<key>.` prefix would stretch the edit budget (a third of the length).
  const byHostName = target === undefined ? nearest(name, registered.map(naming)) : [];
  const suggestions = [...new Set([...byOwnName, ...byHostName])].slice(0, 3);
  const listed = registered.map(naming).sort();
  const message = tail([
    `no tool named "${name}"`,
    suggestions.length
      ? `did you mean ${suggestions.join(', ')}?`
      : listed.length
        ? `tools: ${listed.slice(0, LISTED_WHEN_NONE_NEAR).join(', ')}${listed.length > LISTED_WHEN_NONE_NEAR ? ', …' : ''}`
        : unavailable.length ? '' : 'no tools are registered',
    unavailable.length ? `servers not available: ${unavailable.join(', ')}` : '',
  ]);
  return new UnknownToolError({ server: target?.key ?? '' }, { tool: name, missing: 'tool', suggestions, unavailable, message });
}

/**
 * The UnknownToolError for a server key nothing is configured under (the
 * CLI's `--server nope`): the same error, and so the same exit status, as a
 * tool name that points into no server.
 */
export function unknownServerError(key: string, servers: readonly string[], hint?: string): UnknownToolError {
  const suggestions = nearest(key, servers);
  const parts = [`no server named "${key}"`, suggestions.length ? `did you mean ${suggestions.join(', ')}?` : '', `configured: ${servers.join(', ') || '(none)'}`];
  const message = `${parts.filter(Boolean).join('; ')}${hint ? ` (${hint})` : ''}`;
  return new UnknownToolError({ server: '' }, { tool: key, missing: 'server', suggestions, unavailable: [], message });
}

/** The configured server a name's prefix names (the longest such key), and the rest of the name. */
function pointsInto(name: string, keys: readonly string[]): { key: string; rest: string } | undefined {
  let found: { key: string; rest: string } | undefined;
  for (const key of keys) {
    for (const prefix of [`mcp.${key}.`, `mcp__${sanitize(key)}__`]) {
      if (name.startsWith(prefix) && (found === undefined || key.length > found.key.length)) found = { key, rest: name.slice(prefix.length) };
    }
  }
  return found;
}

/** The server key a name of the form `mcp.<key>.<tool>` or `mcp__<key>__<tool>` names, when it has that form. */
function namedServer(name: string): string | undefined {
  return /^mcp\.([^.]+)\../.exec(name)?.[1] ?? /^mcp__(.+?)__./.exec(name)?.[1];
}
