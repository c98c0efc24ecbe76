// Results as the model reads them (R5, Kestrel): text parts joined; images,
// audio and binary resources described by type and size, never dumped;
// embedded text resources shown with their URI. structuredContent is kept
// beside the text by the caller, for consumers that understand it.

import type { ContentBlock, GetPromptResult, ReadResourceResult, ResourceContents } from '../../client/results.js';

/** Bytes a base64 string decodes to. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function describeContents(contents: ResourceContents): string {
  const mime = contents.mimeType ?? 'unknown type';
  if (typeof contents.text === 'string') return contents.text;
  return `[binary resource ${contents.uri}: ${mime}, ${base64Bytes(typeof contents.blob === 'string' ? contents.blob : '')} bytes]`;
}

export function flattenBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'resource_link':
      return `[resource link: ${block.name} <${block.uri}>${block.mimeType ? ` ${block.mimeType}` : ''}]`;
    case 'resource':
      return typeof block.resource.text === 'string' ? `[resource ${block.resource.uri}]\n${block.resource.text}` : describeContents(block.resource);
  }
}

export function flattenContent(blocks: readonly ContentBlock[]): string {
  return blocks.map(flattenBlock).join('\n');
}

/** resources/read for the model: text contents as they are, blobs described. */
export function flattenResource(result: ReadResourceResult): string {
  return result.contents.map(describeContents).join('\n');
}

/** prompts/get rendered as `[role] text` blocks. */
export function renderPrompt(result: GetPromptResult): string {
  return result.messages.map((message) => `[${message.role}] ${flattenBlock(message.content)}`).join('\n\n');
}
