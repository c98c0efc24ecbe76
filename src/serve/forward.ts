// Requests an upstream server sends while `mcpwire serve` runs one of its
// tools (sampling/createMessage, elicitation/create, roots/list) go to the
// downstream client whose call it is, on that call's stream, but only when
// that client said it can answer them (its capabilities); otherwise they
// are refused -32601 as the tool source refuses them without a host handler
// (W5). Its log lines (notifications/message) go the same way, at the level
// that client asked for; resource updates go to the clients subscribed
// (subscriptions.ts). The tracker knows which calls run where; it sends
// nothing of its own accord.

import type { McpClientOptions } from '../client/client.js';
import type { RequestContext, RequestHandler } from '../client/connection.js';
import { LOGGING_LEVELS, type LoggingLevel } from '../client/results.js';
import { RpcError } from '../errors.js';
import { ErrorCodes } from '../jsonrpc/codes.js';
import type { JsonRpcNotification } from '../jsonrpc/message.js';
import type { ToolSource } from '../toolsource/tool-source.js';
import { RpcFault, type HandlerContext } from './peer.js';
import type { ServeSession } from './protocol.js';
import { ResourceSubscriptions } from './subscriptions.js';

type Capability = 'sampling' | 'elicitation' | 'roots';

const METHODS: Readonly<Record<Capability, string>> = { sampling: 'sampling/createMessage', elicitation: 'elicitation/create', roots: 'roots/list' };

/** What names the server of a served tool (the bridge). */
interface ToolServers {
  serverOf(name: string): string | undefined;
}

/** A downstream tools/call in flight; begin() returns it, end() takes it back. */
export interface ActiveCall {
  readonly session: ServeSession;
  readonly context: HandlerContext;
  readonly servers: ToolServers;
  readonly tool: string;
  /** The level a 2026-07-28 request asked for in its _meta (that era has no logging/setLevel). */
  readonly logLevel: LoggingLevel | undefined;
}

/** The call's server key, asked when a request comes, not when the call starts: a first call may start its server, and only then is its tool registered. */
function serverOf(call: ActiveCall): string | undefined {
  return call.servers.serverOf(call.tool);
}

/** A level's rank: a message at `level` goes to a client that asked for `wanted` when rank(level) >= rank(wanted). */
export function levelRank(level: unknown): number {
  return (LOGGING_LEVELS as readonly unknown[]).indexOf(level);
}

export class CallTracker {
  /** In the order they began (a Set: a call ends in O(1), and the latest is the last). */
  private readonly active = new Set<ActiveCall>();
  /** The level each legacy client set with logging/setLevel. */
  private readonly levels = new Map<ServeSession, LoggingLevel>();
  /** The level the upstream servers were last asked for: the most verbose any client wants. */
  private upstreamLevel: LoggingLevel | undefined;
  readonly subscriptions = new ResourceSubscriptions();

  /** A downstream tools/call of `tool` started; `servers` says whose tool it is. Give the returned call to end() when it is over. */
  begin(session: ServeSession, context: HandlerContext, servers: ToolServers, tool: string, logLevel?: LoggingLevel): ActiveCall {
    const call: ActiveCall = { session, context, servers, tool, logLevel };
    this.active.add(call);
    return call;
  }

  end(call: ActiveCall): void {
    this.active.delete(call);
  }

  /** The latest call on server `key` that `accepts`, if any. */
  private latest(key: string, accepts: (call: ActiveCall) => boolean): ActiveCall | undefined {
    return [...this.active].reverse().find((c) => accepts(c) && serverOf(c) === key);
  }

  /**
   * The handlers for a tool source's `serverHandlers` option: installing
   * them makes the source advertise sampling, elicitation and roots to every
   * upstream server, and each request is then routed, or refused, here.
   */
  handlers(key: string): NonNullable<McpClientOptions['handlers']> {
    const make = (capability: Capability): RequestHandler => (params, context) => this.route(key, capability, params, context);
    return { sampling: make('sampling'), elicitation: make('elicitation'), roots: make('roots') };
  }

  /**
   * A notification an upstream server sent (the tool source's
   * onServerNotification). A log line belongs to the call running on that
   * server (the latest, when several are), and goes on that call's stream
   * when its client asked for that level or has set none (a 2025 server may
   * choose what to send then; a 2026-07-28 request gets log lines only when
   * it asks). A log line outside any call belongs to no client: dropped.
   */
  notification(key: string, notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/resources/updated') return this.subscriptions.updated(key, notification.params?.uri);
    if (notification.method !== 'notifications/message') return;
    const params = notification.params ?? {};
    const rank = levelRank(params.level);
    if (rank === -1) return; // not a log level: malformed, nothing a client could filter
    const call = this.latest(key, () => true);
    if (!call) return;
    const wanted = call.session.era === 'modern' ? call.logLevel : this.levels.get(call.session);
    if (call.session.era === 'modern' && wanted === undefined) return;
    if (wanted !== undefined && rank < levelRank(wanted)) return;
    call.context.notify('notifications/message', params);
  }

  /**
   * A legacy client's logging/setLevel: remembered for that client, and the
   * upstream servers that log are asked for the most verbose level any
   * client wants (each client's own is applied here, per line).
   */
  async setLevel(session: ServeSession, level: LoggingLevel, source: ToolSource): Promise<void> {
    this.levels.set(session, level);
    await this.applyLevel(source);
  }

  /** A client has gone: its level and its subscriptions with it. */
  forget(session: ServeSession, source: ToolSource): void {
    this.subscriptions.drop(session, source);
    if (this.levels.delete(session)) void this.applyLevel(source);
  }

  private async applyLevel(source: ToolSource): Promise<void> {
    const wanted = [...this.levels.values()].sort((a, b) => levelRank(a) - levelRank(b))[0];
    if (wanted === undefined || wanted === this.upstreamLevel) return;
    this.upstreamLevel = wanted;
    await source.discover();
    await Promise.all(
      source
        .status()
        .filter((s) => s.state === 'ready')
        .map((s) =>
          source
            .withServer(s.key, async (client) => {
              if (client.profile?.capabilities.logging !== undefined) await client.setLoggingLevel(wanted);
            })
            .catch(() => undefined),
        ),
    );
  }

  private async route(key: string, capability: Capability, params: Record<string, unknown> | undefined, context: RequestContext): Promise<unknown> {
    const method = METHODS[capability];
    // The latest call on that server whose client can answer: the request is about it (MCP: "in the context of" a request).
    const call = this.latest(key, (c) => c.session.canAsk(capability));
    if (!call) throw new RpcError({ server: key, method }, ErrorCodes.MethodNotFound, `${method} is not available: no client of mcpwire serve that is running a call of this server declared the ${capability} capability`);
    try {
      return await call.context.request(method, params, context.signal);
    } catch (error) {
      if (error instanceof RpcFault) throw new RpcError({ server: key, method }, error.rpcCode, error.message, error.data);
      throw error;
    }
  }
}
