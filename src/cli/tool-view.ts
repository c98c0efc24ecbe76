// `mcpwire tools TOOL` (#18 item 4): one tool for a person about to call it:
// its whole description, each parameter with its type, whether it is
// required, its default, its allowed values and description, and a `call`
// line built from the schema that the tool would accept as it stands.

import type { ToolDefinition } from '../toolsource/registry.js';
import { out } from './process.js';
import { typeText } from './schema.js';

type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface Parameter {
  name: string;
  type: string;
  required: boolean;
  description: string | undefined;
  default: unknown;
  enum: unknown[] | undefined;
}

/** The input schema's properties, in the schema's order. */
export function parametersOf(inputSchema: unknown): Parameter[] {
  if (!isObject(inputSchema) || !isObject(inputSchema.properties)) return [];
  const needed = new Set(Array.isArray(inputSchema.required) ? inputSchema.required : []);
  return Object.entries(inputSchema.properties).map(([name, raw]) => {
    const s = isObject(raw) ? raw : {};
    return {
      name,
      type: typeText(s),
      required: needed.has(name),
      description: typeof s.description === 'string' ? s.description : undefined,
      default: s.default,
      enum: Array.isArray(s.enum) ? s.enum : undefined,
    };
  });
}

/** A value the schema accepts, for the example: its default, its first allowed value, else one of its type. */
function exampleValue(schema: Schema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union && isObject(union[0])) return exampleValue(union[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined;
      return min ?? 1;
    }
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return schema.format === 'uri' ? 'https://example.com' : 'text';
  }
}

/** A word the shell passes through unchanged: quoted unless it is plain. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * `mcpwire call NAME k=v …` with every required parameter (or, when none is,
 * the first one), each value as `call` reads it back through the schema.
 * `target` is how the command line named the servers (`--config FILE`, `-- CMD`), appended.
 */
export function exampleCall(name: string, inputSchema: unknown, target: readonly string[]): string {
  const props = isObject(inputSchema) && isObject(inputSchema.properties) ? Object.entries(inputSchema.properties) : [];
  const params = parametersOf(inputSchema);
  const shown = params.some((p) => p.required) ? params.filter((p) => p.required) : params.slice(0, 1);
  const words = shown.map((p) => {
    const schema = props.find(([n]) => n === p.name)?.[1];
    const value = exampleValue(isObject(schema) ? schema : {});
    return shellWord(`${p.name}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  });
  return ['mcpwire', 'call', shellWord(name), ...words, ...target.map(shellWord)].join(' ');
}

/** Prints one tool's view; `callName` is how `call` reaches it from this command line. */
export function printToolView(tool: ToolDefinition, callName: string, target: readonly string[]): void {
  out(`${tool.name}${tool.title ? `  "${tool.title}"` : ''}\n`);
  out(`  server ${tool.mcp_server}, tool ${tool.mcp_tool_name}, alias ${tool.alias}\n`);
  if (tool.description) out(`\n${tool.description.replace(/^/gm, '  ')}\n`);
  const params = parametersOf(tool.parameters);
  out(`\nParameters${params.length === 0 ? ': none' : ':'}\n`);
  for (const p of params) {
    const facts = [p.type, p.required ? 'required' : 'optional'];
    if (p.default !== undefined) facts.push(`default ${JSON.stringify(p.default)}`);
    if (p.enum !== undefined && !p.type.includes('"')) facts.push(`one of ${p.enum.map((v) => JSON.stringify(v)).join(', ')}`);
    out(`  ${p.name}  (${facts.join(', ')})${p.description ? `\n      ${p.description.replace(/\n/g, '\n      ')}` : ''}\n`);
  }
  const hints = tool.annotations ? Object.entries(tool.annotations).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${JSON.stringify(v)}`) : [];
  if (hints.length > 0) out(`\nAnnotations: ${hints.join(', ')}\n`);
  out(`\nExample:\n  ${exampleCall(callName, tool.parameters, target)}\n`);
}
