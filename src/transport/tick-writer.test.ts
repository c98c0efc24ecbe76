// TickWriter: lines of one tick leave in one write, in order; each tick's
// lines share that write's outcome; flush() writes at once.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TickWriter } from './tick-writer.js';

function recorder(fail?: (text: string) => Error | undefined) {
  const writes: string[] = [];
  const writer = new TickWriter((text, done) => {
    writes.push(text);
    setImmediate(() => done(fail?.(text) ?? null));
    return undefined;
  });
  return { writes, writer };
}

test('lines pushed in one tick go out in one write, in order; the next tick starts a new write', async () => {
  const { writes, writer } = recorder();
  const first = [writer.push('a\n'), writer.push('b\n'), writer.push('c\n')];
  assert.deepEqual(writes, [], 'nothing is written before the tick ends');
  await Promise.all(first);
  await writer.push('d\n');
  assert.deepEqual(writes, ['a\nb\nc\n', 'd\n']);
});

test('a failed write rejects every line of its batch and none of the next', async () => {
  const boom = new Error('EPIPE');
  const { writer } = recorder((text) => (text.startsWith('x') ? boom : undefined));
  const batch = [writer.push('x1\n'), writer.push('x2\n')];
  const results = await Promise.allSettled(batch);
  assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected']);
  for (const r of results) assert.equal((r as PromiseRejectedResult).reason, boom);
  await writer.push('ok\n'); // resolves: the failure stayed with its batch
});

test('flush() writes what is queued at once, and the end of the tick then has nothing left to write', async () => {
  const { writes, writer } = recorder();
  const pending = writer.push('last\n');
  writer.flush();
  assert.deepEqual(writes, ['last\n']);
  writer.flush(); // nothing queued: no empty write
  await pending;
  await new Promise((resolve) => process.nextTick(resolve));
  assert.deepEqual(writes, ['last\n']);
});

test('a failed write rejects its batch with what the failure hook makes of the error; a refused write with the refusal as it is', async () => {
  const boom = new Error('EPIPE');
  const refusal = new Error('closed');
  let refuse = false;
  const seen: Error[] = [];
  const writer = new TickWriter(
    (text, done) => {
      if (refuse) return refusal;
      setImmediate(() => done(boom));
      return undefined;
    },
    async (error) => {
      seen.push(error);
      await new Promise((resolve) => setImmediate(resolve)); // the stdio transport waits for the process's end
      return new Error(`mapped: ${error.message}`);
    },
  );
  await assert.rejects(writer.push('a\n'), { message: 'mapped: EPIPE' });
  assert.deepEqual(seen, [boom]);
  refuse = true;
  await assert.rejects(writer.push('b\n'), (error) => error === refusal);
  assert.deepEqual(seen, [boom], 'a refusal is not mapped');
});
