import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TranscriptError } from '../conformance/transcript.js';
import { TranscriptWriter } from './transcript-writer.js';

const SECRET = 'sk-canary-0123456789abcdef';

test('replacements apply to every string (keys too), then secrets are redacted in every form, in the header, lines and comments', () => {
  const writer = new TranscriptWriter({ name: 'w', transport: 'stdio', source: 'from /tmp/fixture-123' }, [
    { from: '/tmp/fixture-123', to: '/fixture' },
    { from: /\d{2}:\d{2}:\d{2}/g, to: '00:00:00' },
  ]);
  writer.addSecret(SECRET);
  writer.setProtocolVersion('2025-11-25');
  writer.op({ op: 'connect' });
  writer.c2s({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
  writer.s2c({ jsonrpc: '2.0', id: 0, result: { text: `at 12:34:56 in /tmp/fixture-123/a, key ${SECRET}`, ['/tmp/fixture-123']: Buffer.from(SECRET).toString('base64') } });
  writer.comment(`seen ${SECRET}`);
  writer.op({ op: 'close' });
  const text = writer.toText();
  assert.ok(!text.includes(SECRET) && !text.includes(Buffer.from(SECRET).toString('base64')) && !text.includes('fixture-123'), text);
  assert.match(text, /"source":"from \/fixture"/);
  assert.match(text, /"text":"at 00:00:00 in \/fixture\/a, key \[redacted\]","\/fixture":"\[redacted\]"/);
  assert.match(text, /^# seen \[redacted\]$/m);
});

test('bytes that are UTF-8 are kept as raw, others as rawBase64 (and the header lists that extension)', () => {
  const writer = new TranscriptWriter({ name: 'b', transport: 'stdio', source: 't' });
  writer.op({ op: 'connect' });
  writer.s2cBytes(Buffer.from('banner ✓\r\n'));
  writer.s2cBytes(Buffer.from([0xff, 0x0a]));
  const lines = writer.toText().trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.deepEqual(lines[0]!.formatExtensions, ['s2c.rawBase64']);
  assert.deepEqual(lines.slice(2), [{ dir: 's2c', raw: 'banner ✓\r\n' }, { dir: 's2c', rawBase64: '/wo=' }]);
});

test('a record the replayer would refuse is not written: toText throws the reader\'s error', () => {
  const writer = new TranscriptWriter({ name: 'bad', transport: 'stdio', source: 't' });
  writer.op({ op: 'callTool' }); // no name
  assert.throws(() => writer.toText(), TranscriptError);
});
