// Out-of-band reports: things that went wrong on the wire but did not fail a
// request (a banner line on stdout, a response nobody asked for). Reported,
// never thrown into an unrelated caller (W3, W4). A leaf module.

/**
 * How a connection's era was decided: `configured` (legacy, modern or a
 * pinned version), `probed` (auto, this connect), `cached` (auto, an earlier
 * verdict), `reprobed` (a cached verdict no longer held), `upgraded` (a
 * legacy initialize was refused with a modern error naming a version both speak).
 */
export type EraDecision = 'configured' | 'probed' | 'cached' | 'reprobed' | 'upgraded';

export type Diagnostic =
  | { kind: 'noise'; server: string; text: string; line?: string } // a non-JSON line, skipped (text: an excerpt; line: all of it, from stdio, for a recorder)
  | { kind: 'invalid-message'; server: string; detail: string; excerpt: string } // JSON, not JSON-RPC 2.0 (excerpt: the start of it, secrets scrubbed)
  | { kind: 'unknown-response'; server: string; id: unknown } // answer to no request of ours
  | { kind: 'late-response'; server: string; id: unknown } // answer after timeout/abort; dropped
  | { kind: 'handler-error'; server: string; method: string; error: unknown } // a host handler threw
  | { kind: 'stderr'; server: string; text: string } // a chunk of the server's stderr
  | { kind: 'transport-fallback'; server: string; from: 'streamable-http'; to: 'sse'; status: number } // refused initialize over Streamable HTTP with this status; legacy HTTP+SSE is tried
  | { kind: 'rejected-tool'; server: string; tool: string; why: 'duplicate' | 'empty' | 'control-character' | 'too-long' | 'invalid-header'; detail?: string } // a listed tool not registered (tool: its name as sent, JSON-quote it to print)
  | { kind: 'era'; server: string; era: 'legacy' | 'modern'; protocolVersion: string; how: EraDecision } // which protocol era the connection speaks, and how that was decided (#17)
  | { kind: 'invalid-trace-context'; server: string; method: string; key: 'traceparent' | 'tracestate' | 'baggage'; detail: string } // a trace context value not of its W3C form: dropped, not sent (the value is not repeated)
  | { kind: 'listen-ended'; server: string; detail: string } // modern era: the subscriptions/listen stream ended on the server's side; list-changed notifications no longer arrive (#17 item 4)
  | { kind: 'config-note'; server: string; file: string; text: string } // the config loaded, with something the host should hear (a key accepted and ignored); server: 'toolsource'
  | { kind: 'tool-drift'; server: string; policy: 'warn' | 'block'; withheld: string[]; text: string[] } // a listing differs from the pinned definitions (SPEC G2): text says how, withheld what `block` held back
  | { kind: 'unused-deny'; server: string; pattern: string; tools: number }; // a deny pattern of the config matched none of the server's `tools` listed tools: a typo looks like a working rule

export type DiagnosticHook = (diagnostic: Diagnostic) => void;

/** Longest excerpt of a bad line kept in a diagnostic: a 100 MiB banner must not be copied around. */
export const DIAGNOSTIC_EXCERPT_CHARS = 200;

export function excerpt(text: string): string {
  return text.length > DIAGNOSTIC_EXCERPT_CHARS ? `${text.slice(0, DIAGNOSTIC_EXCERPT_CHARS)}… (${text.length} chars)` : text;
}

/**
 * `d` with every piece of server-supplied text passed through `scrub` (T4:
 * secrets never appear in a diagnostic): the excerpts and texts, a response
 * id (a server can answer with any string as its id), and the message of a
 * handler's error (a host handler may quote what the server sent).
 */
export function scrubDiagnostic(d: Diagnostic, scrub: (text: string) => string): Diagnostic {
  switch (d.kind) {
    case 'noise':
      return { ...d, text: scrub(d.text), ...(d.line !== undefined ? { line: scrub(d.line) } : {}) };
    case 'stderr':
      return { ...d, text: scrub(d.text) };
    case 'invalid-message':
      return { ...d, detail: scrub(d.detail), excerpt: scrub(d.excerpt) };
    case 'unknown-response':
    case 'late-response':
      return typeof d.id === 'string' ? { ...d, id: scrub(d.id) } : d;
    case 'handler-error':
      return { ...d, error: scrubError(d.error, scrub) };
    case 'transport-fallback':
    case 'era':
    case 'invalid-trace-context': // names the key and the rule, never the value
      return d;
    case 'rejected-tool':
      return { ...d, tool: scrub(d.tool) };
    case 'config-note':
      return { ...d, text: scrub(d.text) };
    case 'listen-ended':
      return { ...d, detail: scrub(d.detail) };
    case 'tool-drift':
      return { ...d, text: d.text.map(scrub) };
    case 'unused-deny': // the config's own pattern
      return d;
  }
}

/** The error itself when nothing in its message or stack needs scrubbing, else a plain Error with the scrubbed message. */
function scrubError(error: unknown, scrub: (text: string) => string): unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? scrub(error) : error;
  const message = scrub(error.message);
  const stack = error.stack === undefined ? undefined : scrub(error.stack);
  if (message === error.message && stack === error.stack) return error;
  const clean = new Error(message);
  clean.name = error.name;
  clean.stack = stack;
  return clean;
}
