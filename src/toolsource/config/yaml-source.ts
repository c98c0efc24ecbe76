// Reads a YAML file into plain values and keeps its node tree, so that an
// error found later (by the schema, or in a merge) can name the line and
// column of the key it is about. The only module that imports `yaml`. Does
// NOT validate anything beyond YAML syntax, and the document-wide limits
// (aliases, depth, prototype keys) every config gets.

import { LineCounter, isMap, isNode, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { ConfigError } from '../../errors.js';
import { checkDocument } from './document-check.js';
import { MAX_YAML_BYTES, readConfigText } from './read-text.js';
import { MAX_QUOTED_CHARS, quote } from './quote.js';

export type KeyPath = readonly (string | number)[];

/** Where a key path was found: its 1-based position and how many of its segments exist in the file. */
export interface Location {
  line: number;
  column: number;
  depth: number;
}

export interface YamlSource {
  file: string;
  /** The document as plain values (mappings as objects); undefined for an empty file. */
  value: unknown;
  /** The deepest key of `path` present in the file; undefined when not even the first segment is. */
  locate(path: KeyPath): Location | undefined;
  /** The entries of the mapping at `path` in file order, values as plain values; undefined when there is no mapping there. */
  entries(path: KeyPath): [key: string, value: unknown][] | undefined;
}

export interface YamlReadOptions {
  /**
   * Quote the offending line in a syntax error (cut to 500 characters). True
   * for the project file, which holds no secrets (ADR-0011); false for a
   * companion file beside it, which might.
   */
  quoteLines: boolean;
}

/**
 * How many alias nodes a document may resolve, in all. An alias to an alias
 * to … (the "billion laughs") expands exponentially; a config uses a few.
 */
export const MAX_YAML_ALIASES = 100;

/** Reads and parses `file`. Throws ConfigError naming the file, for syntax, an alias problem or a document too deep to read. */
export function readYamlFile(file: string, options: YamlReadOptions = { quoteLines: true }): YamlSource {
  return parseYaml(file, readConfigText(file, MAX_YAML_BYTES), options);
}

export function parseYaml(file: string, text: string, options: YamlReadOptions = { quoteLines: true }): YamlSource {
  const lines = new LineCounter();
  // uniqueKeys (the default) makes a repeated key an error rather than a silent last-one-wins.
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const syntax = doc.errors[0];
  if (syntax) {
    const at = lines.linePos(syntax.pos[0]);
    const reason = reasonOf(syntax.message);
    const quoted = options.quoteLines ? `: ${quote((text.split(/\r?\n/)[at.line - 1] ?? '').trimEnd())}` : ' (the line is not quoted: the file may hold secrets)';
    throw new ConfigError(file, [], `not valid YAML: ${reason}${quoted}`, { line: at.line, column: at.col });
  }
  const toJS = (convert: () => unknown): unknown => {
    try {
      return convert();
    } catch (error) {
      throw conversionError(file, error);
    }
  };
  const value: unknown = toJS(() => doc.toJS({ maxAliasCount: MAX_YAML_ALIASES })) ?? undefined;
  const source: YamlSource = {
    file,
    value,
    locate: (path) => locate(doc, lines, path),
    entries: (path) => {
      const node = doc.getIn(path, true);
      if (!isMap(node)) return undefined;
      return node.items.map((pair) => [
        String(isScalar(pair.key) ? pair.key.value : pair.key),
        isNode(pair.value) ? toJS(() => (pair.value as Node).toJS(doc, { maxAliasCount: MAX_YAML_ALIASES })) : (pair.value ?? null),
      ]);
    },
  };
  const problem = checkDocument(value);
  if (problem !== undefined) {
    const where = source.locate(problem.path);
    throw new ConfigError(file, problem.path, problem.detail, where ? { line: where.line, column: where.column } : {});
  }
  return source;
}

/**
 * What `yaml` throws while turning the document into values: a ReferenceError
 * for an alias to no anchor, or for more aliases than MAX_YAML_ALIASES (its
 * guard against the billion laughs), a RangeError for nesting the conversion
 * cannot follow. All of them are problems of the file, said as such.
 */
function conversionError(file: string, error: unknown): ConfigError {
  const message = error instanceof Error ? error.message : String(error);
  let detail: string;
  if (error instanceof RangeError) detail = 'mappings and lists nested too deeply to read; a config needs a handful of levels';
  else if (/Excessive alias count/i.test(message)) detail = `the aliases (*name) expand to more than ${MAX_YAML_ALIASES} copies (a "billion laughs" document); write the values out, or use fewer aliases`;
  else if (/Unresolved alias/i.test(message)) detail = 'an alias (*name) refers to an anchor (&name) that is not set before it; define the anchor first or write the value out';
  else if (error instanceof ReferenceError || error instanceof TypeError) detail = `cannot read the document's aliases (${cut(message)})`;
  else throw error;
  return new ConfigError(file, [], `not valid YAML: ${detail}`, { cause: error });
}

function cut(text: string): string {
  return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS - 1)}…` : text;
}

/** The library's message without the position it appends (we report that as line:column). */
function reasonOf(message: string): string {
  const reason = message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  // yaml reports its own stack overflow on deep flow collections as a parse error.
  return /Maximum call stack size exceeded/.test(reason) ? 'mappings and lists nested too deeply to read; a config needs a handful of levels' : cut(reason);
}

function locate(doc: Document, lines: LineCounter, path: KeyPath): Location | undefined {
  let node: unknown = doc.contents;
  let found: Location | undefined;
  for (let depth = 0; depth < path.length; depth++) {
    const segment = path[depth]!;
    let start: number | undefined;
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) break;
      // The key, not its value: "line 7: mcp.github.url" should point at `url:`.
      start = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number' && node.items[segment] !== undefined) {
      node = node.items[segment];
      start = (node as Node).range?.[0];
    } else {
      break;
    }
    if (start === undefined) break;
    const pos = lines.linePos(start);
    found = { line: pos.line, column: pos.col, depth: depth + 1 };
  }
  return found;
}
