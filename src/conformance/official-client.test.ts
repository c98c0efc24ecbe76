// The pieces of the official-suite client that decide what it sends:
// arguments made from a tool's schema, the elicitation answer, the plan per
// scenario, and a refusal without a URL. The suite runs end to end in
// conformance/official-suite.test.ts.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptWithDefaults, argumentsFor, planFor, runOfficialClient } from './official-client.js';

const context = { id: 1, signal: new AbortController().signal };

describe('argumentsFor', () => {
  test('required numbers get different values, so a sum shows both (add_numbers)', () => {
    const args = argumentsFor({
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    });
    assert.deepEqual(args, { a: 1, b: 2 });
  });

  test('defaults, then enums, then a value of the type; optional properties without a default are left out', () => {
    const args = argumentsFor({
      inputSchema: {
        type: 'object',
        properties: {
          mode: { type: 'string', enum: ['fast', 'slow'] },
          count: { type: 'integer', default: 7 },
          label: { type: 'string' },
          flag: { type: 'boolean' },
          nested: { type: 'object', properties: { x: { type: 'string' }, y: { type: 'string' } }, required: ['x'] },
          optional: { type: 'string' },
        },
        required: ['mode', 'label', 'flag', 'nested'],
      },
    });
    assert.deepEqual(args, { mode: 'fast', count: 7, label: 'mcpwire', flag: true, nested: { x: 'mcpwire' } });
  });

  test('an empty schema gives empty arguments', () => {
    assert.deepEqual(argumentsFor({ inputSchema: { type: 'object' } }), {});
  });
});

describe('acceptWithDefaults (SEP-1034)', () => {
  test('accepts a form with every declared default', async () => {
    const answer = await acceptWithDefaults(
      {
        message: 'accept with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', default: 'John Doe' },
            age: { type: 'integer', default: 30 },
            verified: { type: 'boolean', default: true },
            note: { type: 'string' },
          },
        },
      },
      context,
    );
    assert.deepEqual(answer, { action: 'accept', content: { name: 'John Doe', age: 30, verified: true } });
  });

  test('declines when a required field has no default: there is nobody to ask', async () => {
    const answer = await acceptWithDefaults(
      { message: 'm', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      context,
    );
    assert.deepEqual(answer, { action: 'decline' });
  });

  test('declines URL-mode elicitation', async () => {
    assert.deepEqual(await acceptWithDefaults({ mode: 'url', message: 'm', url: 'https://example.com', elicitationId: 'e' }, context), { action: 'decline' });
  });
});

describe('planFor', () => {
  test('the known scenarios, and initialize + tools/list for an unknown one', () => {
    assert.deepEqual(planFor('initialize'), { listTools: false, callTools: false, elicitation: false });
    assert.deepEqual(planFor('tools_call'), { listTools: true, callTools: true, elicitation: false });
    assert.deepEqual(planFor('sse-retry'), { listTools: true, callTools: true, elicitation: false });
    assert.deepEqual(planFor('elicitation-sep1034-client-defaults'), { listTools: true, callTools: true, elicitation: true });
    assert.deepEqual(planFor('something-new'), { listTools: true, callTools: false, elicitation: false });
    assert.deepEqual(planFor(undefined), { listTools: true, callTools: false, elicitation: false });
  });
});

test('runOfficialClient without a URL fails with status 1', async () => {
  const writes: string[] = [];
  const out = process.stdout.write;
  const err = process.stderr.write;
  const capture = ((chunk: string | Uint8Array) => {
    writes.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  process.stdout.write = capture;
  process.stderr.write = capture;
  let status: number;
  try {
    status = await runOfficialClient(['not a url'], { MCP_CONFORMANCE_SCENARIO: 'initialize' });
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  assert.equal(status, 1);
  assert.match(writes.join(''), /FAIL initialize: no server URL/);
});
