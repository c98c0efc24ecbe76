// Structural checks of the results McpClient consumes. A result that fails
// one is a ProtocolError; a result that passes is handed back as the
// server's own object, unknown keys included (transcripts compare it by deep
// equality). Hand-written rather than zod: they run on every call.

import { isObject } from '../jsonrpc/message.js';

/** Protocol versions this client speaks, newest first (L1). */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];

export type JsonObject = Record<string, unknown>;

// --- the MCP types the client hands back (MCP 2025-11-25 schema) ------------------
// Each extends JsonObject: keys this client does not know are kept, not dropped.

export interface Implementation extends JsonObject {
  name: string;
  version: string;
  title?: string;
}

export interface ServerCapabilities extends JsonObject {
  tools?: { listChanged?: boolean } & JsonObject;
  resources?: { subscribe?: boolean; listChanged?: boolean } & JsonObject;
  prompts?: { listChanged?: boolean } & JsonObject;
  logging?: JsonObject;
  completions?: JsonObject;
  experimental?: JsonObject;
}

/** The syslog severities of MCP logging (RFC 5424), least severe first. */
export const LOGGING_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

/** The wire form of the 2025 handshake's answer. Hosts read a ServerProfile instead. */
export interface InitializeResult extends JsonObject {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

/** What the client knows about the server once the handshake is done, whichever handshake it was. */
export interface ServerProfile {
  /** 'modern' for a 2026-07-28 connection (#17); absent means legacy (the profile is then what initialize said). client.era reads it. */
  era?: 'legacy' | 'modern';
  protocolVersion: string;
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions?: string;
  /** Modern era: the versions server/discover listed. */
  supportedVersions?: string[];
  /** Modern era: how long (ms) and for whom (`cacheScope`) server/discover said its answer may be cached. */
  ttlMs?: number;
  cacheScope?: string;
}

export interface Annotations extends JsonObject {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

interface ContentFields extends JsonObject {
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface TextContent extends ContentFields {
  type: 'text';
  text: string;
}

/** `data` is base64. */
export interface ImageContent extends ContentFields {
  type: 'image';
  data: string;
  mimeType: string;
}

/** `data` is base64. */
export interface AudioContent extends ContentFields {
  type: 'audio';
  data: string;
  mimeType: string;
}

export interface Resource extends JsonObject {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
}

/** A resource the server points at without its contents (MCP: a ResourceLink is a Resource with a type). */
export interface ResourceLink extends Resource {
  type: 'resource_link';
  _meta?: JsonObject;
}

export interface TextResourceContents extends JsonObject {
  uri: string;
  mimeType?: string;
  text: string;
}

/** `blob` is base64. */
export interface BlobResourceContents extends JsonObject {
  uri: string;
  mimeType?: string;
  blob: string;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource extends ContentFields {
  type: 'resource';
  resource: ResourceContents;
}

/** A piece of a tool result or a prompt message; narrow on `type`. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export interface ToolAnnotations extends JsonObject {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface Tool extends JsonObject {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  /** 2025-11-25: whether the tool runs as a task; absent means 'forbidden' (M5, see tasks.ts). */
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required' } & JsonObject;
}

export interface CallToolResult extends JsonObject {
  content: ContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
}

export interface ResourceTemplate extends JsonObject {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
}

export interface PromptArgument extends JsonObject {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt extends JsonObject {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
}

export interface PromptMessage extends JsonObject {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

/** List results hold every page's items; `nextCursor` is consumed by the client. */
export interface ListToolsResult extends JsonObject {
  tools: Tool[];
}
export interface ListResourcesResult extends JsonObject {
  resources: Resource[];
}
export interface ListResourceTemplatesResult extends JsonObject {
  resourceTemplates: ResourceTemplate[];
}
export interface ListPromptsResult extends JsonObject {
  prompts: Prompt[];
}

export interface ReadResourceResult extends JsonObject {
  contents: ResourceContents[];
}

export interface GetPromptResult extends JsonObject {
  description?: string;
  messages: PromptMessage[];
}

/** Returns why `value` is not a valid result for `method`, or undefined when it is. */
export type ResultCheck = (value: unknown) => string | undefined;

function arrayOfObjects(key: string, each?: (item: JsonObject) => string | undefined): ResultCheck {
  return (value) => {
    if (!isObject(value)) return 'the result is not an object';
    const list = value[key];
    if (!Array.isArray(list)) return `"${key}" is not an array`;
    for (let i = 0; i < list.length; i++) {
      const item: unknown = list[i];
      if (!isObject(item)) return `${key}[${i}] is not an object`;
      const problem = each?.(item);
      if (problem) return `${key}[${i}]: ${problem}`;
    }
    if ('nextCursor' in value && value.nextCursor !== undefined && typeof value.nextCursor !== 'string') return '"nextCursor" is not a string';
    return undefined;
  };
}

const named = (item: JsonObject) => (typeof item.name === 'string' ? undefined : '"name" is not a string');
const stringField = (item: JsonObject, key: string) => (typeof item[key] === 'string' ? undefined : `"${key}" is not a string`);

/** Why `item` is not resource contents: a uri, and text or a base64 blob. */
function resourceContentsProblem(item: JsonObject): string | undefined {
  return stringField(item, 'uri') ?? (typeof item.text === 'string' || typeof item.blob === 'string' ? undefined : 'neither "text" nor "blob" is a string');
}

/** Why `block` is not one of the MCP content blocks, or undefined. */
export function contentBlockProblem(block: JsonObject): string | undefined {
  switch (block.type) {
    case 'text':
      return stringField(block, 'text');
    case 'image':
    case 'audio':
      return stringField(block, 'data') ?? stringField(block, 'mimeType');
    case 'resource_link':
      return stringField(block, 'uri') ?? named(block);
    case 'resource':
      return isObject(block.resource) ? resourceContentsProblem(block.resource) : '"resource" is not an object';
    default:
      return typeof block.type === 'string' ? `unknown content type ${JSON.stringify(block.type).slice(0, 60)}` : '"type" is not a string';
  }
}
const withUri = (field: 'uri' | 'uriTemplate') => (item: JsonObject) =>
  typeof item[field] !== 'string' ? `"${field}" is not a string` : named(item);

export const checkInitialize: ResultCheck = (value) => {
  if (!isObject(value)) return 'the result is not an object';
  if (typeof value.protocolVersion !== 'string') return '"protocolVersion" is not a string';
  if (!isObject(value.capabilities)) return '"capabilities" is not an object';
  if (!isObject(value.serverInfo) || typeof value.serverInfo.name !== 'string') return '"serverInfo.name" is not a string';
  return undefined;
};

export const checkListTools = arrayOfObjects('tools', (tool) => named(tool) ?? (isObject(tool.inputSchema) ? undefined : '"inputSchema" is not an object'));
export const checkListResources = arrayOfObjects('resources', withUri('uri'));
export const checkListResourceTemplates = arrayOfObjects('resourceTemplates', withUri('uriTemplate'));
export const checkListPrompts = arrayOfObjects('prompts', named);
export const checkReadResource = arrayOfObjects('contents', resourceContentsProblem);
export const checkGetPrompt = arrayOfObjects('messages', (message) => {
  if (message.role !== 'user' && message.role !== 'assistant') return '"role" is not "user" or "assistant"';
  if (!isObject(message.content)) return '"content" is not an object';
  const problem = contentBlockProblem(message.content);
  return problem ? `content: ${problem}` : undefined;
});

const checkContentList = arrayOfObjects('content', contentBlockProblem);

export const checkCallTool: ResultCheck = (value) => {
  const problem = checkContentList(value);
  if (problem) return problem;
  const result = value as JsonObject;
  if ('structuredContent' in result && result.structuredContent !== undefined && !isObject(result.structuredContent)) return '"structuredContent" is not an object';
  if ('isError' in result && result.isError !== undefined && typeof result.isError !== 'boolean') return '"isError" is not a boolean';
  return undefined;
};

export const checkEmpty: ResultCheck = (value) => (isObject(value) ? undefined : 'the result is not an object');

/**
 * 2026-07-28 (SEP-2322): a result says what kind it is in `resultType`;
 * absent means `complete` (every 2025 result). Anything else (an
 * `input_required` round, a task) is not the method's final result.
 */
export function resultTypeOf(value: unknown): string {
  return isObject(value) && typeof value.resultType === 'string' ? value.resultType : 'complete';
}
