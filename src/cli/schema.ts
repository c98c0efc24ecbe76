// A tool's input schema for a person at a shell: its signature
// (`echo(message: string, times?: number)`), and `k=v` words turned into
// the arguments object the schema describes. Only the JSON Schema a tool
// list commonly uses is read (type, enum, items, anyOf/oneOf, required);
// anything else is left for the server to judge.

import { readFileSync } from 'node:fs';
import { UsageError } from './usage.js';

type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function properties(schema: unknown): [string, Schema][] {
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  return Object.entries(schema.properties).map(([name, s]) => [name, isObject(s) ? s : {}]);
}

function required(schema: unknown): Set<string> {
  return new Set(isObject(schema) && Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
}

/** A property's type as TypeScript would write it: `string`, `number[]`, `"a" | "b"`, `object`; `any` when the schema does not say. */
export function typeText(schema: Schema): string {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  const union = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined) as unknown[] | undefined;
  if (union) return [...new Set(union.map((s) => (isObject(s) ? typeText(s) : 'any')))].join(' | ');
  const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : schema.type === undefined ? [] : [schema.type];
  if (types.length === 0) return 'any';
  return types
    .map((t) => {
      if (t === 'array') {
        const inner = isObject(schema.items) ? typeText(schema.items) : 'any';
        return inner.includes(' ') ? `(${inner})[]` : `${inner}[]`;
      }
      return typeof t === 'string' ? t : 'any';
    })
    .join(' | ');
}

/** `name(a: string, b?: number)`: every property of the input schema in its order, `?` on the optional ones. */
export function signature(name: string, inputSchema: unknown): string {
  const needed = required(inputSchema);
  return `${name}(${properties(inputSchema)
    .map(([prop, schema]) => `${prop}${needed.has(prop) ? '' : '?'}: ${typeText(schema)}`)
    .join(', ')})`;
}

/** Whether a word is a `k=v` or `k:v` argument (and not JSON, nor `-`). */
export function isKeyValue(word: string): boolean {
  return /^[A-Za-z_$][\w.$-]*[=:]/.test(word);
}

/**
 * `k=v` / `k:v` words as an arguments object, each value read as the
 * schema types its property: number and integer (checked), boolean
 * (true/false, also 1/0, yes/no), object and array as JSON, string as is.
 * A property the schema does not type, or does not list, is read as JSON
 * when it parses (`n=3` → 3) and as a string otherwise.
 *
 * `k=@FILE` takes the value from FILE (relative to the working directory):
 * a string property its text exactly, a number, integer, boolean, object or
 * array property the file read as JSON, an untyped one JSON when it parses.
 * `k=@@text` is the literal `@text`; no other value is read as a file.
 * Errors name the file, never its contents.
 */
export function keyValueArgs(words: readonly string[], inputSchema: unknown, toolName: string): Record<string, unknown> {
  const props = new Map(properties(inputSchema));
  const args: Record<string, unknown> = {};
  for (const word of words) {
    if (!isKeyValue(word)) throw new UsageError(`"${word}" is not an argument: write name=value (or name:value), one JSON object, or - to read JSON from stdin`);
    const at = word.search(/[=:]/);
    const key = word.slice(0, at);
    const raw = word.slice(at + 1);
    if (key in args) throw new UsageError(`the argument ${key} is given twice`);
    const schema = props.get(key);
    if (raw.startsWith('@@')) args[key] = coerce(raw.slice(1), schema, key, toolName, inputSchema);
    else if (raw.startsWith('@')) args[key] = coerce(readValueFile(key, raw.slice(1)), schema, key, toolName, inputSchema, raw.slice(1));
    else args[key] = coerce(raw, schema, key, toolName, inputSchema);
  }
  return args;
}

/** The text of the file `k=@FILE` names; a usage error naming the file (and the @@ escape) when it cannot be read. */
function readValueFile(key: string, file: string): string {
  if (file === '') throw new UsageError(`${key}=@: give a file after @ (k=@FILE), or write ${key}=@@ for the literal text "@"`);
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : (code ?? 'unreadable');
    throw new UsageError(`${key}=@${file}: ${why}; k=@FILE reads the value from FILE, write ${key}=@@${file} for the literal text "@${file}"`);
  }
}

/**
 * `raw` as the property's schema types it. `file`: the file `raw` was read
 * from, which an error quotes as `@FILE`; a file's contents are never quoted
 * (they may be a secret, and may be large).
 */
function coerce(raw: string, schema: Schema | undefined, key: string, toolName: string, inputSchema: unknown, file?: string): unknown {
  const type = schema ? typeText(schema) : 'any';
  const fromFile = file !== undefined;
  const shown = fromFile ? `@${file}` : raw;
  const wrong = (what: string) => new UsageError(`${key}=${shown}: ${key} takes ${what}${fromFile ? ' (the file read as JSON)' : ''} (${signature(toolName, inputSchema)})`);
  switch (schema?.type) {
    case 'string':
      return raw;
    case 'number':
    case 'integer': {
      if (fromFile) {
        const value = parseJson(raw);
        if (typeof value !== 'number') throw wrong(`a ${schema.type}`);
        if (schema.type === 'integer' && !Number.isInteger(value)) throw wrong('an integer');
        return value;
      }
      const n = raw.trim() === '' ? Number.NaN : Number(raw);
      if (!Number.isFinite(n)) throw wrong(`a ${schema.type}`);
      if (schema.type === 'integer' && !Number.isInteger(n)) throw wrong('an integer');
      return n;
    }
    case 'boolean': {
      if (fromFile) {
        const value = parseJson(raw);
        if (typeof value !== 'boolean') throw wrong('true or false');
        return value;
      }
      const b = { true: true, false: false, '1': true, '0': false, yes: true, no: false }[raw.toLowerCase()];
      if (b === undefined) throw wrong('true or false');
      return b;
    }
    case 'object':
    case 'array': {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        throw wrong(fromFile ? `JSON (an ${schema.type})` : `JSON (an ${schema.type}); quote it for the shell`);
      }
      if (schema.type === 'array' ? !Array.isArray(value) : !isObject(value)) throw wrong(`a JSON ${schema.type}`);
      return value;
    }
    default:
      // Untyped, a union, or not in the schema: JSON when it is JSON, else the text. A union containing string keeps text text.
      if (type.split(' | ').includes('string') && !/^[[{"]/.test(raw)) return raw;
      try {
        return JSON.parse(raw);
      } catch {
        return raw;
      }
  }
}

/** JSON.parse, or undefined for text that is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The required properties `args` lacks, or an empty list. */
export function missingRequired(args: Record<string, unknown>, inputSchema: unknown): string[] {
  return [...required(inputSchema)].filter((name) => !(name in args));
}
