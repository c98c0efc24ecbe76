// The recorder's ops mode (X2): drives mcpwire's own client through a list
// of ops in the transcript vocabulary, one after another as a replay runs
// them, and records the wire between them through the client's own taps
// (onWire for messages, onDiagnostic for a stdio server's non-JSON lines,
// onClose for a server that went away: #18 item 16). Each op line
// gets the `expect` of how it really ended; an op that already carries one
// keeps it, and the recording fails if the op did not end that way.

import { readFile } from 'node:fs/promises';
import { McpClient } from '../client/client.js';
import { createTransport, type ServerParams } from '../client/connect.js';
import type { Implementation, JsonObject } from '../client/results.js';
import { PROTOCOL_VERSION_META_KEY } from '../client/request-meta.js';
import { isObject } from '../jsonrpc/message.js';
import { checkOutcome, describeError, describeOp, replayClientOptions, startOp, type Outcome } from '../conformance/ops.js';
import { parseTranscript, TranscriptError, type Expect, type OpEvent } from '../conformance/transcript.js';
import { ClosedError, ConfigError, McpClientError, RpcError } from '../errors.js';
import { sleep } from '../util/backoff.js';
import type { Diagnostic } from '../diagnostics.js';
import type { JsonRpcMessage } from '../jsonrpc/message.js';
import type { WireEntry } from '../transport/tap.js';
import type { TransportEnd } from '../transport/transport.js';
import type { TranscriptWriter } from './transcript-writer.js';

/**
 * After each op, how long to wait before the next one starts, ms: what the
 * server sends just after an answer (a list_changed, a log line) then lands
 * before the next op's request in every recording, not sometimes after it.
 */
export const DEFAULT_SETTLE_MS = 100;

/** An ops file that cannot be driven; the message names the file and the op. */
export class OpsFileError extends Error {
  override readonly name = 'OpsFileError' as const;
}

/** Reads an ops file (a JSON array of op objects) and checks each op with the transcript reader's own rules. */
export async function loadOps(file: string): Promise<OpEvent[]> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new OpsFileError(`${file}: cannot read it as JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(value) || value.length === 0) throw new OpsFileError(`${file}: expected a non-empty JSON array of ops, e.g. [{"op":"connect"},{"op":"listTools"},{"op":"close"}]`);
  // The reader's checks are the replayer's: an op the recorder accepts is one the replayer reads.
  const header = { mcpTranscript: 1, name: 'ops', transport: 'stdio', protocolVersion: '' };
  let events;
  try {
    events = parseTranscript([header, ...value].map((line) => JSON.stringify(line)).join('\n')).events;
  } catch (error) {
    if (!(error instanceof TranscriptError)) throw error;
    // Line N of the synthetic text is element N-2 of the array.
    throw new OpsFileError(`${file}: ${error.message.replace(/^<transcript>:(\d+)/, (_, n: string) => `op #${Number(n) - 1}`)}`);
  }
  const ops = events.filter((event): event is OpEvent => event.kind === 'op');
  if (ops.length !== events.length) throw new OpsFileError(`${file}: only op objects belong in an ops file (the recorder writes the c2s and s2c lines)`);
  if (ops[0]!.op !== 'connect') throw new OpsFileError(`${file}: the first op must be "connect"`);
  const close = ops.findIndex((op) => op.op === 'close');
  if (close !== -1 && close !== ops.length - 1) throw new OpsFileError(`${file}: "close" must be the last op`);
  return ops;
}

export interface DriveOptions {
  /** The client's default per-request timeout, ms (the header's client.timeoutMs). */
  timeoutMs?: number;
  /** The era the client connects with (the header's client.protocolEra); absent: none configured. */
  protocolEra?: string;
  /** What the client's elicitation handler answers (the header's client.elicitation); absent: no handler. */
  elicitation?: JsonObject;
  settleMs?: number;
  /** Values the server was configured with (T4): scrubbed from the client's errors, as in every command. */
  secrets?: readonly string[];
  /** Called with the client once it exists, so that the host's signal handling can close it (and its server's group). */
  onClient?: (client: McpClient) => void;
}

/** The expect an outcome stands for; undefined for a connect or close that succeeded (an op without expect must succeed). */
export function expectFor(op: OpEvent, outcome: Outcome): Expect | undefined {
  if (outcome.ok) return op.op === 'connect' || op.op === 'close' ? undefined : { result: outcome.value };
  const error = outcome.error;
  if (error instanceof RpcError) return { error: error.rpcCode };
  if (error instanceof McpClientError && (error.code === 'timeout' || error.code === 'closed' || error.code === 'protocol')) return { error: error.code };
  return undefined;
}

/**
 * Runs the ops against the server and records everything in `writer`.
 * Resolves once the client is closed, with what the server said it is;
 * rejects with an Error that says which op could not be recorded.
 */
export async function driveOps(params: ServerParams, ops: readonly OpEvent[], writer: TranscriptWriter, options: DriveOptions = {}): Promise<Implementation | undefined> {
  // From the close op on nothing more is recorded: what a server sends while it is being shut down depends on timing alone.
  let closing = false;
  const record = {
    onWire: ({ direction, message }: WireEntry) => {
      if (closing) return;
      if (direction === 'receive') return writer.s2c(message);
      const version = requestedVersion(message);
      if (version !== undefined) writer.setProtocolVersion(version);
      writer.c2s(message as JsonRpcMessage);
    },
    // A line of a stdio server's output that is not JSON (a banner): the transport reports its text without the line break.
    onDiagnostic: (d: Diagnostic) => {
      if (d.kind === 'noise' && !closing) writer.s2cBytes(Buffer.from(`${d.line ?? d.text}\n`, 'utf8'));
    },
    // The connection ended without our close: the server exited or dropped the connection.
    onClose: (end: TransportEnd) => {
      if (!closing && end.reason !== 'closed') writer.s2cClose();
    },
  };
  // Set up as a replay's client is (replayClientOptions): without an elicitation answer it has no handler, advertises no
  // capability and answers every server request -32601 (W5).
  const setup = { ...(options.protocolEra !== undefined ? { protocolEra: options.protocolEra } : {}), ...(options.elicitation !== undefined ? { elicitation: options.elicitation } : {}) };
  const client = new McpClient(createTransport(params), { ...replayClientOptions(setup), ...record, timeoutMs: options.timeoutMs, connectTimeoutMs: options.timeoutMs, ...(options.secrets ? { secrets: [...options.secrets] } : {}) });
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  options.onClient?.(client);
  try {
    const all = ops.at(-1)?.op === 'close' ? ops : [...ops, { kind: 'op', line: 0, op: 'close' } as OpEvent];
    for (const op of all) {
      const line = writer.op(opLine(op));
      if (op.op === 'close') closing = true;
      const outcome = await runOp(client, op);
      // A server that could not be started is no recording: the start error itself, typed, as every command reports it (#18 item 16).
      if (!outcome.ok && op.op === 'connect' && isStartFailure(outcome.error)) throw outcome.error;
      if (op.expect !== undefined) {
        const difference = checkOutcome(op, outcome);
        if (difference) throw new Error(`op ${describeOp(op)}: the ops file expects ${JSON.stringify(op.expect)}, but ${difference}`);
        continue;
      }
      const expect = expectFor(op, outcome);
      if (!outcome.ok && expect === undefined) throw new Error(`op ${describeOp(op)} failed in a way a transcript cannot express: ${describeError(outcome.error)}`);
      if (expect !== undefined) line.expect = expect as unknown as JsonObject;
      if (op.op !== 'close') await sleep(settleMs);
    }
    return client.serverInfo;
  } finally {
    await client.close().catch(() => {});
  }
}

function isStartFailure(error: unknown): boolean {
  return error instanceof ConfigError || (error instanceof ClosedError && error.reason === 'spawn-failed');
}

/** callTool asks for progress, so a server that reports it does; the token travels in _meta, which a replay does not compare. */
function runOp(client: McpClient, op: OpEvent): Promise<Outcome> {
  if (op.op !== 'callTool') return startOp(client, op);
  const options = { onProgress: () => {}, ...(op.timeoutMs === undefined ? {} : { timeoutMs: op.timeoutMs }) };
  return client.callTool(op.name!, op.arguments ?? {}, options).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/** The protocol version a client request asks for: initialize's params.protocolVersion, or a modern request's _meta entry. */
function requestedVersion(message: unknown): string | undefined {
  if (!isObject(message) || typeof message.method !== 'string' || !('id' in message) || !isObject(message.params)) return undefined;
  const params = message.params;
  if (message.method === 'initialize') return typeof params.protocolVersion === 'string' ? params.protocolVersion : undefined;
  const version = isObject(params._meta) ? params._meta[PROTOCOL_VERSION_META_KEY] : undefined;
  return typeof version === 'string' ? version : undefined;
}

/** The op as a transcript line, without the reader's bookkeeping. */
function opLine(op: OpEvent): JsonObject {
  const line: JsonObject = { op: op.op };
  if (op.name !== undefined) line.name = op.name;
  if (op.arguments !== undefined) line.arguments = op.arguments;
  if (op.uri !== undefined) line.uri = op.uri;
  if (op.timeoutMs !== undefined) line.timeoutMs = op.timeoutMs;
  if (op.expect !== undefined) line.expect = op.expect as unknown as JsonObject;
  return line;
}
