// The pieces of the official-suite client that decide what it sends:
// arguments made from a tool's schema, the elicitation answer, the plan per
// scenario, and a refusal without a URL. The suite runs end to end in
// conformance/official-suite.test.ts.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptWithDefaults, argumentsFor, contextFor, contextToolCalls, eraFor, planFor, promptArgumentsFor, runOfficialClient } from './official-client.js';

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
    assert.deepEqual(planFor('sep-2322-client-request-state'), { listTools: true, callTools: true, elicitation: true });
    assert.deepEqual(planFor('http-standard-headers'), { listTools: true, callTools: true, elicitation: false, everyFeature: true });
    assert.deepEqual(planFor('http-custom-headers'), { listTools: true, callTools: true, elicitation: false });
    assert.deepEqual(planFor('http-invalid-tool-headers'), { listTools: true, callTools: true, elicitation: false });
    assert.deepEqual(planFor('json-schema-2020-12-preservation'), {
      listTools: true,
      callTools: false,
      elicitation: false,
      echoSchema: { from: 'json_schema_2020_12_tool', to: 'json_schema_echo' },
    });
    assert.deepEqual(planFor('request-metadata'), { listTools: true, callTools: false, elicitation: false });
    assert.deepEqual(planFor('something-new'), { listTools: true, callTools: false, elicitation: false });
    assert.deepEqual(planFor(undefined), { listTools: true, callTools: false, elicitation: false });
  });
});

describe('what the suite hands over (suite 0.2)', () => {
  test('MCP_CONFORMANCE_PROTOCOL_VERSION pins that version; unset (suite 0.1.x) leaves the default; an unknown one is an error', () => {
    assert.deepEqual(eraFor({ MCP_CONFORMANCE_PROTOCOL_VERSION: '2026-07-28' }), { era: { version: '2026-07-28' } });
    assert.deepEqual(eraFor({ MCP_CONFORMANCE_PROTOCOL_VERSION: '2025-11-25' }), { era: { version: '2025-11-25' } });
    assert.deepEqual(eraFor({}), {});
    assert.match(eraFor({ MCP_CONFORMANCE_PROTOCOL_VERSION: '2031-01-01' }).error ?? '', /not a protocol version mcpwire speaks/);
  });

  test('MCP_CONFORMANCE_CONTEXT is a JSON object named for the scenario', () => {
    const env = { MCP_CONFORMANCE_SCENARIO: 'http-custom-headers', MCP_CONFORMANCE_CONTEXT: JSON.stringify({ name: 'http-custom-headers', toolCalls: [] }) };
    assert.deepEqual(contextFor(env), { context: { name: 'http-custom-headers', toolCalls: [] } });
    assert.deepEqual(contextFor({}), {});
    assert.match(contextFor({ MCP_CONFORMANCE_CONTEXT: '{' }).error ?? '', /not JSON/);
    assert.match(contextFor({ MCP_CONFORMANCE_CONTEXT: '[1]' }).error ?? '', /not a JSON object/);
    assert.match(contextFor({ ...env, MCP_CONFORMANCE_SCENARIO: 'tools_call' }).error ?? '', /is for scenario "http-custom-headers", not tools_call/);
  });

  test("the context's toolCalls, taken as given; anything else there is no call list", () => {
    const calls = contextToolCalls({ name: 's', toolCalls: [{ name: 'a', arguments: { region: 'us-west1', verbose: null } }, { name: 'b' }] });
    assert.deepEqual(calls, [
      { name: 'a', arguments: { region: 'us-west1', verbose: null } },
      { name: 'b', arguments: {} },
    ]);
    assert.equal(contextToolCalls({ name: 's', client_id: 'x' }), undefined);
    assert.equal(contextToolCalls(undefined), undefined);
    assert.throws(() => contextToolCalls({ toolCalls: {} }), /toolCalls is not an array/);
    assert.throws(() => contextToolCalls({ toolCalls: [{ arguments: {} }] }), /toolCalls\[0\] is not/);
  });

  test('prompt arguments: a value for each required one', () => {
    assert.deepEqual(promptArgumentsFor({ arguments: [{ name: 'city', required: true }, { name: 'unit' }] }), { city: 'mcpwire' });
    assert.deepEqual(promptArgumentsFor({}), {});
  });
});

/** Runs the conformance client with its stdout and stderr captured; returns the status and what it wrote. */
async function captured(args: string[], env: Record<string, string>): Promise<{ status: number; output: string }> {
  const writes: string[] = [];
  const out = process.stdout.write;
  const err = process.stderr.write;
  const capture = ((chunk: string | Uint8Array) => {
    writes.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  process.stdout.write = capture;
  process.stderr.write = capture;
  try {
    return { status: await runOfficialClient(args, env), output: writes.join('') };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

test('runOfficialClient without a URL fails with status 1', async () => {
  const { status, output } = await captured(['not a url'], { MCP_CONFORMANCE_SCENARIO: 'initialize' });
  assert.equal(status, 1);
  assert.match(output, /FAIL initialize: no server URL/);
});

test('runOfficialClient asked for a protocol version it does not speak fails before it connects', async () => {
  // Port 9 (discard) on 127.0.0.1: were it to connect, the error would be a connection failure, not this one.
  const { status, output } = await captured(['http://127.0.0.1:9/mcp'], { MCP_CONFORMANCE_SCENARIO: 'tools_call', MCP_CONFORMANCE_PROTOCOL_VERSION: '2031-01-01' });
  assert.equal(status, 1);
  assert.match(output, /FAIL tools_call: MCP_CONFORMANCE_PROTOCOL_VERSION=2031-01-01 is not a protocol version/);
});
