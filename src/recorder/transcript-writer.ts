// Collects what a recording saw, in order, and turns it into a transcript
// file (conformance/TRANSCRIPTS.md, version 1). Op lines are kept as objects
// until the end, so their `expect` can be filled once the op has ended.
// Before anything is written, every string is normalised (the recording's
// replacements) and every secret redacted (T4), and the text is read back
// with the replayer's own strict reader, so a file the replayer would refuse
// is never written. Does NOT know where the lines came from.

import { writeFileSync } from 'node:fs';
import type { JsonObject } from '../client/results.js';
import { isObject } from '../jsonrpc/message.js';
import { parseTranscript, TRANSCRIPT_FORMAT_VERSION, type TranscriptTransport } from '../conformance/transcript.js';
import { redact } from '../transport/redact.js';

/** A literal or pattern replacement applied to every string of the record (volatile values: temp paths, timestamps). */
export interface Replacement {
  from: string | RegExp;
  to: string;
}

export interface TranscriptHeaderInput {
  /** The case name; the file must be named NAME.jsonl (TRANSCRIPTS.md, header `name`). */
  name: string;
  transport: TranscriptTransport;
  source: string;
  description?: string;
  clientTimeoutMs?: number;
  /** The era the recorded client connected with (header client.protocolEra); absent: none configured. */
  clientProtocolEra?: string;
  /** The answer of the recorded client's elicitation handler (header client.elicitation); absent: no handler. */
  clientElicitation?: JsonObject;
}

type Line = { kind: 'op'; value: JsonObject } | { kind: 'wire'; value: JsonObject } | { kind: 'comment'; text: string };

/** The case name a transcript file stands for: its name without `.jsonl`. */
export class TranscriptWriter {
  private readonly lines: Line[] = [];
  private protocolVersion: string | undefined;
  private readonly secrets = new Set<string>();

  constructor(
    private header: TranscriptHeaderInput,
    private readonly replacements: readonly Replacement[] = [],
  ) {}

  /** Replaces the header's `source` (once the server has said who it is). */
  setSource(source: string): void {
    this.header = { ...this.header, source };
  }

  /** The version the client first asked for, in `initialize` or a modern request's `_meta` (the header's `protocolVersion`). */
  setProtocolVersion(version: string): void {
    this.protocolVersion ??= version;
  }

  /** A value that must never appear in the file, in any of the forms redact() knows. */
  addSecret(value: string): void {
    if (value !== '') this.secrets.add(value);
  }

  /** Appends an op line and returns it, so `expect` can be set once the op has ended. */
  op(value: JsonObject): JsonObject {
    this.lines.push({ kind: 'op', value });
    return value;
  }

  c2s(msg: unknown): void {
    this.lines.push({ kind: 'wire', value: { dir: 'c2s', msg } });
  }

  s2c(msg: unknown): void {
    this.lines.push({ kind: 'wire', value: { dir: 's2c', msg } });
  }

  /** Bytes a server wrote that are not a JSON message (a banner, a stray log): kept exactly, as `raw` or, when not UTF-8, `rawBase64`. */
  s2cBytes(bytes: Buffer): void {
    const text = bytes.toString('utf8');
    const exact = Buffer.from(text, 'utf8').equals(bytes);
    this.lines.push({ kind: 'wire', value: exact ? { dir: 's2c', raw: text } : { dir: 's2c', rawBase64: bytes.toString('base64') } });
  }

  /** The server went away on its own (TRANSCRIPTS.md `s2c close`). */
  s2cClose(): void {
    this.lines.push({ kind: 'wire', value: { dir: 's2c', close: true } });
  }

  /** What the format cannot replay (a request no op sends), kept for the reader as a `#` line. */
  comment(text: string): void {
    this.lines.push({ kind: 'comment', text });
  }

  /** Whether the last op line recorded is a `close`. */
  get closed(): boolean {
    for (let i = this.lines.length - 1; i >= 0; i--) {
      const line = this.lines[i]!;
      if (line.kind === 'op') return line.value.op === 'close';
    }
    return false;
  }

  /** The transcript's text: normalised, redacted, and checked by the replayer's reader. Throws if that reader refuses it. */
  toText(): string {
    const extensions = new Set<string>();
    for (const line of this.lines) {
      if (line.kind === 'op' && line.value.op === 'listResourceTemplates') extensions.add('listResourceTemplates');
      if (line.kind === 'wire' && line.value.close === true) extensions.add('s2c.close');
      if (line.kind === 'wire' && 'rawBase64' in line.value) extensions.add('s2c.rawBase64');
    }
    const h = this.header;
    const client: JsonObject = {};
    if (h.clientTimeoutMs !== undefined) client.timeoutMs = h.clientTimeoutMs;
    if (h.clientProtocolEra !== undefined) {
      client.protocolEra = h.clientProtocolEra;
      extensions.add('client.protocolEra');
    }
    if (h.clientElicitation !== undefined) {
      client.elicitation = h.clientElicitation;
      extensions.add('client.elicitation');
    }
    const header: JsonObject = {
      mcpTranscript: TRANSCRIPT_FORMAT_VERSION,
      name: h.name,
      transport: h.transport,
      protocolVersion: this.protocolVersion ?? 'unknown',
      source: h.source,
      ...(h.description !== undefined ? { description: h.description } : {}),
      ...(extensions.size > 0 ? { formatExtensions: [...extensions] } : {}),
      ...(Object.keys(client).length > 0 ? { client } : {}),
    };
    const out = [this.encode(header)];
    for (const line of this.lines) {
      if (line.kind === 'comment') out.push(`# ${this.clean(line.text).replace(/[\r\n]+/g, ' ')}`);
      else out.push(this.encode(line.value));
    }
    const text = `${out.join('\n')}\n`;
    parseTranscript(text, `${h.name}.jsonl`);
    return text;
  }

  /** Writes the transcript to `file` (synchronously: a signal handler may call this on its way out). */
  writeTo(file: string): void {
    writeFileSync(file, this.toText());
  }

  private encode(value: JsonObject): string {
    // Redaction runs on the encoded line as well: a secret split across keys or JSON-escaped is caught in that form too.
    return this.scrubSecrets(JSON.stringify(normalise(value, (text) => this.clean(text))));
  }

  private clean(text: string): string {
    let out = text;
    for (const { from, to } of this.replacements) out = typeof from === 'string' ? out.split(from).join(to) : out.replace(from, to);
    return this.scrubSecrets(out);
  }

  private scrubSecrets(text: string): string {
    return this.secrets.size === 0 ? text : redact(text, this.secrets);
  }
}

/** A deep copy of a JSON value with `fix` applied to every string (values and keys). */
function normalise(value: unknown, fix: (text: string) => string): unknown {
  if (typeof value === 'string') return fix(value);
  if (Array.isArray(value)) return value.map((item) => normalise(item, fix));
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(value)) out[fix(key)] = normalise(item, fix);
    return out;
  }
  return value;
}
