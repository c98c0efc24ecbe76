// One command's connection to its servers: the tool source over the config
// the command line names, with the CLI's reporting hooks (--verbose shows
// the wire and the servers' stderr, secrets masked; a note when a URL falls
// back to legacy SSE; progress on stderr), and --timeout as one deadline for
// the whole command, server start and handshake included.

import { TimeoutError } from '../errors.js';
import type { ServerParams } from '../client/connect.js';
import type { ToolSourceConfig } from '../toolsource/config/types.js';
import type { ServerStatus } from '../toolsource/supervisor.js';
import { openToolSource, type ToolSource } from '../toolsource/tool-source.js';
import { redact } from '../transport/redact.js';
import { describeDiagnostic } from '../util/text.js';
import { unknownServerError } from '../toolsource/unknown-tool.js';
import { withCliOAuth } from './oauth-defaults.js';
import { exitCodeFor, EXIT } from './exit-codes.js';
import type { CommandLine } from './options.js';
import { err, openServers } from './process.js';
import { protocolOfClient, type Protocol } from './protocol.js';
import { statusLine } from './status-line.js';
import { resolveConfig } from './target.js';
import { UsageError } from './usage.js';

/** A wire message longer than this is cut in the --verbose report: a 10 MB result would bury the rest. */
const WIRE_EXCERPT_CHARS = 2_000;

export interface Session {
  readonly source: ToolSource;
  readonly line: CommandLine;
  /** The servers the command is about: --server's, else every configured one. */
  selected(): string[];
  /** Starts these servers (default: the selected ones) and waits; returns the statuses of those that failed. */
  start(keys?: readonly string[]): Promise<ServerStatus[]>;
  /** Starts one server (if it is not up) and rethrows its start failure as the typed error it was. */
  startOrThrow(key: string): Promise<void>;
  /** The one server a command needs: --server, or the only one configured. */
  oneServer(command: string): string;
  /** What is left of --timeout for one request, or nothing (the server's own timeout), and the command's signal: it aborts at the deadline, and in a session daemon when the command's client goes away. */
  requestOptions(): { timeoutMs?: number; signal: AbortSignal };
  /** The protocol a started server's connection speaks (#17), as read when it started; undefined for one that did not start. */
  protocol(key: string): Protocol | undefined;
}

/** A server's failure for a person: its last error or its state's reason; undefined when it is up (or never asked for). */
export function failureOf(status: ServerStatus): string | undefined {
  if (status.state === 'ready' || status.state === 'idle' || status.state === 'disabled') return undefined;
  return status.lastError ?? status.reason ?? status.state;
}

/** The servers a session daemon keeps running (#18 item 13): withSession uses them, and leaves them open, instead of opening its own. */
let shared: { source: ToolSource; config: ToolSourceConfig } | undefined;

/** Makes every withSession from now on use `next` (undefined: open the command line's servers again). */
export function shareSource(next: typeof shared): void {
  shared = next;
}

/** A session daemon's signal for the command it runs now: aborted when that command's client goes away (Ctrl-C). */
let cancelled: AbortSignal | undefined;

/** Makes the commands from now on abort their requests when `signal` does (undefined: no such signal). */
export function cancelOn(signal: AbortSignal | undefined): void {
  cancelled = signal;
}

/** The exit status of the first failed server, or 0. */
export function failureStatus(failed: readonly ServerStatus[]): number {
  if (failed.length === 0) return EXIT.ok;
  // A server that wants a credential is 8, as an AuthError met directly is: "fix the token", not "is it running?".
  return failed[0]!.state === 'needs-auth' ? EXIT.auth : exitCodeFor(failed[0]!.lastErrorCode);
}

/**
 * Opens the servers of `line`, runs `job`, and closes them whatever
 * happened. With --timeout, `job` loses the race against one deadline for
 * the whole command: every server's handshake and every request is given at
 * most what is left of it, and if the deadline passes anyway (a server that
 * never finishes starting) the command fails with a TimeoutError (exit 5).
 */
export async function withSession<T>(command: string, line: CommandLine, job: (session: Session) => Promise<T>): Promise<T> {
  const started = Date.now();
  const timeoutMs = line.timeoutMs;
  const remaining = () => (timeoutMs === undefined ? undefined : Math.max(1, timeoutMs - (Date.now() - started)));
  let config = shared?.config ?? withCliOAuth(await resolveConfig(command, line));
  if (timeoutMs !== undefined && shared === undefined) config = { ...config, servers: config.servers.map((s) => ({ ...s, startupTimeoutMs: timeoutMs, timeoutMs })) };
  const keys = config.servers.map((s) => s.key);
  const only = line.values.server;
  // Checked before anything opens: nothing to close when it fails.
  if (only !== undefined && !keys.includes(only)) throw unknownServerError(only, keys, 'mcpwire servers lists them');
  // One signal for every request of the command: the deadline aborts it, and so does a session's client that went
  // away. Aborting is what sends the servers notifications/cancelled (W7); in a session daemon, whose servers outlive
  // the command, it is the only thing that stops a request from running on after the command ended.
  const controller = new AbortController();
  const outer = cancelled;
  const onCancel = () => controller.abort(outer!.reason);
  if (outer?.aborted) onCancel();
  else outer?.addEventListener('abort', onCancel, { once: true });
  const masked = [...config.secrets, ...config.servers.flatMap((s) => configuredValues(s.params))];
  const verbose = line.values.verbose;
  const source = shared?.source ?? await openToolSource({
    config,
    // A command's servers that fail are reported, not retried for minutes.
    restart: { maxFailures: 1 },
    client: {
      // Progress is `call`'s own: its status line on a terminal, JSON lines with --progress (#18 item 1).
      onDiagnostic: (d) => {
        if (d.kind === 'transport-fallback') {
          err(`note: ${d.server} refused Streamable HTTP (HTTP ${d.status}); trying the legacy HTTP+SSE transport at the same URL (--transport http or sse, or "type" in a config, skips this)\n`);
        } else if (d.kind === 'tool-drift' && d.withheld.length > 0 && command !== 'pin' && command !== 'trust') {
          // SPEC G2: a tool held back by "pin": "block" is not silently missing from the output.
          err(`note: ${d.server}: ${d.withheld.length} tool${d.withheld.length === 1 ? '' : 's'} withheld by "pin": "block" (${d.withheld.slice(0, 5).join(', ')}${d.withheld.length > 5 ? ', …' : ''}): changed, new or renamed since pinned; mcpwire pin --diff shows how, mcpwire trust ${d.server} approves\n`);
        } else if (verbose) err(`${d.server}: ${redact(describeDiagnostic(d), masked)}\n`);
      },
      ...(verbose
        ? {
            onWire: ({ server, direction, message }) => {
              const text = redact(JSON.stringify(message) ?? String(message), masked);
              const cut = text.length > WIRE_EXCERPT_CHARS ? `${text.slice(0, WIRE_EXCERPT_CHARS)}… (${text.length} chars)` : text;
              err(`${server} ${direction === 'send' ? '→' : '←'} ${cut}\n`);
            },
          }
        : {}),
    },
  });
  // Registered before any server starts, so a signal during a slow start still closes them.
  if (source !== shared?.source) openServers.add(source);
  // The error each failed start ended with: a later use of the server would get a vaguer 'unavailable'.
  const startErrors = new Map<string, unknown>();
  const protocols = new Map<string, Protocol>();
  const session: Session = {
    source,
    line,
    selected: () => (only !== undefined ? [only] : keys),
    start: (wanted = session.selected()) => startServers(source, wanted, startErrors, protocols),
    startOrThrow: async (key) => {
      if (startErrors.has(key)) throw startErrors.get(key);
      await startServers(source, [key], startErrors, protocols);
      if (startErrors.has(key)) throw startErrors.get(key);
    },
    oneServer: (name) => {
      if (only !== undefined) return only;
      if (keys.length === 1) return keys[0]!;
      throw new UsageError(`${name} talks to one server and ${config.file} has ${keys.length}: add --server KEY (one of ${keys.join(', ')})`);
    },
    requestOptions: () => {
      const ms = remaining();
      return ms === undefined ? { signal: controller.signal } : { timeoutMs: ms, signal: controller.signal };
    },
    protocol: (key) => protocols.get(key),
  };
  let timer: NodeJS.Timeout | undefined;
  let late = false;
  try {
    if (timeoutMs === undefined) return await job(session);
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        late = true;
        const error = new TimeoutError({ server: keys.length === 1 ? keys[0]! : '' }, timeoutMs, ' (--timeout bounds the whole command, server start included)');
        reject(error);
        controller.abort(error);
      }, timeoutMs);
    });
    return await Promise.race([job(session), deadline]);
  } catch (error) {
    // A request that ran out of time also ends the command: its servers are stopped as after the deadline.
    if (error instanceof TimeoutError) late = true;
    throw error;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onCancel);
    // A session's servers outlive the command: the daemon closes them.
    if (source !== shared?.source) try {
      // Past the deadline the servers are stopped at once (#18 item 5): the command promised to be done by now.
      await source.close({ hurry: late });
    } finally {
      openServers.delete(source);
    }
  }
}

/** Starts `keys` concurrently (R7); one server's failure does not stop the others. With a status line on a terminal. */
async function startServers(source: ToolSource, keys: readonly string[], errors: Map<string, unknown>, protocols: Map<string, Protocol>): Promise<ServerStatus[]> {
  const done = statusLine(keys.length === 1 ? `starting ${keys[0]}` : `starting ${keys.length} servers`);
  try {
    const wanted = source.status().filter((s) => keys.includes(s.key) && s.state !== 'disabled');
    // A no-op use starts each (the server's `calls` counts it), hands back the start's own error, and shows the client, whose protocol is kept.
    const use = (key: string) =>
      source.withServer(key, (client) => {
        const protocol = protocolOfClient(client);
        if (protocol !== undefined) protocols.set(key, protocol);
        return Promise.resolve();
      });
    await Promise.all(wanted.map((s) => use(s.key).catch((error: unknown) => errors.set(s.key, error))));
  } finally {
    done();
  }
  return source.status().filter((s) => keys.includes(s.key) && failureOf(s) !== undefined);
}

/** Values a server was configured with that it may echo back: env values and header values. */
export function configuredValues(params: ServerParams): string[] {
  const values: unknown[] = [...Object.values('env' in params && params.env ? params.env : {}), ...Object.values('headers' in params && params.headers ? params.headers : {})];
  return values.filter((value): value is string => typeof value === 'string' && value !== '');
}
