// W1 stdio framing: one UTF-8 JSON message per line, `\n`-terminated; accept
// `\r\n`; never emit a raw newline inside a message. A multi-byte character
// split across reads decodes correctly. Cost is linear in bytes: a 16 MiB
// message in 64 KiB reads is not copied over and over.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createLineFramer } from '../src/jsonrpc/line-framer.js';
import { encodeLine } from '../src/jsonrpc/message.js';
import { receivedLines, startScriptedServer } from './helpers/scripted-server.js';

const MULTI_BYTE = 'CJK 漢字かな, emoji 😀👍🏽, accents é€';

describe('W1 stdio framing', { timeout: 30_000 }, () => {
  test('W1: one JSON message per line, \\n-terminated, no raw newline inside (encoder)', () => {
    const text = 'line one\nline two\r\nthree\u2028four\u2029';
    const line = encodeLine({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text } } });
    assert.equal(line.at(-1), '\n');
    assert.equal(line.indexOf('\n'), line.length - 1, 'the only newline is the terminator');
    assert.equal(line.includes('\r'), false);
    assert.equal((JSON.parse(line) as { params: { arguments: { text: string } } }).params.arguments.text, text);
  });

  test('W1: the client never emits a raw newline inside a message (as the server reads it)', async (t) => {
    const { client } = await startScriptedServer(t);
    const text = `a\nb\r\nc ${MULTI_BYTE}`;
    const result = await client.callTool('echo', { text });
    assert.deepEqual(result.content, [{ type: 'text', text }]);
    const lines = await receivedLines(client);
    assert.ok(lines.length >= 3, 'initialize, initialized, tools/call');
    // Every line the server split off is one whole JSON-RPC message.
    for (const line of lines) assert.equal((JSON.parse(line) as { jsonrpc: string }).jsonrpc, '2.0', line);
    const call = lines.map((l) => JSON.parse(l) as { method?: string; params?: { arguments?: { text?: string } } }).find((m) => m.method === 'tools/call');
    assert.equal(call?.params?.arguments?.text, text);
  });

  test('W1: a multi-byte character split across reads decodes correctly (every split point)', () => {
    const bytes = Buffer.from(encodeLine({ jsonrpc: '2.0', id: 1, result: { text: MULTI_BYTE } }));
    for (let cut = 1; cut < bytes.length; cut++) {
      const got: unknown[] = [];
      const framer = createLineFramer({ onMessage: (v) => got.push(v) });
      framer.push(bytes.subarray(0, cut));
      framer.push(bytes.subarray(cut));
      assert.deepEqual(got, [{ jsonrpc: '2.0', id: 1, result: { text: MULTI_BYTE } }], `cut at ${cut}`);
    }
  });

  test('W1: a server that writes one byte at a time is decoded correctly (real process)', async (t) => {
    const { client } = await startScriptedServer(t);
    const result = await client.callTool('echo', { text: MULTI_BYTE, drip: true });
    assert.deepEqual(result.content, [{ type: 'text', text: MULTI_BYTE }]);
  });

  test('W1: \\r\\n line endings are accepted (real process writing \\r\\n)', async (t) => {
    const { client, diagnostics } = await startScriptedServer(t, ['--crlf']);
    const result = await client.callTool('echo', { text: MULTI_BYTE });
    assert.deepEqual(result.content, [{ type: 'text', text: MULTI_BYTE }]);
    const dripped = await client.callTool('echo', { text: 'drip', drip: true });
    assert.deepEqual(dripped.content, [{ type: 'text', text: 'drip' }]);
    assert.deepEqual(diagnostics.filter((d) => d.kind !== 'stderr'), []);
  });

  test('W1: a 16 MiB message in 64 KiB reads is joined and decoded once, not copied over and over', (t) => {
    // Linear cost, checked structurally: count the bytes that Buffer.concat
    // copies and that toString decodes while the message streams in. A framer
    // that re-joins or re-decodes what it holds on every read would count
    // each byte many times over.
    const size = 16 * 1024 * 1024;
    const bytes = Buffer.from(encodeLine({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(size) } }));
    let joinedBytes = 0;
    let decodedBytes = 0;
    const originalConcat = Buffer.concat;
    const originalToString = Buffer.prototype.toString;
    const restore = () => {
      Buffer.concat = originalConcat;
      Buffer.prototype.toString = originalToString;
    };
    t.after(restore);
    Buffer.concat = ((list: readonly Uint8Array[], totalLength?: number) => {
      const joined = originalConcat(list, totalLength);
      joinedBytes += joined.length;
      return joined;
    }) as typeof Buffer.concat;
    Buffer.prototype.toString = function (this: Buffer, encoding?: BufferEncoding, start = 0, end = this.length) {
      decodedBytes += Math.min(end, this.length) - start;
      return originalToString.call(this, encoding, start, end);
    } as typeof originalToString;
    let got: { result: { text: string } } | undefined;
    const framer = createLineFramer({ onMessage: (v) => (got = v as typeof got) });
    for (let i = 0; i < bytes.length; i += 64 * 1024) framer.push(bytes.subarray(i, i + 64 * 1024));
    restore();
    assert.equal(got?.result.text.length, size);
    assert.ok(joinedBytes <= bytes.length, `joined ${joinedBytes} bytes for a ${bytes.length}-byte message`);
    assert.ok(decodedBytes <= bytes.length, `decoded ${decodedBytes} bytes for a ${bytes.length}-byte message`);
  });

  test('W1: a 16 MiB answer crosses a real pipe intact', async (t) => {
    const { client } = await startScriptedServer(t);
    const chars = 8 * 1024 * 1024; // 'é' is 2 bytes: 16 MiB of text
    const result = await client.callTool('big', { bytes: chars }, { timeoutMs: 20_000 });
    const text = (result.content[0] as { text: string }).text;
    assert.equal(text.length, chars);
    assert.equal(Buffer.byteLength(text), 16 * 1024 * 1024);
    assert.equal(text, 'é'.repeat(chars));
  });
});
