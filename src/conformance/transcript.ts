// Reads and validates one transcript file (conformance/TRANSCRIPTS.md,
// version 1) into typed events. Validation is strict on purpose: a typo
// (`"expected"`, `"timeOutMs"`) would otherwise make a case pass vacuously,
// so any unknown key is an error that fails that case. Does NOT replay.

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { JsonObject } from '../client/results.js';
import type { ProtocolEra } from '../client/era.js';
import { isId, isObject, type JsonRpcId } from '../jsonrpc/message.js';

/** An id as the transcript recorded it: a JSON-RPC id (MCP forbids null). */
export type RecordedId = JsonRpcId;

export const TRANSCRIPT_FORMAT_VERSION = 1;
/** The transcript format's default per-request timeout (30 s), also the client's (W7). */
export const DEFAULT_CASE_TIMEOUT_MS = 30_000;

export const TRANSPORTS = ['stdio', 'sse', 'streamable-http'] as const;
export type TranscriptTransport = (typeof TRANSPORTS)[number];

const HEADER_KEYS = new Set([
  'mcpTranscript',
  'name',
  'transport',
  'protocolVersion',
  'source',
  'description',
  'formatExtensions',
  'sdkExpectedToFail',
  'client',
]);
const CLIENT_KEYS = new Set(['timeoutMs', 'protocolEra', 'elicitation']);

export const OP_NAMES = [
  'connect',
  'listTools',
  'callTool',
  'listResources',
  'readResource',
  'listResourceTemplates',
  'listPrompts',
  'getPrompt',
  'ping',
  'close',
] as const;
export type OpName = (typeof OP_NAMES)[number];

/** The keys each op may carry besides `op`, `expect` and `timeoutMs`. */
const OP_ARGUMENT_KEYS: Record<OpName, readonly string[]> = {
  connect: [],
  listTools: [],
  callTool: ['name', 'arguments'],
  listResources: [],
  readResource: ['uri'],
  listResourceTemplates: [],
  listPrompts: [],
  getPrompt: ['name', 'arguments'],
  ping: [],
  close: [],
};

export type ClientErrorKind = 'timeout' | 'closed' | 'protocol';
export type Expect = { result: unknown } | { ok: true } | { error: number | ClientErrorKind };

export interface TranscriptHeader {
  mcpTranscript: 1;
  name: string;
  transport: TranscriptTransport;
  protocolVersion: string;
  source?: unknown;
  description?: unknown;
  formatExtensions?: unknown;
  sdkExpectedToFail?: unknown;
  client?: TranscriptClient;
}

/**
 * How the replay's client is set up (header `client`). All optional; an
 * absent key is the client's own default, so a transcript without them
 * replays as it always has.
 */
export interface TranscriptClient {
  timeoutMs?: number;
  /**
   * The protocol era the client connects with (#17): 'auto', 'legacy',
   * 'modern' or a protocol version (ProtocolEra as a string). Absent: no era
   * configured (the client's default: legacy, following a -32022 refusal).
   */
  protocolEra?: string;
  /**
   * The result the client's elicitation handler answers with (an
   * elicitation/create request, or an elicitation input request of an
   * input_required round). Absent: no handler, and no elicitation capability.
   */
  elicitation?: JsonObject;
}

interface EventBase {
  /** 1-based line number in the file, for messages. */
  line: number;
}

export interface OpEvent extends EventBase {
  kind: 'op';
  op: OpName;
  expect?: Expect;
  timeoutMs?: number;
  name?: string;
  arguments?: JsonObject;
  uri?: string;
}

export interface C2sEvent extends EventBase {
  kind: 'c2s';
  msg: unknown;
}

export type S2cAction = { msg: unknown } | { raw: string } | { rawBase64: string } | { close: true };

export interface S2cEvent extends EventBase {
  kind: 's2c';
  action: S2cAction;
  delayMs?: number;
}

export type TranscriptEvent = OpEvent | C2sEvent | S2cEvent;

export interface Transcript {
  /** Where it was read from (file path), for messages. */
  file: string;
  header: TranscriptHeader;
  events: TranscriptEvent[];
}

/** A transcript that cannot be replayed. The message names the file and line. */
export class TranscriptError extends Error {
  override readonly name = 'TranscriptError' as const;
}

/** The case name a file stands for, even when the file cannot be parsed. */
export function caseNameOf(file: string): string {
  return basename(file).replace(/\.jsonl$/, '');
}

export async function loadTranscript(file: string): Promise<Transcript> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new TranscriptError(`${file}: cannot read it (${(error as Error).message})`);
  }
  return parseTranscript(text, file);
}

/** `{{id:N}}` in raw and rawBase64 lines: the live id of recorded request N. */
export const ID_PLACEHOLDER = /\{\{id:([^{}]*)\}\}/g;

export function parseTranscript(text: string, file = '<transcript>'): Transcript {
  const lines = text.split('\n');
  let header: TranscriptHeader | undefined;
  const events: TranscriptEvent[] = [];
  // Recorded ids of client requests seen so far, to check {{id:N}} placeholders refer to one.
  const recordedRequestIds = new Set<RecordedId>();

  for (let i = 0; i < lines.length; i++) {
    const trimmed = lines[i]!.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const where = `${file}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw new TranscriptError(`${where}: not JSON (${(error as Error).message})`);
    }
    if (!isObject(value)) throw new TranscriptError(`${where}: each line must be a JSON object`);
    if (!header) {
      header = parseHeader(value, where);
      continue;
    }
    const event = parseEvent(value, i + 1, where);
    if (event.kind === 'c2s' && isObject(event.msg) && typeof event.msg.method === 'string' && isId(event.msg.id)) {
      recordedRequestIds.add(event.msg.id);
    }
    if (event.kind === 's2c') checkPlaceholders(event.action, recordedRequestIds, where);
    events.push(event);
  }
  if (!header) throw new TranscriptError(`${file}: empty transcript (no header line)`);
  const expectedName = caseNameOf(file);
  if (file !== '<transcript>' && header.name !== expectedName) {
    throw new TranscriptError(`${file}:1: header "name" is ${JSON.stringify(header.name)} but the file is named ${expectedName}.jsonl; they must agree`);
  }
  return { file, header, events };
}

function parseHeader(value: JsonObject, where: string): TranscriptHeader {
  for (const key of Object.keys(value)) {
    if (!HEADER_KEYS.has(key)) {
      throw new TranscriptError(`${where}: unknown header key "${key}" (allowed: ${[...HEADER_KEYS].join(', ')})`);
    }
  }
  if (value.mcpTranscript !== TRANSCRIPT_FORMAT_VERSION) {
    throw new TranscriptError(`${where}: "mcpTranscript" must be ${TRANSCRIPT_FORMAT_VERSION} (this runner reads format version ${TRANSCRIPT_FORMAT_VERSION}); got ${JSON.stringify(value.mcpTranscript)}`);
  }
  if (typeof value.name !== 'string' || value.name === '') throw new TranscriptError(`${where}: header "name" must be a non-empty string`);
  if (!(TRANSPORTS as readonly unknown[]).includes(value.transport)) {
    throw new TranscriptError(`${where}: header "transport" must be one of ${TRANSPORTS.join(', ')}; got ${JSON.stringify(value.transport)}`);
  }
  if (typeof value.protocolVersion !== 'string') throw new TranscriptError(`${where}: header "protocolVersion" must be a string`);
  if (value.client !== undefined) {
    if (!isObject(value.client)) throw new TranscriptError(`${where}: header "client" must be an object`);
    for (const key of Object.keys(value.client)) {
      if (!CLIENT_KEYS.has(key)) throw new TranscriptError(`${where}: unknown key "client.${key}" (allowed: ${[...CLIENT_KEYS].join(', ')})`);
    }
    if (value.client.timeoutMs !== undefined) positiveNumber(value.client.timeoutMs, `${where}: "client.timeoutMs"`);
    const era = value.client.protocolEra;
    if (era !== undefined && (typeof era !== 'string' || !/^(auto|legacy|modern|\d{4}-\d{2}-\d{2})$/.test(era))) {
      throw new TranscriptError(`${where}: "client.protocolEra" must be "auto", "legacy", "modern" or a protocol version YYYY-MM-DD; got ${JSON.stringify(era)}`);
    }
    const elicitation = value.client.elicitation;
    if (elicitation !== undefined && (!isObject(elicitation) || typeof elicitation.action !== 'string')) {
      throw new TranscriptError(`${where}: "client.elicitation" must be an elicitation result object with an "action" (e.g. {"action":"accept","content":{...}})`);
    }
  }
  return value as unknown as TranscriptHeader;
}

function parseEvent(value: JsonObject, line: number, where: string): TranscriptEvent {
  if ('op' in value) {
    if ('dir' in value) throw new TranscriptError(`${where}: a line has either "op" or "dir", not both`);
    return parseOp(value, line, where);
  }
  if (value.dir === 'c2s') {
    onlyKeys(value, ['dir', 'msg'], where);
    if (!('msg' in value)) throw new TranscriptError(`${where}: a c2s line needs "msg"`);
    return { kind: 'c2s', line, msg: value.msg };
  }
  if (value.dir === 's2c') return parseS2c(value, line, where);
  throw new TranscriptError(`${where}: a line must have "op", or "dir" set to "c2s" or "s2c"`);
}

function parseOp(value: JsonObject, line: number, where: string): OpEvent {
  const op = value.op;
  if (!(OP_NAMES as readonly unknown[]).includes(op)) {
    throw new TranscriptError(`${where}: unknown op ${JSON.stringify(op)} (known: ${OP_NAMES.join(', ')})`);
  }
  const name = op as OpName;
  onlyKeys(value, ['op', 'expect', 'timeoutMs', ...OP_ARGUMENT_KEYS[name]], where);
  const event: OpEvent = { kind: 'op', line, op: name };
  if (value.timeoutMs !== undefined) event.timeoutMs = positiveNumber(value.timeoutMs, `${where}: "timeoutMs"`);
  if (value.expect !== undefined) event.expect = parseExpect(value.expect, where);
  if (name === 'callTool' || name === 'getPrompt') {
    if (typeof value.name !== 'string') throw new TranscriptError(`${where}: ${name} needs "name" (a string)`);
    event.name = value.name;
    if (value.arguments !== undefined) {
      if (!isObject(value.arguments)) throw new TranscriptError(`${where}: "arguments" must be an object`);
      if (name === 'getPrompt' && Object.values(value.arguments).some((v) => typeof v !== 'string')) {
        throw new TranscriptError(`${where}: getPrompt "arguments" values must be strings (MCP prompts/get)`);
      }
      event.arguments = value.arguments;
    }
  }
  if (name === 'readResource') {
    if (typeof value.uri !== 'string') throw new TranscriptError(`${where}: readResource needs "uri" (a string)`);
    event.uri = value.uri;
  }
  return event;
}

function parseExpect(value: unknown, where: string): Expect {
  if (!isObject(value)) throw new TranscriptError(`${where}: "expect" must be an object`);
  const keys = Object.keys(value);
  if (keys.length !== 1) throw new TranscriptError(`${where}: "expect" must have exactly one of "result", "ok", "error"`);
  if ('result' in value) return { result: value.result };
  if ('ok' in value) {
    if (value.ok !== true) throw new TranscriptError(`${where}: "expect.ok" must be true`);
    return { ok: true };
  }
  if ('error' in value) {
    const error = value.error;
    if (typeof error === 'number' && Number.isInteger(error)) return { error };
    if (error === 'timeout' || error === 'closed' || error === 'protocol') return { error };
    throw new TranscriptError(`${where}: "expect.error" must be a JSON-RPC error code (an integer) or "timeout", "closed", "protocol"; got ${JSON.stringify(error)}`);
  }
  throw new TranscriptError(`${where}: unknown "expect" key "${keys[0]}" (use "result", "ok" or "error")`);
}

function parseS2c(value: JsonObject, line: number, where: string): S2cEvent {
  onlyKeys(value, ['dir', 'msg', 'raw', 'rawBase64', 'close', 'delayMs'], where);
  const present = (['msg', 'raw', 'rawBase64', 'close'] as const).filter((k) => k in value);
  if (present.length !== 1) throw new TranscriptError(`${where}: an s2c line needs exactly one of "msg", "raw", "rawBase64", "close"`);
  let action: S2cAction;
  switch (present[0]!) {
    case 'msg':
      action = { msg: value.msg };
      break;
    case 'raw':
      if (typeof value.raw !== 'string') throw new TranscriptError(`${where}: "raw" must be a string`);
      action = { raw: value.raw };
      break;
    case 'rawBase64':
      if (typeof value.rawBase64 !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value.rawBase64) || value.rawBase64.length % 4 !== 0) {
        throw new TranscriptError(`${where}: "rawBase64" must be a base64 string`);
      }
      action = { rawBase64: value.rawBase64 };
      break;
    case 'close':
      if (value.close !== true) throw new TranscriptError(`${where}: "close" must be true`);
      action = { close: true };
      break;
  }
  const event: S2cEvent = { kind: 's2c', line, action };
  if (value.delayMs !== undefined) {
    if (typeof value.delayMs !== 'number' || !Number.isFinite(value.delayMs) || value.delayMs < 0) {
      throw new TranscriptError(`${where}: "delayMs" must be a number >= 0`);
    }
    event.delayMs = value.delayMs;
  }
  return event;
}

/** Parses the N of `{{id:N}}`: a number when it looks like one, else a string id. */
export function placeholderId(text: string): RecordedId {
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

function checkPlaceholders(action: S2cAction, known: Set<RecordedId>, where: string): void {
  let text: string;
  if ('raw' in action) text = action.raw;
  else if ('rawBase64' in action) text = Buffer.from(action.rawBase64, 'base64').toString('latin1');
  else return;
  for (const match of text.matchAll(ID_PLACEHOLDER)) {
    const id = placeholderId(match[1]!);
    if (!known.has(id)) {
      throw new TranscriptError(`${where}: ${match[0]} refers to request id ${JSON.stringify(id)}, which no earlier c2s request line has`);
    }
  }
}

function onlyKeys(value: JsonObject, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw new TranscriptError(`${where}: unknown key "${key}" here (allowed: ${allowed.join(', ')})`);
  }
}

function positiveNumber(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new TranscriptError(`${what} must be a number > 0`);
  return value;
}

/** The header's client.protocolEra as the client's option: undefined when absent (the client's default). */
export function protocolEraOf(client: TranscriptClient | undefined): ProtocolEra | undefined {
  const era = client?.protocolEra;
  if (era === undefined) return undefined;
  return era === 'auto' || era === 'legacy' || era === 'modern' ? era : { version: era };
}

/**
 * The line of a server/discover request that no s2c line answers (a probe
 * the recorded server left silent), or undefined when every probe is answered.
 */
export function silentProbeLine(transcript: Transcript): number | undefined {
  const events = transcript.events;
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    if (event.kind !== 'c2s' || !isObject(event.msg) || event.msg.method !== 'server/discover' || !('id' in event.msg)) continue;
    const id = event.msg.id;
    const answered = events.slice(i + 1).some((later) => later.kind === 's2c' && 'msg' in later.action && (Array.isArray(later.action.msg) ? later.action.msg : [later.action.msg]).some((m) => isObject(m) && !('method' in m) && m.id === id));
    if (!answered) return event.line;
  }
  return undefined;
}

/** The case's time budget: twice the sum of its ops' timeouts (TRANSCRIPTS.md, "What passing means"). */
export function caseBudgetMs(transcript: Transcript): number {
  const fallback = transcript.header.client?.timeoutMs ?? DEFAULT_CASE_TIMEOUT_MS;
  let sum = 0;
  for (const event of transcript.events) if (event.kind === 'op') sum += event.timeoutMs ?? fallback;
  // A transcript without ops still gets one default timeout's worth, doubled.
  return 2 * (sum || fallback);
}
