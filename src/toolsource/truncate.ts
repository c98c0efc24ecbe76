// The result cap (R5, ADR-0043 §6). The size of a result is the sum, in
// bytes, of what a model would be handed: each text block's UTF-8 text, each
// image's or audio's base64 data, each embedded resource's text (UTF-8) or
// base64 blob, each resource link's URI, and the JSON of structuredContent,
// measured in that order (content blocks in order, structuredContent last).
// Over the cap, everything that fits is kept in order; the first text that
// does not fit is cut on a UTF-8 boundary to the bytes left; a binary part
// (image, audio, blob) or structuredContent that does not fit whole is
// dropped, as is everything after it. The marker
// `\n[... truncated at <cap> bytes]` then ends the last text block (or is a
// text block of its own), so the kept part is at most the cap and the
// marker follows it.

import type { CallToolResult, ContentBlock, JsonObject } from '../client/results.js';

export interface CappedResult {
  result: CallToolResult;
  truncated: boolean;
  /** The size of the result as the server sent it, by the rule above. */
  sizeBytes: number;
}

export function truncationMarker(capBytes: number): string {
  return `\n[... truncated at ${capBytes} bytes]`;
}

function blockBytes(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return Buffer.byteLength(block.text, 'utf8');
    case 'image':
    case 'audio':
      return block.data.length;
    case 'resource':
    {
      const { text, blob } = block.resource;
      return typeof text === 'string' ? Buffer.byteLength(text, 'utf8') : typeof blob === 'string' ? blob.length : 0;
    }
    case 'resource_link':
      return Buffer.byteLength(block.uri, 'utf8');
  }
}

function structuredBytes(value: JsonObject | undefined): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8');
}

export function resultBytes(result: CallToolResult): number {
  let total = 0;
  for (const block of result.content) total += blockBytes(block);
  return total + structuredBytes(result.structuredContent);
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `bytes`, never splitting a character. */
export function cutUtf8(text: string, bytes: number): string {
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= bytes) return text;
  let end = Math.max(0, bytes);
  // Back up over continuation bytes (10xxxxxx) to the start of the character that does not fit.
  while (end > 0 && (encoded[end]! & 0xc0) === 0x80) end--;
  return encoded.subarray(0, end).toString('utf8');
}

export function capResult(result: CallToolResult, capBytes: number): CappedResult {
  const sizeBytes = resultBytes(result);
  if (sizeBytes <= capBytes) return { result, truncated: false, sizeBytes };

  let left = capBytes;
  const kept: ContentBlock[] = [];
  let cut = false;
  for (const block of result.content) {
    const size = blockBytes(block);
    if (size <= left) {
      kept.push(block);
      left -= size;
      continue;
    }
    if (block.type === 'text' && left > 0) kept.push({ ...block, text: cutUtf8(block.text, left) });
    cut = true;
    break;
  }
  const { structuredContent, ...rest } = result;
  const keepStructured = !cut && structuredContent !== undefined && structuredBytes(structuredContent) <= left;

  const marker = truncationMarker(capBytes);
  const last = kept[kept.length - 1];
  if (last?.type === 'text') kept[kept.length - 1] = { ...last, text: last.text + marker };
  else kept.push({ type: 'text', text: marker.slice(1) });

  const capped: CallToolResult = { ...rest, content: kept };
  if (keepStructured) capped.structuredContent = structuredContent;
  return { result: capped, truncated: true, sizeBytes };
}
