// Transcript ops → McpClient calls, and the check of how each one ended
// against its `expect` (TRANSCRIPTS.md "op"). An op's promise never
// rejects: it settles to an Outcome, so a failure is checked, not thrown
// into the runner.

import type { McpClient, McpClientOptions } from '../client/client.js';
import type { JsonObject } from '../client/results.js';
import { McpClientError, RpcError } from '../errors.js';
import { firstLine } from '../util/text.js';
import { firstDifference, show } from './json-diff.js';
import { protocolEraOf, type Expect, type OpEvent, type OpName, type TranscriptClient } from './transcript.js';

export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** List ops: the expect compares only this key, with all pages concatenated. */
export const LIST_KEYS: Partial<Record<OpName, string>> = {
  listTools: 'tools',
  listResources: 'resources',
  listResourceTemplates: 'resourceTemplates',
  listPrompts: 'prompts',
};

/**
 * The client options a header's `client` asks for besides its timeouts: the
 * protocol era (absent: none configured, the client's default) and the
 * elicitation handler's canned answer (absent: no handler, so no
 * elicitation capability). The recorder sets its client up with this same
 * function, so a recording and its replay run the same client.
 */
export function replayClientOptions(client: TranscriptClient | undefined): McpClientOptions {
  const options: McpClientOptions = {};
  const era = protocolEraOf(client);
  if (era !== undefined) options.protocolEra = era;
  const answer = client?.elicitation;
  if (answer !== undefined) options.handlers = { elicitation: () => structuredClone(answer) };
  return options;
}

/** Starts the op without waiting for it. */
export function startOp(client: McpClient, op: OpEvent): Promise<Outcome> {
  let call: Promise<unknown>;
  try {
    call = invoke(client, op);
  } catch (error) {
    call = Promise.reject(error);
  }
  return call.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

function invoke(client: McpClient, op: OpEvent): Promise<unknown> {
  const options = op.timeoutMs === undefined ? {} : { timeoutMs: op.timeoutMs };
  switch (op.op) {
    case 'connect':
      return client.connect(options);
    case 'listTools':
      return client.listTools(options);
    case 'callTool':
      return client.callTool(op.name!, op.arguments ?? {}, options);
    case 'listResources':
      return client.listResources(options);
    case 'readResource':
      return client.readResource(op.uri!, options);
    case 'listResourceTemplates':
      return client.listResourceTemplates(options);
    case 'listPrompts':
      return client.listPrompts(options);
    case 'getPrompt':
      return client.getPrompt(op.name!, op.arguments as Record<string, string> | undefined, options);
    case 'ping':
      return client.ping(options);
    case 'close':
      return client.close();
  }
}

/** Why the outcome does not meet the op's expect (no expect: it must succeed), or undefined when it does. */
export function checkOutcome(op: OpEvent, outcome: Outcome): string | undefined {
  const expect: Expect = op.expect ?? { ok: true };
  if ('error' in expect) {
    const wanted = typeof expect.error === 'number' ? `JSON-RPC error ${expect.error}` : `a "${expect.error}" error`;
    if (outcome.ok) return `expected ${wanted}, but it succeeded with ${show(outcome.value)}`;
    return errorMatches(expect.error, outcome.error) ? undefined : `expected ${wanted}, got ${describeError(outcome.error)}`;
  }
  if (!outcome.ok) return `expected success, got ${describeError(outcome.error)}`;
  if ('ok' in expect) return undefined;
  const key = LIST_KEYS[op.op];
  if (key) {
    // For list ops only the list is compared: nextCursor and _meta differ page by page.
    const expected = pick(expect.result, key);
    const got = pick(outcome.value, key);
    const difference = firstDifference(expected, got, 'result');
    return difference && `result differs: ${difference}`;
  }
  const difference = firstDifference(expect.result, outcome.value, 'result');
  return difference && `result differs: ${difference}`;
}

function pick(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const object = value as JsonObject;
  return key in object ? { [key]: object[key] } : {};
}

function errorMatches(expected: number | string, error: unknown): boolean {
  if (typeof expected === 'number') return error instanceof RpcError && error.rpcCode === expected;
  return error instanceof McpClientError && error.code === expected;
}

export function describeError(error: unknown): string {
  if (error instanceof RpcError) return `RpcError ${error.rpcCode} (${error.rpcMessage})`;
  if (error instanceof McpClientError) return `${error.name} ("${error.code}": ${firstLine(error.message)})`;
  if (error instanceof Error) return `${error.name}: ${firstLine(error.message)} (not one of the client's typed errors)`;
  return `a non-Error rejection ${show(error)}`;
}

/** "callTool echo" / "readResource demo://x" / "ping": how an op is named in messages. */
export function describeOp(op: OpEvent): string {
  const what = op.name ?? op.uri;
  return what === undefined ? op.op : `${op.op} ${what}`;
}
