// What changed between a pinned tool definition and the one a server lists
// now, for a person deciding whether to trust it: each difference at its JSON
// Pointer (RFC 6901: `/inputSchema/properties/unit/enum/2`), and the
// description as a line diff. Plain data, rendered by renderDiff; nothing
// here decides policy.

import { canonicalJson, type CoveredDefinition } from './canonical.js';

/** One difference: `added` (only now), `removed` (only pinned), `changed` (both, different). */
export interface DefinitionChange {
  /** RFC 6901 JSON Pointer into the covered definition. */
  pointer: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

/** One line of a text diff: kept (` `), only pinned (`-`), only now (`+`). */
export interface TextDiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

export interface DefinitionDiff {
  /** Every difference, the description's included, in pointer order. */
  changes: DefinitionChange[];
  /** The description, line by line, when it changed. */
  description?: TextDiffLine[];
}

/** The differences from `before` (pinned) to `after` (listed now). Objects compared by key, arrays by index. */
export function diffDefinitions(before: CoveredDefinition, after: CoveredDefinition): DefinitionDiff {
  const changes: DefinitionChange[] = [];
  walk(before, after, '', changes);
  const diff: DefinitionDiff = { changes };
  const was = typeof before.description === 'string' ? before.description : '';
  const now = typeof after.description === 'string' ? after.description : '';
  if (was !== now) diff.description = diffLines(was, now);
  return diff;
}

function walk(a: unknown, b: unknown, pointer: string, out: DefinitionChange[]): void {
  if (a === undefined && b === undefined) return;
  if (a === undefined) return void out.push({ pointer, kind: 'added', after: b });
  if (b === undefined) return void out.push({ pointer, kind: 'removed', before: a });
  const bothObjects = isPlainObject(a) && isPlainObject(b);
  const bothArrays = Array.isArray(a) && Array.isArray(b);
  if (bothObjects) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) walk(a[key], b[key], `${pointer}/${escapePointer(key)}`, out);
    return;
  }
  if (bothArrays) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${pointer}/${i}`, out);
    return;
  }
  // Leaves, or a value whose type changed: compared in canonical form, so 1.0 and 1 are the same number.
  if (canonicalJson(a) !== canonicalJson(b)) out.push({ pointer, kind: 'changed', before: a, after: b });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 6901 §3: `~` is written `~0` and `/` is written `~1`. */
export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Longest-common-subsequence line diff; descriptions are short, so the quadratic table is small. */
export function diffLines(before: string, after: string): TextDiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  // A description of thousands of lines is not diffed line by line: shown whole, before and after.
  if (a.length * b.length > 250_000) return [...a.map((text): TextDiffLine => ({ op: '-', text })), ...b.map((text): TextDiffLine => ({ op: '+', text }))];
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: TextDiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: ' ', text: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ op: '-', text: a[i++]! });
    else out.push({ op: '+', text: b[j++]! });
  }
  while (i < a.length) out.push({ op: '-', text: a[i++]! });
  while (j < b.length) out.push({ op: '+', text: b[j++]! });
  return out;
}

/** Longest value shown in a rendered diff: a schema of megabytes is summarised, not printed. */
const SHOWN_VALUE_CHARS = 200;

/**
 * The diff for a terminal, indented by `indent`: the description's lines
 * marked - and +, then each other change as `POINTER: was → now`. Server text
 * is JSON-quoted where it is a value, and control characters in description
 * lines are escaped, so a definition cannot move the cursor or fake a line.
 */
export function renderDiff(diff: DefinitionDiff, indent = '  '): string[] {
  const lines: string[] = [];
  if (diff.description) {
    lines.push(`${indent}description:`);
    for (const line of diff.description) lines.push(`${indent}  ${line.op} ${printable(line.text)}`);
  }
  for (const change of diff.changes) {
    if (change.pointer === '/description' && diff.description) continue;
    const where = change.pointer || '/';
    if (change.kind === 'added') lines.push(`${indent}${where}: added ${shown(change.after)}`);
    else if (change.kind === 'removed') lines.push(`${indent}${where}: removed (was ${shown(change.before)})`);
    else lines.push(`${indent}${where}: ${shown(change.before)} → ${shown(change.after)}`);
  }
  return lines;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_VALUE_CHARS ? `${text.slice(0, SHOWN_VALUE_CHARS)}… (${text.length} chars)` : text;
}

function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
