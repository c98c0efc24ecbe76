// Reads a TOML file (kaged's local.toml and the daemon's config.toml, Codex's
// config.toml) into plain values. The only module that imports `smol-toml`.
// Every one of these files may hold secrets (local.toml's [secrets], tokens in
// Codex's http_headers or env, whatever a config.toml was linked to), so an
// error gives line and column only: the parser's own message quotes the line.

import { parse, TomlError } from 'smol-toml';
import { ConfigError } from '../../errors.js';
import { checkDocument } from './document-check.js';
import { MAX_JSON_TOML_BYTES, readConfigText } from './read-text.js';
import type { KeyPath } from './yaml-source.js';

export interface TomlSource {
  file: string;
  value: Record<string, unknown>;
  /** 1-based line and column of the table header or key line nearest to `path`; undefined when none matches. */
  locate(path: KeyPath): { line: number; column: number } | undefined;
}

/**
 * smol-toml's reasons are fixed phrases ("invalid value", "unexpected end of
 * key"); one that is not (a wrapped message that might carry text from the
 * file) is left out rather than trusted.
 */
const PLAIN_REASON = /^[A-Za-z][A-Za-z0-9 ,;:()'-]{0,160}$/;

export function readTomlFile(file: string): TomlSource {
  const text = readConfigText(file, MAX_JSON_TOML_BYTES);
  let value: Record<string, unknown>;
  try {
    value = parse(text) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = error.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
    // No cause either: the TomlError's message and codeblock carry the line's text.
    const said = PLAIN_REASON.test(reason) ? `: ${reason}` : '';
    throw new ConfigError(file, [], `not valid TOML${said} (the line is not quoted: the file may hold secrets)`, { line: error.line, column: error.column });
  }
  const source: TomlSource = { file, value, locate: (path) => locate(text, path) };
  const problem = checkDocument(value);
  if (problem !== undefined) throw new ConfigError(file, problem.path, problem.detail, { ...source.locate(problem.path) });
  return source;
}

/**
 * smol-toml keeps no positions for values, so a schema error is placed by
 * scanning for the header (`[mcp.github]`) and key line (`timeout_ms = …`)
 * its path names: the longest prefix of the path that a line spells wins.
 * Inline tables are not looked into; such an error names the enclosing line.
 * Hand-written scanning, no backtracking regex: linear in the file's length
 * however long a line is.
 */
function locate(text: string, path: KeyPath): { line: number; column: number } | undefined {
  const want = path.map(String);
  let table: string[] = [];
  let best: { line: number; column: number; depth: number } | undefined;
  const consider = (keys: string[], line: number, source: string) => {
    if (keys.length > want.length || !keys.every((k, i) => k === want[i])) return;
    if (best && best.depth >= keys.length) return;
    best = { line, column: source.length - source.trimStart().length + 1, depth: keys.length };
  };
  text.split(/\r?\n/).forEach((source, index) => {
    const header = headerOf(source);
    if (header !== undefined) {
      table = splitKey(header);
      consider(table, index + 1, source);
      return;
    }
    const key = keyOf(source);
    if (key !== undefined) consider([...table, ...splitKey(key)], index + 1, source);
  });
  return best && { line: best.line, column: best.column };
}

/** `[mcp.github]  # note` → `mcp.github`; undefined for anything else (an array of tables `[[x]]` included). */
function headerOf(source: string): string | undefined {
  const line = source.trim();
  if (!line.startsWith('[') || line.startsWith('[[')) return undefined;
  const close = line.indexOf(']');
  if (close < 0) return undefined;
  const inner = line.slice(1, close).trim();
  if (inner === '' || inner.includes('[')) return undefined;
  const rest = line.slice(close + 1).trimStart();
  return rest === '' || rest.startsWith('#') ? inner : undefined;
}

/** `timeout_ms = 5` → `timeout_ms`: what stands before the first `=`, when it can start a key. */
function keyOf(source: string): string | undefined {
  const eq = source.indexOf('=');
  if (eq < 0) return undefined;
  const key = source.slice(0, eq).trim();
  return key === '' || key[0] === '#' || key[0] === '[' ? undefined : key;
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';

/** `a."b.c".d` → [a, b.c, d] (quoted parts as written, escapes not decoded). */
function splitKey(key: string): string[] {
  const parts: string[] = [];
  let i = 0;
  for (;;) {
    while (isBlank(key[i])) i++;
    let end: number;
    if (key[i] === '"') {
      end = i + 1;
      while (end < key.length && key[end] !== '"') end += key[end] === '\\' ? 2 : 1;
      parts.push(key.slice(i + 1, end));
      i = end + 1;
    } else if (key[i] === "'") {
      end = key.indexOf("'", i + 1);
      if (end < 0) end = key.length;
      parts.push(key.slice(i + 1, end));
      i = end + 1;
    } else {
      end = i;
      while (end < key.length && key[end] !== '.' && !isBlank(key[end])) end++;
      parts.push(key.slice(i, end));
      i = end;
    }
    while (isBlank(key[i])) i++;
    if (key[i] !== '.') return parts;
    i++;
  }
}
