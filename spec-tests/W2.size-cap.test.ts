// W2 bounded memory with a real child process: a server that writes a
// 100 MiB line with no newline (64 KiB pieces, each written once the pipe
// took the previous one). The pending call must fail with
// MessageTooLargeError naming the limit, the child must be stopped, and this
// process's memory must stay bounded by the cap, not by what the server sends.

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  MessageTooLargeError,
} from '../src/index.js';
import { startedPids, waitGone, start } from './helpers/fault-harness.js';
import { peakGrowth } from './helpers/memory.js';
import { tempDir } from './helpers/temp.js';

const MiB = 1024 * 1024;

async function hugeLine(t: TestContext, maxMessageBytes: number | undefined): Promise<void> {
  const dir = tempDir(t, 'w2');
  const log = join(dir, 'events.log');
  const { client, pid } = await start(t, { env: { FAULT_LOG: log }, ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }) });
  const limit = maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  assert.equal((await client.callTool('echo', { text: 'before' })).content[0]?.text, 'before');

  const { growth, result } = await peakGrowth(() => client.callTool('huge', { mib: 100 }, { timeoutMs: 20_000 }), 10);
  t.diagnostic(
    `cap ${limit / MiB} MiB: peak growth rss ${(growth.rss / MiB).toFixed(1)} MiB, arrayBuffers ${(growth.arrayBuffers / MiB).toFixed(1)} MiB`,
  );

  assert.equal(result.status, 'rejected');
  const error = (result as PromiseRejectedResult).reason as unknown;
  assert.ok(error instanceof MessageTooLargeError, `expected MessageTooLargeError, got ${String(error)}`);
  assert.equal(error.code, 'protocol');
  assert.equal(error.limitBytes, limit);
  assert.equal(error.method, 'tools/call');
  assert.ok(error.message.includes(String(limit)), 'the message names the limit');
  assert.match(error.message, /maxMessageBytes/);

  // The connection is dropped and the child stopped.
  assert.equal(client.state, 'closed');
  await assert.rejects(client.callTool('echo', { text: 'after' }), MessageTooLargeError);
  assert.ok(await waitGone(pid), 'the child was stopped');
  const events = readFileSync(log, 'utf8').split('\n').filter((line) => line.startsWith('EVENT '));
  assert.ok(events.includes('EVENT SIGTERM'), `the transport killed the child (it logged ${events.join(', ')})`);
  assert.ok(!events.includes('EVENT huge-written'), 'the child never got to write the whole line');

  // Bounded: held bytes never exceed the cap by more than pipe buffers and noise,
  // far below the 100 MiB the server tried to send.
  const bound = limit + 40 * MiB;
  assert.ok(growth.arrayBuffers < bound, `arrayBuffers grew ${(growth.arrayBuffers / MiB).toFixed(1)} MiB (bound ${bound / MiB} MiB)`);
  assert.ok(growth.rss < bound, `rss grew ${(growth.rss / MiB).toFixed(1)} MiB (bound ${bound / MiB} MiB)`);
  await client.close();
}

test('W2: a 100 MiB line fails the pending call with MessageTooLargeError (maxMessageBytes 8 MiB), stops the child, memory stays bounded', async (t) => {
  await hugeLine(t, 8 * MiB);
});

test('W2: the same with the default cap (32 MiB)', async (t) => {
  assert.equal(DEFAULT_MAX_MESSAGE_BYTES, 32 * MiB);
  await hugeLine(t, undefined);
});

test('W2: a message just under the cap still goes through', async (t) => {
  // Guards the other side of the limit: the cap is not so eager that normal large results fail.
  const { client } = await start(t, { maxMessageBytes: 1 * MiB });
  const text = 'y'.repeat(1 * MiB - 200);
  const result = await client.callTool('echo', { text });
  assert.equal(result.content[0]?.text, text);
  await assert.rejects(client.callTool('echo', { text: text + 'y'.repeat(400) }), MessageTooLargeError);
  // The connection is gone after the overflow; later calls say why.
  await assert.rejects(client.callTool('echo', { text: 'x' }), MessageTooLargeError);
});

test('W2: a 1 GiB line with no newline at the default cap peaks within 1.5x the cap in RSS (measured in a process of its own)', async () => {
  const script = fileURLToPath(new URL('./fixtures/overflow-rss.ts', import.meta.url));
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, '1024'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  const { error, rssGrowth } = JSON.parse(run.stdout) as { error: string; rssGrowth: number };
  assert.equal(error, 'MessageTooLargeError');
  const bound = 1.5 * DEFAULT_MAX_MESSAGE_BYTES;
  assert.ok(rssGrowth < bound, `rss grew ${(rssGrowth / MiB).toFixed(1)} MiB (bound ${bound / MiB} MiB)`);
});

test('no child process is left behind by this file', async () => {
  assert.ok(startedPids.size >= 3);
  for (const pid of startedPids) assert.ok(await waitGone(pid), `process ${pid} is gone`);
});
