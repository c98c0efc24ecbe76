// The pin policy (SPEC G2): a server's listing compared with its pinned
// definitions, tool by tool, before anything of it is registered. Under
// `block` what changed, what is new and what was renamed is withheld; under
// `warn` it is offered and reported; `off` compares nothing. A pure function
// of the listing and the pins: the tool source applies it, the CLI reports it.

import type { Tool } from '../../client/results.js';
import { toolNameProblem } from '../naming.js';
import { coveredDefinition, fingerprintTool } from './canonical.js';
import { diffDefinitions, renderDiff, type DefinitionDiff } from './diff.js';
import type { PinnedServer, PinnedTool } from './store.js';

/** Per server: `off` compares nothing; `warn` (the default) offers every tool and reports drift; `block` withholds drifted tools until approved. */
export type PinPolicy = 'off' | 'warn' | 'block';

export const DEFAULT_PIN_POLICY: PinPolicy = 'warn';

export const PIN_POLICIES: readonly PinPolicy[] = ['off', 'warn', 'block'];

/** How one server's listing differs from its pins. Tool names are the server's own. */
export interface ToolDrift {
  server: string;
  policy: 'warn' | 'block';
  /** Pinned under the same name; the definition differs (the diff says where). */
  changed: { tool: string; diff: DefinitionDiff }[];
  /** Not pinned, and not a rename of a pinned tool. */
  added: string[];
  /** A pinned tool that is no longer listed, and a new one with exactly its definition but the name. */
  renamed: { from: string; to: string }[];
  /** Pinned and no longer listed (not renamed): informational, nothing is offered for it. */
  removed: string[];
  /** Under `block`, what is not offered until approved (changed, added, renamed's new names); empty under `warn`. */
  withheld: string[];
  /** Nothing was ever pinned for this server (under `block`: every tool is withheld until `mcpwire pin`). */
  unpinned: boolean;
  /** The same, for a person: describeDrift's lines (server text escaped). */
  text: string[];
}

export interface Review {
  /** What goes on to registration: the listing minus what is withheld, in the server's order. */
  offered: Tool[];
  /** Undefined when nothing differs from the pins (or policy is off, or warn with nothing pinned). */
  drift: ToolDrift | undefined;
}

/**
 * Reviews one listing. `accepts` is the server's allow/deny filter: a tool it
 * drops is never offered, so it is not reviewed (and passes through, to be
 * dropped by the registry as before). Names the registry will refuse
 * (empty, control characters, second of a name) pass through unreviewed too.
 */
export function reviewTools(server: string, tools: readonly Tool[], pinned: PinnedServer | undefined, policy: PinPolicy, accepts: (name: string) => boolean = () => true): Review {
  if (policy === 'off' || (pinned === undefined && policy === 'warn')) return { offered: [...tools], drift: undefined };
  const known = pinned?.tools ?? {};
  const seen = new Set<string>();
  const reviewed: { tool: Tool; fingerprint: string; body: string }[] = [];
  for (const tool of tools) {
    if (toolNameProblem(tool.name) !== undefined || seen.has(tool.name) || !accepts(tool.name)) continue;
    seen.add(tool.name);
    reviewed.push({ tool, ...fingerprintTool(coveredDefinition(tool)) });
  }
  const changed: ToolDrift['changed'] = [];
  const fresh: typeof reviewed = [];
  for (const entry of reviewed) {
    const then = Object.hasOwn(known, entry.tool.name) ? known[entry.tool.name]! : undefined;
    if (then === undefined) fresh.push(entry);
    else if (then.fingerprint !== entry.fingerprint) changed.push({ tool: entry.tool.name, diff: diffDefinitions(then.definition, coveredDefinition(entry.tool)) });
  }
  // A rename: a pinned name gone, and a new name with exactly its definition otherwise. Each vanished tool explains one newcomer.
  const vanished = Object.keys(known).filter((name) => !seen.has(name) && accepts(name));
  const unclaimed = new Set(vanished);
  const renamed: ToolDrift['renamed'] = [];
  const added: string[] = [];
  for (const entry of fresh) {
    const from = [...unclaimed].find((name) => known[name]!.body === entry.body);
    if (from === undefined) added.push(entry.tool.name);
    else {
      unclaimed.delete(from);
      renamed.push({ from, to: entry.tool.name });
    }
  }
  const removed = [...unclaimed];
  if (changed.length === 0 && added.length === 0 && renamed.length === 0 && removed.length === 0 && pinned !== undefined) return { offered: [...tools], drift: undefined };
  const withheld = policy === 'block' ? [...changed.map((c) => c.tool), ...added, ...renamed.map((r) => r.to)] : [];
  const held = new Set(withheld);
  const drift: ToolDrift = { server, policy, changed, added, renamed, removed, withheld, unpinned: pinned === undefined, text: [] };
  drift.text = describeDrift(drift);
  return { offered: tools.filter((tool) => !held.has(tool.name)), drift };
}

/** True when `drift` reports nothing a person must look at. */
export function isNoDrift(drift: ToolDrift | undefined): boolean {
  return drift === undefined || (drift.changed.length === 0 && drift.added.length === 0 && drift.renamed.length === 0 && drift.removed.length === 0);
}

/**
 * A new record for the server: the pins as they were with the listed tools
 * approved. `only` approves one tool (its current definition; for a tool
 * recognised as a rename, the old name's pin goes); without it the record
 * becomes exactly the listing (tools no longer listed are dropped).
 */
export function approve(pinned: PinnedServer | undefined, tools: readonly Tool[], options: { only?: string; accepts?: (name: string) => boolean } = {}): PinnedServer {
  const accepts = options.accepts ?? (() => true);
  const pin = (tool: Tool): PinnedTool => {
    const definition = structuredClone(coveredDefinition(tool));
    return { ...fingerprintTool(definition), definition };
  };
  const listed = tools.filter((tool, index) => toolNameProblem(tool.name) === undefined && accepts(tool.name) && tools.findIndex((t) => t.name === tool.name) === index);
  if (options.only === undefined) return { tools: Object.fromEntries(listed.map((tool) => [tool.name, pin(tool)])) };
  const tool = listed.find((t) => t.name === options.only);
  const next: Record<string, PinnedTool> = { ...(pinned?.tools ?? {}) };
  if (tool === undefined) {
    // Approving a tool that is gone: its pin goes (the person accepts that it vanished).
    delete next[options.only];
    return { tools: next };
  }
  const drift = reviewTools('', tools, pinned, 'block', accepts).drift;
  const from = drift?.renamed.find((r) => r.to === tool.name)?.from;
  if (from !== undefined) delete next[from];
  next[tool.name] = pin(tool);
  return { tools: next };
}

/** The drift for a person: one line per finding, then each change's diff, indented. Server text is escaped (see renderDiff). */
export function describeDrift(drift: Omit<ToolDrift, 'text'>): string[] {
  const lines: string[] = [];
  const name = (tool: string) => JSON.stringify(tool);
  if (drift.unpinned) lines.push(`${drift.server}: nothing pinned yet${drift.policy === 'block' ? '; every tool is withheld until approved (mcpwire pin, or mcpwire trust ' + drift.server + ')' : ''}`);
  for (const change of drift.changed) {
    lines.push(`${drift.server}: tool ${name(change.tool)} changed since it was pinned${drift.policy === 'block' ? ' (withheld)' : ''}`);
    lines.push(...renderDiff(change.diff, '    '));
  }
  for (const r of drift.renamed) lines.push(`${drift.server}: tool ${name(r.from)} was renamed ${name(r.to)} (same definition)${drift.policy === 'block' ? ' (withheld)' : ''}`);
  if (!drift.unpinned) for (const tool of drift.added) lines.push(`${drift.server}: tool ${name(tool)} is new${drift.policy === 'block' ? ' (withheld)' : ''}`);
  for (const tool of drift.removed) lines.push(`${drift.server}: tool ${name(tool)} is no longer listed`);
  return lines;
}

/** Why one withheld tool is withheld, in a sentence that says how to approve it (Kestrel's `ask` reason). */
export function withheldReason(drift: Omit<ToolDrift, 'text'>, tool: string): string | undefined {
  const approveWith = `approve it with: mcpwire trust ${drift.server} ${tool}`;
  const change = drift.changed.find((c) => c.tool === tool);
  if (change) {
    const where = change.diff.changes.map((c) => c.pointer || '/').slice(0, 5);
    const more = change.diff.changes.length > 5 ? ` and ${change.diff.changes.length - 5} more` : '';
    return `the definition of ${tool} changed since it was approved (${where.join(', ')}${more}); ${approveWith}`;
  }
  const rename = drift.renamed.find((r) => r.to === tool);
  if (rename) return `${tool} appeared with the definition of ${rename.from}, which vanished (a rename); ${approveWith}`;
  if (drift.added.includes(tool)) return `${tool} is ${drift.unpinned ? 'not pinned (nothing of this server is)' : 'new since the tools were pinned'}; ${approveWith}`;
  return undefined;
}
