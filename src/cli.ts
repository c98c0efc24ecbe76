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
import { loadMcpServersJson, type ServerConfig } from './toolsource/config/mcp-servers-json.js';
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
  mcpwire tools [--config FILE] [--server NAME] [--timeout MS] [--json] [--verbose]
                                                list the tools of every configured server
  mcpwire call SERVER TOOL [ARGS_JSON] [--config FILE] [--timeout MS] [--json] [--verbose]
                                                call one tool and print its result
  mcpwire conformance [--transport stdio|streamable-http|sse] DIR|FILE... [--json] [--verbose]
                                                replay transcripts against the client (exit 0 only if all pass)
  mcpwire conformance-client URL                the client the official MCP conformance suite runs (scenario from $MCP_CONFORMANCE_SCENARIO)
  mcpwire bench [--quick] [--json] [--only NAME] run the benchmarks in bench/ (needs the devDependencies)

--verbose (-v): also print on stderr what the client saw besides answers (the server's stderr, non-JSON
    lines, invalid messages, transport fallbacks) and the cause of a failure; configured env and header
    values are replaced by [redacted].
--help (-h) after any command prints this text.
Config: --config FILE, else $MCPWIRE_CONFIG, else ./mcpwire.json, else the bundled example.
Format: {"mcpServers": {"NAME": {"command": "...", "args": [...], "env": {...}, "cwd": "..."}}}
    or, for a remote server: {"NAME": {"url": "https://...", "type": "http" | "sse", "headers": {...}}}
        (no "type": Streamable HTTP, then legacy SSE if the server refuses it)
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
    // Loaded on demand: the conformance runner is a large graph that demo, tools and call never use.
    case 'conformance':
      return (await import('./conformance/command.js')).runConformanceCommand(rest);
    case 'conformance-client':
      return (await import('./conformance/official-client.js')).runOfficialClient(rest);
    case 'bench': {
      // bench/ is TypeScript outside the library: run it in a child Node through tsx, from the package root, on this same Node.
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

function loadConfig(file: string | undefined): ServerConfig[] {
  const chosen = file ?? process.env.MCPWIRE_CONFIG ?? (existsSync('mcpwire.json') ? 'mcpwire.json' : BUNDLED_CONFIG);
  return loadMcpServersJson(chosen);
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

async function tools(args: string[]): Promise<number> {
  const { values } = parse(args);
  const servers = pickServers(loadConfig(values.config), values.server);
  const report: Record<string, unknown> = {};
  let failures = 0;
  for (const server of servers) {
    try {
      const list = await withClient(server, timeoutOption(values.timeout), values.verbose, (client) => client.listTools());
      report[server.name] = list.tools;
      if (!values.json) {
        process.stdout.write(`${server.name} (${list.tools.length} tools)\n`);
        for (const tool of list.tools) process.stdout.write(`  ${tool.name}${tool.description ? ` — ${firstLine(tool.description, DESCRIPTION_CHARS)}` : ''}\n`);
      }
    } catch (error) {
      // One server's failure never hides the others' tools.
      failures++;
      report[server.name] = { error: errorJson(error) };
      if (!values.json) process.stderr.write(`${server.name}: ${errorText(error, values.verbose)}\n`);
    }
  }
  if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return failures === 0 ? 0 : 1;
}

async function call(args: string[]): Promise<number> {
  const { values, positionals } = parse(args);
  const [serverName, toolName, argsJson] = positionals;
  if (!serverName || !toolName) throw new UsageError('call needs SERVER and TOOL, e.g. mcpwire call everything echo \'{"message":"hi"}\'');
  let toolArgs: Record<string, unknown> = {};
  if (argsJson !== undefined) {
    try {
      toolArgs = JSON.parse(argsJson);
    } catch (error) {
      throw new UsageError(`ARGS_JSON is not valid JSON (${(error as Error).message}); quote it for the shell`);
    }
    if (typeof toolArgs !== 'object' || toolArgs === null || Array.isArray(toolArgs)) throw new UsageError('ARGS_JSON must be a JSON object');
  }
  const [server] = pickServers(loadConfig(values.config), serverName);
  const result = await withClient(server!, timeoutOption(values.timeout), values.verbose, (client) =>
    client.callTool(toolName, toolArgs, { resetTimeoutOnProgress: true }),
  );
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else printResult(result);
  return result.isError ? 1 : 0;
}

function pickServers(servers: ServerConfig[], name: string | undefined): ServerConfig[] {
  if (name === undefined) return servers;
  const found = servers.filter((s) => s.name === name);
  if (found.length === 0) {
    throw new ConfigError(undefined, [], `no server named "${name}"; configured: ${servers.map((s) => s.name).join(', ') || '(none)'}`);
  }
  return found;
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
        process.stdout.write(`[resource ${resource.uri}]\n${'text' in resource ? `${resource.text}\n` : ''}`);
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
