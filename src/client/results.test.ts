// The structural checks behind the typed results: each MCP content block,
// resource contents and prompt message is checked for the fields its type
// promises, and unknown keys survive.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkCallTool, checkGetPrompt, checkReadResource, contentBlockProblem } from './results.js';

describe('content blocks (MCP 2025-11-25 ContentBlock)', () => {
  const valid = [
    { type: 'text', text: 'hi', annotations: { audience: ['user'], priority: 0.5 } },
    { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
    { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain' },
    { type: 'resource', resource: { uri: 'file:///a.txt', text: 'contents' } },
    { type: 'resource', resource: { uri: 'file:///a.bin', blob: 'AAEC', mimeType: 'application/octet-stream' } },
  ];
  for (const block of valid) {
    test(`a valid ${block.type} block passes`, () => assert.equal(contentBlockProblem(block), undefined));
  }

  const invalid: [object, RegExp][] = [
    [{ type: 'text' }, /"text" is not a string/],
    [{ type: 'image', data: 'x' }, /"mimeType" is not a string/],
    [{ type: 'audio', mimeType: 'audio/wav' }, /"data" is not a string/],
    [{ type: 'resource_link', uri: 'file:///a' }, /"name" is not a string/],
    [{ type: 'resource', resource: { uri: 'file:///a' } }, /neither "text" nor "blob"/],
    [{ type: 'resource', resource: 'file:///a' }, /"resource" is not an object/],
    [{ type: 'hologram', data: 'x' }, /unknown content type "hologram"/],
    [{ text: 'no type' }, /"type" is not a string/],
  ];
  for (const [block, why] of invalid) {
    test(`${JSON.stringify(block)} is refused: ${why.source}`, () => assert.match(contentBlockProblem(block as Record<string, unknown>) ?? '', why));
  }
});

describe('results built from blocks', () => {
  test('a tools/call result with one bad block names its index', () => {
    assert.equal(checkCallTool({ content: [{ type: 'text', text: 'ok' }, { type: 'image', data: 'x' }] }), 'content[1]: "mimeType" is not a string');
  });

  test('unknown keys on a result and on its blocks are allowed', () => {
    assert.equal(checkCallTool({ content: [{ type: 'text', text: 'ok', vendorHint: 1 }], _meta: { trace: 'x' }, extra: true }), undefined);
  });

  test('resources/read contents need a uri and text or blob', () => {
    assert.equal(checkReadResource({ contents: [{ uri: 'a', text: '' }] }), undefined);
    assert.equal(checkReadResource({ contents: [{ uri: 'a' }] }), 'contents[0]: neither "text" nor "blob" is a string');
  });

  test('prompts/get messages need a role of user or assistant and one content block', () => {
    assert.equal(checkGetPrompt({ messages: [{ role: 'assistant', content: { type: 'text', text: 'x' } }] }), undefined);
    assert.equal(checkGetPrompt({ messages: [{ role: 'system', content: { type: 'text', text: 'x' } }] }), 'messages[0]: "role" is not "user" or "assistant"');
    assert.equal(checkGetPrompt({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] }), 'messages[0]: "content" is not an object');
  });
});
