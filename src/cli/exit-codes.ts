// The one table from failures to exit statuses, the same for every command
// (U1: "clear exit codes"): a server that will not start is 4 whether `tools`,
// `call` or `doctor` met it. Also the one-line and JSON forms of an error.

import { AuthError, McpClientError, OAuthError, type McpErrorCode } from '../errors.js';
import { UsageError } from './usage.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, config: 3, closed: 4, timeout: 5, protocol: 6, rpc: 7, auth: 8, drift: 9 } as const;
// 9 is pin --check's alone (G2): tool definitions differ from the pins, which CI must tell apart from a server that failed.

// An unknown tool or server shares 3 with config: both are fixed on the caller's side, and the usage text has always said so.
const EXIT_FOR: Record<McpErrorCode, number> = {
  config: EXIT.config,
  'unknown-tool': EXIT.config,
  closed: EXIT.closed,
  timeout: EXIT.timeout,
  protocol: EXIT.protocol,
  rpc: EXIT.rpc,
};

/** The exit status a failure ends the command with; anything untyped is a bug of ours, status 1. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  // 401/403 is its own status (#18 item 9): a refused credential is fixed otherwise than an unreachable server (4).
  if (error instanceof AuthError || error instanceof OAuthError) return EXIT.auth;
  if (error instanceof McpClientError) return EXIT_FOR[error.code];
  return EXIT.failed;
}

/** The status for a failure known by its code only (a server's recorded failure); untyped: 1. */
export function exitCodeFor(code: McpErrorCode | undefined): number {
  return code === undefined ? EXIT.failed : EXIT_FOR[code];
}

/**
 * An error on one line (`Name: message`), and apart from it what the server
 * wrote to stderr, indented: the message a ClosedError carries ends with
 * "; last stderr:" and the tail, which is the server's text, not ours.
 */
export function errorLines(error: unknown): { line: string; detail: string[] } {
  const text = error instanceof UsageError ? error.message : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const [line, ...rest] = text.split('\n');
  return { line: line!, detail: rest.filter((l) => l.trim() !== '') };
}

/** The `--json` form of an error, for scripts reading stderr: `{"error": {"code", "message", "server"}}`. */
export function errorEnvelope(error: unknown): string {
  const code = error instanceof UsageError ? 'usage' : error instanceof AuthError || error instanceof OAuthError ? 'auth' : error instanceof McpClientError ? error.code : 'internal';
  const message = error instanceof Error ? error.message : String(error);
  const server = error instanceof McpClientError && error.server ? error.server : null;
  return JSON.stringify({ error: { code, message, server } });
}
