// `mcpwire call`: one tool call. The tool by its own name, mcp.<key>.<tool>,
// alias, or SERVER TOOL; its arguments as k=v words read through the tool's
// input schema, one JSON object, or JSON on stdin (`-`).

import { writeFileSync } from 'node:fs';
import type { ProgressUpdate } from '../../client/connection.js';
import type { TaskState } from '../../client/tasks.js';
import { JsoncSyntaxError, parseJsonc } from '../../toolsource/config/jsonc.js';
import type { ToolDefinition } from '../../toolsource/registry.js';
import { findTool } from '../find-tool.js';
import { parseCommandLine } from '../options.js';
import { err, out } from '../process.js';
import { resultText } from '../render.js';
import { saveBinaryContent } from '../save-content.js';
import { keyValueArgs, missingRequired, signature } from '../schema.js';
import { withSession } from '../session.js';
import { statusLine } from '../status-line.js';
import { UsageError } from '../usage.js';

export async function call(args: string[]): Promise<number> {
  const line = parseCommandLine('call', args);
  if (line.positionals.length === 0) {
    throw new UsageError('call needs a tool name, e.g. mcpwire call echo message=hi -- node server.js (see mcpwire call --help)');
  }
  return withSession('call', line, async (session) => {
    const { tool, words, agent } = await findTool(session, line.positionals);
    const toolArgs = await argumentsFor(tool, words);
    // A Kestrel bridge (mcp__<server>__read_resource, …): what the plugin answers the agent (#18 item 11).
    if (agent?.bridge !== undefined) {
      const { runBridge } = await import('../host-names.js');
      const text = await runBridge(session, agent, toolArgs);
      out(line.values.json ? `${JSON.stringify({ name: agent.name, content: text })}\n` : `${text}\n`);
      return 0;
    }
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
    // --save DIR: images, audio and blobs decoded into files; the printed result says where each went.
    const saved = line.values.save === undefined ? new Map<number, string>() : saveBinaryContent(outcome.result, line.values.save, tool.mcp_tool_name);
    let text: string;
    if (line.values.json) {
      const files = line.values.save === undefined ? {} : { saved: [...saved].map(([index, file]) => ({ index, file })) };
      text = `${JSON.stringify({ name: outcome.name, truncated: outcome.truncated, result: outcome.result, ...files })}\n`;
    } else {
      text = resultText(outcome.result, line.values.verbose, saved);
      if (outcome.truncated) text += `(truncated: the result was ${outcome.sizeBytes} bytes)\n`;
    }
    // --output FILE: what would have been printed goes to FILE instead.
    if (line.values.output === undefined) out(text);
    else writeOutput(line.values.output, text);
    return outcome.result.isError ? 1 : 0;
  });
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

function writeOutput(file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch (error) {
    throw new UsageError(`--output ${file}: cannot write it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
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
