// One-line renderings for people: an error, a diagnostic, the first line of
// a long text. Used by the CLI and the conformance runners' reports; the
// library itself never formats for people.

import type { Diagnostic } from '../diagnostics.js';

/** The first line of `text`; a line longer than `maxChars` is cut to `maxChars` characters, the last one '…'. */
export function firstLine(text: string, maxChars = Number.POSITIVE_INFINITY): string {
  const line = text.split('\n', 1)[0]!;
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}

/** `Name: message`, and with `withCause` the cause's message after it: an error on one line. */
export function errorText(error: unknown, withCause = false): string {
  if (!(error instanceof Error)) return String(error);
  const cause = withCause && error.cause instanceof Error ? ` (caused by: ${error.cause.message})` : '';
  return `${error.name}: ${error.message}${cause}`;
}

/** A diagnostic on one line. Texts from the server are JSON-quoted, so a control character or a stray newline shows as such. */
export function describeDiagnostic(d: Diagnostic): string {
  switch (d.kind) {
    case 'noise':
    case 'stderr':
      return `${d.kind} ${JSON.stringify(d.text)}`;
    case 'invalid-message':
      return `invalid message (${d.detail}) ${d.excerpt}`;
    case 'unknown-response':
    case 'late-response':
      return `${d.kind} id ${JSON.stringify(d.id)}`;
    case 'handler-error':
      return `the ${d.method} handler failed: ${errorText(d.error)}`;
    case 'transport-fallback':
      return `Streamable HTTP refused (HTTP ${d.status}); falling back to legacy HTTP+SSE`;
    case 'rejected-tool':
      // The detail quotes the server's own schema (property and header names): escaped and capped like any server text.
      return `tool ${JSON.stringify(d.tool)} not registered (${d.why}${d.detail ? `: ${JSON.stringify(d.detail.length > 200 ? `${d.detail.slice(0, 200)}…` : d.detail).slice(1, -1)}` : ''})`;
    case 'config-note':
      return `${d.file}: ${d.text}`;
    case 'listen-ended':
      return `the subscriptions/listen stream ended (${d.detail}); list changes are no longer heard`;
    case 'tool-drift':
      return `tools differ from their pins (${d.policy}${d.withheld.length > 0 ? `, withheld: ${d.withheld.join(', ')}` : ''}):\n${d.text.join('\n')}`;
    case 'unused-deny':
      return `the deny pattern ${JSON.stringify(d.pattern)} matches none of the server's ${d.tools} tools; check it for a typo`;
    default:
      // A kind added to the library after this was written: still worth showing.
      return JSON.stringify(d);
  }
}
