// `mcpwire call`: one tool call. The tool by its own name, mcp.<key>.<tool>,
// alias, or SERVER TOOL; its arguments as k=v words read through the tool's
// input schema, one JSON object, or JSON on stdin (`-`).

import type { ProgressUpdate } from '../../client/connection.js';
import type { TaskState } from '../../client/tasks.js';
import { JsoncSyntaxError, parseJsonc } from '../../toolsource/config/jsonc.js';
import type { ToolDefinition } from '../../toolsource/registry.js';
import { unknownToolError } from '../../toolsource/unknown-tool.js';
import { parseCommandLine } from '../options.js';
import { err, out } from '../process.js';
import { printResult } from '../render.js';
import { isKeyValue, keyValueArgs, missingRequired, signature } from '../schema.js';
import { withSession, type Session } from '../session.js';
import { statusLine } from '../status-line.js';
import { UsageError } from '../usage.js';

export async function call(args: string[]): Promise<number> {
  const line = parseCommandLine('call', args);
  if (line.positionals.length === 0) {
    throw new UsageError('call needs a tool name, e.g. mcpwire call echo message=hi -- node server.js (see mcpwire call --help)');
  }
  return withSession('call', line, async (session) => {
    const { tool, words } = await findTool(session, line.positionals);
    const toolArgs = await argumentsFor(tool, words);
    const missing = missingRequired(toolArgs, tool.parameters);
    if (missing.length > 0) throw new UsageError(`missing ${missing.join(', ')}: ${signature(tool.mcp_tool_name, tool.parameters)}`);
    const options = session.requestOptions();
    // How the call is going (its progress reports, a task's status): on a terminal in the status line, with --progress as JSON lines on stderr.
    const json = line.values.progress ? (event: Record<string, unknown>) => err(`${JSON.stringify(event)}\n`) : undefined;
    const status = json ? undefined : statusLine(`calling ${tool.name}`);
    const onProgress = (update: ProgressUpdate) => {
      if (json) json({ event: 'progress', ...update });
      else status!.set(`calling ${tool.name}: ${update.progress}${update.total !== undefined ? `/${update.total}` : ''}${update.message ? ` ${update.message}` : ''}`);
    };
    const onStatus = (task: TaskState) => {
      if (json) json({ event: 'task', taskId: task.taskId, status: task.status, ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }) });
      else status!.set(`calling ${tool.name}, task ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}`);
    };
    let outcome;
    try {
      outcome = await session.source.call(tool.name, toolArgs, {
        ...options,
        // --timeout bounds the task's whole wait as well as each of its requests.
        task: { onStatus, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) },
        // #18 item 1: always ask for progress, and let each report restart the request's timeout, so a long job
        // that says it is alive finishes; --timeout, when given, still bounds the whole call.
        onProgress,
        resetTimeoutOnProgress: true,
        ...(options.timeoutMs === undefined ? {} : { maxTotalTimeoutMs: options.timeoutMs }),
      });
    } finally {
      status?.();
    }
    if (line.values.json) out(`${JSON.stringify({ name: outcome.name, truncated: outcome.truncated, result: outcome.result })}\n`);
    else {
      printResult(outcome.result, line.values.verbose);
      if (outcome.truncated) out(`(truncated: the result was ${outcome.sizeBytes} bytes)\n`);
    }
    return outcome.result.isError ? 1 : 0;
  });
}

/**
 * The tool the words name, starting only the servers needed to know: the
 * named server for `mcp.<key>.<tool>` and `SERVER TOOL`, every server for a
 * bare name or an alias. A server that cannot start fails the call with its
 * own error (exit 4 for one that will not start).
 */
async function findTool(session: Session, positionals: readonly string[]): Promise<{ tool: ToolDefinition; words: string[] }> {
  const { source } = session;
  const keys = source.status().map((s) => s.key);
  const [first, second, ...more] = positionals as [string, ...string[]];
  // --server KEY: the tool is that server's, by its own name, canonical name or alias; no other server starts.
  const only = session.line.values.server;
  if (only !== undefined) {
    await session.startOrThrow(only);
    const found = source.resolve(first) ?? source.resolve(`mcp.${only}.${first}`);
    if (found?.mcp_server === only) return { tool: found, words: positionals.slice(1) };
    return unknownTool(session, `mcp.${only}.${first}`);
  }
  // SERVER TOOL [ARGS]: the first word is a server's key and the second neither JSON, '-' nor k=v.
  if (second !== undefined && keys.includes(first) && !isArgument(second)) {
    await session.startOrThrow(first);
    const name = `mcp.${first}.${second}`;
    return { tool: source.resolve(name) ?? unknownTool(session, name), words: more };
  }
  const words = positionals.slice(1);
  const named = keys.find((key) => first.startsWith(`mcp.${key}.`));
  if (named !== undefined) {
    await session.startOrThrow(named);
    return { tool: source.resolve(first) ?? unknownTool(session, first), words };
  }
  const failed = await session.start(keys);
  const found = source.resolve(first) ?? byOwnName(session, first);
  if (found) return { tool: found, words };
  // Not found, and a server is down: its failure is the likelier story.
  if (failed.length === keys.length && failed.length > 0) await session.startOrThrow(failed[0]!.key);
  // Two words that are not arguments read as SERVER TOOL: the server is what is unknown.
  if (second !== undefined && !isArgument(second)) return unknownTool(session, `mcp.${first}.${second}`, failed.map((f) => f.key));
  return unknownTool(session, first, failed.map((f) => f.key));
}

function isArgument(word: string): boolean {
  return word === '-' || word.trimStart().startsWith('{') || isKeyValue(word);
}


function byOwnName(session: Session, name: string): ToolDefinition | undefined {
  const matches = session.source.registered().filter((d) => d.mcp_tool_name === name);
  if (matches.length > 1) {
    throw new UsageError(`"${name}" is a tool of ${matches.length} servers; name one: ${matches.map((d) => d.name).join(', ')}`);
  }
  return matches[0];
}

/**
 * The library's UnknownToolError, named as this command reads names: a tool's
 * own name where only one server has it and the caller did not write
 * `mcp.<key>.…`, else the canonical name.
 */
function unknownTool(session: Session, name: string, unavailable: readonly string[] = []): never {
  const known = session.source.registered();
  const servers = session.source.status().map((s) => s.key);
  const shared = (d: ToolDefinition) => known.filter((other) => other.mcp_tool_name === d.mcp_tool_name).length > 1;
  const naming = (d: ToolDefinition) => (name.startsWith('mcp.') || shared(d) ? d.name : d.mcp_tool_name);
  throw unknownToolError(name, known, { naming, unavailable, servers, hint: 'mcpwire tools lists them' });
}

/** The call's arguments: none, one JSON object, `-` for JSON on stdin, or k=v words. */
async function argumentsFor(tool: ToolDefinition, words: readonly string[]): Promise<Record<string, unknown>> {
  if (words.length === 0) return {};
  if (words.length === 1 && (words[0] === '-' || words[0]!.trimStart().startsWith('{'))) {
    const text = words[0] === '-' ? await readStdin() : words[0]!;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const where = words[0] === '-' ? 'the JSON on stdin' : 'the JSON argument';
      const how = words[0] === '-' ? 'send one JSON object' : "put the whole object in single quotes, e.g. '{\"a\": 1}', or write k=v words";
      // Where and why it broke, from the config reader's parser: JSON.parse's own message quotes the text, and arguments may hold a secret.
      throw new UsageError(`${where} is not valid JSON${jsonSyntaxAt(text)}; ${how}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError('the arguments must be a JSON object');
    return value as Record<string, unknown>;
  }
  return keyValueArgs(words, tool.parameters, tool.mcp_tool_name);
}

/** ` (at 1:13: expected a value)`, or nothing when the JSONC reader accepts what JSON.parse refused (a comment, a trailing comma). */
function jsonSyntaxAt(text: string): string {
  try {
    parseJsonc(text);
    return ' (comments and trailing commas are not JSON)';
  } catch (error) {
    return error instanceof JsoncSyntaxError ? ` (at ${error.line}:${error.column}: ${error.reason})` : '';
  }
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('- reads the arguments as JSON from stdin, which is a terminal here; pipe them in');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
