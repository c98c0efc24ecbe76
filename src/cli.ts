// The `mcpwire` command (U1): parses arguments, calls the library, prints
// for people (or JSON with --json), and maps error codes to exit statuses in
// one table. No protocol logic lives here.

import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { McpClient } from './client/client.js';
import { connect } from './client/connect.js';
import type { CallToolResult } from './client/results.js';
import { ConfigError, McpClientError, type McpErrorCode } from './errors.js';
import type { RecordOptions } from './recorder/command.js';
import type { ServerParams } from './client/connect.js';
import { loadMcpServersJson, type ServerConfig } from './toolsource/config/mcp-servers-json.js';
import { secretLookingVariables } from './toolsource/environment.js';
import type { ServerStatus } from './toolsource/supervisor.js';
import { loadToolSourceConfig, openToolSource, type ToolSource } from './toolsource/tool-source.js';
import { redact } from './transport/http-headers.js';
import { describeDiagnostic, errorText, firstLine } from './util/text.js';

const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUNDLED_CONFIG = path.join(PACKAGE_ROOT, 'examples', 'mcpwire.json');

/** Exit statuses: 1 = the job ran and reported failure (a tool error, a failed case); 2 = usage; 3+ = typed errors. */
/** A tool description is cut to this many characters in a listing: one line per tool on a terminal. */
const DESCRIPTION_CHARS = 100;

const EXIT_FOR: Record<McpErrorCode, number> = { config: 3, closed: 4, timeout: 5, protocol: 6, rpc: 7 };

const USAGE = `mcpwire — an MCP client that speaks the protocol itself

Usage:
  mcpwire demo [--json] [--verbose]             connect to the bundled example server, list its tools, call echo
  mcpwire tools [--agent NAME] [--server KEY] [CONFIG OPTIONS] [--json] [--verbose]
                                                list the tools, as mcp.<server>.<tool> with a provider-safe alias
                                                (--json: the ToolDefinitions a host would load)
  mcpwire call NAME [ARGS_JSON] [CONFIG OPTIONS] [--timeout MS] [--json] [--verbose]
                                                call one tool by name (mcp.<server>.<tool>) or alias; prints the
                                                result and whether it was truncated (also: call SERVER TOOL [ARGS_JSON])
  mcpwire servers [CONFIG OPTIONS] [--json] [--verbose]
                                                start every configured server and show its state
  mcpwire doctor [CONFIG OPTIONS] [--json] [--verbose]
                                                check the config, its secrets and every server; warn of secret-looking
                                                host variables a stdio server would inherit; exit 1 listing the problems
  mcpwire config sources [--json]               list the MCP config files of Claude Code, Claude Desktop, Cursor, VS Code,
                                                Windsurf and Codex in this project and for this user: found or not, servers
  mcpwire config show [CONFIG OPTIONS] [--json] print the config's servers as mcpwire reads them, secret values as ***
  mcpwire conformance [--transport stdio|streamable-http|sse] DIR|FILE... [--json] [--verbose]
                                                replay transcripts against the client (exit 0 only if all pass)
  mcpwire record --out FILE.jsonl (--ops OPS.json | --proxy [--listen HOST:PORT]) (--config FILE [--server KEY] | --url URL [--transport sse] | -- CMD ARGS...)
                                                write a transcript (conformance/RECORDING.md): --ops drives this client through
                                                a JSON array of ops; --proxy stands between any client and the server and records
                                                the wire; [--description TEXT] [--timeout MS] [--replace FROM=TO] [--replace-pattern RE=TO]
                                                [--redact VALUE] [--settle MS]; secrets of the config and auth headers are redacted
  mcpwire conformance-client URL                the client the official MCP conformance suite runs (scenario from $MCP_CONFORMANCE_SCENARIO)
  mcpwire bench [--quick] [--json] [--only NAME] run the benchmarks in bench/ (in a clone of the repository only)

--verbose (-v): also print on stderr what the client saw besides answers (the server's stderr, non-JSON
    lines, invalid messages, transport fallbacks) and the cause of a failure; configured env and header
    values are replaced by [redacted].
--help (-h) after any command prints this text.
CONFIG OPTIONS: --config FILE|CLIENT, else $MCPWIRE_CONFIG, else ./mcpwire.json, else the bundled example.
    CLIENT is claude, claude-code, claude-desktop, cursor, vscode, windsurf or codex: that client's project
    file, else its user file (see config sources; write ./cursor for a file named cursor).
    A YAML file with a top-level mcp: block is a kaged project: project.local.yaml, local.toml and
    config.toml beside it are read too (--project-local, --local, --daemon-config FILE name others).
    A .toml file is Codex's config.toml ([mcp_servers.NAME]).
    Otherwise JSON (comments and trailing commas allowed), as Claude, Cursor, Windsurf and VS Code write it:
    {"mcpServers": {"NAME": {"command": "...", "args": [...], "env": {...}, "cwd": "..."}}} (VS Code: "servers")
    or, for a remote server: {"NAME": {"url": "https://...", "type": "http" | "sse", "headers": {...}}}
        (no "type": Streamable HTTP, then legacy SSE if the server refuses it)
    \${VAR}, \${VAR:-default} and \${env:VAR} in values are read from the environment; unset without a default is an error.
Exit status: 0 ok, 1 tool error or failed case, 2 usage, 3 config, 4 closed, 5 timeout, 6 protocol, 7 server error;
    130 / 143 after SIGINT / SIGTERM (the servers are closed first).
`;

class UsageError extends Error {}

/** What is open right now (clients, or anything else that owns servers): what a signal must close before the CLI exits. */
const openServers = new Set<{ close(): Promise<unknown> }>();

/**
 * The library leaves SIGINT and SIGTERM to its host, and this command is a
 * host: on either it closes every open client (end of input, then SIGTERM
 * and SIGKILL to each server's process group) and exits with 128 + the
 * signal's number, as a shell reports a process a signal stopped (130, 143).
 * A second signal exits at once; servers left then are SIGKILLed by the
 * library's exit hook.
 */
function closeOnSignals(): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    const status = signal === 'SIGINT' ? 130 : 143;
    if (stopping) process.exit(status);
    stopping = true;
    void Promise.allSettled([...openServers].map((open) => open.close())).then(() => process.exit(status));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  closeOnSignals();
  switch (command) {
    case 'demo':
      return demo(rest);
    case 'tools':
      return tools(rest);
    case 'call':
      return call(rest);
    case 'servers':
      return servers(rest);
    case 'doctor':
      return doctor(rest);
    case 'config':
      return configCommand(rest);
    // Loaded on demand: the conformance runner is a large graph that demo, tools and call never use.
    case 'conformance':
      return (await import('./conformance/command.js')).runConformanceCommand(rest);
    // Loaded on demand like the runner, which it uses; after its options are checked, so a usage error loads nothing.
    case 'record': {
      const options = parseRecordArgs(rest);
      return (await import('./recorder/command.js')).runRecord(options);
    }
    case 'conformance-client':
      return (await import('./conformance/official-client.js')).runOfficialClient(rest);
    case 'bench': {
      // bench/ is TypeScript outside the library and is not in the published package: only a clone can run it.
      if (!existsSync(path.join(PACKAGE_ROOT, 'bench', 'run.ts'))) {
        throw new UsageError('bench runs from a clone of the mcpwire repository (the benchmarks and their devDependencies do not ship in the package): there, run npm ci, then npm run bench');
      }
      // Run it in a child Node through tsx, from the package root, on this same Node.
      const { spawn } = await import('node:child_process');
      const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(PACKAGE_ROOT, 'bench', 'run.ts'), ...rest], { cwd: PACKAGE_ROOT, stdio: 'inherit' });
      return new Promise<number>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code) => resolve(code ?? 1));
      });
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    case '--version':
      process.stdout.write(`${JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')).version}\n`);
      return 0;
    default:
      throw new UsageError(`unknown command "${command}"; run "mcpwire help" for the list`);
  }
}

const commonOptions = {
  config: { type: 'string' },
  'project-local': { type: 'string' },
  local: { type: 'string' },
  'daemon-config': { type: 'string' },
  agent: { type: 'string' },
  server: { type: 'string' },
  json: { type: 'boolean', default: false },
  timeout: { type: 'string' },
  verbose: { type: 'boolean', short: 'v', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Thrown by parse() on --help: the usage is printed and the command ends with status 0. */
class HelpShown extends Error {}

function parse(args: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args, options: commonOptions, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.values.help) {
    process.stdout.write(USAGE);
    throw new HelpShown();
  }
  return parsed;
}

/**
 * The --verbose report of one diagnostic, on stderr. The library scrubs the
 * secrets it knows of (header values it recorded as secret); configured env
 * and header values are scrubbed here too, since a server can echo its
 * environment on stderr and this text ends up in terminals and bug reports.
 */
function printDiagnostic(server: ServerConfig, text: string): void {
  const values: unknown[] = [...Object.values('env' in server ? (server.env ?? {}) : {}), ...Object.values('headers' in server ? (server.headers ?? {}) : {})];
  const configured = values.filter((value): value is string => typeof value === 'string');
  process.stderr.write(`${server.name}: ${redact(text, configured)}\n`);
}

async function withClient<T>(server: ServerConfig, timeoutMs: number | undefined, verbose: boolean, job: (client: McpClient) => Promise<T>): Promise<T> {
  const client = await connect(server, {
    timeoutMs,
    onProgress: (_token, u) => process.stderr.write(`  progress ${u.progress}${u.total !== undefined ? `/${u.total}` : ''}${u.message ? ` ${u.message}` : ''}\n`),
    onDiagnostic: (d) => {
      if (d.kind === 'transport-fallback') {
        process.stderr.write(`note: ${d.server} refused Streamable HTTP (HTTP ${d.status}); trying the legacy HTTP+SSE transport at the same URL (set "type" to skip this)\n`);
      } else if (verbose) printDiagnostic(server, describeDiagnostic(d));
    },
  });
  openServers.add(client);
  try {
    return await job(client);
  } finally {
    await client.close();
    openServers.delete(client);
  }
}

async function demo(args: string[]): Promise<number> {
  const { values } = parse(args);
  const servers = loadMcpServersJson(BUNDLED_CONFIG);
  const report: unknown[] = [];
  for (const server of servers) {
    await withClient(server, undefined, values.verbose, async (client) => {
      const { tools } = await client.listTools();
      const message = 'hello from mcpwire';
      const result = tools.some((t) => t.name === 'echo') ? await client.callTool('echo', { message }) : undefined;
      if (values.json) {
        report.push({ server: server.name, protocolVersion: client.protocolVersion, tools: tools.map((t) => t.name), echo: result });
        return;
      }
      const info = client.serverInfo!;
      process.stdout.write(`server ${server.name}: ${info.name} ${info.version}, protocol ${client.protocolVersion}\n`);
      process.stdout.write(`${tools.length} tools:\n`);
      for (const tool of tools) process.stdout.write(`  ${tool.name}${tool.description ? ` — ${firstLine(tool.description, DESCRIPTION_CHARS)}` : ''}\n`);
      if (result) {
        process.stdout.write(`\ncall echo ${JSON.stringify({ message })}:\n`);
        printResult(result);
      }
    });
  }
  if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return 0;
}

type Parsed = ReturnType<typeof parse>['values'];

function configPath(values: Parsed): string {
  return values.config ?? process.env.MCPWIRE_CONFIG ?? (existsSync('mcpwire.json') ? 'mcpwire.json' : BUNDLED_CONFIG);
}

/**
 * The tool source over the chosen config: the same registry, naming,
 * truncation and supervision a host embeds. With --verbose its diagnostics
 * go to stderr, with every configured secret and env value masked.
 */
async function openSource(values: Parsed, start: 'first-use' | 'startup'): Promise<ToolSource> {
  const config = await loadToolSourceConfig({
    config: configPath(values),
    ...(values['project-local'] !== undefined ? { projectLocal: values['project-local'] } : {}),
    ...(values.local !== undefined ? { local: values.local } : {}),
    ...(values['daemon-config'] !== undefined ? { daemonConfig: values['daemon-config'] } : {}),
  });
  const masked = [...config.secrets, ...config.servers.flatMap((s) => configuredValues(s.params))];
  const source = await openToolSource({
    config,
    // A command's servers that fail are reported, not retried for minutes.
    restart: { maxFailures: 1 },
    client: {
      onProgress: (_token, u) => process.stderr.write(`  progress ${u.progress}${u.total !== undefined ? `/${u.total}` : ''}${u.message ? ` ${u.message}` : ''}\n`),
      onDiagnostic: (d) => {
        if (d.kind === 'transport-fallback') {
          process.stderr.write(`note: ${d.server} refused Streamable HTTP (HTTP ${d.status}); trying the legacy HTTP+SSE transport at the same URL (set "type" to skip this)\n`);
        } else if (values.verbose) process.stderr.write(`${d.server}: ${redact(describeDiagnostic(d), masked)}\n`);
      },
    },
  });
  // Registered before any server starts, so a signal during a slow start still closes them.
  openServers.add(source);
  if (start === 'startup') await source.discover();
  return source;
}

/** Closes a tool source the command opened and forgets it. */
async function closeSource(source: ToolSource | undefined): Promise<void> {
  if (!source) return;
  try {
    await source.close();
  } finally {
    openServers.delete(source);
  }
}

/** Values a server was configured with that a server may echo back: env values and header values. */
function configuredValues(params: ServerParams): string[] {
  const values: unknown[] = [...Object.values('env' in params && params.env ? params.env : {}), ...Object.values('headers' in params && params.headers ? params.headers : {})];
  return values.filter((value): value is string => typeof value === 'string' && value !== '');
}

/** A server's failure, for a person: its last error, or its state's reason. */
function failureOf(status: ServerStatus): string | undefined {
  if (status.state === 'ready' || status.state === 'idle') return undefined;
  return status.lastError ?? status.reason ?? status.state;
}

async function tools(args: string[]): Promise<number> {
  const { values } = parse(args);
  const source = await openSource(values, 'startup');
  try {
    let list = await source.tools(values.agent !== undefined ? { agent: values.agent } : {});
    const statuses = source.status().filter((s) => values.server === undefined || s.key === values.server);
    if (values.server !== undefined) {
      if (statuses.length === 0) throw new ConfigError(undefined, [], `no server named "${values.server}"; configured: ${source.status().map((s) => s.key).join(', ') || '(none)'}`);
      list = list.filter((d) => d.mcp_server === values.server);
    }
    const failed = statuses.filter((s) => s.state !== 'disabled' && failureOf(s) !== undefined);
    if (values.json) {
      process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      for (const s of failed) process.stderr.write(`${s.key}: ${failureOf(s)}\n`);
    } else {
      for (const status of statuses) {
        const mine = list.filter((d) => d.mcp_server === status.key);
        if (status.state === 'disabled') {
          process.stdout.write(`${status.key} (disabled: ${status.reason})\n`);
          continue;
        }
        const failure = failureOf(status);
        if (failure !== undefined) {
          // One server's failure never hides the others' tools.
          process.stderr.write(`${status.key}: ${failure}\n`);
          continue;
        }
        process.stdout.write(`${status.key} (${mine.length} tools)\n`);
        for (const tool of mine) {
          const description = tool.description ? ` — ${firstLine(tool.description, DESCRIPTION_CHARS)}` : '';
          process.stdout.write(`  ${tool.mcp_tool_name}${description}\n      ${tool.name}  alias ${tool.alias}\n`);
        }
      }
    }
    return failed.length === 0 ? 0 : 1;
  } finally {
    await closeSource(source);
  }
}

async function call(args: string[]): Promise<number> {
  const { values, positionals } = parse(args);
  let [name, argsJson] = positionals;
  if (!name) throw new UsageError('call needs a tool name, e.g. mcpwire call mcp.everything.echo \'{"message":"hi"}\' (or mcpwire call SERVER TOOL ARGS_JSON)');
  const source = await openSource(values, 'first-use');
  try {
    // The two-word form: SERVER TOOL [ARGS_JSON].
    if (positionals.length >= 2 && !positionals[1]!.trimStart().startsWith('{')) {
      const server = positionals[0]!;
      if (!source.status().some((s) => s.key === server)) {
        throw new ConfigError(undefined, [], `no server named "${server}"; configured: ${source.status().map((s) => s.key).join(', ') || '(none)'}`);
      }
      name = `mcp.${server}.${positionals[1]}`;
      argsJson = positionals[2];
    }
    const toolArgs = parseArgsJson(argsJson);
    const timeoutMs = timeoutOption(values.timeout);
    const outcome = await source.call(name, toolArgs, timeoutMs !== undefined ? { timeoutMs } : {});
    if (values.json) process.stdout.write(`${JSON.stringify({ name: outcome.name, truncated: outcome.truncated, result: outcome.result })}\n`);
    else {
      printResult(outcome.result);
      if (outcome.truncated) process.stdout.write(`(truncated: the result was ${outcome.sizeBytes} bytes)\n`);
    }
    return outcome.result.isError ? 1 : 0;
  } finally {
    await closeSource(source);
  }
}

function parseArgsJson(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`ARGS_JSON is not valid JSON (${(error as Error).message}); quote it for the shell`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError('ARGS_JSON must be a JSON object');
  return value as Record<string, unknown>;
}

async function servers(args: string[]): Promise<number> {
  const { values } = parse(args);
  const source = await openSource(values, 'startup');
  try {
    const statuses = source.status();
    if (values.json) process.stdout.write(`${JSON.stringify(statuses, null, 2)}\n`);
    else {
      for (const s of statuses) {
        const detail = s.state === 'ready' ? `${s.tools} tools${s.pid !== undefined ? `, pid ${s.pid}` : ''}` : (failureOf(s) ?? '');
        process.stdout.write(`${s.key.padEnd(16)} ${s.transport.padEnd(16)} ${s.state.padEnd(10)} ${detail}\n`);
      }
    }
    return statuses.some((s) => s.state !== 'disabled' && failureOf(s) !== undefined) ? 1 : 0;
  } finally {
    await closeSource(source);
  }
}

/**
 * Loads the config (syntax, schema, secrets, paths), starts every enabled
 * server and lists what is wrong; warns of host variables that look like
 * secrets and that every stdio server would inherit through the env merge.
 */
async function doctor(args: string[]): Promise<number> {
  const { values } = parse(args);
  const problems: string[] = [];
  const warnings: string[] = [];
  let statuses: ServerStatus[] = [];
  let source: ToolSource | undefined;
  try {
    source = await openSource(values, 'startup');
    statuses = source.status();
    for (const s of statuses) {
      const failure = failureOf(s);
      if (s.state !== 'disabled' && failure !== undefined) problems.push(`${s.key}: ${failure}`);
    }
    const stdio = source.config.servers.filter((s) => s.params.transport === 'stdio' && !s.disabled).map((s) => s.key);
    const exposed = secretLookingVariables(process.env);
    if (stdio.length > 0 && exposed.length > 0) {
      warnings.push(`the host's ${exposed.join(', ')} would be passed to every stdio server (${stdio.join(', ')}) by the env merge; unset them, or embed mcpwire with serverEnvironment: 'safe'`);
    }
  } catch (error) {
    if (!(error instanceof McpClientError)) throw error;
    problems.push(errorText(error));
  } finally {
    await closeSource(source);
  }
  if (values.json) process.stdout.write(`${JSON.stringify({ ok: problems.length === 0, problems, warnings, servers: statuses }, null, 2)}\n`);
  else {
    for (const s of statuses) process.stdout.write(`${failureOf(s) === undefined || s.state === 'disabled' ? 'ok  ' : 'FAIL'} ${s.key} (${s.state}${s.state === 'ready' ? `, ${s.tools} tools` : ''})\n`);
    for (const warning of warnings) process.stdout.write(`warning: ${warning}\n`);
    for (const problem of problems) process.stdout.write(`problem: ${problem}\n`);
    process.stdout.write(problems.length === 0 ? 'no problems found\n' : `${problems.length} problem${problems.length === 1 ? '' : 's'}\n`);
  }
  return problems.length === 0 ? 0 : 1;
}

/** `config sources` and `config show` (C5): the client configs on this machine, and what mcpwire reads from one. */
async function configCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(args);
  const [what, ...extra] = positionals;
  if (extra.length > 0 || (what !== 'sources' && what !== 'show')) throw new UsageError('config takes "sources" or "show", e.g. mcpwire config show --config .vscode/mcp.json');
  if (what === 'sources') {
    // Loaded on demand: counting servers reads TOML, and the parsers load only when a config is read.
    const { findConfigSources } = await import('./toolsource/config/client-locations.js');
    const sources = findConfigSources();
    if (values.json) process.stdout.write(`${JSON.stringify(sources, null, 2)}\n`);
    else {
      for (const s of sources) {
        const state = !s.found ? 'not found' : s.error !== undefined ? `unreadable: ${s.error}` : `${s.servers} server${s.servers === 1 ? '' : 's'}`;
        process.stdout.write(`${s.client.padEnd(15)} ${s.scope.padEnd(8)} ${s.path}  ${state}\n`);
      }
    }
    return 0;
  }
  const config = await loadToolSourceConfig({
    config: configPath(values),
    ...(values['project-local'] !== undefined ? { projectLocal: values['project-local'] } : {}),
    ...(values.local !== undefined ? { local: values.local } : {}),
    ...(values['daemon-config'] !== undefined ? { daemonConfig: values['daemon-config'] } : {}),
  });
  const { formatShownConfig, showConfig } = await import('./toolsource/config/show.js');
  const shown = showConfig(config);
  process.stdout.write(values.json ? `${JSON.stringify(shown, null, 2)}\n` : formatShownConfig(shown));
  return 0;
}

/**
 * `record`'s options. What follows `--` is the server's command line, so the
 * tokens say where `--` was: a positional before it is a mistake.
 */
function parseRecordArgs(args: string[]): RecordOptions {
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
        config: { type: 'string' },
        server: { type: 'string' },
        url: { type: 'string' },
        transport: { type: 'string' },
        description: { type: 'string' },
        source: { type: 'string' },
        timeout: { type: 'string' },
        settle: { type: 'string' },
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
    process.stdout.write(USAGE);
    throw new HelpShown();
  }
  const terminator = tokens.findIndex((token) => token.kind === 'option-terminator');
  const command = terminator === -1 ? [] : tokens.slice(terminator + 1).map((token) => (token.kind === 'positional' ? token.value : ''));
  if (parsed.positionals.length > command.length) throw new UsageError(`record: unexpected argument "${parsed.positionals[0]}"; the server's command goes after --`);
  if (!values.out) throw new UsageError('record needs --out FILE.jsonl (the transcript to write)');
  if (!values.out.endsWith('.jsonl')) throw new UsageError('record: --out must name a .jsonl file (its name is the case name)');
  if ((values.ops === undefined) === (values.proxy !== true)) throw new UsageError('record needs exactly one of --ops OPS.json (drive mcpwire\'s client) or --proxy (stand between a client and the server)');
  const targets = [values.config !== undefined, values.url !== undefined, command.length > 0].filter(Boolean).length;
  if (targets !== 1) throw new UsageError('record needs exactly one server: --config FILE [--server KEY], --url URL, or -- CMD ARGS...');
  if (values.transport !== undefined && values.url === undefined) throw new UsageError('record: --transport goes with --url');
  const transport = values.transport ?? 'streamable-http';
  if (transport !== 'streamable-http' && transport !== 'sse') throw new UsageError(`record: --transport is streamable-http or sse, got "${transport}"`);
  let listen: { host: string; port: number } | undefined;
  if (values.listen !== undefined) {
    const match = /^(.+):(\d+)$/.exec(values.listen);
    if (!match || values.proxy !== true) throw new UsageError('record: --listen HOST:PORT (e.g. 127.0.0.1:0) goes with --proxy');
    listen = { host: match[1]!.replace(/^\[|\]$/g, ''), port: Number(match[2]) };
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
  return {
    out: values.out,
    mode: values.ops !== undefined ? { ops: values.ops } : { proxy: true, ...(listen ? { listen } : {}) },
    target: values.config !== undefined ? { config: values.config, ...(values.server !== undefined ? { server: values.server } : {}) } : values.url !== undefined ? { url: values.url, transport } : { command },
    ...(values.description !== undefined ? { description: values.description } : {}),
    ...(values.source !== undefined ? { source: values.source } : {}),
    ...(values.timeout !== undefined ? { timeoutMs: timeoutOption(values.timeout) } : {}),
    ...(settle !== undefined ? { settleMs: settle } : {}),
    replacements: [...pairs(values.replace, false), ...pairs(values['replace-pattern'], true)],
    redact: values.redact ?? [],
  };
}

function timeoutOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms <= 0) throw new UsageError(`--timeout takes a whole number of milliseconds, got "${text}"`);
  return ms;
}

/** Renders a tool result for a person: text as is, binary content described by type and size. */
function printResult(result: CallToolResult): void {
  if (result.isError) process.stdout.write('(the tool reported an error)\n');
  for (const block of result.content) {
    switch (block.type) {
      case 'text':
        process.stdout.write(`${block.text}\n`);
        break;
      case 'image':
      case 'audio':
        process.stdout.write(`[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]\n`);
        break;
      case 'resource': {
        const resource = block.resource;
        process.stdout.write(`[resource ${resource.uri}]\n${typeof resource.text === 'string' ? `${resource.text}\n` : ''}`);
        break;
      }
      case 'resource_link':
        process.stdout.write(`[link ${block.uri} ${block.name}]\n`);
        break;
    }
  }
  if (result.structuredContent !== undefined) process.stdout.write(`structuredContent: ${JSON.stringify(result.structuredContent, null, 2)}\n`);
}

function errorJson(error: unknown): unknown {
  return error instanceof McpClientError ? { name: error.name, code: error.code, message: error.message } : { message: String(error) };
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    if (error instanceof HelpShown) {
      process.exitCode = 0;
      return;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`mcpwire: ${error.message}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`mcpwire: ${errorText(error)}\n`);
    const verbose = process.argv.includes('--verbose') || process.argv.includes('-v');
    if (verbose && error instanceof Error && error.cause) process.stderr.write(`caused by: ${errorText(error.cause)}\n`);
    process.exitCode = error instanceof McpClientError ? EXIT_FOR[error.code] : 1;
  },
);
