// How a Kestrel host's agent sees an MCP server's tools (R4, K1, K2): each
// tool as `mcp__<server>__<tool>`, made provider-safe and unique, and the
// bridge tools a server with resources or prompts gets. One definition for
// the plugin (plugin.ts) and for `mcpwire tools --names kestrel`, so the two
// cannot name a tool differently.

import type { JsonObject, Prompt, Resource } from '../../client/results.js';
import { assignNames, sanitize, type AliasReport } from '../naming.js';
import type { Approval } from './config.js';

export type BridgeName = 'list_resources' | 'read_resource' | 'list_prompts' | 'get_prompt';

const NOTHING: JsonObject = { type: 'object', properties: {} };

export interface BridgeTool {
  /** The capability a server must declare (and list without error) to get this bridge. */
  capability: 'resources' | 'prompts';
  description: string;
  parameters: JsonObject;
  /** A listing is always `auto`; reading or rendering takes the server's approval. */
  permission: (serverApproval: Approval) => Approval;
}

/** The bridges, in the order the plugin offers them. */
export const BRIDGE_TOOLS: Readonly<Record<BridgeName, BridgeTool>> = {
  list_resources: { capability: 'resources', description: 'List the resources this server offers: URIs, names and MIME types.', parameters: NOTHING, permission: () => 'auto' },
  read_resource: {
    capability: 'resources',
    description: 'Read one resource by URI: text is returned, binary content is described by size.',
    parameters: { type: 'object', properties: { uri: { type: 'string', description: 'The resource URI' } }, required: ['uri'] },
    permission: (approval) => approval,
  },
  list_prompts: { capability: 'prompts', description: 'List the prompt templates this server offers, with their arguments.', parameters: NOTHING, permission: () => 'auto' },
  get_prompt: {
    capability: 'prompts',
    description: 'Render a prompt template into [role] text blocks.',
    parameters: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The prompt name' }, arguments: { type: 'object', additionalProperties: { type: 'string' } } },
      required: ['name'],
    },
    permission: (approval) => approval,
  },
};

/** A tool's name as Kestrel's agents see it, before collisions are resolved (R4). */
export function kestrelName(server: string, tool: string): string {
  return sanitize(`mcp__${server}__${tool}`);
}

/** The agent's names for `entries` (`id`: a tool's canonical name, or `bridge:<server>:<bridge>`), unique and provider-safe. */
export function kestrelAgentNames(entries: Iterable<{ id: string; server: string; tool: string }>): AliasReport {
  return assignNames([...entries].map((e) => [e.id, kestrelName(e.server, e.tool)] as const));
}

/** The description an agent reads: the server's name in brackets first. */
export function kestrelDescription(server: string, description: string): string {
  return `[MCP:${server}] ${description}`;
}

/** One line of list_resources' answer. */
export function describeResource(r: Resource): string {
  return `${r.uri} — ${r.name}${r.mimeType ? ` (${r.mimeType})` : ''}`;
}

/** One line of list_prompts' answer. */
export function describePrompt(p: Prompt): string {
  const args = (p.arguments ?? []).map((a) => `${a.name}${a.required ? '' : '?'}`).join(', ');
  return `${p.name}(${args})${p.description ? ` — ${p.description}` : ''}`;
}
