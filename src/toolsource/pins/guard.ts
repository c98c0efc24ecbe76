// The pin policy inside a running tool source (SPEC G2): each listing is
// reviewed against the store before it is registered, what `block` withholds
// is remembered with why, drift is reported once per distinct finding, and
// an approval (trust) releases withheld tools at once. The tool source calls
// it from its discovery hook; it knows nothing of supervision.

import type { Tool } from '../../client/results.js';
import type { SourceServer } from '../config/types.js';
import { unusedDenyPatterns } from './deny-check.js';
import { approve, DEFAULT_PIN_POLICY, reviewTools, withheldReason, type PinPolicy, type ToolDrift } from './review.js';
import { updatePins, type PinStore } from './store.js';

export interface PinOptions {
  /** Where approved definitions are kept. Default: the file pinFileFor() names for the config file (an in-memory store for a config with no file). */
  store?: PinStore;
  /** The policy of servers whose config sets no `pin`. Default 'warn'. */
  policy?: PinPolicy;
  /**
   * What `block` does with a drifted tool: 'withhold' (default) registers it
   * not at all, so no agent is offered it; 'ask', for a host with its own
   * approval flow (Kestrel), registers it and marks it (pinReason), and the
   * host asks a person before each call.
   */
  onBlock?: 'withhold' | 'ask';
}

interface ServerPins {
  /** The last listing, whole: what trust() approves and recheck() reviews again. */
  listed: readonly Tool[];
  accepts: (name: string) => boolean;
  policy: PinPolicy;
  drift: ToolDrift | undefined;
  /** The drift last reported (its text): the same finding is not reported at every restart. */
  reported: string | undefined;
}

export class PinGuard {
  private readonly servers = new Map<string, ServerPins>();

  constructor(
    readonly store: PinStore,
    private readonly options: Pick<PinOptions, 'policy' | 'onBlock'> = {},
  ) {}

  policyOf(server: SourceServer): PinPolicy {
    return server.pin ?? this.options.policy ?? DEFAULT_PIN_POLICY;
  }

  /**
   * Reviews one listing: the tools to register, and the drift when it is a
   * new finding (undefined when nothing differs or it was reported already).
   */
  review(server: SourceServer, tools: readonly Tool[], accepts: (name: string) => boolean): { offered: Tool[]; report: ToolDrift | undefined } {
    const policy = this.policyOf(server);
    const previous = this.servers.get(server.key);
    const state: ServerPins = { listed: tools, accepts, policy, drift: undefined, reported: previous?.reported };
    this.servers.set(server.key, state);
    if (policy === 'off') return { offered: [...tools], report: undefined };
    const review = reviewTools(server.key, tools, this.store.get(server.key), policy, accepts);
    state.drift = review.drift;
    const text = review.drift?.text.join('\n');
    const report = review.drift !== undefined && text !== state.reported ? review.drift : undefined;
    state.reported = text;
    // 'ask': everything is registered; the drifted tools carry a reason instead.
    return { offered: this.options.onBlock === 'ask' ? [...tools] : review.offered, report };
  }

  /** Why a tool is withheld (or, with onBlock 'ask', must be asked for); undefined when it is not. */
  reason(server: string, tool: string): string | undefined {
    const drift = this.servers.get(server)?.drift;
    if (!drift || !drift.withheld.includes(tool)) return undefined;
    return withheldReason(drift, tool);
  }

  /** The current drift of one server (undefined: none, or not listed yet). */
  drift(server: string): ToolDrift | undefined {
    return this.servers.get(server)?.drift;
  }

  /** Whether any server has something withheld: only then is the store worth reading again. */
  holdsAny(): boolean {
    for (const state of this.servers.values()) if (state.drift && state.drift.withheld.length > 0) return true;
    return false;
  }

  /** The servers with withheld tools whose review now differs (the store changed under them, e.g. mcpwire trust ran). */
  stale(): string[] {
    const out: string[] = [];
    for (const [key, state] of this.servers) {
      if (!state.drift || state.drift.withheld.length === 0) continue;
      const now = reviewTools(key, state.listed, this.store.get(key), state.policy, state.accepts).drift;
      if ((now?.text.join('\n') ?? '') !== state.drift.text.join('\n')) out.push(key);
    }
    return out;
  }

  /** The last listing of a server, for a review again. */
  listed(server: string): readonly Tool[] | undefined {
    return this.servers.get(server)?.listed;
  }

  /**
   * Approves what the server listed last (one tool, or all): written to the
   * store. Returns false when the server has not been listed yet (nothing to approve).
   */
  trust(server: string, tool?: string): boolean {
    const state = this.servers.get(server);
    if (!state) return false;
    updatePins(this.store, server, (current) => approve(current, state.listed, { ...(tool !== undefined ? { only: tool } : {}), accepts: state.accepts }));
    return true;
  }

  /** Deny patterns of the server that match none of its listed tools and were not reported yet (a typo looks like a working rule). */
  unusedDeny(server: SourceServer, tools: readonly Tool[]): string[] {
    const unused = unusedDenyPatterns(server.tools, tools.map((t) => t.name));
    const fresh = unused.filter((pattern) => !this.denyReported.has(`${server.key}\u0000${pattern}`));
    for (const pattern of fresh) this.denyReported.add(`${server.key}\u0000${pattern}`);
    return fresh;
  }

  private readonly denyReported = new Set<string>();

  forget(server: string): void {
    this.servers.delete(server);
  }
}
