// McpClient (L1, W5–W7, K1): the MCP handshake and the client-side methods
// over one Connection. It never sends a request its caller did not ask for:
// re-discovery on list_changed belongs to the tool-source layer above.

import { ClosedError, ProtocolError } from '../errors.js';
import type { DiagnosticHook } from '../diagnostics.js';
import type { JsonRpcNotification } from '../jsonrpc/message.js';
import type { Transport, TransportEnd } from '../transport/transport.js';
import { Connection, type ProgressUpdate, type RequestHandler, type RequestOptions } from './connection.js';
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  checkCallTool,
  checkEmpty,
  checkGetPrompt,
  checkInitialize,
  checkListPrompts,
  checkListResourceTemplates,
  checkListResources,
  checkListTools,
  checkReadResource,
  type CallToolResult,
  type Implementation,
  type InitializeResult,
  type JsonObject,
  type ResultCheck,
  type Tool,
} from './results.js';

/** The handshake includes the server's start-up (an `npx` server may install first), so it gets longer than a call. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 60_000;
/** A server whose cursors never end is stopped after this many pages. */
export const DEFAULT_MAX_PAGES = 1_000;

const PACKAGE_VERSION = '0.1.0';

export type ClientState = 'idle' | 'connecting' | 'ready' | 'closing' | 'closed';
export type ListChangedKind = 'tools' | 'resources' | 'prompts';

export interface McpClientOptions {
  /** Sent as clientInfo in initialize. Default {name: "mcpwire", version}. */
  clientInfo?: Implementation;
  /** Default per-request timeout, ms. Default 30 000 (W7). */
  timeoutMs?: number;
  /** Timeout for the initialize request, ms. Default 60 000. */
  connectTimeoutMs?: number;
  /** Page limit for list methods, against a server whose nextCursor never ends. Default 1000. */
  maxPages?: number;
  /**
   * Handlers for server-initiated requests. Each one installed advertises its
   * capability in initialize; without one the request is answered -32601 (W5, K6).
   */
  handlers?: {
    sampling?: RequestHandler;
    elicitation?: RequestHandler;
    roots?: RequestHandler;
  };
  /** Every notifications/progress, with its token (per-request callbacks are in RequestOptions). */
  onProgress?: (token: string | number, update: ProgressUpdate) => void;
  /** notifications/message (server logging). */
  onLog?: (params: JsonObject) => void;
  /** notifications/{tools,resources,prompts}/list_changed. */
  onListChanged?: (kind: ListChangedKind) => void;
  /** Every notification, after the specific hooks. */
  onNotification?: (notification: JsonRpcNotification) => void;
  onDiagnostic?: DiagnosticHook;
  /** The connection ended (any reason, including close()). */
  onClose?: (end: TransportEnd) => void;
}


export class McpClient {
  private readonly connection: Connection;
  private clientState: ClientState = 'idle';
  private initializeResult: InitializeResult | undefined;

  constructor(
    transport: Transport,
    private readonly options: McpClientOptions = {},
  ) {
    this.connection = new Connection(transport, {
      defaultTimeoutMs: options.timeoutMs,
      onNotification: (n) => this.onNotification(n),
      onDiagnostic: options.onDiagnostic,
      onClose: (end) => {
        // During close() the state stays 'closing' until the server is gone; close() sets 'closed'.
        if (this.clientState !== 'closing') this.clientState = 'closed';
        options.onClose?.(end);
      },
    });
    const { sampling, elicitation, roots } = options.handlers ?? {};
    if (sampling) this.connection.setRequestHandler('sampling/createMessage', sampling);
    if (elicitation) this.connection.setRequestHandler('elicitation/create', elicitation);
    if (roots) this.connection.setRequestHandler('roots/list', roots);
  }

  get server(): string {
    return this.connection.server;
  }
  get state(): ClientState {
    return this.clientState;
  }
  /** The server's initialize result, once connected. */
  get serverInfo(): InitializeResult | undefined {
    return this.initializeResult;
  }
  /** The protocol version both sides agreed on, once connected. */
  get protocolVersion(): string | undefined {
    return this.initializeResult?.protocolVersion;
  }

  /**
   * L1, MCP lifecycle: 1. send initialize with the newest version we speak and
   * only the capabilities we have handlers for; 2. check the server's version
   * is one we speak, else fail naming both; 3. send notifications/initialized.
   * On any failure the transport is closed and the error rethrown.
   */
  async connect(options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<InitializeResult> {
    if (this.clientState !== 'idle') throw new Error(`McpClient.connect(): the client is ${this.clientState}, not idle`);
    this.clientState = 'connecting';
    try {
      await this.connection.open();
      const raw = await this.connection.request(
        'initialize',
        { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: this.capabilities(), clientInfo: this.options.clientInfo ?? { name: 'mcpwire', version: PACKAGE_VERSION } },
        { timeoutMs: options.timeoutMs ?? this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, signal: options.signal },
      );
      const result = this.checked('initialize', raw, checkInitialize) as InitializeResult;
      if (!(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(result.protocolVersion)) {
        throw new ProtocolError(
          { server: this.server, method: 'initialize' },
          `the server answered with protocol version ${result.protocolVersion}; this client requested ${LATEST_PROTOCOL_VERSION} and speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`,
        );
      }
      this.connection.transport.setProtocolVersion?.(result.protocolVersion);
      await this.connection.notify('notifications/initialized');
      this.initializeResult = result;
      if (this.clientState === 'connecting') this.clientState = 'ready';
      return result;
    } catch (error) {
      await this.connection.close().catch(() => {});
      this.clientState = 'closed';
      throw error;
    }
  }

  private capabilities(): JsonObject {
    const { sampling, elicitation, roots } = this.options.handlers ?? {};
    const capabilities: JsonObject = {};
    if (roots) capabilities.roots = {};
    if (sampling) capabilities.sampling = {};
    if (elicitation) capabilities.elicitation = {};
    return capabilities;
  }

  async listTools(options?: RequestOptions): Promise<JsonObject & { tools: Tool[] }> {
    return (await this.listAll('tools/list', 'tools', checkListTools, options)) as JsonObject & { tools: Tool[] };
  }

  callTool(name: string, args: JsonObject = {}, options?: RequestOptions): Promise<CallToolResult> {
    return this.call('tools/call', { name, arguments: args }, checkCallTool, options) as Promise<CallToolResult>;
  }

  listResources(options?: RequestOptions): Promise<JsonObject> {
    return this.listAll('resources/list', 'resources', checkListResources, options);
  }

  listResourceTemplates(options?: RequestOptions): Promise<JsonObject> {
    return this.listAll('resources/templates/list', 'resourceTemplates', checkListResourceTemplates, options);
  }

  readResource(uri: string, options?: RequestOptions): Promise<JsonObject> {
    return this.call('resources/read', { uri }, checkReadResource, options);
  }

  listPrompts(options?: RequestOptions): Promise<JsonObject> {
    return this.listAll('prompts/list', 'prompts', checkListPrompts, options);
  }

  getPrompt(name: string, args?: Record<string, string>, options?: RequestOptions): Promise<JsonObject> {
    return this.call('prompts/get', args === undefined ? { name } : { name, arguments: args }, checkGetPrompt, options);
  }

  /** A ping is the one request allowed before initialization completes (L1). */
  async ping(options?: RequestOptions): Promise<JsonObject> {
    return this.checked('ping', await this.connection.request('ping', undefined, options), checkEmpty);
  }

  /** Graceful and idempotent (L2): pending requests reject with ClosedError; the server process is stopped. */
  async close(): Promise<void> {
    if (this.clientState !== 'closed') this.clientState = 'closing';
    await this.connection.close();
    this.clientState = 'closed';
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  // --- internals -----------------------------------------------------------------

  /** Not async on purpose: on the per-call path, a plain then() saves an async frame and its extra promise. */
  private call(method: string, params: JsonObject, check: ResultCheck, options?: RequestOptions): Promise<JsonObject> {
    if (this.clientState !== 'ready') return Promise.reject(this.notReady(method));
    return this.connection.request(method, params, options).then((value) => this.checked(method, value, check));
  }

  /** Follows nextCursor to the end; the result is the first page with the list holding every page's items. */
  private async listAll(method: string, key: string, check: ResultCheck, options?: RequestOptions): Promise<JsonObject> {
    const maxPages = this.options.maxPages ?? DEFAULT_MAX_PAGES;
    const seen = new Set<string>();
    let first: JsonObject | undefined;
    const items: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      if (page >= maxPages) {
        throw new ProtocolError({ server: this.server, method }, `the server kept returning nextCursor after ${maxPages} pages; stopped (raise maxPages if this is real)`);
      }
      const result = await this.call(method, cursor === undefined ? {} : { cursor }, check, options);
      first ??= result;
      for (const item of result[key] as unknown[]) items.push(item);
      const next = result.nextCursor;
      if (typeof next !== 'string' || next === '') break;
      if (seen.has(next)) throw new ProtocolError({ server: this.server, method }, `the server returned the cursor ${JSON.stringify(next)} twice; stopped to avoid a loop`);
      seen.add(next);
      cursor = next;
    }
    const { nextCursor: _ignored, ...rest } = first;
    return { ...rest, [key]: items };
  }

  private checked(method: string, value: unknown, check: ResultCheck): JsonObject {
    const problem = check(value);
    if (problem) throw new ProtocolError({ server: this.server, method }, `invalid result: ${problem}`);
    return value as JsonObject;
  }

  private notReady(method: string): Error {
    if (this.clientState === 'closed' || this.clientState === 'closing') {
      const error = this.connection.closedError(method);
      // While close() waits for the server to exit, the connection has not ended yet and
      // would say "not connected; call connect() first": the truth is that we are closing.
      if (error instanceof ClosedError && error.reason === 'not-connected') return new ClosedError({ server: this.server, method }, { reason: 'closed' });
      return error;
    }
    return new ClosedError({ server: this.server, method }, { reason: 'not-connected' });
  }

  private onNotification(n: JsonRpcNotification): void {
    const params = n.params ?? {};
    const o = this.options;
    switch (n.method) {
      case 'notifications/progress': {
        const token = params.progressToken;
        if (o.onProgress && (typeof token === 'string' || typeof token === 'number') && typeof params.progress === 'number') {
          o.onProgress(token, params as unknown as ProgressUpdate);
        }
        break;
      }
      case 'notifications/message':
        o.onLog?.(params);
        break;
      case 'notifications/tools/list_changed':
        o.onListChanged?.('tools');
        break;
      case 'notifications/resources/list_changed':
        o.onListChanged?.('resources');
        break;
      case 'notifications/prompts/list_changed':
        o.onListChanged?.('prompts');
        break;
    }
    o.onNotification?.(n);
  }
}
