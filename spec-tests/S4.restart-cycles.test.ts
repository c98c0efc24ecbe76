// S4 "shutdown closes every server and leaves no process behind", over many
// restart cycles of a server started through a launcher that does not
// forward signals (spec-tests/fixtures/wrapper.sh) and a long-lived server
// under it: connect, call, close, again. After all cycles no launcher or
// server survives, and this process holds what it held before: open fds and
// process listeners flat, heap growth under 5 MB. 50 cycles; 500 with
// MCPWIRE_STRESS=1. Which launcher and server behaviour each cycle gets is
// drawn from a seeded PRNG, printed on failure (MCPWIRE_SEED replays it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { McpClient, StdioTransport } from '../src/index.js';
import { liveProcessGroups } from '../src/transport/process-group.js';
import { killIfAlive, waitGone } from './helpers/fault-harness.js';
import { gc } from './helpers/memory.js';
import { openFds, processListeners, prng, quickServer, seedFor, trialCount } from './helpers/trials.js';
import { WRAPPER, wrapperPids, type WrapperPids } from './helpers/wrapped.js';

const CYCLES = trialCount(50, 500);
const MB = 1024 * 1024;
const posix = process.platform !== 'win32';

async function cycle(random: () => number): Promise<WrapperPids> {
  const serverMode = random() < 0.5 ? 'ok' : 'ignore-eof';
  const launcher = random() < 0.5 ? 'ignore' : 'die';
  const transport = new StdioTransport({
    command: ['sh', WRAPPER, ...quickServer(serverMode)],
    env: { WRAPPER_TERM: launcher },
    server: `cycle-${serverMode}-${launcher}`,
    shutdownStepMs: 100,
  });
  const client = new McpClient(transport);
  try {
    await client.connect();
    const pids = await wrapperPids(transport);
    const result = await client.callTool('echo', { text: 'cycle' });
    assert.equal(result.content[0]?.text, 'cycle');
    return pids;
  } finally {
    await client.close();
  }
}

test(`S4: ${CYCLES} restart cycles through a launcher that does not forward signals leave no process, fd, listener or heap behind`, { skip: !posix }, async (t) => {
  const seed = seedFor();
  const random = prng(seed);
  const all: WrapperPids[] = [];
  t.after(() => {
    for (const { wrapper, server } of all) for (const pid of [wrapper, server]) killIfAlive(pid);
  });
  // Warm up: module loading and first-use caches are not what this measures.
  for (let i = 0; i < 2; i++) all.push(await cycle(random));
  await delay(100); // pipes of the last cycle are closed a few ticks after close() resolves
  gc();
  const fdsBefore = openFds();
  const listenersBefore = processListeners();
  const heapBefore = process.memoryUsage().heapUsed;
  const startedAt = Date.now();

  for (let i = 0; i < CYCLES; i++) all.push(await cycle(random));

  const tookMs = Date.now() - startedAt;
  const survivors: number[] = [];
  for (const { wrapper, server } of all) for (const pid of [wrapper, server]) if (!(await waitGone(pid, 1_000))) survivors.push(pid);
  await delay(100);
  gc();
  const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
  const fdsAfter = openFds();
  t.diagnostic(
    `seed ${seed}: ${CYCLES} cycles in ${tookMs} ms; survivors ${survivors.length}; fds ${fdsBefore} -> ${fdsAfter}; heap growth ${(heapGrowth / MB).toFixed(2)} MB`,
  );
  assert.deepEqual(survivors, [], `seed ${seed}: launcher and server processes still running after close()`);
  assert.equal(liveProcessGroups(), 0, `seed ${seed}: no process group is still tracked`);
  // Not growing: the baseline may still hold an fd or two of other tests' handles closing.
  assert.ok(fdsAfter === undefined || fdsBefore === undefined || fdsAfter <= fdsBefore, `seed ${seed}: open fds ${fdsBefore} -> ${fdsAfter}`);
  assert.deepEqual(processListeners(), listenersBefore, `seed ${seed}: process listeners`);
  assert.ok(heapGrowth < 5 * MB, `seed ${seed}: heap grew ${(heapGrowth / MB).toFixed(2)} MB`);
});
