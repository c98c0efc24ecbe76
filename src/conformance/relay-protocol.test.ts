// The runner → relay frames must come out whole and byte-exact however the
// socket splits them.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFrameDecoder, encodeFrame, FRAME_CLOSE, FRAME_WRITE } from './relay-protocol.mjs';

test('frames decode identically for every split point of the stream', () => {
  const payload = Buffer.concat([Buffer.from('{"text":"'), Buffer.from('🦀').subarray(0, 3)]);
  const stream = Buffer.concat([encodeFrame(FRAME_WRITE, payload), encodeFrame(FRAME_WRITE, Buffer.alloc(0)), encodeFrame(FRAME_CLOSE)]);
  for (let cut = 0; cut <= stream.length; cut++) {
    const frames: [number, Buffer][] = [];
    const feed = createFrameDecoder((type, body) => frames.push([type, Buffer.from(body)]));
    feed(stream.subarray(0, cut));
    feed(stream.subarray(cut));
    assert.deepEqual(frames, [[FRAME_WRITE, payload], [FRAME_WRITE, Buffer.alloc(0)], [FRAME_CLOSE, Buffer.alloc(0)]], `cut at ${cut}`);
  }
});

test('a large frame fed one small chunk at a time arrives once, intact', () => {
  const payload = Buffer.alloc(300_000, 0x61);
  const stream = encodeFrame(FRAME_WRITE, payload);
  const frames: Buffer[] = [];
  const feed = createFrameDecoder((_type, body) => frames.push(body));
  for (let i = 0; i < stream.length; i += 4096) feed(stream.subarray(i, i + 4096));
  assert.equal(frames.length, 1);
  assert.ok(frames[0]!.equals(payload));
});
