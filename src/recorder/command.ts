// `mcpwire record` (X2, U1): picks the server (a config entry, a URL, or a
// command), then records in one of two modes: --ops drives mcpwire's client
// through an ops file; --proxy stands between another client and the server
// (over stdio, or on a local HTTP address). Either way the transcript is
// written to --out. The options are parsed by the CLI; this module runs them.

import type { ServerParams } from '../client/connect.js';
import type { JsonObject } from '../client/results.js';
import { ConfigError, McpClientError } from '../errors.js';
import type { TranscriptTransport } from '../conformance/transcript.js';
import { isWildcardAddress } from '../util/addresses.js';
import { startHttpProxy } from './http-proxy.js';
import { OpInference } from './op-inference.js';
import { driveOps, loadOps } from './ops-driver.js';
import { startStdioProxy } from './stdio-proxy.js';
import { caseNameOf } from '../conformance/transcript.js';
import { TranscriptWriter, type Replacement } from './transcript-writer.js';

/** The server to record, resolved by the CLI (src/cli/target.ts) as for every other command (#18 item 16). */
export interface RecordTarget {
  params: ServerParams;
  /** The server's key, for its errors. */
  label: string;
  /** Values the server was configured with that must not be written (T4): the config's secrets, env and header values. */
  secrets: readonly string[];
}

/** What the command that runs the recorder owns: its signal handling closes what is tracked (the CLI's openServers). */
export interface RecordHost {
  /** Registers something a signal must close; returns the call that unregisters it. */
  track(open: { close(options?: { hurry?: boolean }): Promise<unknown> }): () => void;
}

/** Where --proxy --listen serves, and whom it serves (#18 item 21). */
export interface ListenOptions {
  host: string;
  port: number;
  /** Host names a request's Host may carry besides loopback names and the listen address. */
  allowHosts?: readonly string[];
  /** Origins a browser page may send requests from besides those of accepted hosts. */
  allowOrigins?: readonly string[];
}

export interface RecordOptions {
  out: string;
  mode: { ops: string } | { proxy: true; listen?: ListenOptions };
  target: RecordTarget;
  /** The header's description. */
  description?: string;
  /** The header's source; default: how and from what it was recorded. */
  source?: string;
  /** Ops mode: the client's default per-request timeout, ms (the header's client.timeoutMs). */
  timeoutMs?: number;
  /** Ops mode: the era the client connects with, as --era spells it (the header's client.protocolEra). */
  protocolEra?: string;
  /** Ops mode: what the client's elicitation handler answers (the header's client.elicitation). */
  elicitation?: JsonObject;
  /** Ops mode: the pause after each op, ms. */
  settleMs?: number;
  replacements: readonly Replacement[];
  /** More values to keep out of the record (besides the config's secrets, env and header values). */
  redact: readonly string[];
}

/** Runs the recording; the exit status (0 written, 1 the recording failed). Throws typed errors for the CLI's exit table. */
export async function runRecord(options: RecordOptions, host: RecordHost = { track: () => () => {} }): Promise<number> {
  const { params, secrets } = options.target;
  const transport: TranscriptTransport = params.transport;
  // --era wins over the config entry's own era, as on every other command (#17).
  const configuredEra = params.protocolEra === undefined ? undefined : typeof params.protocolEra === 'string' ? params.protocolEra : params.protocolEra.version;
  const protocolEra = 'ops' in options.mode ? (options.protocolEra ?? configuredEra) : undefined;
  const name = caseNameOf(options.out);
  const writer = new TranscriptWriter(
    {
      name,
      transport,
      source: options.source ?? `recorded by mcpwire record over ${transport}`,
      ...(options.description !== undefined ? { description: options.description } : {}),
      ...(options.timeoutMs !== undefined ? { clientTimeoutMs: options.timeoutMs } : {}),
      ...(protocolEra !== undefined ? { clientProtocolEra: protocolEra } : {}),
      ...(options.elicitation !== undefined ? { clientElicitation: options.elicitation } : {}),
    },
    options.replacements,
  );
  // The default source names the server, once it has said who it is.
  const nameServer = (mode: string, info: { name?: unknown; version?: unknown } | undefined) => {
    if (info && options.source === undefined) writer.setSource(`recorded by mcpwire record ${mode} from ${String(info.name)} ${String(info.version)} over ${transport}`);
  };
  for (const secret of [...secrets, ...options.redact]) writer.addSecret(secret);

  if ('ops' in options.mode) {
    const ops = await loadOps(options.mode.ops);
    let info;
    // A signal stops the client's server at once, its whole group (as every command does); nothing is written then.
    let untrack = () => {};
    try {
      info = await driveOps(params, ops, writer, {
        timeoutMs: options.timeoutMs,
        settleMs: options.settleMs,
        protocolEra,
        elicitation: options.elicitation,
        secrets: [...secrets, ...options.redact],
        onClient: (client) => (untrack = host.track(client)),
      });
    } catch (error) {
      // A server that could not start: the typed error, for the CLI's exit table (4) and its one message.
      if (error instanceof McpClientError) throw error;
      process.stderr.write(`mcpwire record: ${(error as Error).message}; nothing was written\n`);
      return 1;
    } finally {
      untrack();
    }
    nameServer('--ops', info);
    writer.writeTo(options.out);
    process.stderr.write(`mcpwire record: wrote ${options.out}\n`);
    return 0;
  }

  const inference = new OpInference(writer);
  const save = () => {
    nameServer('--proxy', inference.serverInfo);
    try {
      writer.writeTo(options.out);
    } catch (error) {
      process.stderr.write(`mcpwire record: could not write ${options.out}: ${(error as Error).message}\n`);
    }
  };

  if (params.transport === 'stdio') {
    if (options.mode.listen) throw new ConfigError(undefined, [], '--listen serves an HTTP server; this server is a stdio command, so leave --listen out and let the client spawn mcpwire record');
    const proxy = await startStdioProxy({ server: params, label: options.target.label, secrets: [...secrets, ...options.redact], inference, save, clientIn: process.stdin, clientOut: process.stdout, errorOut: process.stderr });
    // A signal saves the record and stops the server's whole group (launcher and server) before the CLI exits (#18 item 23).
    const untrack = host.track({ close: () => proxy.stop() });
    const status = await proxy.exited;
    untrack();
    return status;
  }

  const listen = options.mode.listen;
  if (!listen) throw new ConfigError(undefined, [], `--proxy in front of an HTTP server needs --listen HOST:PORT (e.g. --listen 127.0.0.1:0), the address the client connects to`);
  if (isWildcardAddress(listen.host)) {
    process.stderr.write(`mcpwire record: warning: listening on every interface (${listen.host}): anyone who can reach this machine can talk to ${new URL(params.url).origin} through the recorder with what they send; only Host names given with --allow-host are accepted besides loopback\n`);
  }
  const proxy = await startHttpProxy({
    upstream: new URL(params.url),
    host: listen.host,
    port: listen.port,
    ...(listen.allowHosts ? { allowHosts: listen.allowHosts } : {}),
    ...(listen.allowOrigins ? { allowOrigins: listen.allowOrigins } : {}),
    legacy: params.transport === 'sse',
    inference,
    addSecret: (value) => writer.addSecret(value),
    onProblem: (text) => process.stderr.write(`mcpwire record: ${text}\n`),
  });
  process.stderr.write(`mcpwire record: listening on ${proxy.url}\n`);
  // A signal: the CLI closes what is tracked (the record is saved, the proxy closed) and exits 130 or 143 itself.
  const untrack = host.track({
    close: async () => {
      inference.clientClosed();
      save();
      await proxy.close();
      process.stderr.write(`mcpwire record: wrote ${options.out}\n`);
    },
  });
  await proxy.sessionEnded;
  untrack();
  inference.clientClosed();
  save();
  await proxy.close();
  process.stderr.write(`mcpwire record: wrote ${options.out}\n`);
  return 0;
}
