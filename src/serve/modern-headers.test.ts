// Units of the 2026-07-28 header checks (M2, G1): the Base64 sentinel of
// "Value Encoding", and which missing or differing header is named.

import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { test } from 'node:test';
import { checkModernPost, decodeHeaderValue } from './modern-headers.js';
import { encodeHeaderValue } from '../transport/streamable-http.js';

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

test('decodeHeaderValue reverses the client\'s encoding and refuses a broken sentinel', () => {
  for (const value of ['plain', 'café', ' padded ', 'line1\nline2', '=?base64?literal?=', '']) assert.equal(decodeHeaderValue(encodeHeaderValue(value)), value, JSON.stringify(value));
  assert.equal(decodeHeaderValue('=?base64?not base64?='), undefined);
  assert.equal(decodeHeaderValue('=?base64?abc?='), undefined, 'a length that is not a multiple of 4');
  assert.equal(decodeHeaderValue(`=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`), undefined, 'not UTF-8');
});

test('checkModernPost: requests need MCP-Protocol-Version, Mcp-Method and (for named methods) Mcp-Name; notifications need none', () => {
  const call = { jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'p', _meta: meta } };
  const all = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'prompts/get', 'mcp-name': 'p' };
  assert.deepEqual(checkModernPost(req(all), [call]), { ok: true });
  for (const [missing, pattern] of [['mcp-protocol-version', /MCP-Protocol-Version header is absent/], ['mcp-method', /Mcp-Method header is absent/], ['mcp-name', /Mcp-Name header is absent/]] as const) {
    const headers: Record<string, string> = { ...all };
    delete headers[missing];
    const result = checkModernPost(req(headers), [call]);
    assert.ok(!result.ok && result.code === -32020 && result.id === 3 && pattern.test(result.why), `${missing}: ${JSON.stringify(result)}`);
  }
  const differs = checkModernPost(req({ ...all, 'mcp-protocol-version': '2026-01-01' }), [call]);
  assert.ok(!differs.ok && /does not match/.test(differs.why));
  assert.deepEqual(checkModernPost(req({}), [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: meta } }]), { ok: true });
  const noEnvelope = checkModernPost(req(all), [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]);
  assert.ok(!noEnvelope.ok && noEnvelope.code === -32600);
});
