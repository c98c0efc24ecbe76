// Reads a TOML file (kaged's local.toml and the daemon's config.toml) into
// plain values. The only module that imports `smol-toml`. local.toml holds
// secrets (ADR-0043 §4), so a syntax error there gives line and column only:
// the parser's own message quotes the line, and that line may be a secret.

import { readFileSync } from 'node:fs';
import { parse, TomlError } from 'smol-toml';
import { ConfigError } from '../../errors.js';
import type { KeyPath } from './yaml-source.js';

export interface TomlSource {
  file: string;
  value: Record<string, unknown>;
  /** 1-based line and column of the table header or key line nearest to `path`; undefined when none matches. */
  locate(path: KeyPath): { line: number; column: number } | undefined;
}

export interface TomlReadOptions {
  /** Quote the offending line in a syntax error. False for any file that may hold a secret. */
  quoteLines: boolean;
}

export function readTomlFile(file: string, options: TomlReadOptions): TomlSource {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(file, [], `cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
  let value: Record<string, unknown>;
  try {
    value = parse(text) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const at = { line: error.line, column: error.column };
    if (!options.quoteLines) {
      // No cause either: the TomlError's message and codeblock carry the line's text.
      throw new ConfigError(file, [], 'not valid TOML (the line is not quoted: this file holds secrets)', at);
    }
    const reason = error.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
    const source = text.split(/\r?\n/)[error.line - 1] ?? '';
    throw new ConfigError(file, [], `not valid TOML: ${reason}: ${JSON.stringify(source.trimEnd())}`, { ...at, cause: error });
  }
  return { file, value, locate: (path) => locate(text, path) };
}

const HEADER = /^\s*\[\s*([^\][]+?)\s*\]\s*(?:#.*)?$/;
const KEY_LINE = /^\s*([^=#[\s][^=]*?)\s*=/;

/**
 * smol-toml keeps no positions for values, so a schema error is placed by
 * scanning for the header (`[mcp.github]`) and key line (`timeout_ms = …`)
 * its path names: the longest prefix of the path that a line spells wins.
 * Inline tables are not looked into; such an error names the enclosing line.
 */
function locate(text: string, path: KeyPath): { line: number; column: number } | undefined {
  const want = path.map(String);
  let table: string[] = [];
  let best: { line: number; column: number; depth: number } | undefined;
  const consider = (keys: string[], line: number, source: string) => {
    if (keys.length > want.length || !keys.every((k, i) => k === want[i])) return;
    if (best && best.depth >= keys.length) return;
    best = { line, column: source.search(/\S/) + 1, depth: keys.length };
  };
  text.split(/\r?\n/).forEach((source, index) => {
    const header = HEADER.exec(source);
    if (header) {
      table = splitKey(header[1]!);
      consider(table, index + 1, source);
      return;
    }
    const key = KEY_LINE.exec(source);
    if (key) consider([...table, ...splitKey(key[1]!)], index + 1, source);
  });
  return best && { line: best.line, column: best.column };
}

/** `a."b.c".d` → [a, b.c, d]. */
function splitKey(key: string): string[] {
  return [...key.matchAll(/\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^.\s]+))\s*(?:\.|$)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}
