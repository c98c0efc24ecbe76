// S3 and W8 "a pending request never hangs when its transport dies", as
// randomised trials with real processes: 50 calls in flight (answered ones
// and ones the server never answers), and the server SIGKILLed at a random
// moment while they are being made. Every call settles within 2 s of the
// kill, either answered (it was, before the kill) or rejected with a
// ClosedError, and nothing is left as an unhandled rejection. 100 trials;
// 1,000 with MCPWIRE_STRESS=1. A failure prints the seed: rerun it with
// MCPWIRE_SEED=<seed>.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { ClosedError, McpClient, StdioTransport } from '../src/index.js';
import { within } from '../src/testing/http-fixture.js';
import { waitGone } from './helpers/fault-harness.js';
import { prng, quickServer, seedFor, trialCount } from './helpers/trials.js';

const TRIALS = trialCount(100, 1_000);
const CALLS = 50;
const SETTLE_WITHIN_MS = 2_000;

interface Outcome {
  tool: 'echo' | 'hang';
  status: 'answered' | 'closed' | 'other';
  detail: string;
  settledAt: number;
}

async function trial(random: () => number, where: string): Promise<{ outcomes: Outcome[]; killedAt: number; pid: number }> {
  const transport = new StdioTransport({ command: quickServer('ok'), server: 'kill-trial', shutdownStepMs: 200 });
  const client = new McpClient(transport);
  await client.connect();
  const pid = transport.pid!;
  const outcomes: Promise<Outcome>[] = [];
  let killedAt = 0;
  // The kill lands anywhere from before the first call is written to after the last is answered.
  const killAfterMs = random() * 25;
  const killer = delay(killAfterMs).then(() => {
    killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
  });
  for (let i = 0; i < CALLS; i++) {
    const tool = random() < 0.5 ? 'echo' : 'hang';
    const call = client.callTool(tool, { text: `call ${i}` }, { timeoutMs: 30_000 });
    outcomes.push(
      call.then(
        () => ({ tool, status: 'answered' as const, detail: '', settledAt: Date.now() }),
        (error: unknown) => ({
          tool,
          status: error instanceof ClosedError && error.code === 'closed' ? ('closed' as const) : ('other' as const),
          detail: String(error),
          settledAt: Date.now(),
        }),
      ),
    );
    // Spread the calls over a few turns of the event loop, so the kill falls between writes too.
    if (random() < 0.2) await delay(random() * 3);
  }
  await killer;
  try {
    const settled = await within(Promise.all(outcomes), `${where}: every call to settle after the kill`, SETTLE_WITHIN_MS);
    return { outcomes: settled, killedAt, pid };
  } finally {
    await client.close();
  }
}

test(`S3: ${CALLS} calls in flight, server SIGKILLed at a random moment: every call settles (answered or ClosedError) within ${SETTLE_WITHIN_MS} ms, no unhandled rejection (${TRIALS} trials)`, async (t) => {
  const seed = seedFor();
  const random = prng(seed);
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  t.after(() => process.off('unhandledRejection', onUnhandled));

  let slowest = 0;
  let answered = 0;
  let closed = 0;
  const startedAt = Date.now();
  for (let i = 0; i < TRIALS; i++) {
    const where = `trial ${i}, seed ${seed}`;
    const { outcomes, killedAt, pid } = await trial(random, where);
    for (const outcome of outcomes) {
      assert.notEqual(outcome.status, 'other', `${where}: ${outcome.detail}`);
      if (outcome.tool === 'hang') assert.equal(outcome.status, 'closed', `${where}: hang is never answered`);
      slowest = Math.max(slowest, outcome.settledAt - killedAt);
      if (outcome.status === 'answered') answered++;
      else closed++;
    }
    assert.ok(await waitGone(pid), `${where}: the server is gone`);
  }
  await delay(50); // an unhandled rejection is reported after the microtask queue drains
  assert.deepEqual(unhandled.map(String), [], `seed ${seed}: unhandled rejections`);
  t.diagnostic(
    `seed ${seed}: ${TRIALS} trials in ${Date.now() - startedAt} ms; ${answered} calls answered, ${closed} closed; slowest settle ${slowest} ms after the kill`,
  );
});
