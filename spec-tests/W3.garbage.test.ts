// W3 garbage tolerance with a real child process: a server that prints a
// banner (and a 100 kB line of '#', and a line that looks like JSON but is
// not) on stdout before its first message, and noise before and between
// every message after that, some of it in the same write as a message and
// some split across writes. The handshake and calls still work, and every
// noise line reaches onDiagnostic as kind 'noise', in bounded excerpts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { DIAGNOSTIC_EXCERPT_CHARS } from '../src/diagnostics.js';
import {
  type Diagnostic,
} from '../src/index.js';
import { startedPids, waitGone, start } from './helpers/fault-harness.js';

test('W3: stdout noise before and between messages is reported as noise and skipped; handshake and calls work', async (t) => {
  const noise: string[] = [];
  const other: Diagnostic[] = [];
  const { client } = await start(
    t,
    { mode: 'banner' },
    {
      onDiagnostic: (d) => {
        if (d.kind === 'noise') noise.push(d.text);
        else if (d.kind !== 'stderr') other.push(d);
      },
    },
  );
  assert.equal(client.state, 'ready');
  assert.equal(client.serverInfo?.name, 'fault-server-banner');

  // The banner before the first message.
  assert.equal(noise[0], 'fault-server 0.0.1 starting up (banner mode)');
  assert.equal(noise[1], '{this is not json');
  // A long noise line reaches the hook as a bounded excerpt, not as 100 kB.
  assert.ok(noise[2]?.startsWith('#'.repeat(DIAGNOSTIC_EXCERPT_CHARS)), 'the long line is reported');
  assert.ok(noise[2]!.length < DIAGNOSTIC_EXCERPT_CHARS + 50, `excerpt of ${noise[2]!.length} chars`);
  assert.ok(noise[2]!.includes('100000'), 'the excerpt says how long the line was');

  // Calls, sequential and concurrent, between noise lines.
  const tools = await client.listTools();
  assert.ok(tools.tools.some((tool) => tool.name === 'echo'));
  assert.equal((await client.callTool('echo', { text: 'one' })).content[0]?.text, 'one');
  const many = await Promise.all(Array.from({ length: 20 }, (_, i) => client.callTool('echo', { text: `n${i}` })));
  assert.deepEqual(
    many.map((r) => r.content[0]?.text),
    Array.from({ length: 20 }, (_, i) => `n${i}`),
  );
  await client.ping();

  // Each answer came with a noise line before it and one split across two writes after it.
  const answers = 1 + 1 + 1 + 20 + 1; // initialize, tools/list, echo, 20 echoes, ping
  const partial = () => noise.filter((text) => /^\[INFO\] partial line \d+ finished$/.test(text));
  // The last answer's trailing noise line is finished in a second write just after it: wait for it, bounded.
  for (let waited = 0; partial().length < answers && waited < 2_000; waited += 20) await delay(20);
  const handling = noise.filter((text) => /^\[fault-server\] handling message \d+$/.test(text));
  assert.equal(handling.length, answers);
  assert.equal(partial().length, answers);
  assert.deepEqual(other, [], 'no other diagnostics: noise is not mistaken for an invalid message');
});

test('no child process is left behind by this file', async () => {
  assert.ok(startedPids.size >= 1);
  for (const pid of startedPids) assert.ok(await waitGone(pid), `process ${pid} is gone`);
});
