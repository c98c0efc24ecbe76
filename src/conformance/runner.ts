// Replays transcripts against McpClient (X1). One case: a ServerSide plays
// the server, McpClient talks to it through its real transport, and this
// module walks the events in order: ops are started and their outcome
// checked when the next op (or the end) is reached; c2s lines wait for the
// client's next message and match it; s2c lines are performed with ids
// rewritten. All matching runs here, in one event loop with the client, so
// ops and wire events interleave exactly as the transcript says.
// The first difference fails the case; the client is closed and every
// process of the case is gone before the result is returned.

import { McpClient } from '../client/client.js';
import { isObject } from '../jsonrpc/message.js';
import { sleep } from '../util/backoff.js';
import { describeDiagnostic } from '../util/text.js';
import { matchC2s } from './compare.js';
import { IdBook } from './id-book.js';
import { show } from './json-diff.js';
import { checkOutcome, describeError, describeOp, replayClientOptions, startOp, type Outcome } from './ops.js';
import { fillIdPlaceholders, rewriteMessage } from './rewrite.js';
import type { ServerSide, ServerSideFactory } from './server-side.js';
import { stdioServerSides } from './stdio-server-side.js';
import {
  caseBudgetMs,
  caseNameOf,
  DEFAULT_CASE_TIMEOUT_MS,
  loadTranscript,
  silentProbeLine,
  type C2sEvent,
  type OpEvent,
  type S2cEvent,
  type Transcript,
} from './transcript.js';

/** After the last event, how long the client must stay silent (TRANSCRIPTS.md: "the client sends nothing more"). */
export const DEFAULT_QUIET_MS = 100;
/** Upper bound on the client's close() during teardown; the server side's dispose() kills whatever is left. */
const TEARDOWN_CLOSE_MS = 5_000;
/** When the client goes away at a c2s line, how long to wait for the current op's error, to name it in the message. */
const OP_NOTE_WAIT_MS = 1_000;
/** The auto probe's timeout in a replay whose probes are all answered, ms (see execute()). */
const REPLAY_PROBE_TIMEOUT_MS = 10_000;
/** Trace entries kept per case (shown with --verbose); older ones fall off. */
const TRACE_ENTRIES_KEPT = 400;

export type CaseStatus = 'pass' | 'fail' | 'skip';

export interface CaseResult {
  name: string;
  file: string;
  status: CaseStatus;
  /** The first difference (fail) or why it was skipped (skip). */
  detail?: string;
  durationMs: number;
  /** What the runner did and saw, in order (for --verbose). */
  trace: string[];
}

export interface RunOptions {
  /** Which transport plays the server. Default stdio. */
  serverSides?: ServerSideFactory;
  /** Quiet period after the last event, ms. Default 100. */
  quietMs?: number;
  /** Called after each case, as soon as it has finished (for streaming output). */
  onCase?: (result: CaseResult) => void;
}

/** Runs the transcript files one after another. */
export async function runFiles(files: readonly string[], options: RunOptions = {}): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const file of files) {
    const result = await runFile(file, options);
    options.onCase?.(result);
    results.push(result);
  }
  return results;
}

/** Loads and runs one transcript file. A file that cannot be loaded is a failed case named after the file. */
export async function runFile(file: string, options: RunOptions = {}): Promise<CaseResult> {
  const started = Date.now();
  let transcript: Transcript;
  try {
    transcript = await loadTranscript(file);
  } catch (error) {
    return { name: caseNameOf(file), file, status: 'fail', detail: (error as Error).message, durationMs: Date.now() - started, trace: [] };
  }
  return runTranscript(transcript, options);
}

export async function runTranscript(transcript: Transcript, options: RunOptions = {}): Promise<CaseResult> {
  const factory = options.serverSides ?? stdioServerSides;
  const base = { name: transcript.header.name, file: transcript.file };
  const skip = factory.skipReason(transcript);
  if (skip) return { ...base, status: 'skip', detail: skip, durationMs: 0, trace: [] };
  const started = Date.now();
  const run = new CaseRun(transcript, factory.create(transcript.header.name), options.quietMs ?? DEFAULT_QUIET_MS);
  const detail = await run.execute();
  return { ...base, status: detail === undefined ? 'pass' : 'fail', ...(detail === undefined ? {} : { detail }), durationMs: Date.now() - started, trace: run.trace };
}

class CaseFailure extends Error {
  override readonly name = 'CaseFailure' as const;
}

type Arrival = { message: unknown } | { gone: string };

class CaseRun {
  readonly trace: string[] = [];
  private readonly ids = new IdBook();
  private client: McpClient | undefined;
  private failure: string | undefined;
  private rejectAborted!: (error: CaseFailure) => void;
  /** Rejects at the first failure (or the deadline); every wait races it. */
  private readonly aborted = new Promise<never>((_, reject) => {
    this.rejectAborted = reject;
  });
  /** Whether a message from the client may arrive now: only while the next event to come is a c2s line. */
  private expectingC2s = false;
  private readonly inbox: unknown[] = [];
  private waiter: ((arrival: Arrival) => void) | undefined;
  private goneDetail: string | undefined;
  private finished = false;
  private line = 1;
  private waitingFor = 'starting the server side';
  private currentOp: { event: OpEvent; outcome: Promise<Outcome>; settled?: Outcome } | undefined;

  constructor(
    private readonly transcript: Transcript,
    private readonly server: ServerSide,
    private readonly quietMs: number,
  ) {
    this.aborted.catch(() => {}); // observed by guard(); never unhandled
  }

  /** Runs the case; the first difference, or undefined when it passed. Never throws. */
  async execute(): Promise<string | undefined> {
    const budgetMs = caseBudgetMs(this.transcript);
    const deadline = setTimeout(() => {
      this.fail(`the case did not finish within ${budgetMs} ms (twice the sum of its ops' timeouts) while ${this.waitingFor}`);
    }, budgetMs);
    try {
      await this.guard(
        this.server.start({
          onMessage: (value) => this.onClientMessage(value),
          onBadOutput: (detail) => this.fail(`after line ${this.line}: ${detail}`),
          onGone: (detail) => this.onGone(detail),
        }),
      );
      const timeoutMs = this.transcript.header.client?.timeoutMs;
      // Created after start(): an HTTP server side only knows its URL once it listens.
      this.client = new McpClient(this.server.createTransport(), {
        ...replayClientOptions(this.transcript.header.client),
        // An answered probe is answered as soon as it is matched; the default 1 s (start-up included) could run out
        // first on a loaded machine. A silent probe keeps the default: its timeout is what the case waits through.
        ...(silentProbeLine(this.transcript) === undefined ? { probeTimeoutMs: REPLAY_PROBE_TIMEOUT_MS } : {}),
        timeoutMs,
        // initialize is a request like any other here: the case's default timeout applies to it too.
        connectTimeoutMs: timeoutMs ?? DEFAULT_CASE_TIMEOUT_MS,
        onDiagnostic: (d) => this.note(`client diagnostic: ${describeDiagnostic(d)}`),
      });
      await this.replay(this.client);
    } catch (error) {
      if (!(error instanceof CaseFailure)) this.fail(`the runner failed at line ${this.line}: ${(error as Error).stack ?? error}`);
    } finally {
      clearTimeout(deadline);
      await this.teardown();
    }
    return this.failure;
  }

  private async replay(client: McpClient): Promise<void> {
    const events = this.transcript.events;
    // nextIsC2s[i]: the first event at or after i that is not an s2c line is a c2s line.
    const nextIsC2s: boolean[] = new Array<boolean>(events.length + 1).fill(false);
    for (let i = events.length - 1; i >= 0; i--) {
      const kind = events[i]!.kind;
      nextIsC2s[i] = kind === 'c2s' || (kind === 's2c' && nextIsC2s[i + 1]!);
    }
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      this.line = event.line;
      switch (event.kind) {
        case 'op':
          await this.settleCurrentOp();
          this.expectingC2s = nextIsC2s[i + 1]!;
          this.note(`line ${event.line}: op ${describeOp(event)}`);
          this.startOp(client, event);
          break;
        case 'c2s':
          this.expectingC2s = true;
          await this.matchClientMessage(event);
          break;
        case 's2c':
          this.expectingC2s = nextIsC2s[i]!;
          await this.performS2c(event);
          break;
      }
    }
    this.line = events.at(-1)?.line ?? 1;
    await this.settleCurrentOp();
    this.waitingFor = `in the ${this.quietMs} ms quiet period after the last line`;
    await this.guard(sleep(this.quietMs));
  }

  private startOp(client: McpClient, event: OpEvent): void {
    const current: NonNullable<CaseRun['currentOp']> = { event, outcome: startOp(client, event) };
    // Kept so a c2s line the client never sends can say why (the op may have failed before sending it).
    void current.outcome.then((outcome) => (current.settled = outcome));
    this.currentOp = current;
  }

  /** "An op's outcome is checked when the next op (or the end) is reached." Nothing may arrive meanwhile. */
  private async settleCurrentOp(): Promise<void> {
    this.expectingC2s = false;
    this.checkInboxEmpty();
    const current = this.currentOp;
    if (!current) return;
    this.waitingFor = `waiting for op ${describeOp(current.event)} (line ${current.event.line}) to end`;
    const outcome = await this.guard(current.outcome);
    this.currentOp = undefined;
    const difference = checkOutcome(current.event, outcome);
    this.note(`line ${current.event.line}: op ${describeOp(current.event)} ended: ${outcome.ok ? 'ok' : 'error'}`);
    if (difference) this.abort(`line ${current.event.line}: op ${describeOp(current.event)}: ${difference}`);
  }

  private async matchClientMessage(event: C2sEvent): Promise<void> {
    const what = `line ${event.line}: c2s ${describeMessage(event.msg)}`;
    this.waitingFor = `waiting for the client to send ${what}`;
    const arrival = await this.guard(this.nextArrival());
    if ('gone' in arrival) {
      // The op that should have sent it usually fails a moment later (its close() is still running): say how.
      if (this.currentOp) await this.guard(withinMs(this.currentOp.outcome, OP_NOTE_WAIT_MS));
      this.abort(`${what}: the client never sent it (${arrival.gone}${this.opNote()})`);
    }
    const difference = matchC2s(event.msg, arrival.message, this.ids);
    if (difference) this.abort(`${what}: ${difference}`);
    this.note(`${what} matched`);
  }

  private async performS2c(event: S2cEvent): Promise<void> {
    if (event.delayMs) {
      this.waitingFor = `in the ${event.delayMs} ms delay of line ${event.line}`;
      await this.guard(sleep(event.delayMs));
    }
    const action = event.action;
    try {
      if ('msg' in action) {
        const msg = rewriteMessage(action.msg, this.ids);
        this.note(`line ${event.line}: s2c ${show(msg)}`);
        this.server.sendMessage(msg);
      } else if ('raw' in action) {
        const bytes = fillIdPlaceholders(Buffer.from(action.raw, 'utf8'), this.ids);
        this.note(`line ${event.line}: s2c raw ${bytes.length} bytes`);
        this.server.sendBytes(bytes);
      } else if ('rawBase64' in action) {
        const bytes = fillIdPlaceholders(Buffer.from(action.rawBase64, 'base64'), this.ids);
        this.note(`line ${event.line}: s2c rawBase64 ${bytes.length} bytes`);
        this.server.sendBytes(bytes);
      } else {
        this.note(`line ${event.line}: s2c close`);
        this.server.closeServer();
      }
    } catch (error) {
      this.abort(`line ${event.line}: s2c: ${(error as Error).message}`);
    }
  }

  // --- what the client sends ------------------------------------------------------

  private onClientMessage(value: unknown): void {
    if (this.finished) return;
    this.note(`client → ${show(value)}`);
    if (this.waiter) {
      const deliver = this.waiter;
      this.waiter = undefined;
      deliver({ message: value });
    } else if (this.expectingC2s) {
      this.inbox.push(value);
    } else {
      // TRANSCRIPTS.md: "A message the client sends that no c2s line expects fails the case as soon as it is seen."
      this.fail(`after line ${this.line}: the client sent a message no c2s line expects: ${show(value)}`);
    }
  }

  private onGone(detail: string): void {
    this.note(`server side: ${detail}`);
    this.goneDetail = detail;
    if (this.waiter) {
      const deliver = this.waiter;
      this.waiter = undefined;
      deliver({ gone: detail });
    }
  }

  private nextArrival(): Promise<Arrival> {
    if (this.inbox.length) return Promise.resolve({ message: this.inbox.shift() });
    if (this.goneDetail !== undefined) return Promise.resolve({ gone: this.goneDetail });
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  /** ", after op X (line N) failed: ..." when the current op has already ended in an error. */
  private opNote(): string {
    const current = this.currentOp;
    if (!current?.settled || current.settled.ok) return '';
    return `; op ${describeOp(current.event)} (line ${current.event.line}) had already failed: ${describeError(current.settled.error)}`;
  }

  private checkInboxEmpty(): void {
    if (this.inbox.length) this.abort(`after line ${this.line}: the client sent a message no c2s line expects: ${show(this.inbox[0])}`);
  }

  // --- failure, waiting, teardown -------------------------------------------------

  /** Records the first failure and wakes the replay (safe from any callback: never throws). */
  private fail(detail: string): void {
    if (this.failure !== undefined || this.finished) return;
    this.failure = detail;
    this.note(`FAIL: ${detail}`);
    this.rejectAborted(new CaseFailure(detail));
  }

  /** fail() and stop the replay right here. */
  private abort(detail: string): never {
    this.fail(detail);
    throw new CaseFailure(detail);
  }

  private guard<T>(promise: Promise<T>): Promise<T> {
    return Promise.race([promise, this.aborted]);
  }

  private async teardown(): Promise<void> {
    this.finished = true;
    this.expectingC2s = false;
    if (this.client) await withinMs(this.client.close().catch(() => {}), TEARDOWN_CLOSE_MS);
    await this.server.dispose().catch((error: unknown) => this.note(`teardown: ${(error as Error).message}`));
    const note = this.server.describe();
    if (note) this.note(note);
  }

  private note(entry: string): void {
    this.trace.push(entry);
    if (this.trace.length > TRACE_ENTRIES_KEPT) this.trace.shift();
  }
}

function describeMessage(msg: unknown): string {
  if (!isObject(msg)) return show(msg);
  if (typeof msg.method === 'string') return msg.method;
  if ('error' in msg) return `error response to ${show(msg.id)}`;
  return `response to ${show(msg.id)}`;
}

/** Waits for `promise`, but no longer than `ms`; the timer is cleared either way so it holds no event loop open. */
async function withinMs(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
