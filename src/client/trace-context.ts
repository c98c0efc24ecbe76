// Trace context from the host (#17 item 6, M6): W3C `traceparent`,
// `tracestate` and `baggage`, checked here and sent in each request's
// `_meta` under the keys MCP reserves for them (2026-07-28 basic/index,
// "OpenTelemetry trace context"; SEP-414). The same keys work in the 2025
// era, where `_meta` is open. The HTTP transports copy them into headers
// (transport/trace-headers.ts). No tracing dependency: the host hands the
// strings over; a value that is not of its W3C form is dropped, with a
// diagnostic, and never sent.

import type { DiagnosticHook } from '../diagnostics.js';

/** What a host hands over for one request. Every field is optional; an empty object sends nothing. */
export interface TraceContext {
  /** W3C Trace Context `traceparent`, e.g. `00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01`. */
  traceparent?: string;
  /** W3C Trace Context `tracestate`; sent only beside a valid traceparent (W3C: it means nothing alone). */
  tracestate?: string;
  /** W3C Baggage. */
  baggage?: string;
}

/** Asked before every request the client sends (the handshake's too): the trace context for it, or undefined for none. */
export type TraceContextHook = (method: string) => TraceContext | undefined;

export type TraceContextKey = keyof TraceContext;

/** The `_meta` keys, in the order they are written. */
export const TRACE_CONTEXT_KEYS: readonly TraceContextKey[] = ['traceparent', 'tracestate', 'baggage'];

/** W3C Trace Context §3.3.1: 32 list members at most. */
const MAX_TRACESTATE_MEMBERS = 32;
/** W3C Baggage §3.3.1 (limits): 64 list members and 8192 bytes in all. */
const MAX_BAGGAGE_MEMBERS = 64;
const MAX_BAGGAGE_BYTES = 8192;

// version "-" trace-id "-" parent-id "-" trace-flags, lower-case hex only (W3C Trace Context §3.2.2).
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
// key = simple-key / multi-tenant-key; value = 0*255(chr) nblk-chr (W3C Trace Context §3.3.1.3).
const TRACESTATE_MEMBER = /^(?:[a-z][a-z0-9_\-*/]{0,255}|[a-z0-9][a-z0-9_\-*/]{0,240}@[a-z][a-z0-9_\-*/]{0,13})=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
// key = token (RFC 7230); value = *baggage-octet; properties after ";" (W3C Baggage §3.2.1).
const BAGGAGE_MEMBER = /^[ \t]*[!#$%&'*+\-.^_`|~0-9A-Za-z]+[ \t]*=[ \t]*[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*[ \t]*(?:;[\x20-\x2b\x2d-\x7e]*)?$/;

/** Why a traceparent is not of the W3C form, or undefined when it is. */
export function traceparentProblem(value: string): string | undefined {
  const match = TRACEPARENT.exec(value);
  if (!match) return 'not of the form 00-<32 lower-case hex>-<16 lower-case hex>-<2 hex>';
  const [, version, traceId, parentId, , rest] = match;
  if (version === 'ff') return 'version ff is forbidden';
  // Version 00 has exactly four fields; a later version may append more after a dash, which a 00 reader keeps.
  if (version === '00' && rest !== undefined) return 'version 00 has exactly four fields';
  if (/^0+$/.test(traceId!)) return 'the trace-id is all zeros';
  if (/^0+$/.test(parentId!)) return 'the parent-id is all zeros';
  return undefined;
}

/** Why a tracestate is not of the W3C form, or undefined when it is. */
export function tracestateProblem(value: string): string | undefined {
  // Empty members (",,") are allowed and skipped; an all-empty list is not worth sending.
  const members = value.split(',').map((m) => m.trim()).filter((m) => m !== '');
  if (members.length === 0) return 'it has no list members';
  if (members.length > MAX_TRACESTATE_MEMBERS) return `it has ${members.length} list members; at most ${MAX_TRACESTATE_MEMBERS} are allowed`;
  const keys = new Set<string>();
  for (const member of members) {
    if (!TRACESTATE_MEMBER.test(member)) return 'a list member is not key=value with a lower-case key and printable value';
    const key = member.slice(0, member.indexOf('='));
    if (keys.has(key)) return 'a key appears twice';
    keys.add(key);
  }
  return undefined;
}

/** Why a baggage value is not of the W3C form, or undefined when it is. */
export function baggageProblem(value: string): string | undefined {
  if (Buffer.byteLength(value) > MAX_BAGGAGE_BYTES) return `it is longer than ${MAX_BAGGAGE_BYTES} bytes`;
  const members = value.split(',');
  if (members.length > MAX_BAGGAGE_MEMBERS) return `it has ${members.length} list members; at most ${MAX_BAGGAGE_MEMBERS} are allowed`;
  for (const member of members) {
    if (!BAGGAGE_MEMBER.test(member)) return 'a list member is not key=value with a token key and a percent-encoded value';
  }
  return undefined;
}

/** A value that was dropped, and why (the value itself is not repeated: baggage may carry user data). */
export interface TraceContextProblem {
  key: TraceContextKey;
  detail: string;
}

/**
 * The valid part of a trace context, as `_meta` entries, and what was
 * dropped. A tracestate goes only with a valid traceparent; baggage stands
 * alone (W3C Baggage is independent of Trace Context).
 */
export function checkTraceContext(context: TraceContext): { meta: Record<string, string> | undefined; problems: TraceContextProblem[] } {
  const meta: Record<string, string> = {};
  const problems: TraceContextProblem[] = [];
  const { traceparent, tracestate, baggage } = context;
  let parentOk = false;
  if (traceparent !== undefined) {
    const problem = typeof traceparent === 'string' ? traceparentProblem(traceparent) : 'not a string';
    if (problem) problems.push({ key: 'traceparent', detail: problem });
    else {
      meta.traceparent = traceparent;
      parentOk = true;
    }
  }
  if (tracestate !== undefined) {
    const problem = typeof tracestate !== 'string' ? 'not a string' : !parentOk ? 'it is sent only beside a valid traceparent' : tracestateProblem(tracestate);
    if (problem) problems.push({ key: 'tracestate', detail: problem });
    else meta.tracestate = tracestate;
  }
  if (baggage !== undefined) {
    const problem = typeof baggage === 'string' ? baggageProblem(baggage) : 'not a string';
    if (problem) problems.push({ key: 'baggage', detail: problem });
    else meta.baggage = baggage;
  }
  return { meta: Object.keys(meta).length > 0 ? meta : undefined, problems };
}

/**
 * The `_meta` entries for one request: the request's own trace context, else
 * the client hook's; each problem reported as a diagnostic. A hook that
 * throws is reported too, and the request goes without.
 */
export function traceContextMeta(
  method: string,
  own: TraceContext | undefined,
  hook: TraceContextHook | undefined,
  server: string,
  onDiagnostic: DiagnosticHook | undefined,
): Record<string, string> | undefined {
  let context = own;
  if (context === undefined && hook) {
    try {
      context = hook(method);
    } catch (error) {
      onDiagnostic?.({ kind: 'handler-error', server, method: 'traceContext', error });
      return undefined;
    }
  }
  if (context === undefined || context === null || typeof context !== 'object') return undefined;
  const { meta, problems } = checkTraceContext(context);
  for (const { key, detail } of problems) onDiagnostic?.({ kind: 'invalid-trace-context', server, method, key, detail: `${key} dropped: ${detail}` });
  return meta;
}
