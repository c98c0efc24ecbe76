// How results are shown: one line per case and a closing count (text), or
// one JSON object (--json). Pure functions over CaseResult.

import type { CaseResult } from './runner.js';

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
}

export function totals(results: readonly CaseResult[]): Totals {
  const count = (status: CaseResult['status']) => results.filter((r) => r.status === status).length;
  return { passed: count('pass'), failed: count('fail'), skipped: count('skip') };
}

/** `pass NAME`, `FAIL NAME: first difference`, `skip NAME: why`; with verbose, the duration and the trace follow. */
export function caseLine(result: CaseResult, verbose = false): string {
  const head =
    result.status === 'pass' ? `pass ${result.name}` : `${result.status === 'fail' ? 'FAIL' : 'skip'} ${result.name}: ${indentContinuation(result.detail ?? '')}`;
  if (!verbose) return head;
  const trace = result.trace.map((entry) => `    ${indentContinuation(entry)}`);
  return [`${head} (${result.durationMs} ms)`, ...trace].join('\n');
}

/** `N passed, N failed`, and `, N skipped` only when something was skipped. */
export function closingLine(t: Totals): string {
  return `${t.passed} passed, ${t.failed} failed${t.skipped ? `, ${t.skipped} skipped` : ''}`;
}

export function jsonReport(results: readonly CaseResult[], verbose = false): string {
  const cases = results.map((r) => ({
    name: r.name,
    status: r.status,
    detail: r.detail ?? null,
    ...(verbose ? { file: r.file, durationMs: r.durationMs, trace: r.trace } : {}),
  }));
  return JSON.stringify({ cases, ...totals(results) });
}

/** A detail that spans lines (a stderr tail) stays visibly attached to its case. */
function indentContinuation(text: string): string {
  return text.replace(/\r?\n/g, '\n      ');
}
