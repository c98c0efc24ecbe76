// resources/subscribe and resources/unsubscribe through `mcpwire serve`: a
// client subscribes to a resource by the URI serve listed it under; the
// subscription goes to the upstream server that owns it, in that server's
// own URI, once however many clients want it; the server's
// notifications/resources/updated comes back to each client subscribed,
// named by the URI that client used. The last client to leave (or to go)
// ends the upstream subscription. What owns a URI is the bridge's to say:
// the caller resolves it and gives both forms here.

import { RpcError } from '../errors.js';
import { ErrorCodes } from '../jsonrpc/codes.js';
import type { ToolSource } from '../toolsource/tool-source.js';
import { RpcFault } from './peer.js';
import type { ServeSession } from './protocol.js';

/** A served URI and what it stands for upstream. */
export interface ResourceTarget {
  /** The URI as the client sent it (as serve lists it). */
  served: string;
  key: string;
  upstream: string;
}

interface Upstream {
  key: string;
  upstream: string;
  /** Each subscribed client, with the URI it subscribed by. */
  clients: Map<ServeSession, string>;
  /** The upstream resources/subscribe, while it is under way or done. */
  subscribed: Promise<void>;
}

export class ResourceSubscriptions {
  private readonly byUpstream = new Map<string, Upstream>();

  /** How many upstream subscriptions are held (for tests and status). */
  get size(): number {
    return this.byUpstream.size;
  }

  async subscribe(session: ServeSession, target: ResourceTarget, source: ToolSource, signal: AbortSignal): Promise<void> {
    const id = entryId(target.key, target.upstream);
    let entry = this.byUpstream.get(id);
    if (!entry) {
      const subscribed = source.withServer(target.key, async (client) => {
        // MCP 2025-11-25 server/resources "Capabilities": subscribe is optional; asking a server that has not said it is a protocol error there.
        if (client.profile?.capabilities.resources?.subscribe !== true) {
          throw new RpcFault(ErrorCodes.MethodNotFound, `resources/subscribe: the server "${target.key}" that owns ${target.served} does not offer resource subscriptions; read the resource again instead`);
        }
        await client.request('resources/subscribe', { uri: target.upstream }, { signal });
      });
      entry = { key: target.key, upstream: target.upstream, clients: new Map(), subscribed: subscribed.then(() => undefined) };
      this.byUpstream.set(id, entry);
      // A failed subscription is not kept: the next client to ask tries again.
      subscribed.catch(() => {
        if (this.byUpstream.get(id) === entry) this.byUpstream.delete(id);
      });
    }
    try {
      await entry.subscribed;
    } catch (error) {
      throw asFault(error);
    }
    entry.clients.set(session, target.served);
  }

  /** Ends this client's subscription; the upstream one with the last client. Unsubscribing from what one never subscribed to is no error. */
  async unsubscribe(session: ServeSession, target: ResourceTarget, source: ToolSource): Promise<void> {
    const id = entryId(target.key, target.upstream);
    const entry = this.byUpstream.get(id);
    if (!entry?.clients.delete(session) || entry.clients.size > 0) return;
    this.byUpstream.delete(id);
    try {
      await source.withServer(entry.key, (client) => client.request('resources/unsubscribe', { uri: entry.upstream }));
    } catch (error) {
      throw asFault(error);
    }
  }

  /** A client has gone: its subscriptions end (upstream too, where it was the last). */
  drop(session: ServeSession, source: ToolSource): void {
    for (const [id, entry] of this.byUpstream) {
      if (!entry.clients.delete(session) || entry.clients.size > 0) continue;
      this.byUpstream.delete(id);
      void source.withServer(entry.key, (client) => client.request('resources/unsubscribe', { uri: entry.upstream })).catch(() => undefined);
    }
  }

  /** notifications/resources/updated from server `key`: told to each client subscribed, by the URI it used. */
  updated(key: string, uri: unknown): void {
    if (typeof uri !== 'string') return;
    const entry = this.byUpstream.get(entryId(key, uri));
    for (const [session, served] of entry?.clients ?? []) session.resourceUpdated(served);
  }
}

function entryId(key: string, upstream: string): string {
  return `${key}\n${upstream}`;
}

/** An upstream failure as the downstream client should see it. */
function asFault(error: unknown): unknown {
  if (error instanceof RpcError) return new RpcFault(error.rpcCode, error.rpcMessage, error.data);
  return error;
}
