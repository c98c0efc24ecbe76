// Structural checks of the results McpClient consumes. A result that fails
// one is a ProtocolError; a result that passes is handed back as the
// server's own object, unknown keys included (transcripts compare it by deep
// equality). Hand-written rather than zod: they run on every call.

import { isObject } from '../jsonrpc/message.js';

/** Protocol versions this client speaks, newest first (L1). */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];

export type JsonObject = Record<string, unknown>;

export interface Implementation extends JsonObject {
  name: string;
  version: string;
}

export interface InitializeResult extends JsonObject {
  protocolVersion: string;
  capabilities: JsonObject;
  serverInfo: Implementation;
  instructions?: string;
}

export interface Tool extends JsonObject {
  name: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
}

export interface CallToolResult extends JsonObject {
  content: JsonObject[];
  structuredContent?: JsonObject;
  isError?: boolean;
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
export const checkReadResource = arrayOfObjects('contents', (item) => (typeof item.uri === 'string' ? undefined : '"uri" is not a string'));
export const checkGetPrompt = arrayOfObjects('messages');

export const checkCallTool: ResultCheck = (value) => {
  const problem = arrayOfObjects('content', (block) => (typeof block.type === 'string' ? undefined : '"type" is not a string'))(value);
  if (problem) return problem;
  const result = value as JsonObject;
  if ('structuredContent' in result && result.structuredContent !== undefined && !isObject(result.structuredContent)) return '"structuredContent" is not an object';
  if ('isError' in result && result.isError !== undefined && typeof result.isError !== 'boolean') return '"isError" is not a boolean';
  return undefined;
};

export const checkEmpty: ResultCheck = (value) => (isObject(value) ? undefined : 'the result is not an object');
