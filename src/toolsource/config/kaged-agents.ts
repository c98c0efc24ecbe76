// Reads the per-agent `tools:` blocks of a kaged project (R3, ADR-0043 §2):
// `primary.tools` and each `subagents.<name>.tools`, every entry a pattern
// mapped to `{ enabled: boolean }`, kept in file order. All entries are kept,
// not only `mcp.*` ones: the host resolves the rest, and order may matter to it.

import type { AgentToolRules } from './types.js';
import { checkAgentRule } from './kaged-schema.js';
import type { KeyPath, YamlSource } from './yaml-source.js';
import type { ConfigError } from '../../errors.js';
import { isObject } from '../../jsonrpc/message.js';

export type Fail = (path: KeyPath, detail: string) => ConfigError;

export function readAgentRules(project: YamlSource, fail: Fail): Record<string, AgentToolRules> {
  const doc = isObject(project.value) ? project.value : {};
  const agents: Record<string, AgentToolRules> = {};
  const add = (name: string, agentPath: KeyPath) => {
    const toolsPath = [...agentPath, 'tools'];
    const rules = readTools(project, toolsPath, fail);
    if (rules === undefined) return;
    if (Object.hasOwn(agents, name)) throw fail(agentPath, `the agent "${name}" is declared twice; give each subagent its own name`);
    agents[name] = rules;
  };

  const primary = doc.primary;
  if (isObject(primary)) add('primary', ['primary']);
  // ADR-0043 §2's example indents `subagents:` under `primary:` while its prose reads it as a sibling;
  // both layouts are read, and a name found in both is an error rather than a silent pick.
  for (const base of [['subagents'], ['primary', 'subagents']] as const) {
    const subagents = base.length === 1 ? doc.subagents : isObject(primary) ? primary.subagents : undefined;
    if (!isObject(subagents)) continue;
    for (const [name, agent] of Object.entries(subagents)) if (isObject(agent)) add(name, [...base, name]);
  }
  return agents;
}

function readTools(project: YamlSource, at: KeyPath, fail: Fail): AgentToolRules | undefined {
  const entries = project.entries(at);
  if (entries === undefined) {
    const raw = valueAt(project.value, at);
    if (raw === undefined || raw === null) return undefined;
    throw fail(at, 'expected a mapping of tool patterns to { enabled: true } or { enabled: false }');
  }
  return entries.map(([pattern, value]) => {
    const checked = checkAgentRule(value);
    if (!checked.ok) throw fail([...at, pattern, ...checked.problem.path], checked.problem.detail);
    return [pattern, { enabled: checked.value.enabled }] as const;
  });
}

function valueAt(value: unknown, path: KeyPath): unknown {
  let at = value;
  for (const segment of path) at = isObject(at) ? at[segment] : undefined;
  return at;
}

