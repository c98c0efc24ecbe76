// `mcpwire serve` (G1): the configured servers' tools as one MCP server, on
// stdin/stdout (--stdio, the default) or Streamable HTTP (--listen). The
// servers are named as for every command (--config, -- CMD, --url), resolved
// by target.ts; the options are checked before anything loads or starts.
// Over stdio nothing but protocol messages reaches stdout: every note goes to
// stderr. A bind that is not loopback needs a bearer token: from the variable
// --token-env names, else generated here and printed once on stderr.

import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { isLoopbackAddress } from '../../util/http-guard.js';
import { eraOption, SERVER_TARGET_OPTIONS, timeoutOption, type CommandLine } from '../options.js';
import { err, openServers, out } from '../process.js';
import { resolveConfig } from '../target.js';
import { commandHelp, HelpShown, UsageError } from '../usage.js';

export interface ServeLine {
  target: CommandLine;
  listen: { host: string; port: number } | undefined;
  agent: string | undefined;
  names: 'alias' | 'canonical' | 'short';
  tokenEnv: string | undefined;
  requireToken: boolean;
  allowHosts: string[];
  allowOrigins: string[];
  idleMs: number | undefined;
  json: boolean;
  verbose: boolean;
}

export async function serve(args: string[]): Promise<number> {
  const line = parseServeArgs(args);
  const resolved = await resolveConfig('serve', line.target);
  const timeoutMs = line.target.timeoutMs;
  const config = timeoutMs === undefined ? resolved : { ...resolved, servers: resolved.servers.map((s) => ({ ...s, timeoutMs })) };
  const { openToolSource } = await import('../../toolsource/tool-source.js');
  const { CallTracker, serveToolSource } = await import('../../serve/serve.js');
  const calls = new CallTracker();
  const note = (text: string) => err(`mcpwire serve: ${text}\n`);
  const source = await openToolSource({
    config,
    // Upstream sampling, elicitation and roots go to the downstream client whose call it is, when it can answer.
    serverHandlers: (key) => calls.handlers(key),
    // A call's log lines and resource updates go back the same way (#21 item 1.1).
    onServerNotification: (key, notification) => calls.notification(key, notification),
    client: line.verbose ? { onDiagnostic: (d) => note(`${d.server}: ${d.kind}`) } : {},
  });
  openServers.add(source);
  let token: string | undefined;
  if (line.listen && (line.requireToken || !isLoopbackAddress(line.listen.host))) {
    token = line.tokenEnv === undefined ? randomBytes(24).toString('base64url') : process.env[line.tokenEnv];
    if (!token) throw new UsageError(`--token-env ${line.tokenEnv}: that variable is not set or empty; set it to the bearer token clients will send`);
  }
  const handle = await serveToolSource(source, line.listen ? { kind: 'http', ...line.listen, ...(token ? { token } : {}), allowHosts: line.allowHosts, allowOrigins: line.allowOrigins, ...(line.idleMs === undefined ? {} : { sessionIdleMs: line.idleMs }) } : { kind: 'stdio' }, {
    ...(line.agent === undefined ? {} : { agent: line.agent }),
    names: line.names,
    calls,
    ...(line.verbose ? { onProblem: note } : {}),
  });
  const stop = { close: async () => void (await handle.close()) };
  openServers.add(stop);
  // Warmed in the background: the first tools/list then finds the servers running.
  void source.discover();
  if (handle.url !== undefined) {
    const agents = Object.keys(config.agents);
    if (line.json) out(`${JSON.stringify({ url: handle.url, agents: agents.map((a) => `${handle.url}/${encodeURIComponent(a)}`), token: token !== undefined && line.tokenEnv === undefined ? token : undefined })}\n`);
    note(`listening on ${handle.url}${agents.length > 0 ? ` (per agent: ${handle.url}/<agent>, agents ${agents.join(', ')})` : ''}`);
    // Generated here: shown this once, so the operator can give it to the clients. One from --token-env is never printed.
    if (token !== undefined && line.tokenEnv === undefined && !line.json) note(`bearer token (shown once): ${token}`);
  }
  await handle.closed;
  openServers.delete(stop);
  openServers.delete(source);
  await source.close();
  return 0;
}

export function parseServeArgs(args: string[]): ServeLine {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: {
        stdio: { type: 'boolean' },
        listen: { type: 'string' },
        agent: { type: 'string' },
        names: { type: 'string' },
        'token-env': { type: 'string' },
        'require-token': { type: 'boolean' },
        'allow-host': { type: 'string', multiple: true },
        'allow-origin': { type: 'string', multiple: true },
        'session-idle': { type: 'string' },
        ...SERVER_TARGET_OPTIONS,
        era: { type: 'string' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
        verbose: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(`serve: ${(error as Error).message}; see mcpwire serve --help`);
  }
  const { values, tokens } = parsed;
  if (values.help) {
    process.stdout.write(commandHelp('serve'));
    throw new HelpShown();
  }
  const terminator = tokens.findIndex((token) => token.kind === 'option-terminator');
  const command = terminator === -1 ? [] : tokens.slice(terminator + 1).map((token) => (token.kind === 'positional' ? token.value : ''));
  if (parsed.positionals.length > command.length) throw new UsageError(`serve: unexpected argument "${parsed.positionals[0]}"; a server's command goes after --`);
  if (values.stdio && values.listen !== undefined) throw new UsageError('serve: give --stdio or --listen HOST:PORT, not both');
  let listen: ServeLine['listen'];
  if (values.listen !== undefined) {
    const match = /^(.*):(\d+)$/.exec(values.listen);
    const port = match ? Number(match[2]) : NaN;
    if (!match || match[1] === '' || port > 65_535) throw new UsageError(`serve: --listen takes HOST:PORT (e.g. 127.0.0.1:7777, or 127.0.0.1:0 for any free port), got "${values.listen}"`);
    listen = { host: match[1]!.replace(/^\[|\]$/g, ''), port };
  } else {
    for (const flag of ['token-env', 'require-token', 'allow-host', 'allow-origin', 'session-idle', 'json'] as const) {
      if (values[flag] !== undefined) throw new UsageError(`serve: --${flag} goes with --listen (over stdio the client is the process that started this one)`);
    }
  }
  if (values.names !== undefined && !['alias', 'canonical', 'short'].includes(values.names)) throw new UsageError(`serve: --names takes alias (provider-safe, the default), canonical (mcp.<server>.<tool>) or short (the server's own name where no other server has it), got "${values.names}"`);
  const idleMs = values['session-idle'] === undefined ? undefined : Number(values['session-idle']);
  if (idleMs !== undefined && !(Number.isInteger(idleMs) && idleMs > 0)) throw new UsageError(`serve: --session-idle takes a whole number of milliseconds, got "${values['session-idle']}"`);
  const transport = values.transport === 'streamable-http' ? 'http' : values.transport;
  const target: CommandLine = {
    values: {
      ...(values.config !== undefined ? { config: values.config } : {}),
      ...(values['project-local'] !== undefined ? { 'project-local': values['project-local'] } : {}),
      ...(values.local !== undefined ? { local: values.local } : {}),
      ...(values['daemon-config'] !== undefined ? { 'daemon-config': values['daemon-config'] } : {}),
      ...(values.url !== undefined ? { url: values.url } : {}),
      ...(transport !== undefined ? { transport } : {}),
      ...(values.cwd !== undefined ? { cwd: values.cwd } : {}),
      ...(values.name !== undefined ? { name: values.name } : {}),
      header: values.header ?? [],
      env: values.env ?? [],
      json: false,
      verbose: values.verbose ?? false,
      progress: false,
      help: false,
    },
    positionals: [],
    serverCommand: command,
    timeoutMs: timeoutOption(values.timeout),
    protocolEra: eraOption(values.era),
  };
  return {
    target,
    listen,
    agent: values.agent,
    names: (values.names as ServeLine['names'] | undefined) ?? 'alias',
    tokenEnv: values['token-env'],
    requireToken: values['require-token'] ?? false,
    allowHosts: values['allow-host'] ?? [],
    allowOrigins: values['allow-origin'] ?? [],
    idleMs,
    json: values.json ?? false,
    verbose: values.verbose ?? false,
  };
}
