// Sampling, opt-in (K6, Kestrel): a server's sampling/createMessage goes to
// a sampler the host supplies (mcpwire ships no LLM client), with the model
// chosen (configured, else the first hint that names a model the host
// lists, else the host's default), maxTokens capped, at most
// maxRequestsPerCall requests per tool call, systemPrompt and messages
// forwarded, includeContext ignored, audio and embedded resources as text
// placeholders, and the tool call's abort signal passed on. Which call a
// request is charged to: CallAttribution, below.

import type { RequestHandler } from '../../client/connection.js';
import { ErrorCodes } from '../../jsonrpc/codes.js';
import { isObject, type JsonRpcId } from '../../jsonrpc/message.js';
import type { WireEntry } from '../../transport/tap.js';
import { resultTypeOf } from '../../client/results.js';
import { RpcError } from '../../errors.js';
import type { KestrelSamplingConfig } from './config.js';
import { base64Bytes } from './flatten.js';

export type SamplingContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: SamplingContent;
}

export interface SamplingRequest {
  /** The MCP server that asked. */
  server: string;
  model: string;
  maxTokens: number;
  systemPrompt?: string;
  messages: SamplingMessage[];
  temperature?: number;
  stopSequences?: string[];
  /** Aborted when the tool call that led to this request is. */
  signal: AbortSignal;
}

export interface SamplingResponse {
  content: SamplingContent;
  /** The model that answered; default: the one asked for. */
  model?: string;
  stopReason?: string;
}

export type Sampler = (request: SamplingRequest) => Promise<SamplingResponse>;

/** The tool call a server's sampling requests are charged to. */
export interface CallBudget {
  used: number;
  signal: AbortSignal;
}

export interface SamplingBridgeOptions {
  config: KestrelSamplingConfig;
  sampler: Sampler;
  /** The model ids the host's registry knows, for matching hints. */
  models: readonly string[];
  /** The registry's default model. */
  defaultModel: string | undefined;
  /** The tool call in flight on this server when the request arrived, if any (see CallAttribution). */
  currentCall(server: string): CallBudget | undefined;
}

/** The sampling/createMessage handler for one server. */
export function samplingHandler(server: string, options: SamplingBridgeOptions): RequestHandler {
  return async (params, context) => {
    const call = options.currentCall(server);
    const site = { server, method: 'sampling/createMessage' };
    if (!call) throw new RpcError(site, ErrorCodes.InvalidRequest, 'sampling is allowed only during a tool call of this server');
    if (call.used >= options.config.maxRequestsPerCall) {
      throw new RpcError(site, ErrorCodes.InvalidRequest, `sampling budget spent: at most ${options.config.maxRequestsPerCall} requests per tool call`);
    }
    call.used++;
    if (!params || !Array.isArray(params.messages)) throw new RpcError(site, ErrorCodes.InvalidParams, 'params.messages must be an array');
    const model = chooseModel(params.modelPreferences, options);
    if (!model) throw new RpcError(site, ErrorCodes.InternalError, 'no model: none is configured, no hint names a known model, and the host has no default');
    const asked = typeof params.maxTokens === 'number' && params.maxTokens > 0 ? Math.floor(params.maxTokens) : options.config.maxTokens;
    const request: SamplingRequest = {
      server,
      model,
      maxTokens: Math.min(asked, options.config.maxTokens),
      messages: params.messages.map(toSamplingMessage),
      signal: AbortSignal.any([call.signal, context.signal]),
    };
    if (typeof params.systemPrompt === 'string') request.systemPrompt = params.systemPrompt;
    if (typeof params.temperature === 'number') request.temperature = params.temperature;
    if (Array.isArray(params.stopSequences)) request.stopSequences = params.stopSequences.filter((s): s is string => typeof s === 'string');
    const response = await options.sampler(request);
    const result: Record<string, unknown> = { role: 'assistant', content: response.content, model: response.model ?? model };
    if (response.stopReason !== undefined) result.stopReason = response.stopReason;
    return result;
  };
}

function chooseModel(preferences: unknown, options: SamplingBridgeOptions): string | undefined {
  if (options.config.model) return options.config.model;
  const hints = isObject(preferences) && Array.isArray(preferences.hints) ? preferences.hints : [];
  for (const hint of hints) {
    const name = isObject(hint) && typeof hint.name === 'string' ? hint.name.toLowerCase() : '';
    if (!name) continue;
    // MCP: a hint "may match a model name as a substring"; the first hint that names a known model wins.
    const found = options.models.find((id) => id.toLowerCase() === name) ?? options.models.find((id) => id.toLowerCase().includes(name));
    if (found) return found;
  }
  return options.defaultModel;
}

/** Text and images pass; audio and embedded resources become text placeholders. */
function toSamplingMessage(message: unknown): SamplingMessage {
  const m = isObject(message) ? message : {};
  const role = m.role === 'assistant' ? 'assistant' : 'user';
  const content = isObject(m.content) ? m.content : {};
  if (content.type === 'text' && typeof content.text === 'string') return { role, content: { type: 'text', text: content.text } };
  if (content.type === 'image' && typeof content.data === 'string' && typeof content.mimeType === 'string') {
    return { role, content: { type: 'image', data: content.data, mimeType: content.mimeType } };
  }
  if (content.type === 'audio') {
    const size = typeof content.data === 'string' ? base64Bytes(content.data) : 0;
    return { role, content: { type: 'text', text: `[audio: ${String(content.mimeType ?? 'unknown type')}, ${size} bytes, not forwarded]` } };
  }
  if (content.type === 'resource' && isObject(content.resource)) return { role, content: { type: 'text', text: `[embedded resource ${String(content.resource.uri ?? '')}, not forwarded]` } };
  return { role, content: { type: 'text', text: `[${String(content.type ?? 'unknown')} content, not forwarded]` } };
}

/** A call in flight on one server: its budget, and the request whose answer ends it. */
interface RunningCall extends CallBudget {
  method: string;
  requestId: JsonRpcId | undefined;
}

const NEVER_ABORTED = new AbortController().signal;

/**
 * Which call a server's sampling request is charged to (#16 item 27). The
 * protocol gives a server's requests no parent id, so a request is charged
 * to the call in flight on that server when it arrives, and one that
 * arrives with none in flight is refused. Calls to one server are
 * serialized (the tool source's queue), so there is at most one.
 *
 * "In flight" is from just before the call's request is sent until its
 * answer arrives, as the wire tap (`observe`) sees it: the connection hands
 * a chunk's messages to their handlers one after another, synchronously,
 * while a promise settles only after, so a request right behind the answer
 * would still find the call marked if the mark were cleared when the call's
 * promise settled. Clearing on settling remains the fallback (a timeout, an
 * abort, a batch, a transport whose server label is not the config key).
 * What keeps a late request from the next call is the barrier in plugin.ts.
 */
export class CallAttribution {
  private readonly running = new Map<string, RunningCall>();

  current(server: string): CallBudget | undefined {
    return this.running.get(server);
  }

  /** Runs `run` (which sends one `method` request to `server`) marked as the server's call in flight. */
  async within<T>(server: string, method: string, signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
    const call: RunningCall = { used: 0, signal: signal ?? NEVER_ABORTED, method, requestId: undefined };
    this.running.set(server, call);
    try {
      return await run();
    } finally {
      if (this.running.get(server) === call) this.running.delete(server);
    }
  }

  /** The client's onWire tap: notes the call's request id as it is sent and ends the call when its answer is received. */
  readonly observe = (entry: WireEntry): void => {
    const call = this.running.get(entry.server);
    const message = entry.message;
    if (!call || !isObject(message) || !('id' in message)) return;
    if (entry.direction === 'send') {
      if (call.requestId === undefined && message.method === call.method) call.requestId = message.id as JsonRpcId;
    } else if (message.method === undefined && call.requestId !== undefined && message.id === call.requestId) {
      // #17 item 3: an input_required answer does not end the call. Its inputs (a sampling request among them)
      // are answered, charged to this call's budget like a server request, and the retry's new id is the call's.
      if (isObject(message.result) && resultTypeOf(message.result) === 'input_required') {
        call.requestId = undefined;
        return;
      }
      this.running.delete(entry.server);
    }
  };
}
