// `mcpwire record` (X2): its options, checked before the recorder loads, so
// a usage mistake costs no import of the recorder. The server is named as
// for every other command (#18 item 16): --config/--server, --url with
// --transport/--header, or `-- CMD` with -e/--cwd, resolved by the CLI's
// own target.ts; the recorder gets the resolved server and its secrets. It
// registers what it runs with the CLI's signal handling (openServers), so a
// signal saves the record and stops the server's whole process group.

import { parseArgs } from 'node:util';
import type { ServerParams } from '../../client/connect.js';
import type { ListenOptions, RecordOptions, RecordTarget } from '../../recorder/command.js';
import { unknownServerError } from '../../toolsource/unknown-tool.js';
import { isWildcardAddress } from '../../util/addresses.js';
import { eraOption, SERVER_TARGET_OPTIONS, timeoutOption, type CommandLine } from '../options.js';
import { openServers } from '../process.js';
import { resolveConfig } from '../target.js';
import { commandHelp, HelpShown, UsageError } from '../usage.js';

export async function record(args: string[]): Promise<number> {
  const { options, line } = parseRecordLine(args);
  const target = await resolveRecordTarget(line);
  const host = {
    track: (open: { close(options?: { hurry?: boolean }): Promise<unknown> }) => {
      openServers.add(open);
      return () => void openServers.delete(open);
    },
  };
  return (await import('../../recorder/command.js')).runRecord({ ...options, target }, host);
}

/** The one server the recording is of, resolved as every command resolves its servers. */
export async function resolveRecordTarget(line: CommandLine): Promise<RecordTarget> {
  const config = await resolveConfig('record', line);
  const keys = config.servers.map((s) => s.key);
  const only = line.values.server;
  if (only !== undefined && !keys.includes(only)) throw unknownServerError(only, keys);
  const chosen = only !== undefined ? config.servers.find((s) => s.key === only)! : config.servers.length === 1 ? config.servers[0]! : undefined;
  if (!chosen) throw new UsageError(`record records one server and ${config.file} has ${keys.length}: add --server KEY (one of ${keys.join(', ')})`);
  // What it was told, and nothing else: a URL given alone is Streamable HTTP, not retried over legacy SSE.
  const params: ServerParams = chosen.params.transport === 'streamable-http' && chosen.params.fallbackToSse ? { ...chosen.params, fallbackToSse: false } : chosen.params;
  const configured: unknown[] = [...Object.values('env' in params && params.env ? params.env : {}), ...Object.values('headers' in params && params.headers ? params.headers : {})];
  return { params, label: chosen.key, secrets: [...config.secrets, ...configured.filter((v): v is string => typeof v === 'string' && v !== '')] };
}

/** parseRecordArgs, with the server options as a CommandLine for target.ts. */
export function parseRecordLine(args: string[]): { options: Omit<RecordOptions, 'target'>; line: CommandLine } {
  const { target: line, ...options } = parseRecordArgs(args);
  return { options, line };
}

/**
 * `record`'s options. What follows `--` is the server's command line, so the
 * tokens say where `--` was: a positional before it is a mistake.
 */
export function parseRecordArgs(args: string[]): Omit<RecordOptions, 'target'> & { target: CommandLine } {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: {
        out: { type: 'string', short: 'o' },
        ops: { type: 'string' },
        proxy: { type: 'boolean' },
        listen: { type: 'string' },
        'allow-host': { type: 'string', multiple: true },
        'allow-origin': { type: 'string', multiple: true },
        'allow-wildcard': { type: 'boolean' },
        ...SERVER_TARGET_OPTIONS,
        server: { type: 'string' },
        description: { type: 'string' },
        source: { type: 'string' },
        timeout: { type: 'string' },
        settle: { type: 'string' },
        era: { type: 'string' },
        elicit: { type: 'string' },
        replace: { type: 'string', multiple: true },
        'replace-pattern': { type: 'string', multiple: true },
        redact: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(`record: ${(error as Error).message}`);
  }
  const { values, tokens } = parsed;
  if (values.help) {
    process.stdout.write(commandHelp('record'));
    throw new HelpShown();
  }
  const terminator = tokens.findIndex((token) => token.kind === 'option-terminator');
  const command = terminator === -1 ? [] : tokens.slice(terminator + 1).map((token) => (token.kind === 'positional' ? token.value : ''));
  if (parsed.positionals.length > command.length) throw new UsageError(`record: unexpected argument "${parsed.positionals[0]}"; the server's command goes after --`);
  if (!values.out) throw new UsageError('record needs --out FILE.jsonl (the transcript to write)');
  if (!values.out.endsWith('.jsonl')) throw new UsageError('record: --out must name a .jsonl file (its name is the case name)');
  if ((values.ops === undefined) === (values.proxy !== true)) throw new UsageError('record needs exactly one of --ops OPS.json (drive mcpwire\'s client) or --proxy (stand between a client and the server)');
  // The transport as every command spells it; streamable-http, the recorder's first spelling, stays an alias of http.
  const transport = values.transport === 'streamable-http' ? 'http' : values.transport;
  if (transport !== undefined && transport !== 'http' && transport !== 'sse') throw new UsageError(`record: --transport takes http or sse, got "${values.transport}"`);
  const target: CommandLine = {
    values: {
      ...(values.config !== undefined ? { config: values.config } : {}),
      ...(values['project-local'] !== undefined ? { 'project-local': values['project-local'] } : {}),
      ...(values.local !== undefined ? { local: values.local } : {}),
      ...(values['daemon-config'] !== undefined ? { 'daemon-config': values['daemon-config'] } : {}),
      ...(values.server !== undefined ? { server: values.server } : {}),
      ...(values.url !== undefined ? { url: values.url } : {}),
      // A URL given alone is recorded over Streamable HTTP: no fallback decides the transport behind the recorder's back.
      ...(transport !== undefined || values.url !== undefined ? { transport: transport ?? 'http' } : {}),
      ...(values.cwd !== undefined ? { cwd: values.cwd } : {}),
      ...(values.name !== undefined ? { name: values.name } : {}),
      header: values.header ?? [],
      env: values.env ?? [],
      json: false,
      verbose: false,
      progress: false,
      help: false,
    },
    positionals: [],
    serverCommand: command,
    timeoutMs: undefined,
    // --era is the recorded client's (ops mode), written into the header as spelled: not every server's era here.
    protocolEra: undefined,
  };
  let listen: ListenOptions | undefined;
  if (values.listen !== undefined) {
    const match = /^(.*):(\d+)$/.exec(values.listen);
    if (!match || values.proxy !== true) throw new UsageError('record: --listen HOST:PORT (e.g. 127.0.0.1:0) goes with --proxy');
    const host = match[1]!.replace(/^\[|\]$/g, '');
    // Every interface makes the recorder a way into the server for the whole network (#18 item 21): only when asked for by name.
    if (isWildcardAddress(host) && values['allow-wildcard'] !== true) {
      throw new UsageError(`record: --listen ${values.listen} binds every interface, so anyone on the network could use the server through the recorder; listen on 127.0.0.1 (or ::1), or add --allow-wildcard if that is what you want`);
    }
    listen = {
      host,
      port: Number(match[2]),
      ...(values['allow-host'] ? { allowHosts: values['allow-host'] } : {}),
      ...(values['allow-origin'] ? { allowOrigins: values['allow-origin'] } : {}),
    };
  }
  if ((values['allow-host'] !== undefined || values['allow-origin'] !== undefined || values['allow-wildcard'] !== undefined) && listen === undefined) {
    throw new UsageError('record: --allow-host, --allow-origin and --allow-wildcard go with --proxy --listen');
  }
  const pairs = (list: string[] | undefined, pattern: boolean) =>
    (list ?? []).map((text) => {
      // Split at the last "=": a path or a pattern may hold one, the placeholder seldom does.
      const at = text.lastIndexOf('=');
      if (at <= 0) throw new UsageError(`record: --replace${pattern ? '-pattern' : ''} takes FROM=TO, got "${text}"`);
      const from = text.slice(0, at);
      try {
        return { from: pattern ? new RegExp(from, 'g') : from, to: text.slice(at + 1) };
      } catch (error) {
        throw new UsageError(`record: --replace-pattern: ${(error as Error).message}`);
      }
    });
  const settle = values.settle === undefined ? undefined : Number(values.settle);
  if (settle !== undefined && !(Number.isInteger(settle) && settle >= 0)) throw new UsageError(`record: --settle takes a whole number of milliseconds, got "${values.settle}"`);
  if ((values.era !== undefined || values.elicit !== undefined) && values.ops === undefined) {
    throw new UsageError('record: --era and --elicit set up mcpwire\'s own client, so they go with --ops (with --proxy the other client has its own)');
  }
  if (values.era !== undefined) eraOption(values.era);
  let elicitation: Record<string, unknown> | undefined;
  if (values.elicit !== undefined) {
    try {
      elicitation = JSON.parse(values.elicit) as Record<string, unknown>;
    } catch (error) {
      throw new UsageError(`record: --elicit takes the elicitation result as JSON, e.g. '{"action":"accept","content":{"answer":"yes"}}' (${(error as Error).message})`);
    }
    if (typeof elicitation !== 'object' || elicitation === null || Array.isArray(elicitation) || typeof elicitation.action !== 'string') {
      throw new UsageError('record: --elicit takes an elicitation result object with an "action", e.g. \'{"action":"decline"}\'');
    }
  }
  return {
    out: values.out,
    mode: values.ops !== undefined ? { ops: values.ops } : { proxy: true, ...(listen ? { listen } : {}) },
    target,
    ...(values.description !== undefined ? { description: values.description } : {}),
    ...(values.source !== undefined ? { source: values.source } : {}),
    ...(values.timeout !== undefined ? { timeoutMs: timeoutOption(values.timeout) } : {}),
    ...(settle !== undefined ? { settleMs: settle } : {}),
    ...(values.era !== undefined ? { protocolEra: values.era } : {}),
    ...(elicitation !== undefined ? { elicitation: elicitation as RecordOptions['elicitation'] } : {}),
    replacements: [...pairs(values.replace, false), ...pairs(values['replace-pattern'], true)],
    redact: values.redact ?? [],
  };
}
