// One downstream client's MCP session with `mcpwire serve`, in either era:
//   legacy (2025 revisions): `initialize` agrees a version and says the
//     client's capabilities once, then `notifications/initialized`;
//   modern (2026-07-28): no handshake; each request carries the protocol
//     version, client info and capabilities in params._meta, `server/discover`
//     says what the server is, and every result carries `resultType`.
// A session speaks the era its client chose, request by request. Methods
// are answered through the bridge; list_changed and progress go out through
// the peer. It owns no socket: the listener (stdio, HTTP) gives it `send`.

import type { ListChangedKind } from '../client/client.js';
import { CLIENT_CAPABILITIES_META_KEY, isModernVersion, LOG_LEVEL_META_KEY, MODERN_PROTOCOL_VERSIONS, PROTOCOL_VERSION_META_KEY, SERVER_INFO_META_KEY } from '../client/request-meta.js';
import { LATEST_PROTOCOL_VERSION, LOGGING_LEVELS, SUPPORTED_PROTOCOL_VERSIONS, type Implementation, type JsonObject, type LoggingLevel } from '../client/results.js';
import { ErrorCodes } from '../jsonrpc/codes.js';
import { isObject, type JsonRpcId, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest } from '../jsonrpc/message.js';
import type { ToolSourceBridge } from './bridge.js';
import type { CallTracker } from './forward.js';
import { serveListen } from './listen.js';
import { RpcFault, ServerPeer, type HandlerContext } from './peer.js';

export interface ServeSessionOptions {
  bridge: ToolSourceBridge;
  /** Only this agent's tools (R3), listed and dispatched. */
  agent?: string;
  serverInfo: Implementation;
  instructions?: string;
  send(message: JsonRpcMessage, relatedTo?: JsonRpcId): void;
  /** Where the calls of this session are registered, so upstream requests during them can reach its client. */
  calls?: CallTracker;
  onProblem?(text: string): void;
}

/** What this server can do, in both eras' shape. Subscriptions need the call tracker: it is what hears the upstream updates. */
function serverCapabilities(subscribe: boolean): JsonObject {
  return { tools: { listChanged: true }, resources: { listChanged: true, ...(subscribe ? { subscribe: true } : {}) }, prompts: { listChanged: true }, completions: {}, logging: {} };
}

/** The lists a list_changed kind is about: a client hears of a change only once it has listed one of them. */
const LIST_KINDS: Readonly<Record<string, ListChangedKind>> = { 'tools/list': 'tools', 'resources/list': 'resources', 'resources/templates/list': 'resources', 'prompts/list': 'prompts' };

function logLevelOf(value: unknown): LoggingLevel | undefined {
  return (LOGGING_LEVELS as readonly unknown[]).includes(value) ? (value as LoggingLevel) : undefined;
}

/** Every version this server speaks: the modern ones by server/discover, the 2025 ones by initialize. */
const ALL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];

export class ServeSession {
  readonly peer: ServerPeer;
  /** The era of the last request that said (undefined until one did). */
  era: 'legacy' | 'modern' | undefined;
  protocolVersion: string | undefined;
  /** What the client said it can do: at initialize (legacy), or in the last request's _meta (modern). */
  clientCapabilities: JsonObject = {};
  private initialized = false;
  /** The kinds of list this client has been answered (legacy list_changed waits for the first: before it, the client knows no list to refresh). */
  private readonly listed = new Set<ListChangedKind>();
  private readonly offChange: () => void;

  constructor(private readonly options: ServeSessionOptions) {
    this.peer = new ServerPeer({
      send: options.send,
      handle: (request, context) => this.handle(request, context),
      onNotification: (n) => this.onNotification(n),
      ...(options.onProblem ? { onProblem: options.onProblem } : {}),
    });
    this.offChange = options.bridge.onChange((kind) => this.listChanged(kind));
  }

  receive(value: unknown): void {
    this.peer.receive(value);
  }

  /** The client has gone: its calls are cancelled upstream (their signals abort). */
  close(why?: string): void {
    this.offChange();
    this.options.calls?.forget(this, this.options.bridge.source);
    this.peer.close(why);
  }

  /** notifications/resources/updated for a resource this client subscribed to, by the URI it subscribed by. */
  resourceUpdated(uri: string): void {
    if (this.era === 'legacy' && this.initialized) this.peer.notify('notifications/resources/updated', { uri });
  }

  /** Whether the client can be sent a request of this capability (sampling, elicitation, roots). */
  canAsk(capability: 'sampling' | 'elicitation' | 'roots'): boolean {
    return isObject(this.clientCapabilities[capability]);
  }

  private listChanged(kind: ListChangedKind): void {
    // Legacy: notifications only after initialized (lifecycle). A modern client hears them on its subscriptions/listen request (listen.ts).
    // #21 item 1.3: the upstream servers' first listing at start-up is no change to a client that has not listed yet.
    if (this.era === 'legacy' && this.initialized && this.listed.has(kind)) this.peer.notify(`notifications/${kind}/list_changed`);
  }

  private onNotification(notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/initialized') this.initialized = true;
    // notifications/roots/list_changed and the rest: nothing here keeps them.
  }

  // handle, legacy and method are not async on purpose: a tools/call goes straight to dispatch's one promise (#21 item 1); the peer turns a throw into the error answer.
  private handle(request: JsonRpcRequest, context: HandlerContext): Promise<unknown> {
    const meta = isObject(request.params?._meta) ? request.params._meta : undefined;
    const declared = meta?.[PROTOCOL_VERSION_META_KEY];
    if (typeof declared === 'string' && request.method !== 'initialize') return this.modern(request, context, declared, meta!);
    return this.legacy(request, context);
  }

  private legacy(request: JsonRpcRequest, context: HandlerContext): Promise<unknown> {
    if (request.method === 'initialize') {
      const asked = request.params?.protocolVersion;
      // MCP 2025-11-25 lifecycle "Version Negotiation": "If the server supports the requested protocol version, it MUST
      // respond with the same version. Otherwise, the server MUST respond with another protocol version it supports."
      const version = typeof asked === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
      this.era = 'legacy';
      this.protocolVersion = version;
      this.clientCapabilities = isObject(request.params?.capabilities) ? (request.params.capabilities as JsonObject) : {};
      const result: JsonObject = { protocolVersion: version, capabilities: serverCapabilities(this.options.calls !== undefined), serverInfo: this.options.serverInfo };
      if (this.options.instructions) result.instructions = this.options.instructions;
      return Promise.resolve(result);
    }
    if (request.method === 'server/discover') {
      // A legacy client probing: no envelope, so no version to speak; it falls back to initialize.
      throw new RpcFault(ErrorCodes.UnsupportedProtocolVersion, 'server/discover needs the 2026-07-28 _meta envelope (io.modelcontextprotocol/protocolVersion)', { supported: ALL_VERSIONS });
    }
    this.era ??= 'legacy';
    return this.method(request, context);
  }

  private async modern(request: JsonRpcRequest, context: HandlerContext, version: string, meta: Record<string, unknown>): Promise<unknown> {
    // 2026-07-28 basic/versioning: a version the server does not speak is refused with -32022, listing those it does.
    if (!isModernVersion(version) || !(MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
      throw new RpcFault(ErrorCodes.UnsupportedProtocolVersion, `protocol version ${version} is not supported`, { supported: ALL_VERSIONS, requested: version });
    }
    this.era = 'modern';
    this.protocolVersion = version;
    this.clientCapabilities = isObject(meta[CLIENT_CAPABILITIES_META_KEY]) ? (meta[CLIENT_CAPABILITIES_META_KEY] as JsonObject) : {};
    const result = request.method === 'server/discover' ? this.discover() : ((await this.method(request, context)) as JsonObject);
    // Every modern result says its kind (resultType) and who answered (_meta serverInfo).
    const own = isObject(result._meta) ? result._meta : {};
    return { ...result, resultType: typeof result.resultType === 'string' ? result.resultType : 'complete', _meta: { ...own, [SERVER_INFO_META_KEY]: this.options.serverInfo } };
  }

  private discover(): JsonObject {
    const result: JsonObject = { supportedVersions: [...MODERN_PROTOCOL_VERSIONS], capabilities: serverCapabilities(this.options.calls !== undefined), ttlMs: 0, cacheScope: 'private' };
    if (this.options.instructions) result.instructions = this.options.instructions;
    return result;
  }

  /** The methods both eras share. Lists are whole (one page): the source holds them in memory already. */
  private method(request: JsonRpcRequest, context: HandlerContext): Promise<unknown> {
    if (request.method === 'tools/call') return this.callTool(request.params ?? {}, context);
    const kind = LIST_KINDS[request.method];
    if (kind === undefined) return this.dispatch(request, context);
    return this.dispatch(request, context).then((result) => {
      this.listed.add(kind);
      return result;
    });
  }

  /** tools/call, the relayed call: registered with the tracker while it runs, so upstream requests and log lines during it reach this client. */
  private async callTool(params: Record<string, unknown>, context: HandlerContext): Promise<unknown> {
    const { bridge, agent, calls } = this.options;
    const name = params.name;
    if (typeof name !== 'string') throw new RpcFault(ErrorCodes.InvalidParams, 'tools/call needs params.name, a string');
    if (params.arguments !== undefined && !isObject(params.arguments)) throw new RpcFault(ErrorCodes.InvalidParams, 'tools/call params.arguments must be an object');
    const meta = isObject(params._meta) ? params._meta : undefined;
    const token = meta?.progressToken;
    const progressToken = typeof token === 'string' || typeof token === 'number' ? token : undefined;
    const active = calls?.begin(this, context, bridge, name, meta === undefined ? undefined : logLevelOf(meta[LOG_LEVEL_META_KEY]));
    try {
      return await bridge.callTool(name, (params.arguments ?? {}) as JsonObject, agent, {
        signal: context.signal,
        // MCP basic/utilities/progress: notifications name the token the request gave.
        ...(progressToken === undefined ? {} : { onProgress: (u) => context.notify('notifications/progress', { progressToken, ...u }) }),
      });
    } finally {
      if (active) calls!.end(active);
    }
  }

  private async dispatch(request: JsonRpcRequest, context: HandlerContext): Promise<unknown> {
    const { bridge, agent, calls } = this.options;
    const params = request.params ?? {};
    const cacheable = this.era === 'modern' ? { ttlMs: 0, cacheScope: 'private' } : {};
    switch (request.method) {
      case 'ping':
        return {};
      case 'tools/list':
        return { tools: await bridge.listTools(agent), ...cacheable };
      case 'resources/list':
        return { resources: await bridge.listResources(), ...cacheable };
      case 'resources/templates/list':
        return { resourceTemplates: await bridge.listResourceTemplates(), ...cacheable };
      case 'resources/read':
        if (typeof params.uri !== 'string') throw new RpcFault(ErrorCodes.InvalidParams, 'resources/read needs params.uri, a string');
        return { ...(await bridge.readResource(params.uri, context.signal)), ...cacheable };
      case 'prompts/list':
        return { prompts: await bridge.listPrompts(), ...cacheable };
      case 'prompts/get': {
        if (typeof params.name !== 'string') throw new RpcFault(ErrorCodes.InvalidParams, 'prompts/get needs params.name, a string');
        const args = isObject(params.arguments) ? (params.arguments as Record<string, string>) : undefined;
        return bridge.getPrompt(params.name, args, context.signal);
      }
      case 'completion/complete':
        return bridge.complete(params, context.signal);
      case 'subscriptions/listen':
        // The modern era's channel for list changes (a legacy client hears them after initialized, above).
        return serveListen(params, context, (listener) => bridge.onChange(listener));
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        if (typeof params.uri !== 'string') throw new RpcFault(ErrorCodes.InvalidParams, `${request.method} needs params.uri, a string`);
        if (!calls) throw new RpcFault(ErrorCodes.MethodNotFound, `${request.method}: this server was started without a call tracker, so it cannot relay resource updates`);
        const target = { served: params.uri, ...(await bridge.resourceTarget(params.uri)) };
        if (request.method === 'resources/subscribe') await calls.subscriptions.subscribe(this, target, bridge.source, context.signal);
        else await calls.subscriptions.unsubscribe(this, target, bridge.source);
        return {};
      }
      case 'logging/setLevel': {
        const level = logLevelOf(params.level);
        if (level === undefined) throw new RpcFault(ErrorCodes.InvalidParams, `logging/setLevel: params.level must be one of ${LOGGING_LEVELS.join(', ')}`);
        // Without a tracker no log line is relayed; the level is accepted so clients that set one go on.
        await calls?.setLevel(this, level, bridge.source);
        return {};
      }
      default:
        throw new RpcFault(ErrorCodes.MethodNotFound, `method not found: ${request.method}`);
    }
  }
}
