// The 2026-07-28 listen stream (#17 item 4; SEP "subscriptions/listen"): in
// the modern era there is no GET stream and no session, so notifications
// outside a request (the list_changed ones) arrive only on a long-lived
// `subscriptions/listen` request, which the server acknowledges with
// `notifications/subscriptions/acknowledged` and then keeps open, sending
// what the filter asked for. The client opens one only when its caller asked
// to hear about changes (McpClientOptions.onListChanged), for the lists the
// server says change (capabilities.*.listChanged). The notifications come in
// like any other and reach onListChanged through the client's usual routing.
// Ending the request (abort: notifications/cancelled on stdio, the POST's
// stream closed over Streamable HTTP) ends the subscription.

import { ClosedError } from '../errors.js';
import type { DiagnosticHook } from '../diagnostics.js';
import type { RequestOptions } from './connection.js';
import type { JsonObject, ServerCapabilities } from './results.js';

/** Node's timers top out at 2^31-1 ms (about 24.8 days); the stream is reopened when its deadline ends it. */
export const LISTEN_TIMEOUT_MS = 2_147_483_647;
/** How long connect() waits for the server to acknowledge the subscription (so a change right after connect is not missed). */
export const DEFAULT_LISTEN_ACK_TIMEOUT_MS = 2_000;

/** The subscriptions/listen filter (2026-07-28 SubscriptionFilter). */
export interface ListenFilter extends JsonObject {
  toolsListChanged?: boolean;
  resourcesListChanged?: boolean;
  promptsListChanged?: boolean;
}

/** The lists the server says change, or undefined when there is nothing to listen for. */
export function listenFilterFor(capabilities: ServerCapabilities | undefined): ListenFilter | undefined {
  const filter: ListenFilter = {};
  if (capabilities?.tools?.listChanged === true) filter.toolsListChanged = true;
  if (capabilities?.resources?.listChanged === true) filter.resourcesListChanged = true;
  if (capabilities?.prompts?.listChanged === true) filter.promptsListChanged = true;
  return Object.keys(filter).length > 0 ? filter : undefined;
}

export interface ListenStreamOptions {
  server: string;
  filter: ListenFilter;
  /** Sends subscriptions/listen (McpClient's connection.request). */
  request: (method: string, params: JsonObject, options: RequestOptions) => Promise<unknown>;
  onDiagnostic?: DiagnosticHook;
  ackTimeoutMs?: number;
}

/** One open subscriptions/listen request, reopened when our own deadline ends it. */
export class ListenStream {
  private readonly controller = new AbortController();
  private closed = false;
  private ack!: () => void;
  /** Settles (never rejects) once the server acknowledged, the request ended, or ackTimeoutMs passed. */
  readonly acknowledged: Promise<void>;
  /** The id the server stamps on this subscription's notifications (`_meta["io.modelcontextprotocol/subscriptionId"]`), once acknowledged. */
  subscriptionId: string | number | undefined;

  constructor(private readonly options: ListenStreamOptions) {
    this.acknowledged = new Promise<void>((resolve) => (this.ack = resolve));
    const timer = setTimeout(this.ack, options.ackTimeoutMs ?? DEFAULT_LISTEN_ACK_TIMEOUT_MS);
    timer.unref?.();
    void this.acknowledged.then(() => clearTimeout(timer));
    this.open();
  }

  private open(): void {
    this.options
      .request('subscriptions/listen', { notifications: this.options.filter }, { timeoutMs: LISTEN_TIMEOUT_MS, signal: this.controller.signal })
      .then(
        () => this.ended('the server closed it'),
        (error: unknown) => {
          if (this.closed || this.controller.signal.aborted || error instanceof ClosedError) return;
          if (error instanceof Error && error.name === 'TimeoutError') return this.open();
          this.ended(error instanceof Error ? error.message : String(error));
        },
      )
      .finally(this.ack);
  }

  private ended(detail: string): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.options.onDiagnostic?.({ kind: 'listen-ended', server: this.options.server, detail });
    } catch {
      // A diagnostic hook that throws must not turn into an unhandled rejection.
    }
  }

  /** `notifications/subscriptions/acknowledged` arrived. */
  onAcknowledged(params: JsonObject): void {
    const meta = params._meta as Record<string, unknown> | undefined;
    const id = meta?.['io.modelcontextprotocol/subscriptionId'];
    if (typeof id === 'string' || typeof id === 'number') this.subscriptionId = id;
    this.ack();
  }

  /** Ends the request (the client is closing); idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.controller.abort(new Error('the client closed the listen stream'));
    this.ack();
  }
}
