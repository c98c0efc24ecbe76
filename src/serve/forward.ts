// Requests an upstream server sends while `mcpwire serve` runs one of its
// tools (sampling/createMessage, elicitation/create, roots/list) go to the
// downstream client whose call it is, on that call's stream, but only when
// that client said it can answer them (its capabilities); otherwise they
// are refused -32601 as the tool source refuses them without a host handler
// (W5). The tracker knows which calls run where; it sends nothing itself.

import type { McpClientOptions } from '../client/client.js';
import type { RequestContext, RequestHandler } from '../client/connection.js';
import { RpcError } from '../errors.js';
import { ErrorCodes } from '../jsonrpc/codes.js';
import { RpcFault, type HandlerContext } from './peer.js';
import type { ServeSession } from './protocol.js';

type Capability = 'sampling' | 'elicitation' | 'roots';

const METHODS: Readonly<Record<Capability, string>> = { sampling: 'sampling/createMessage', elicitation: 'elicitation/create', roots: 'roots/list' };

interface ActiveCall {
  session: ServeSession;
  context: HandlerContext;
  /** Asked when a request comes, not when the call starts: a first call may start its server, and only then is its tool registered. */
  server: () => string | undefined;
}

export class CallTracker {
  private readonly active: ActiveCall[] = [];

  /** A downstream tools/call started; `server` says whose tool it is. The returned function ends it. */
  begin(session: ServeSession, context: HandlerContext, server: () => string | undefined): () => void {
    const call: ActiveCall = { session, context, server };
    this.active.push(call);
    return () => {
      const at = this.active.indexOf(call);
      if (at !== -1) this.active.splice(at, 1);
    };
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

  private async route(key: string, capability: Capability, params: Record<string, unknown> | undefined, context: RequestContext): Promise<unknown> {
    const method = METHODS[capability];
    // The latest call on that server whose client can answer: the request is about it (MCP: "in the context of" a request).
    const call = [...this.active].reverse().find((c) => c.session.canAsk(capability) && c.server() === key);
    if (!call) throw new RpcError({ server: key, method }, ErrorCodes.MethodNotFound, `${method} is not available: no client of mcpwire serve that is running a call of this server declared the ${capability} capability`);
    try {
      return await call.context.request(method, params, context.signal);
    } catch (error) {
      if (error instanceof RpcFault) throw new RpcError({ server: key, method }, error.rpcCode, error.message, error.data);
      throw error;
    }
  }
}
