// Text for people: tool results, resource contents, prompt messages and
// two-column listings. Binary content is described (type and size), never
// dumped on a terminal.

import type { CallToolResult, ContentBlock, PromptMessage, ResourceContents } from '../client/results.js';
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

function bytesOfBase64(data: string): number {
  return Math.floor((data.replace(/=+$/, '').length * 3) / 4);
}

export function contentText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${bytesOfBase64(block.data)} bytes]`;
    case 'resource':
      return `[resource ${block.resource.uri}]${typeof block.resource.text === 'string' ? `\n${block.resource.text}` : ''}`;
    case 'resource_link':
      return `[link ${block.uri} ${block.name}]`;
    default:
      return JSON.stringify(block);
  }
}

/**
 * A tool result: its content blocks. structuredContent is printed only when
 * there is no content, or with --verbose: the MCP tools spec asks a tool
 * that returns structured content to return it serialized as text content
 * too, so printing both would say the same thing twice.
 */
export function printResult(result: CallToolResult, verbose: boolean): void {
  if (result.isError) out('(the tool reported an error)\n');
  for (const block of result.content) out(`${contentText(block)}\n`);
  if (result.structuredContent !== undefined && (result.content.length === 0 || verbose)) {
    out(`${result.content.length === 0 ? '' : 'structuredContent: '}${JSON.stringify(result.structuredContent, null, 2)}\n`);
  }
}

/** Resource contents: text as is, a blob described by MIME type and size. */
export function printContents(contents: readonly ResourceContents[]): void {
  for (const item of contents) {
    if (contents.length > 1) out(`[${item.uri}]\n`);
    if (typeof item.text === 'string') out(item.text.endsWith('\n') ? item.text : `${item.text}\n`);
    else out(`[blob ${item.mimeType ?? 'application/octet-stream'}, ${bytesOfBase64(String(item.blob))} bytes]\n`);
  }
}

/** Prompt messages as `[role] text` blocks. */
export function printMessages(messages: readonly PromptMessage[]): void {
  for (const message of messages) out(`[${message.role}] ${contentText(message.content)}\n`);
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
