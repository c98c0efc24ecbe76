// Reads a YAML file into plain values and keeps its node tree, so that an
// error found later (by the schema, or in a merge) can name the line and
// column of the key it is about. The only module that imports `yaml`. Does
// NOT validate anything beyond YAML syntax.

import { readFileSync } from 'node:fs';
import { LineCounter, isMap, isNode, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { ConfigError } from '../../errors.js';

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

/** Reads and parses `file`. A syntax error is a ConfigError quoting the offending line (project YAML holds no secrets: ADR-0011). */
export function readYamlFile(file: string): YamlSource {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(file, [], `cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
  return parseYaml(file, text);
}

export function parseYaml(file: string, text: string): YamlSource {
  const lines = new LineCounter();
  // uniqueKeys (the default) makes a repeated key an error rather than a silent last-one-wins.
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const syntax = doc.errors[0];
  if (syntax) {
    const at = lines.linePos(syntax.pos[0]);
    const source = text.split(/\r?\n/)[at.line - 1] ?? '';
    throw new ConfigError(file, [], `not valid YAML: ${reasonOf(syntax.message)}: ${JSON.stringify(source.trimEnd())}`, { line: at.line, column: at.col });
  }
  const value: unknown = doc.toJS({ maxAliasCount: 100 }) ?? undefined;
  return {
    file,
    value,
    locate: (path) => locate(doc, lines, path),
    entries: (path) => {
      const node = doc.getIn(path, true);
      if (!isMap(node)) return undefined;
      return node.items.map((pair) => [String(isScalar(pair.key) ? pair.key.value : pair.key), isNode(pair.value) ? pair.value.toJS(doc) : pair.value ?? null]);
    },
  };
}

/** The library's message without the position it appends (we report that as line:column). */
function reasonOf(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
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
