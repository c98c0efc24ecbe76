// Results as the model reads them (R5, Kestrel), in the text every mcpwire
// surface uses (src/client/content-text.ts, shared with the CLI): text
// parts joined; images, audio and binary resources described by type and
// size, never dumped; embedded text resources shown with their URI.
// structuredContent is kept beside the text by the caller, for consumers
// that understand it.

import { contentBlockText, resourceContentsText } from '../../client/content-text.js';
import type { ContentBlock, GetPromptResult, ReadResourceResult } from '../../client/results.js';

export { base64Bytes } from '../../client/content-text.js';

export function flattenContent(blocks: readonly ContentBlock[]): string {
  return blocks.map(contentBlockText).join('\n');
}

/** resources/read for the model: text contents as they are, blobs described. */
export function flattenResource(result: ReadResourceResult): string {
  return result.contents.map(resourceContentsText).join('\n');
}

/** prompts/get rendered as `[role] text` blocks. */
export function renderPrompt(result: GetPromptResult): string {
  return result.messages.map((message) => `[${message.role}] ${contentBlockText(message.content)}`).join('\n\n');
}
