// Content as text, the one way mcpwire writes it for a person or a model
// (#18 item 17): the CLI's `call`, `read` and `prompt` and Kestrel's results
// for the model both print through here. Text as is; images, audio and
// binary resources described by type and size, never dumped; an embedded
// text resource under its URI; a resource link by name, URI and type.

import type { ContentBlock, ResourceContents } from './results.js';

/** Bytes a base64 string decodes to (padding and whitespace not counted). */
export function base64Bytes(data: string): number {
  const bare = data.replace(/[\s=]+/g, '');
  return Math.floor((bare.length * 3) / 4);
}

/** One resource's contents: its text as is, a blob as `[binary resource URI: type, N bytes]`. */
export function resourceContentsText(contents: ResourceContents): string {
  if (typeof contents.text === 'string') return contents.text;
  const blob = typeof contents.blob === 'string' ? contents.blob : '';
  return `[binary resource ${contents.uri}: ${contents.mimeType ?? 'unknown type'}, ${base64Bytes(blob)} bytes]`;
}

/** One content block as text. A block of a type this version does not know is shown as its JSON. */
export function contentBlockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'resource_link':
      return `[resource link: ${block.name} <${block.uri}>${block.mimeType ? ` ${block.mimeType}` : ''}]`;
    case 'resource':
      return typeof block.resource.text === 'string' ? `[resource ${block.resource.uri}]\n${block.resource.text}` : resourceContentsText(block.resource);
    default:
      return JSON.stringify(block);
  }
}
