// `mcpwire record` (X2, U1): picks the server (a config entry, a URL, or a
// command), then records in one of two modes: --ops drives mcpwire's client
// through an ops file; --proxy stands between another client and the server
// (over stdio, or on a local HTTP address). Either way the transcript is
// written to --out. The options are parsed by the CLI; this module runs them.

import type { ServerParams } from '../client/connect.js';
import type { JsonObject } from '../client/results.js';
import { ConfigError } from '../errors.js';
import type { TranscriptTransport } from '../conformance/transcript.js';
import { loadToolSourceConfig } from '../toolsource/tool-source.js';
import { isWildcardAddress } from '../util/addresses.js';
import { startHttpProxy } from './http-proxy.js';
import { OpInference } from './op-inference.js';
import { driveOps, loadOps } from './ops-driver.js';
import { runStdioProxy } from './stdio-proxy.js';
import { caseNameOf } from '../conformance/transcript.js';
import { TranscriptWriter, type Replacement } from './transcript-writer.js';

export type RecordTarget =
  | { config: string; server?: string }
  | { url: string; transport: 'streamable-http' | 'sse' }
  | { command: readonly string[] };

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

interface ResolvedTarget {
  params: ServerParams;
  /** Values the server was configured with that must not be written (T4). */
  secrets: string[];
}

async function resolveTarget(target: RecordTarget): Promise<ResolvedTarget> {
  if ('command' in target) return { params: { transport: 'stdio', command: [...target.command] }, secrets: [] };
  if ('url' in target) return { params: { transport: target.transport, url: target.url }, secrets: [] };
  const config = await loadToolSourceConfig({ config: target.config });
  const keys = config.servers.map((s) => s.key);
  const chosen = target.server !== undefined ? config.servers.find((s) => s.key === target.server) : config.servers.length === 1 ? config.servers[0] : undefined;
  if (!chosen) {
    const why = target.server !== undefined ? `no server named "${target.server}"` : 'the config has several servers; pick one with --server KEY';
    throw new ConfigError(config.file, [], `${why}; configured: ${keys.join(', ') || '(none)'}`);
  }
  const params = chosen.params;
  const configured = [...Object.values('env' in params && params.env ? params.env : {}), ...Object.values('headers' in params && params.headers ? params.headers : {})];
  return { params, secrets: [...config.secrets, ...configured.filter((v): v is string => typeof v === 'string')] };
}

/** Runs the recording; the exit status (0 written, 1 the recording failed). Throws typed errors for the CLI's exit table. */
export async function runRecord(options: RecordOptions): Promise<number> {
  const { params, secrets } = await resolveTarget(options.target);
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
    try {
      info = await driveOps(params, ops, writer, { timeoutMs: options.timeoutMs, settleMs: options.settleMs, protocolEra, elicitation: options.elicitation });
    } catch (error) {
      process.stderr.write(`mcpwire record: ${(error as Error).message}; nothing was written\n`);
      return 1;
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
    return runStdioProxy({ server: params, inference, save, clientIn: process.stdin, clientOut: process.stdout, errorOut: process.stderr });
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
  // Saved inside the signal handler itself: the CLI's own handler exits right after the signal's listeners have run.
  const signalled = new Promise<number>((resolve) => {
    const stop = (status: number) => () => {
      inference.clientClosed();
      save();
      resolve(status);
    };
    process.once('SIGINT', stop(130));
    process.once('SIGTERM', stop(143));
  });
  const status = await Promise.race([proxy.sessionEnded.then(() => 0), signalled]);
  inference.clientClosed();
  save();
  await proxy.close();
  process.stderr.write(`mcpwire record: wrote ${options.out}\n`);
  return status;
}
