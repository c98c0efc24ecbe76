// Text for people: tool results, resource contents, prompt messages and
// two-column listings. Binary content is described (type and size), never
// dumped on a terminal.

import type { CallToolResult, PromptMessage, ResourceContents } from '../client/results.js';
import { contentBlockText, resourceContentsText } from '../client/content-text.js';
import { out } from './process.js';

/** A listing's left column is padded to this at most; a longer entry pushes its description to the next line. */
const MAX_LEFT_COLUMN = 48;

/** Rows of `left  right`, the right column aligned, indented by two spaces. */
export function printRows(rows: readonly (readonly [left: string, right: string])[]): void {
  const width = Math.min(MAX_LEFT_COLUMN, Math.max(0, ...rows.map(([left]) => left.length)));
  for (const [left, right] of rows) {
    if (!right) out(`  ${left}\n`);
    else if (left.length > width) out(`  ${left}\n  ${' '.repeat(width)}  ${right}\n`);
    else out(`  ${left.padEnd(width)}  ${right}\n`);
  }
}

/** One content block as text: the renderer every mcpwire surface shares (src/client/content-text.ts). */
export const contentText = contentBlockText;

/**
 * A tool result as `call` prints it: its content blocks, each on its own
 * line (a block saved by --save followed by where it went). structuredContent
 * is printed only when there is no content, or with --verbose: the MCP tools
 * spec asks a tool that returns structured content to return it serialized
 * as text content too, so printing both would say the same thing twice.
 */
export function resultText(result: CallToolResult, verbose: boolean, savedAs: ReadonlyMap<number, string> = new Map()): string {
  let text = result.isError ? '(the tool reported an error)\n' : '';
  result.content.forEach((block, index) => {
    const saved = savedAs.get(index);
    text += `${contentText(block)}${saved === undefined ? '' : ` saved as ${saved}`}\n`;
  });
  if (result.structuredContent !== undefined && (result.content.length === 0 || verbose)) {
    text += `${result.content.length === 0 ? '' : 'structuredContent: '}${JSON.stringify(result.structuredContent, null, 2)}\n`;
  }
  return text;
}

export function printResult(result: CallToolResult, verbose: boolean): void {
  out(resultText(result, verbose));
}

/** Resource contents: text as is, a blob described by URI, MIME type and size. */
export function printContents(contents: readonly ResourceContents[]): void {
  for (const item of contents) {
    if (contents.length > 1) out(`[${item.uri}]\n`);
    const text = resourceContentsText(item);
    out(text.endsWith('\n') ? text : `${text}\n`);
  }
}

/** Prompt messages as `[role] text` blocks. */
export function printMessages(messages: readonly PromptMessage[]): void {
  for (const message of messages) out(`[${message.role}] ${contentText(message.content)}\n`);
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
