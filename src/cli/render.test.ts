// One renderer (#18 item 17): the CLI's result text (call, read, prompt)
// and Kestrel's text for the model (flatten.ts) are the same text for every
// content block kind, a blob resource with its URI, type and size.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CallToolResult, ContentBlock } from '../client/results.js';
import { flattenContent, flattenResource, renderPrompt } from '../toolsource/kestrel/flatten.js';
import { contentText, resultText } from './render.js';

const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');

const BLOCKS: readonly [ContentBlock, string][] = [
  [{ type: 'text', text: 'plain words' }, 'plain words'],
  [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }, '[image: image/png, 8 bytes]'],
  [{ type: 'audio', data: b64('RIFF0123WAVE'), mimeType: 'audio/wav' }, '[audio: audio/wav, 12 bytes]'],
  [{ type: 'resource_link', uri: 'file:///a/b.md', name: 'b', mimeType: 'text/markdown' }, '[resource link: b <file:///a/b.md> text/markdown]'],
  [{ type: 'resource_link', uri: 'memo://x', name: 'x' }, '[resource link: x <memo://x>]'],
  [{ type: 'resource', resource: { uri: 'memo://t', mimeType: 'text/plain', text: 'inside' } }, '[resource memo://t]\ninside'],
  [{ type: 'resource', resource: { uri: 'memo://b', mimeType: 'application/pdf', blob: b64('12345') } }, '[binary resource memo://b: application/pdf, 5 bytes]'],
  [{ type: 'resource', resource: { uri: 'memo://u', blob: b64('1234') } }, '[binary resource memo://u: unknown type, 4 bytes]'],
];

test('R5/U1: every content block kind reads the same in the CLI and in Kestrel, as documented', () => {
  for (const [block, expected] of BLOCKS) {
    assert.equal(contentText(block), expected, block.type);
    assert.equal(flattenContent([block]), expected, `Kestrel, ${block.type}`);
  }
  const result: CallToolResult = { content: BLOCKS.map(([block]) => block) };
  assert.equal(resultText(result, false), `${BLOCKS.map(([, text]) => text).join('\n')}\n`, 'call prints one block a line');
  assert.equal(flattenContent(result.content), BLOCKS.map(([, text]) => text).join('\n'));
});

test('R5/U1: a block of a type this version does not know is its JSON, never dropped', () => {
  const odd = { type: 'hologram', frames: 3 } as unknown as ContentBlock;
  assert.equal(contentText(odd), '{"type":"hologram","frames":3}');
  assert.equal(flattenContent([odd]), contentText(odd));
});

test('R5/U1: resources and prompts use the same words: a blob by URI, type and size; a prompt as [role] text', () => {
  const read = flattenResource({ contents: [{ uri: 'memo://t', text: 'hi' }, { uri: 'memo://b', mimeType: 'image/gif', blob: b64('GIF89a') }] });
  assert.equal(read, 'hi\n[binary resource memo://b: image/gif, 6 bytes]');
  const prompt = renderPrompt({ messages: [{ role: 'user', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } }] });
  assert.equal(prompt, '[user] [image: image/png, 8 bytes]');
});

test('U1: --save\'s file name follows its block, and nothing else changes', () => {
  const result: CallToolResult = { content: [BLOCKS[0]![0], BLOCKS[1]![0]] };
  assert.equal(resultText(result, false, new Map([[1, 'out/x.png']])), 'plain words\n[image: image/png, 8 bytes] saved as out/x.png\n');
});
