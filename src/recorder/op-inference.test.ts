import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTranscript } from '../conformance/transcript.js';
import { OpInference } from './op-inference.js';
import { TranscriptWriter } from './transcript-writer.js';

function setup(now = () => 0) {
  const writer = new TranscriptWriter({ name: 'case', transport: 'stdio', source: 'test' });
  return { writer, inference: new OpInference(writer, now), lines: () => writer.toText().trim().split('\n') };
}

function handshake(inference: OpInference): void {
  inference.clientMessage({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} } });
  inference.serverMessage({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } } });
  inference.clientMessage({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

test('initialize becomes connect and sets the header protocolVersion; the server name is kept for the source', () => {
  const { inference, writer } = setup();
  handshake(inference);
  inference.clientClosed();
  const transcript = parseTranscript(writer.toText(), 'case.jsonl');
  assert.equal(transcript.header.protocolVersion, '2025-06-18');
  assert.deepEqual(transcript.events.map((e) => (e.kind === 'op' ? e.op : e.kind)), ['connect', 'c2s', 's2c', 'c2s', 'close']);
  assert.deepEqual(inference.serverInfo, { name: 's', version: '1' });
});

test('tools/list pages with a cursor continue one listTools op, whose expect holds every page (TRANSCRIPTS.md expect)', () => {
  const { inference, writer } = setup();
  handshake(inference);
  inference.clientMessage({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  inference.serverMessage({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'a' }], nextCursor: 'p2' } });
  inference.clientMessage({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 'p2' } });
  inference.serverMessage({ jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'b' }] } });
  inference.clientClosed();
  const ops = parseTranscript(writer.toText(), 'case.jsonl').events.filter((e) => e.kind === 'op');
  assert.deepEqual(ops.map((e) => e.op), ['connect', 'listTools', 'close']);
  assert.deepEqual(ops[1]!.expect, { result: { tools: [{ name: 'a' }, { name: 'b' }] } });
});

test('a cancelled request becomes a timeout op (timeoutMs rounded up to 100 ms); a JSON-RPC error becomes expect error N', () => {
  let clock = 1_000;
  const { inference, writer } = setup(() => clock);
  handshake(inference);
  inference.clientMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: {} } });
  clock += 251;
  inference.clientMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'timeout' } });
  inference.serverMessage({ jsonrpc: '2.0', id: 1, result: { content: [] } });
  inference.clientMessage({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'x://y' } });
  inference.serverMessage({ jsonrpc: '2.0', id: 2, error: { code: -32002, message: 'not found' } });
  inference.clientClosed();
  const ops = parseTranscript(writer.toText(), 'case.jsonl').events.filter((e) => e.kind === 'op');
  assert.deepEqual(
    ops.map(({ op, timeoutMs, expect, name, uri }) => ({ op, timeoutMs, expect, name, uri })),
    [
      { op: 'connect', timeoutMs: undefined, expect: undefined, name: undefined, uri: undefined },
      { op: 'callTool', timeoutMs: 300, expect: { error: 'timeout' }, name: 'slow', uri: undefined },
      { op: 'readResource', timeoutMs: undefined, expect: { error: -32002 }, name: undefined, uri: 'x://y' },
      { op: 'close', timeoutMs: undefined, expect: undefined, name: undefined, uri: undefined },
    ],
  );
});

test('a request no op sends, and its answer, are kept as comments; a response to a server request is a c2s line; nothing after close', () => {
  const { inference, lines } = setup();
  handshake(inference);
  inference.clientMessage({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'debug' } });
  inference.serverMessage({ jsonrpc: '2.0', id: 1, result: {} });
  inference.serverMessage({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' });
  inference.clientMessage({ jsonrpc: '2.0', id: 'srv-1', error: { code: -32601, message: 'no' } });
  inference.clientClosed();
  inference.serverMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'late' } });
  const text = lines();
  assert.match(text[5]!, /^# c2s not replayable \(no op sends logging\/setLevel\)/);
  assert.match(text[6]!, /^# s2c answer to a request kept as a comment/);
  assert.deepEqual(JSON.parse(text[8]!), { dir: 'c2s', msg: { jsonrpc: '2.0', id: 'srv-1', error: { code: -32601, message: 'no' } } });
  assert.deepEqual(JSON.parse(text.at(-1)!), { op: 'close' });
});
