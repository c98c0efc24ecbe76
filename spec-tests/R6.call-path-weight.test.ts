// R6, T1 (#20): what one tools/call costs the client in promises and Node
// timers over stdio, bare and through the tool source. Each promise is an
// allocation and a microtask; bench/ measures them as CPU per call
// (`e2e-sequential`, `toolsource-dispatch`), but a timing assertion would be
// noise on a shared machine, while these counts are exact: the test fails
// as soon as a wrapper promise or a per-call timer comes back on the path.
// The servers run in processes of their own (their promises are not
// counted) and end with the test.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { McpClient, StdioTransport } from '../src/index.js';
import { weighCalls } from './helpers/call-weight.js';
import { configOf, fixtureServer, openForTest, TOOLSOURCE_FIXTURE } from './helpers/toolsource.js';

/**
 * Promises per stdio call, the caller's await included (measured: 5 on Node
 * 20, 22 and 24: the request, the write batch and its catch, callTool's
 * check, the await).
 */
const CLIENT_BUDGET = 5;
/** What the tool source adds to its client's call: the one `.then` that caps, times and records it (two before #20's cut of the supervisor's counting hop). */
const TOOL_SOURCE_EXTRA = 1;
const CALLS = 50;

/** Warms the path with 20 calls, then weighs CALLS more; every answer is checked (a path that dropped or mixed up answers would only look light). */
async function weigh<R>(call: (i: number) => Promise<R>, text: (result: R) => string): Promise<{ promises: number; timers: number }> {
  for (let i = 0; i < 20; i++) assert.equal(text(await call(i)), `warm ${i}`); // modules loaded, queues and maps warm
  const weight = await weighCalls(CALLS, (i) => call(1_000 + i));
  assert.deepEqual(weight.results.map(text), Array.from({ length: CALLS }, (_, i) => `warm ${1_000 + i}`));
  return weight;
}

function textOf(result: { content: readonly unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

test(`T1 (#20): a tools/call over stdio creates at most ${CLIENT_BUDGET} promises on the client, the caller's await included, and no Node timer`, async (t) => {
  const client = new McpClient(new StdioTransport({ command: [process.execPath, TOOLSOURCE_FIXTURE], server: 'weight' }));
  t.after(() => client.close());
  await client.connect();
  const weight = await weigh((i) => client.callTool('echo', { text: `warm ${i}` }), textOf);
  assert.ok(weight.promises <= CLIENT_BUDGET, `${weight.promises} promises per call (budget ${CLIENT_BUDGET}): a wrapper promise came back on the stdio call path`);
  // The request's deadline shares one armed timer per duration (src/util/deadlines.ts), kept while the queue is empty.
  assert.equal(weight.timers, 0, `${weight.timers} Node timers per call: a timer per request came back`);
});

test(`R6 (#20): a call through the tool source adds at most ${TOOL_SOURCE_EXTRA} promise to its client's call, and no Node timer`, async (t) => {
  const source = await openForTest(t, { start: 'startup', config: configOf([fixtureServer('w')]) });
  const weight = await weigh((i) => source.call('mcp.w.echo', { text: `warm ${i}` }), (called) => textOf(called.result));
  const budget = CLIENT_BUDGET + TOOL_SOURCE_EXTRA;
  assert.ok(weight.promises <= budget, `${weight.promises} promises per call (budget ${budget}): the tool source's dispatch or the supervisor added a promise hop`);
  assert.equal(weight.timers, 0, `${weight.timers} Node timers per call`);
  // The hop removed from the supervisor counted failures; they are still counted (the rejection handler reports them).
  await assert.rejects(source.call('mcp.w.echo', { text: 'x' }, { signal: AbortSignal.abort() }));
  const status = source.status().find((s) => s.key === 'w')!;
  assert.equal(status.calls, 20 + CALLS + 1);
  assert.equal(status.errors, 1);
});

test('R6 (#20): a `within` that throws fails the call as a rejection, never a throw out of call(), and the failure is counted', async (t) => {
  const source = await openForTest(t, { start: 'startup', config: configOf([fixtureServer('w')]) });
  const within = (): never => {
    throw new Error('the host refused to run it');
  };
  let called: Promise<unknown> | undefined;
  assert.doesNotThrow(() => {
    called = source.call('mcp.w.echo', { text: 'x' }, { within });
  });
  await assert.rejects(called!, /the host refused to run it/);
  const status = source.status().find((s) => s.key === 'w')!;
  assert.deepEqual([status.calls, status.errors], [1, 1]);
});
