// One supervised server (S1–S5, ADR-0043 §3): starts it (connect + tool
// discovery) at first use or when told to, restarts it after a crash with
// backoff 1 s, 2 s, 4 s … capped at 60 s, marks it failed after 5
// consecutive failures until the host enables it again, and keeps the
// state a host reads. Calls in flight when the server dies fail with the
// client's `closed` error and are not retried (S3): tools may not be
// idempotent. What cannot fix itself is not retried: a refused credential
// goes to `needs-auth`, a secret that cannot be resolved or a config the
// server cannot use to `failed`, each at once. A start has a deadline.
// Timing comes from an injectable clock.

import { connect } from '../client/connect.js';
import { errorForEnd } from '../client/connection.js';
import { redact } from '../transport/redact.js';
import type { ListChangedKind, McpClient, McpClientOptions } from '../client/client.js';
import type { Tool } from '../client/results.js';
import type { ConnectedEra } from '../client/era.js';
import { AuthError, ClosedError, ConfigError, McpClientError, OAuthError, TimeoutError, type McpErrorCode } from '../errors.js';
import type { HttpAuth } from '../transport/http-headers.js';
import type { TransportEnd, TransportState } from '../transport/transport.js';
import { nextDelay } from '../util/backoff.js';
import type { SourceServer } from './config/types.js';

/**
 * - `disabled`: off by the operator's config or by the host (reason says which); never started.
 * - `idle`: not started yet (first use starts it).
 * - `starting`: connecting and discovering, within the start deadline.
 * - `ready`: connected; its tools are registered.
 * - `reconnecting`: an HTTP server's stream dropped and is being reopened (entered the moment it dropped);
 *   its tools stay offered, and a call waits up to the client's reconnectWaitMs (default 1 s) for the
 *   stream, then fails as `unavailable` with the next attempt's time. Back to `ready` when it is up;
 *   a connection that gives up is a crash.
 * - `restarting`: it crashed or failed to start; the next attempt is at nextAttemptAt.
 * - `needs-auth`: the server refused the credentials (401/403); not retried until the host restarts or enables it.
 * - `failed`: given up (maxFailures in a row, or a failure that cannot fix itself); enable() or restart() turn it back on.
 * - `closed`: the tool source is closed.
 * Servers in restarting, needs-auth, failed, disabled and closed contribute no tools.
 */
export type ServerState = 'disabled' | 'idle' | 'starting' | 'ready' | 'reconnecting' | 'restarting' | 'needs-auth' | 'failed' | 'closed';

/** The states whose servers contribute no tools: a call would fail at once. */
export const WITHDRAWN_STATES: ReadonlySet<ServerState> = new Set(['restarting', 'needs-auth', 'failed', 'disabled', 'closed']);
const WITHDRAWN = WITHDRAWN_STATES;

/** Where a host's secrets come from (a keychain, a vault): asked when a server whose auth names `ref` starts. */
export type SecretResolver = (ref: string, context: { server: string }) => Promise<string | undefined> | string | undefined;

/** What calls to one server have cost, over the source's life (S5). */
export interface CallStats {
  /** Sum and maximum of call durations, ms (calls that settled). */
  totalMs: number;
  maxMs: number;
  /** Result bytes received (before the cap). */
  bytes: number;
  /** Results cut by the result cap (R5). */
  truncated: number;
  /** Calls that ended in a timeout. */
  timeouts: number;
}

/** What a host reads about one server (S5). */
export interface ServerStatus {
  key: string;
  state: ServerState;
  transport: string;
  /** Why it failed (state 'failed'), or why it is disabled. */
  reason: string | undefined;
  /** When the next start is due, ms since the epoch (state 'restarting'). */
  nextAttemptAt: number | undefined;
  /** Restarts after a crash or a failed start, over the source's life. */
  restarts: number;
  /** Failures since the server last stayed up for the stability window. */
  consecutiveFailures: number;
  lastError: string | undefined;
  /** The typed code of the last failure (`closed` for a server that would not start, `timeout`, …): how a host tells failures apart without parsing lastError. */
  lastErrorCode: McpErrorCode | undefined;
  stderrTail: string;
  pid: number | undefined;
  /** Tools registered from this server (after its allow/deny filter). */
  tools: number;
  calls: number;
  errors: number;
  stats: CallStats;
  /** The protocol version the connection speaks (ready servers), e.g. `2025-11-25`. */
  protocolVersion: string | undefined;
  /** The protocol era the connection speaks (ready servers): 'legacy' (the 2025 handshake) or 'modern' (2026-07-28). */
  era: ConnectedEra | undefined;
}

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    timer.unref(); // a pending restart must not keep the host alive by itself
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface RestartPolicy {
  /** First backoff delay; doubles per consecutive failure. Default 1000 ms. */
  initialMs: number;
  /** Backoff ceiling. Default 60 000 ms. */
  maxMs: number;
  /** Consecutive failures after which the server is marked failed. Default 5. */
  maxFailures: number;
  /**
   * A server that stayed ready this long has recovered: its failure count
   * starts again from zero at the next crash. Default 60 000 ms.
   */
  stableAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { initialMs: 1_000, maxMs: 60_000, maxFailures: 5, stableAfterMs: 60_000 };

export interface SupervisorOptions {
  clock: Clock;
  restart: RestartPolicy;
  /** Client options for every connection (hooks, timeouts); the supervisor adds its own onClose and onListChanged. */
  client: McpClientOptions;
  /** Discover again on tools/list_changed. */
  rediscover: boolean;
  /** Values from the config that must not show in status or errors (resolved secret_refs, env references). */
  secrets: readonly string[];
  /** The connection's tools changed (discovery at start, a list_changed); returns how many were registered. */
  onTools(tools: readonly Tool[]): number;
  onState(status: ServerStatus): void;
  /** The server said one of its lists changed (tools, resources, prompts). */
  onListChanged?(kind: ListChangedKind): void;
  /** The deadline for one start (connect, handshake and tool discovery), ms. */
  startupTimeoutMs: number;
  /** Resolves a secret_ref the config could not (see SourceServer.secretRef); absent: such a server never starts. */
  resolveSecret?: SecretResolver | undefined;
  /** The server left `ready` (crashed, disabled, failed, closed): its tools are no longer offered. */
  onUnavailable?(): void;
  /** Builds the client; replaceable in tests. Default: connect(). */
  connectServer?: (server: SourceServer, options: McpClientOptions, signal: AbortSignal) => Promise<McpClient>;
}

export class ServerSupervisor {
  private state: ServerState;
  private client: McpClient | undefined;
  private starting: Promise<McpClient> | undefined;
  /** Aborts a start in progress when the source closes. */
  private startAbort: AbortController | undefined;
  /** The client of a start that has connected and is discovering: close() ends it at once. */
  private discovering: McpClient | undefined;
  private timer: unknown;
  private reason: string | undefined;
  private lastError: string | undefined;
  private lastErrorCode: McpErrorCode | undefined;
  /** Clients a stop() is still closing: a later hurried close escalates them. */
  private readonly closing = new Set<McpClient>();
  private nextAttemptAt: number | undefined;
  private restarts = 0;
  private failures = 0;
  private readyAt: number | undefined;
  private toolCount = 0;
  private calls = 0;
  private errors = 0;
  private lastStderr = '';
  private readonly stats: CallStats = { totalMs: 0, maxMs: 0, bytes: 0, truncated: 0, timeouts: 0 };
  /** Secrets resolved at start by the host's resolver: scrubbed like the config's. */
  private readonly resolvedSecrets = new Set<string>();
  /** Serializes calls when the host asks for it (R6). */
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * When the tool list last discovered stops being fresh (its `ttlMs`,
   * 2026-07-28 caching); undefined: the server gave none, and only
   * list_changed says the list changed.
   */
  private toolsStaleAt: number | undefined;
  /** The re-discovery under way: a list_changed meanwhile runs one more after it, never one beside it. */
  private rediscovering: Promise<void> | undefined;
  private rediscoverAgain = false;

  constructor(
    readonly server: SourceServer,
    private readonly options: SupervisorOptions,
  ) {
    this.state = server.disabled ? 'disabled' : 'idle';
    if (server.disabled) this.operatorOff = server.tools.enabled ? 'disabled in the operator config' : 'tools.enabled is false: it would register no tools';
    this.reason = this.operatorOff;
  }

  /** Why the config keeps this server off, if it does: the host cannot override it. */
  private readonly operatorOff: string | undefined;

  get key(): string {
    return this.server.key;
  }

  status(): ServerStatus {
    return {
      key: this.key,
      state: this.state,
      transport: this.client?.transportKind ?? this.server.params.transport,
      reason: this.scrub(this.reason),
      nextAttemptAt: this.state === 'restarting' || this.state === 'reconnecting' ? this.nextAttemptAt : undefined,
      restarts: this.restarts,
      consecutiveFailures: this.failures,
      lastError: this.scrub(this.lastError),
      lastErrorCode: this.lastErrorCode,
      stderrTail: this.scrub(this.client?.stderrTail() || this.lastStderr) ?? '',
      pid: this.state === 'ready' || this.state === 'reconnecting' ? this.client?.pid : undefined,
      tools: WITHDRAWN.has(this.state) ? 0 : this.toolCount,
      calls: this.calls,
      errors: this.errors,
      stats: { ...this.stats },
      protocolVersion: this.state === 'ready' || this.state === 'reconnecting' ? this.client?.profile?.protocolVersion : undefined,
      era: this.state === 'ready' || this.state === 'reconnecting' ? this.client?.era : undefined,
    };
  }

  /** Every value that must not show in status or in an error from this server. */
  secrets(): readonly string[] {
    return this.resolvedSecrets.size === 0 ? this.options.secrets : [...this.options.secrets, ...this.resolvedSecrets];
  }

  /** One answered call's cost (the tool source measures it: it sees the result's size and the cap). */
  recordCall(ms: number, bytes: number, truncated: boolean): void {
    this.addTime(ms);
    this.stats.bytes += bytes;
    if (truncated) this.stats.truncated++;
  }

  /**
   * A call run() started or refused that failed, reported by the caller's
   * own rejection handler (see run()); `ms` when the call was timed.
   */
  recordFailure(ms: number | undefined, timedOut: boolean): void {
    this.errors++;
    if (ms !== undefined) this.addTime(ms);
    if (timedOut) this.stats.timeouts++;
  }

  private addTime(ms: number): void {
    this.stats.totalMs += ms;
    if (ms > this.stats.maxMs) this.stats.maxMs = ms;
  }

  /**
   * The config's secret values out of text a host shows: a server may print
   * its environment on stderr, and errors carry the stderr tail.
   */
  private scrub(text: string | undefined): string | undefined {
    const secrets = this.secrets();
    return text === undefined || secrets.length === 0 ? text : redact(text, secrets);
  }

  /** The connected client, starting the server if it is idle; waits for a start in progress. */
  ready(): Promise<McpClient> {
    switch (this.state) {
      case 'ready':
        return Promise.resolve(this.client!);
      case 'starting':
        return this.starting!;
      case 'reconnecting':
        // The client holds a request while its stream reopens, for a bounded time (reconnectWaitMs), then fails it as unavailable.
        return Promise.resolve(this.client!);
      case 'idle':
        return this.start();
      default:
        return Promise.reject(this.unavailable());
    }
  }

  /**
   * Runs one call on the connected server, counting it; serialized with the
   * others when `serialize` is set. A call refused because the server cannot
   * take it (restarting, failed, disabled) counts as a call too. Its failure
   * is the caller's to report (recordFailure), from the rejection handler it
   * has anyway: so the common case, a ready server and no queue, adds no
   * promise of its own to the call (#20: the hop cost 40–90 of the tool
   * source's ~250 ns of its own work a call, measured against a stub client).
   */
  run<T>(job: (client: McpClient) => Promise<T>, serialize: boolean): Promise<T> {
    if (!serialize && this.state === 'ready') return this.started(job, this.client!);
    const attempt = () => this.ready().then((client) => this.started(job, client), this.countRefusal);
    if (!serialize) return attempt();
    const result = this.queue.then(attempt, attempt);
    this.queue = result.catch(() => {});
    return result;
  }

  /** Counts the call and starts it; a job that throws (a host's `within`, say) fails like any call: a rejection, never a throw out of call(). */
  private started<T>(job: (client: McpClient) => Promise<T>, client: McpClient): Promise<T> {
    this.calls++;
    try {
      return job(client);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private readonly countRefusal = (error: unknown): never => {
    this.calls++;
    throw error;
  };

  /**
   * The host turns a server it disabled, or one that failed, back on:
   * failures forgotten, started on next use. What the operator's config
   * turned off (local.toml `disabled`, `tools.enabled: false`) stays off:
   * only the config can turn it on (a reload).
   */
  enable(): void {
    if (this.operatorOff) throw new ConfigError(undefined, ['mcp', this.key], `server "${this.key}" is ${this.operatorOff}; change the config and reload to turn it on`, { server: this.key });
    if (this.state !== 'failed' && this.state !== 'needs-auth' && this.state !== 'disabled' && this.state !== 'restarting') return;
    this.cancelTimer();
    this.failures = 0;
    this.reason = undefined;
    this.setState('idle');
  }

  /** The host turns the server off: its connection closed, its tools withdrawn, no restarts until enable(). */
  async disable(): Promise<void> {
    if (this.state === 'closed' || this.state === 'disabled') return;
    this.cancelTimer();
    this.reason = 'disabled by the host';
    await this.stop('disabled');
  }

  /**
   * Stops the server if it runs and starts it again now, failures forgotten:
   * what a host does after fixing what broke it (a server restarted
   * elsewhere, a rotated credential). Resolves once it is ready.
   */
  async restart(): Promise<McpClient> {
    if (this.operatorOff) throw new ConfigError(undefined, ['mcp', this.key], `server "${this.key}" is ${this.operatorOff}; change the config and reload to turn it on`, { server: this.key });
    if (this.state === 'closed') throw this.unavailable();
    this.cancelTimer();
    await this.stop('idle');
    this.failures = 0;
    this.reason = undefined;
    return this.start();
  }

  /** Ends the connection or start in progress and settles in `state` (idle, disabled or closed). */
  private async stop(state: 'idle' | 'disabled' | 'closed', hurry = false): Promise<void> {
    const client = this.client;
    const starting = this.starting;
    this.client = undefined;
    this.setState(state);
    this.startAbort?.abort(new ClosedError({ server: this.key }, { reason: 'closed' }));
    // A hurried close also hurries the clients an earlier, graceful close is still stopping (Ctrl-C during a slow exit).
    const closing = [client, this.discovering, ...(hurry ? this.closing : [])].filter((c): c is McpClient => c !== undefined);
    for (const c of closing) this.closing.add(c);
    await Promise.allSettled([...closing.map((c) => c.close({ hurry }).finally(() => this.closing.delete(c))), starting]);
  }

  /** `hurry`: see McpClient.close(); for a host that is itself stopping. */
  async close(options: { hurry?: boolean } = {}): Promise<void> {
    this.cancelTimer();
    // A start in progress ends with its client closed (see start()); closing the one discovering stops its tools/list now.
    await this.stop('closed', options.hurry === true);
  }

  // --- lifecycle -------------------------------------------------------------------

  private start(): Promise<McpClient> {
    // A server declared in a form this version cannot start never will: no retries, failed with the reason.
    if (this.server.unsupported) {
      this.lastError = this.server.unsupported;
      // Fixed in the config, not by waiting: the CLI's exit status 3, as for a file that does not load.
      this.lastErrorCode = 'config';
      this.reason = this.server.unsupported;
      this.setState('failed');
      return Promise.reject(this.unavailable());
    }
    this.starting = this.connectAndDiscover().then(
      async (client) => {
        this.starting = undefined;
        if (this.state !== 'starting') {
          await client.close(); // closed meanwhile: the process is gone before close() returns
          throw this.unavailable();
        }
        this.client = client;
        this.readyAt = this.options.clock.now();
        this.setState('ready');
        return client;
      },
      (error: unknown) => {
        this.starting = undefined;
        // Stopped meanwhile (closed, disabled, restarted): the abort is not a failure of the server.
        if (this.state !== 'starting') throw error;
        this.failed(error);
        throw error;
      },
    );
    // Set after the promise exists, so a listener that calls ready() on 'starting' waits for it.
    this.setState('starting');
    return this.starting;
  }

  private async connectAndDiscover(): Promise<McpClient> {
    const connectServer = this.options.connectServer ?? ((server, options, signal) => connect(server.params, options, { signal }));
    const abort = new AbortController();
    this.startAbort = abort;
    // One deadline for the whole start: a server that hangs in its handshake or its tools/list holds nobody longer.
    const deadlineMs = this.options.startupTimeoutMs;
    // Real time, not the injectable clock (which paces restarts): it bounds a real process's start, and a test
    // that moves the restart clock by minutes must not expire a start that is under way.
    const deadline = setTimeout(() => abort.abort(new TimeoutError({ server: this.key, method: 'start' }, deadlineMs, ` (the start deadline: connect, initialize and tools/list)`)), deadlineMs);
    deadline.unref();
    try {
      const server = await this.withCredentials(abort.signal);
      return await this.connectWith(connectServer, server, abort.signal);
    } finally {
      clearTimeout(deadline);
    }
  }

  /**
   * The server with its secret in place: a secret_ref the config could not
   * resolve goes to the host's resolver. No resolver, or no value: the server
   * never starts (a ConfigError, not retried).
   */
  private async withCredentials(signal: AbortSignal): Promise<SourceServer> {
    const ref = this.server.secretRef;
    const params = this.server.params;
    if (ref === undefined || params.transport === 'stdio' || (params.auth !== undefined && params.auth.type !== 'none')) return this.server;
    const fail = (why: string) => new ConfigError(undefined, ['mcp', this.key, 'auth', 'secret_ref'], `the secret "${ref.ref}" for server "${this.key}" ${why}; the server is not started without it`, { server: this.key });
    if (!this.options.resolveSecret) throw fail('is not in local.toml [secrets] and the host gave no secret resolver');
    let value: string | undefined;
    try {
      value = await this.options.resolveSecret(ref.ref, { server: this.key });
    } catch (error) {
      throw fail(`could not be resolved by the host (${describe(error)})`);
    }
    signal.throwIfAborted();
    if (typeof value !== 'string' || value.trim() === '') throw fail('was not found by the host\'s resolver');
    if (/[\r\n\0]/.test(value)) throw fail('contains a line break or NUL, which an HTTP header cannot carry');
    this.resolvedSecrets.add(value);
    const auth: HttpAuth = ref.type === 'bearer' ? { type: 'bearer', value } : { type: 'header', headerName: ref.headerName, value };
    return { ...this.server, params: { ...params, auth } };
  }

  private async connectWith(connectServer: NonNullable<SupervisorOptions['connectServer']>, server: SourceServer, signal: AbortSignal): Promise<McpClient> {
    let client: McpClient | undefined;
    const options: McpClientOptions = {
      ...this.options.client,
      // The client scrubs its own errors, stderr tail and diagnostics of these, before any cut.
      secrets: [...(this.options.client.secrets ?? []), ...this.secrets()],
      onConnectionState: (state) => {
        this.options.client.onConnectionState?.(state);
        if (client && this.client === client) this.connectionState(state);
      },
      onClose: (end) => {
        this.options.client.onClose?.(end);
        if (client && this.client === client) this.crashed(end, client);
      },
      onListChanged: (kind) => {
        this.options.client.onListChanged?.(kind);
        if (client && this.client === client) this.options.onListChanged?.(kind);
        if (kind === 'tools' && this.options.rediscover && client && this.client === client) void this.rediscover(client);
      },
    };
    client = await connectServer(server, options, signal);
    this.discovering = client;
    try {
      signal.throwIfAborted();
      await this.discover(client, signal);
    } catch (error) {
      this.lastStderr = client.stderrTail();
      await client.close().catch(() => {});
      throw error;
    } finally {
      this.discovering = undefined;
    }
    return client;
  }

  private async discover(client: McpClient, signal?: AbortSignal): Promise<void> {
    const listed = await client.listTools(signal ? { signal } : undefined);
    this.toolCount = this.options.onTools(listed.tools);
    // The client's cache holds the list as long; past that, the next use of the tools lists them again (refreshTools).
    this.toolsStaleAt = typeof listed.ttlMs === 'number' && listed.ttlMs > 0 ? performance.now() + listed.ttlMs : undefined;
  }

  /**
   * notifications/tools/list_changed (R7), or a tool list past its ttlMs:
   * discover again; a failure is recorded, the old tools stay. One listing
   * at a time: `again` (a list_changed) while one runs means one more after
   * it, since the one under way may predate the change; without it (a stale
   * list) the caller waits for the one under way.
   */
  private rediscover(client: McpClient, again = true): Promise<void> {
    if (this.rediscovering) {
      if (again) this.rediscoverAgain = true;
      return this.rediscovering;
    }
    const run = async () => {
      do {
        this.rediscoverAgain = false;
        try {
          await this.discover(client);
        } catch (error) {
          this.lastError = describe(error);
          this.lastErrorCode = error instanceof McpClientError ? error.code : undefined;
          this.options.onState(this.status());
        }
      } while (this.rediscoverAgain && this.client === client);
    };
    this.rediscovering = run().finally(() => {
      this.rediscovering = undefined;
    });
    return this.rediscovering;
  }

  /**
   * 2026-07-28 caching: a ready server whose tool list's ttlMs has run out
   * is listed again now, before its tools are used (a server may give a TTL
   * and send no list_changed). Nothing for a server that gave no TTL, or
   * whose list is still fresh. Never rejects.
   */
  refreshTools(): Promise<void> {
    const client = this.client;
    if (this.state !== 'ready' || !client || this.toolsStaleAt === undefined || performance.now() < this.toolsStaleAt) return Promise.resolve();
    return this.rediscover(client, false);
  }

  /**
   * An HTTP server's stream dropped (reconnecting, reported the moment it
   * did) or is back (connected): the state says so at once. Giving up ends
   * the connection, which crashed() handles.
   */
  private connectionState(state: TransportState): void {
    if (state.state === 'reconnecting' && (this.state === 'ready' || this.state === 'reconnecting')) {
      this.reason = state.reason;
      this.nextAttemptAt = state.nextAttemptAt;
      this.setState('reconnecting');
    } else if (state.state === 'connected' && this.state === 'reconnecting') {
      this.reason = undefined;
      this.setState('ready');
    }
  }

  /** A ready server's connection ended without our close(): count it and schedule a restart (S2). */
  private crashed(end: TransportEnd, client: McpClient): void {
    if (this.state !== 'ready' && this.state !== 'reconnecting') return;
    this.lastStderr = client.stderrTail();
    this.client = undefined;
    // A server that stayed up for the stability window has recovered: this crash starts a new count.
    if (this.readyAt !== undefined && this.options.clock.now() - this.readyAt >= this.options.restart.stableAfterMs) this.failures = 0;
    this.failed(errorForEnd({ server: this.key }, end));
  }

  /** One more consecutive failure: schedule the next start, or give up after maxFailures. */
  private failed(error: unknown): void {
    this.failures++;
    this.lastError = describe(error);
    this.lastErrorCode = error instanceof McpClientError ? error.code : undefined;
    // A start that failed returned no client: the stderr tail rides on its error.
    if (error instanceof ClosedError && error.stderrTail) this.lastStderr = error.stderrTail;
    // Nothing retries what cannot fix itself: a refused credential, a secret that is not there, a config the server cannot use.
    if (error instanceof AuthError) {
      this.reason = `the server refused the credentials (HTTP ${error.status}); fix them, then restart or enable the server`;
      this.setState('needs-auth');
      return;
    }
    // An OAuth login nobody here can do (no authorizer: a daemon), or one that failed: the host or the user acts, not a retry.
    if (error instanceof OAuthError) {
      this.reason = error.step === 'authorization' ? `needs login: ${error.message}` : `OAuth failed: ${error.message}`;
      this.setState('needs-auth');
      return;
    }
    if (error instanceof ConfigError) {
      this.reason = this.lastError;
      this.setState('failed');
      return;
    }
    const policy = this.options.restart;
    if (this.failures >= policy.maxFailures) {
      this.reason = `${this.failures} consecutive failure${this.failures === 1 ? '' : 's'}; the last: ${this.lastError}`;
      this.setState('failed');
      return;
    }
    const delay = nextDelay(this.failures - 1, policy);
    this.nextAttemptAt = this.options.clock.now() + delay;
    this.setState('restarting');
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = undefined;
      if (this.state !== 'restarting') return;
      this.restarts++;
      this.start().catch(() => {}); // a failure is counted by start() itself
    }, delay);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private setState(state: ServerState): void {
    this.state = state;
    if (this.retired) return;
    // A call in these states fails at once, so its tools are not offered; idle and starting
    // servers are (a call waits for the start), so a host's restart() withdraws nothing.
    if (WITHDRAWN.has(state)) this.options.onUnavailable?.();
    this.options.onState(this.status());
  }

  /** Set by retire(): a supervisor a reload replaced says nothing more to the host. */
  private retired = false;

  /**
   * Closes a supervisor that a reload replaces with a new one for the same
   * key: the host hears the new one's states and tools, not this one's
   * closing (which would say `closed`, and withdraw tools the new one is
   * about to register again).
   */
  retire(): Promise<void> {
    this.retired = true;
    return this.close();
  }

  /** The typed error a call gets while the server cannot take it. */
  private unavailable(): ClosedError {
    const why =
      this.state === 'restarting'
        ? `it ${this.readyAt === undefined ? 'failed to start' : 'crashed'} and starts again in ${inSeconds((this.nextAttemptAt ?? 0) - this.options.clock.now())} (after ${this.failures} consecutive failure${this.failures === 1 ? '' : 's'}; last: ${this.lastError})`
        : this.state === 'failed'
          ? `it is marked failed (${this.reason}); the host can re-enable it`
          : this.state === 'needs-auth'
            ? `it needs authorization: ${this.reason}`
            : this.state === 'disabled'
              ? `it is ${this.reason ?? 'disabled'}`
              : 'the tool source is closed';
    return new ClosedError({ server: this.key }, { reason: 'unavailable', cause: new Error(this.scrub(why)) });
  }
}

/** "2 s", "500 ms": how long until a restart, as a person reads it. */
function inSeconds(ms: number): string {
  const left = Math.max(0, ms);
  return left < 1_000 ? `${Math.round(left)} ms` : `${Math.round(left / 1_000)} s`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
