// M2 (#17 item 2): the pieces of the 2026-07-28 wire that are pure functions:
// the request metadata headers and their value encoding, the _meta merge,
// the typed -32021/-32022 errors, resultType.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MissingClientCapabilityError, RpcError, rpcErrorFor, UnsupportedVersionError } from '../errors.js';
import { encodeHeaderValue, modernHeaders } from '../transport/streamable-http.js';
import { isModernVersion, modernEnvelope, withMeta } from './request-meta.js';
import { resultTypeOf } from './results.js';
import { connect } from './connect.js';

describe('M2 request metadata headers', () => {
  test('the spec’s Value Encoding table, byte for byte', () => {
    assert.equal(encodeHeaderValue('us-west1'), 'us-west1');
    assert.equal(encodeHeaderValue('Hello, 世界'), '=?base64?SGVsbG8sIOS4lueVjA==?=');
    assert.equal(encodeHeaderValue(' padded '), '=?base64?IHBhZGRlZCA=?=');
    assert.equal(encodeHeaderValue('line1\nline2'), '=?base64?bGluZTEKbGluZTI=?=');
    assert.equal(encodeHeaderValue('=?base64?literal?='), '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
    assert.equal(encodeHeaderValue('a b'), 'a b', 'inner spaces are plain');
    assert.equal(encodeHeaderValue(''), '=?base64??=', 'an empty value is not a valid plain header value');
  });

  test('MCP-Protocol-Version is the body’s own; Mcp-Method always; Mcp-Name for tools/call, resources/read, prompts/get only', () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
    assert.deepEqual(modernHeaders({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_weather', _meta: meta } }, '1999-01-01'), {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'get_weather',
    });
    assert.equal(modernHeaders({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'file:///a b/ü' } }, '2026-07-28')['mcp-name'], encodeHeaderValue('file:///a b/ü'));
    assert.equal(modernHeaders({ jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'p' } }, '2026-07-28')['mcp-name'], 'p');
    assert.deepEqual(modernHeaders({ jsonrpc: '2.0', id: 4, method: 'tools/list' }, '2026-07-28'), { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
  });
});

describe('M2 _meta', () => {
  test('the envelope, hook and per-request entries merge; the caller’s own _meta entries (a progress token) are kept', () => {
    const envelope = modernEnvelope('2026-07-28', { name: 'c', version: '1' }, {});
    const merged = withMeta({ name: 't', _meta: { progressToken: 7 } }, envelope, { traceparent: '00-abc' }, undefined);
    assert.deepEqual(merged, { name: 't', _meta: { ...envelope, traceparent: '00-abc', progressToken: 7 } });
    const params = { a: 1 };
    assert.equal(withMeta(params, undefined, undefined), params, 'nothing to add: the same object');
  });

  test('modern versions are 2026-07-28 and later', () => {
    assert.ok(isModernVersion('2026-07-28'));
    assert.ok(isModernVersion('2027-01-01'));
    assert.ok(!isModernVersion('2025-11-25'));
    assert.ok(!isModernVersion('draft'));
  });
});

describe('M2 typed errors and resultType', () => {
  test('-32021 names the missing capability and says to install its handler', () => {
    const e = rpcErrorFor({ server: 's', method: 'tools/call' }, -32021, 'Missing required client capability', { requiredCapabilities: { elicitation: {} } });
    assert.ok(e instanceof MissingClientCapabilityError && e instanceof RpcError);
    assert.equal(e.capability, 'elicitation');
    assert.equal(e.rpcCode, -32021);
    assert.match(e.message, /"elicitation".*install its handler/);
  });

  test('-32022 lists the supported versions; other codes stay a plain RpcError', () => {
    const e = rpcErrorFor({ server: 's' }, -32022, 'Unsupported protocol version', { supported: ['2026-07-28', 2], requested: '1900-01-01' });
    assert.ok(e instanceof UnsupportedVersionError);
    assert.deepEqual(e.supported, ['2026-07-28']);
    assert.equal(e.requested, '1900-01-01');
    const plain = rpcErrorFor({ server: 's' }, -32601, 'Method not found');
    assert.equal(plain.constructor, RpcError);
  });

  test('resultType: absent means complete', () => {
    assert.equal(resultTypeOf({ content: [] }), 'complete');
    assert.equal(resultTypeOf({ resultType: 'input_required' }), 'input_required');
  });
});

describe('M2 x-mcp-header', () => {
  const schema = (props: Record<string, unknown>) => ({ type: 'object', properties: props });
  test('annotated parameters, nested through properties, become Mcp-Param-* with the value encoding; null and absent are omitted', async () => {
    const { headerParamsOf, paramHeaders } = await import('./header-params.js');
    const found = headerParamsOf(schema({ region: { type: 'string', 'x-mcp-header': 'Region' }, opts: { type: 'object', properties: { dry: { type: 'boolean', 'x-mcp-header': 'Dry' } } }, n: { type: 'integer', 'x-mcp-header': 'N' } }));
    assert.ok('params' in found);
    assert.deepEqual(paramHeaders(found.params, { region: 'Hello, 世界', opts: { dry: false }, n: null }), { 'mcp-param-region': '=?base64?SGVsbG8sIOS4lueVjA==?=', 'mcp-param-dry': 'false' });
  });

  test('invalid annotations: not a token, duplicate (any case), a number, under items or anyOf', async () => {
    const { headerParamsOf } = await import('./header-params.js');
    for (const bad of [
      schema({ a: { type: 'string', 'x-mcp-header': 'Has Space' } }),
      schema({ a: { type: 'string', 'x-mcp-header': 'X' }, b: { type: 'string', 'x-mcp-header': 'x' } }),
      schema({ a: { type: 'number', 'x-mcp-header': 'A' } }),
      schema({ a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'A' } } }),
      { anyOf: [schema({ a: { type: 'string', 'x-mcp-header': 'A' } })] },
    ]) {
      assert.ok('invalid' in headerParamsOf(bad), JSON.stringify(bad));
    }
  });
});

describe('M1 the discover profile', () => {
  // A modern server in a dozen lines, as a real child: it answers server/discover with serverInfo where
  // `where` says (the spec's _meta key, or the top of the result as the official suite's mocks do).
  const server = (where: 'meta' | 'top' | 'none') => `
    const info = { name: 'tiny-modern', version: '9.9' };
    require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
      const m = JSON.parse(line);
      if (m.id === undefined) return;
      const result = m.method === 'server/discover'
        ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ${where === 'top' ? 'serverInfo: info,' : ''}${where === 'meta' ? "_meta: { 'io.modelcontextprotocol/serverInfo': info }," : ''} }
        : { tools: [] };
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');
    });`;

  for (const [where, expected] of [['meta', 'tiny-modern'], ['top', 'tiny-modern'], ['none', 'unknown']] as const) {
    test(`serverInfo ${where === 'meta' ? 'in _meta (the spec)' : where === 'top' ? 'at the top of the result (the suite\'s mocks)' : 'absent'}: profile.serverInfo.name is ${expected}`, async () => {
      const client = await connect({ transport: 'stdio', command: [process.execPath, '-e', server(where)], protocolEra: 'modern' });
      try {
        assert.equal(client.era, 'modern');
        assert.equal(client.profile?.serverInfo.name, expected);
      } finally {
        await client.close();
      }
    });
  }
});
