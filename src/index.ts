// mcpwire's public API. Everything a host needs is re-exported here; the
// modules behind it are free to move.

export * from './errors.js';
export { nextDelay, type BackoffPolicy } from './util/backoff.js';
export type { Diagnostic, DiagnosticHook, EraDecision } from './diagnostics.js';
export { ErrorCodes } from './jsonrpc/codes.js';
export type { JsonRpcId, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from './jsonrpc/message.js';
export { createLineFramer, DEFAULT_MAX_MESSAGE_BYTES, type LineFramer, type LineFramerOptions } from './jsonrpc/line-framer.js';
export type { SendOptions, Transport, TransportEnd, TransportHandlers, TransportKind, TransportState } from './transport/transport.js';
export { StdioTransport, type StdioServerParams, type StdioTransportOptions } from './transport/stdio.js';
export {
  Connection,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_RECONNECT_WAIT_MS,
  type ConnectionState,
  type HandshakeChannel,
  type ProgressUpdate,
  type RequestContext,
  type RequestHandler,
  type RequestOptions,
} from './client/connection.js';
export { McpClient, DEFAULT_CONNECT_TIMEOUT_MS, type ClientState, type ConnectOptions, type ListChangedKind, type ListOptions, type McpClientOptions } from './client/client.js';
export { initializeHandshake, type Handshake, type HandshakeRequest } from './client/handshake.js';
export { DEFAULT_TASK_POLL_INTERVAL_MS, DEFAULT_TASK_TIMEOUT_MS, TASKS_EXTENSION, type CallToolOptions, type TaskOptions, type TaskState, type TaskStatus, type TaskSupport } from './client/tasks.js';
export { checkTraceContext, TRACE_CONTEXT_KEYS, type TraceContext, type TraceContextHook, type TraceContextKey, type TraceContextProblem } from './client/trace-context.js';
export {
  LATEST_PROTOCOL_VERSION,
  LOGGING_LEVELS,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Annotations,
  type AudioContent,
  type BlobResourceContents,
  type CallToolResult,
  type ContentBlock,
  type EmbeddedResource,
  type GetPromptResult,
  type ImageContent,
  type Implementation,
  type InitializeResult,
  type JsonObject,
  type ListPromptsResult,
  type ListResourceTemplatesResult,
  type ListResourcesResult,
  type ListToolsResult,
  type LoggingLevel,
  type Prompt,
  type PromptArgument,
  type PromptMessage,
  type ReadResourceResult,
  type Resource,
  type ResourceContents,
  type ResourceLink,
  type ResourceTemplate,
  type ServerCapabilities,
  type ServerProfile,
  type TextContent,
  type TextResourceContents,
  type Tool,
  type ToolAnnotations,
} from './client/results.js';
export { connect, connectStdio, createTransport, type CommonServerParams, type ServerParams } from './client/connect.js';
export { DEFAULT_PROTOCOL_ERA, type ConnectedEra, type ProtocolEra } from './client/era.js';
export { createMemoryEraCache, defaultEraCache, eraCacheKey, type EraCache, type EraVerdict } from './client/era-cache.js';
export { DEFAULT_PROBE_TIMEOUT_MS, EraProbeClosedError } from './client/modern-handshake.js';
export { LATEST_MODERN_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSIONS } from './client/request-meta.js';
export { DEFAULT_MAX_INPUT_ROUNDS } from './client/input-required.js';
export { DEFAULT_LISTEN_ACK_TIMEOUT_MS } from './client/listen.js';
export { StreamableHttpTransport, type StreamableHttpTransportOptions } from './transport/streamable-http.js';
export type { HttpTlsOptions } from './transport/http-client.js';
export { SseTransport, type SseTransportOptions } from './transport/sse.js';
export type { HttpTransportOptions } from './transport/http-base.js';
export type { HeaderProvider, HttpAuth, HttpHeaderOptions } from './transport/http-headers.js';
// OAuth (#19): a HeaderProvider for the HTTP transports (`headerProvider` in ServerParams), with its parts.
export { OAuthProvider, type Authorizer, type OAuthProviderOptions } from './auth/oauth-provider.js';
export { headlessAuthorizer } from './auth/headless.js';
export { browserAuthorizer, DEFAULT_LOGIN_TIMEOUT_MS, openInBrowser, refusedToOpen, startLoopbackReceiver, type BrowserAuthorizerOptions, type LoopbackReceiver } from './auth/loopback.js';
export { credentialKey, defaultCredentialsFile, FileCredentialStore, MemoryCredentialStore, type CredentialStore, type StoredCredentials } from './auth/store.js';
export type { ClientIdentity, RegisteredClient } from './auth/registration.js';
export type { ClientAuthMethod, OAuthClientCredentials, TokenSet } from './auth/tokens.js';
export type { AuthorizationServerMetadata, ProtectedResourceMetadata } from './auth/discovery.js';
export { parseWwwAuthenticate, type AuthChallenge } from './auth/www-authenticate.js';
export { DEFAULT_STARTUP_TIMEOUT_MS, loadKagedProject, loadKestrelConfigFile, loadToolSourceConfig, openKestrelMcp, openToolSource, readKestrelConfig } from './toolsource/entry.js';
export type { KagedProjectOptions } from './toolsource/config/kaged.js';
export type {
  AgentToolView,
  ListedTool,
  OpenToolSourceOptions,
  ReloadReport,
  ToolCallEvent,
  ToolCallOptions,
  ToolCallResult,
  ToolQuery,
  ToolSource,
  ToolSourceEvents,
  ToolSourceOptions,
} from './toolsource/tool-source.js';
export type { LoadToolSourceOptions } from './toolsource/config/load.js';
// serve (G1): its door loads the servers on first use (#20 item 2); the types are serve.ts's own.
export { CallTracker, DEFAULT_SESSION_IDLE_MS, serveToolSource } from './serve/entry.js';
export type { ServedNames, ServeHandle, ServeOptions, ServeTransport } from './serve/serve.js';
export type { AgentToolRules, SecretRef, SourceServer, ToolFilter, ToolSourceConfig } from './toolsource/config/types.js';
export { compileFilter, enabledForAgent, isEmptyChange, type CompiledFilter, type RejectedTool, type ToolDefinition, type ToolsChange } from './toolsource/registry.js';
export type { ToolNameProblem } from './toolsource/naming.js';
export type { CallStats, Clock, RestartPolicy, SecretResolver, ServerState, ServerStatus } from './toolsource/supervisor.js';
export { capResult, type CappedResult } from './toolsource/truncate.js';
export { canonicalJson, fingerprintTool, FilePinStore, MemoryPinStore, pinFileFor, type PinStore, type PinPolicy, type PinnedServer, type ToolDrift } from './toolsource/pins/index.js';
export type { KestrelLogger, KestrelMcp, KestrelMcpEvents, KestrelMcpOptions, KestrelTool, KestrelToolResult, KestrelToolsChange } from './toolsource/kestrel/plugin.js';
export type { Approval, KestrelConfig, KestrelSamplingConfig } from './toolsource/kestrel/config.js';
export type { Sampler, SamplingContent, SamplingMessage, SamplingRequest, SamplingResponse } from './toolsource/kestrel/sampling.js';
