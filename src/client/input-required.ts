// Multi round-trip requests (#17 item 3; 2026-07-28 basic/patterns/mrtr): a
// `tools/call`, `resources/read` or `prompts/get` may be answered with
// `resultType: "input_required"` instead of its result. Each of its
// `inputRequests` is answered through the handler the client has for that
// server request (the ones that answer server-initiated requests in the
// 2025 era, so a host installs one handler for both eras, and Kestrel's
// sampling budget counts these rounds as it counts server requests), then
// the original request goes out again as a new request (a new JSON-RPC id:
// the caller's `send` allocates one each time) with `inputResponses` and the
// server's `requestState` echoed unchanged. The caller sees one final result.
//
// One call's rounds live in this function's locals only: nothing of one
// call's requestState or answers can reach another request.

import { ProtocolError, UnhandledInputRequestError, type ErrorSite } from '../errors.js';
import { isObject, type JsonRpcId } from '../jsonrpc/message.js';
import type { RequestHandler } from './connection.js';
import { resultTypeOf, type JsonObject } from './results.js';

/** How many input_required answers one call goes through before it fails with a ProtocolError. */
export const DEFAULT_MAX_INPUT_ROUNDS = 8;

/** The spec's list: servers MUST NOT answer any other client request with an InputRequiredResult. */
export const INPUT_REQUIRED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

export interface InputRoundsOptions {
  site: ErrorSite;
  /** The original request's params (without inputResponses/requestState). */
  params: JsonObject;
  /** Sends the request once with these params, as a new request, and resolves with the result as sent. */
  send: (params: JsonObject) => Promise<unknown>;
  /** The handler the client has for a server request method, if any. */
  handlerFor: (method: string) => RequestHandler | undefined;
  /** Default DEFAULT_MAX_INPUT_ROUNDS. */
  maxRounds?: number;
  /** The caller's signal: handed to the handlers, and checked between rounds. */
  signal?: AbortSignal;
}

/** Runs the request, answering input_required results, until the server gives another kind of result (returned as sent). */
export function runInputRounds(options: InputRoundsOptions): Promise<unknown> {
  // Not async, and nothing allocated until a round is asked for: every tools/call of both eras comes through
  // here, and an AbortController per call cost a measurable share of the client's CPU (bench: e2e-*-echo).
  return options.send(options.params).then((first) => (needsInput(first) ? moreInputRounds(options, first) : first));
}

/** Whether an answer asks for input rounds: the one check a caller that sent the first request itself makes. */
export function needsInput(result: unknown): boolean {
  return resultTypeOf(result) === 'input_required';
}

/**
 * The rounds after a first answer that asked for input (`needsInput`), for a
 * caller that sent the original request itself: McpClient.callTool, which so
 * builds these options only when a round is asked for (#20 item 2: per call,
 * they and runInputRounds' own then() were a measurable share of the
 * client's garbage).
 */
export async function moreInputRounds(options: InputRoundsOptions, first: unknown): Promise<unknown> {
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
  const signal = options.signal ?? new AbortController().signal;
  let result = first;
  for (let round = 1; resultTypeOf(result) === 'input_required'; round++) {
    if (round > maxRounds) {
      throw new ProtocolError(options.site, `the server still needed input after ${maxRounds} rounds; stopped (raise maxInputRounds if this is real)`);
    }
    const asked = result as Record<string, unknown>;
    const { inputRequests, requestState } = asked;
    if (inputRequests !== undefined && !isObject(inputRequests)) throw new ProtocolError(options.site, 'invalid input_required result: "inputRequests" is not an object');
    if (requestState !== undefined && typeof requestState !== 'string') throw new ProtocolError(options.site, 'invalid input_required result: "requestState" is not a string');
    if (inputRequests === undefined && requestState === undefined) {
      throw new ProtocolError(options.site, 'invalid input_required result: it has neither "inputRequests" nor "requestState" (the spec requires at least one)');
    }
    // Built from the original params each round: only this round's answers and state go back.
    const retry: JsonObject = { ...options.params };
    if (inputRequests !== undefined) retry.inputResponses = await answerAll(options, inputRequests, signal);
    if (requestState !== undefined) retry.requestState = requestState;
    if (signal.aborted) throw signal.reason;
    result = await options.send(retry);
  }
  return result;
}

/** Every input request answered (concurrently), keyed as the server keyed them. Refused before any handler runs if one is missing. */
async function answerAll(options: InputRoundsOptions, inputRequests: Record<string, unknown>, signal: AbortSignal): Promise<JsonObject> {
  const jobs: Array<{ key: string; handler: RequestHandler; params: Record<string, unknown> | undefined }> = [];
  for (const [key, request] of Object.entries(inputRequests)) {
    if (!isObject(request) || typeof request.method !== 'string') {
      throw new ProtocolError(options.site, `invalid input_required result: inputRequests[${JSON.stringify(key)}] is not a request object with a "method"`);
    }
    if (request.params !== undefined && !isObject(request.params)) {
      throw new ProtocolError(options.site, `invalid input_required result: inputRequests[${JSON.stringify(key)}].params is not an object`);
    }
    const handler = options.handlerFor(request.method);
    if (!handler) throw new UnhandledInputRequestError(options.site, request.method, key);
    jobs.push({ key, handler, params: request.params });
  }
  const answers = await Promise.all(
    jobs.map(({ key, handler, params }) =>
      // The key stands in for the JSON-RPC id a server request would have had: unique within the round.
      new Promise<unknown>((resolve) => resolve(handler(params, { id: key as JsonRpcId, signal }))),
    ),
  );
  const responses: JsonObject = {};
  jobs.forEach(({ key }, i) => (responses[key] = answers[i] ?? {}));
  return responses;
}
