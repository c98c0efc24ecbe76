// Out-of-band reports: things that went wrong on the wire but did not fail a
// request (a banner line on stdout, a response nobody asked for). Reported,
// never thrown into an unrelated caller (W3, W4). A leaf module.

export type Diagnostic =
  | { kind: 'noise'; server: string; text: string } // a non-JSON line, skipped
  | { kind: 'invalid-message'; server: string; detail: string; excerpt: string } // JSON, not JSON-RPC 2.0 (excerpt: the start of it, secrets scrubbed)
  | { kind: 'unknown-response'; server: string; id: unknown } // answer to no request of ours
  | { kind: 'late-response'; server: string; id: unknown } // answer after timeout/abort; dropped
  | { kind: 'handler-error'; server: string; method: string; error: unknown } // a host handler threw
  | { kind: 'stderr'; server: string; text: string } // a chunk of the server's stderr
  | { kind: 'transport-fallback'; server: string; from: 'streamable-http'; to: 'sse'; status: number }; // refused initialize over Streamable HTTP with this status; legacy HTTP+SSE is tried

export type DiagnosticHook = (diagnostic: Diagnostic) => void;

/** Longest excerpt of a bad line kept in a diagnostic: a 100 MiB banner must not be copied around. */
export const DIAGNOSTIC_EXCERPT_CHARS = 200;

export function excerpt(text: string): string {
  return text.length > DIAGNOSTIC_EXCERPT_CHARS ? `${text.slice(0, DIAGNOSTIC_EXCERPT_CHARS)}… (${text.length} chars)` : text;
}
