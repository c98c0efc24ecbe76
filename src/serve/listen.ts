// The server side of the 2026-07-28 listen stream (SEP "subscriptions/listen"):
// a modern client has no session and no GET stream, so it hears list changes
// on a `subscriptions/listen` request that stays open. This answers it: the
// part of the filter this server honours is acknowledged at once with
// `notifications/subscriptions/acknowledged`; each change of a list the
// filter names then goes out on that request, stamped with the subscription
// id (the request's id); the request ends when the client cancels it or goes
// (the handler's signal). Nothing is sent in answer then: the client ended it.

import type { ListChangedKind } from '../client/client.js';
import { ErrorCodes } from '../jsonrpc/codes.js';
import { isObject } from '../jsonrpc/message.js';
import { RpcFault, type HandlerContext } from './peer.js';

export const SUBSCRIPTION_ID_META_KEY = 'io.modelcontextprotocol/subscriptionId';

/** The filter fields this server honours (it says listChanged for all three lists). */
const FILTER_KEYS: Readonly<Record<ListChangedKind, string>> = { tools: 'toolsListChanged', resources: 'resourcesListChanged', prompts: 'promptsListChanged' };

/**
 * Serves one subscriptions/listen request until its signal aborts.
 * `onChange` subscribes to this session's list changes and returns the
 * unsubscriber. Resolves with the final result only when nothing asked for
 * is honoured (the stream then ends at once, as the spec has it).
 */
export function serveListen(params: Record<string, unknown>, context: HandlerContext, onChange: (listener: (kind: ListChangedKind) => void) => () => void): Promise<Record<string, unknown>> {
  const requested = params.notifications;
  if (!isObject(requested)) throw new RpcFault(ErrorCodes.InvalidParams, 'subscriptions/listen needs params.notifications, a SubscriptionFilter (e.g. {"toolsListChanged": true})');
  const honored: Record<string, boolean> = {};
  for (const key of Object.values(FILTER_KEYS)) if (requested[key] === true) honored[key] = true;
  const stamp = { [SUBSCRIPTION_ID_META_KEY]: context.id };
  context.notify('notifications/subscriptions/acknowledged', { notifications: honored, _meta: stamp });
  if (Object.keys(honored).length === 0) return Promise.resolve({ _meta: stamp });
  return new Promise((_resolve, reject) => {
    const off = onChange((kind) => {
      if (honored[FILTER_KEYS[kind]]) context.notify(`notifications/${kind}/list_changed`, { _meta: stamp });
    });
    const end = () => {
      off();
      reject(context.signal.reason);
    };
    if (context.signal.aborted) end();
    else context.signal.addEventListener('abort', end, { once: true });
  });
}
