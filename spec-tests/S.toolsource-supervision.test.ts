// S1–S5 through the tool source, with real child processes and a clock the
// test moves by hand: start at first use or at startup, the restart
// schedule (ADR-0043 §3: 1 s, 2 s, 4 s, 8 s … capped at 60 s; failed after
// 5 consecutive failures until re-enabled), when the failure count starts
// again, shutdown with no process left, and the state a host reads.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ClosedError } from '../src/errors.js';
import type { ServerStatus } from '../src/toolsource/supervisor.js';
import { until } from '../src/testing/http-fixture.js';
import { isAlive } from '../src/util/process-alive.js';
import { ManualClock, TOOLSOURCE_FIXTURE, configOf, fixtureServer, openForTest, stateOf } from './helpers/toolsource.js';
import { tempLog } from './helpers/temp.js';
import { killAfter, parseWrapperPids, WRAPPER } from './helpers/wrapped.js';

const starts = (log: string) => {
  try {
    return readFileSync(log, 'utf8').split('\n').filter((line) => line.startsWith('start ')).length;
  } catch {
    return 0;
  }
};

describe('S1 (ADR-0043 §3): when servers start', () => {
  test('S1: first use (the default) spawns nothing until tools are asked for; startup discovers before openToolSource resolves', async (t) => {
    const lazyLog = tempLog(t, 'ts');
    const lazy = await openForTest(t, { config: configOf([fixtureServer('lazy', { TS_LOG: lazyLog })]) });
    assert.equal(starts(lazyLog), 0);
    assert.equal(lazy.status()[0]!.state, 'idle');
    await lazy.call('mcp.lazy.echo', { text: 'first use' });
    assert.equal(starts(lazyLog), 1, 'the first call started it');

    const eagerLog = tempLog(t, 'ts');
    const eager = await openForTest(t, { start: 'startup', config: configOf([fixtureServer('eager', { TS_LOG: eagerLog })]) });
    assert.equal(eager.status()[0]!.state, 'ready');
    assert.equal(eager.status()[0]!.tools, 1);
  });
});

describe('S2 (ADR-0043 §3): restarts', () => {
  test('S2: a server that keeps failing is retried after 1 s, 2 s, 4 s, 8 s, then marked failed at the 5th failure; enable() starts over', async (t) => {
    const clock = new ManualClock();
    const log = tempLog(t, 'ts');
    const source = await openForTest(t, { clock, config: configOf([fixtureServer('flaky', { TS_LOG: log, TS_CRASH_AT_START: '1' })]) });
    const seen: ServerStatus[] = [];
    source.on('server-state', (s) => seen.push(s));
    await source.tools(); // first use: the start fails
    const delays: number[] = [];
    for (let failure = 1; failure <= 4; failure++) {
      const status = source.status()[0]!;
      assert.equal(status.state, 'restarting', `after failure ${failure}`);
      assert.equal(status.consecutiveFailures, failure);
      delays.push(status.nextAttemptAt! - clock.now());
      assert.deepEqual(clock.pending(), [delays.at(-1)], 'one timer, for the next attempt');
      await assert.rejects(source.call('mcp.flaky.echo'), (e: unknown) => e instanceof ClosedError && e.reason === 'unavailable' && /failed to start and starts again in [12468] s/.test(e.message));
      clock.advance(delays.at(-1)! - 1);
      assert.equal(starts(log), failure, 'not a millisecond early');
      clock.advance(1);
      await stateOf(source, 'flaky', failure === 4 ? 'failed' : 'restarting');
      if (failure < 4) await new Promise<void>((resolve) => (source.status()[0]!.consecutiveFailures === failure + 1 ? resolve() : source.on('server-state', (s) => s.consecutiveFailures === failure + 1 && resolve())));
    }
    assert.deepEqual(delays, [1000, 2000, 4000, 8000]);
    const failed = source.status()[0]!;
    assert.equal(failed.state, 'failed');
    assert.equal(failed.consecutiveFailures, 5);
    assert.equal(failed.restarts, 4);
    assert.match(failed.reason ?? '', /5 consecutive failures; the last: .*exited with code 3/);
    assert.deepEqual(clock.pending(), [], 'no more attempts');
    clock.advance(10 * 60_000);
    assert.equal(starts(log), 5);
    await assert.rejects(source.call('mcp.flaky.echo'), (e: unknown) => e instanceof ClosedError && /marked failed/.test(e.message));
    source.enable('flaky');
    assert.equal(source.status()[0]!.state, 'idle');
    assert.equal(source.status()[0]!.consecutiveFailures, 0);
    await source.tools();
    assert.equal(starts(log), 6, 'started again at next use');
    assert.ok(seen.some((s) => s.state === 'starting'));
  });

  test('S2/#18 item 10: with maxFailures 1, the reason says "1 consecutive failure", in the singular', async (t) => {
    const log = tempLog(t, 'ts');
    const source = await openForTest(t, { clock: new ManualClock(), restart: { maxFailures: 1 }, config: configOf([fixtureServer('once', { TS_LOG: log, TS_CRASH_AT_START: '1' })]) });
    await source.tools();
    await stateOf(source, 'once', 'failed');
    assert.match(source.status()[0]!.reason ?? '', /^1 consecutive failure; the last: .*exited with code 3/);
  });

  test('S2: the backoff is capped at 60 s', async (t) => {
    const clock = new ManualClock();
    const source = await openForTest(t, { clock, restart: { maxFailures: 10 }, config: configOf([fixtureServer('flaky', { TS_CRASH_AT_START: '1' })]) });
    await source.tools();
    const delays: number[] = [];
    for (let failure = 1; failure < 10; failure++) {
      const status = source.status()[0]!;
      delays.push(status.nextAttemptAt! - clock.now());
      const next = new Promise<void>((resolve) => source.on('server-state', (s) => s.consecutiveFailures === failure + 1 && resolve()));
      clock.advance(delays.at(-1)!);
      await next;
    }
    assert.deepEqual(delays, [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
  });

  test('S2: the failure count starts again once a server has stayed up for the stability window; a crash before it counts on', async (t) => {
    const clock = new ManualClock();
    const source = await openForTest(t, { clock, restart: { stableAfterMs: 60_000 }, config: configOf([fixtureServer('worker', { TS_TOOLS: 'exit,echo' })]) });
    await source.tools();
    // Crash soon after start: the first failure.
    await assert.rejects(source.call('mcp.worker.exit', { code: 1 }), ClosedError);
    await stateOf(source, 'worker', 'restarting');
    assert.equal(source.status()[0]!.consecutiveFailures, 1);
    clock.advance(1000);
    await stateOf(source, 'worker', 'ready');
    // Up for less than the window, then a crash: the count goes on.
    clock.advance(59_999);
    await assert.rejects(source.call('mcp.worker.exit', { code: 1 }), ClosedError);
    await stateOf(source, 'worker', 'restarting');
    assert.equal(source.status()[0]!.consecutiveFailures, 2);
    assert.equal(source.status()[0]!.nextAttemptAt! - clock.now(), 2000);
    clock.advance(2000);
    await stateOf(source, 'worker', 'ready');
    // Up for the whole window, then a crash: this one is the first of a new count.
    clock.advance(60_000);
    await assert.rejects(source.call('mcp.worker.exit', { code: 1 }), ClosedError);
    await stateOf(source, 'worker', 'restarting');
    assert.equal(source.status()[0]!.consecutiveFailures, 1);
    assert.equal(source.status()[0]!.nextAttemptAt! - clock.now(), 1000);
    assert.equal(source.status()[0]!.restarts, 2);
  });
});

describe('S4/S5: shutdown and state', () => {
  test('S5: status shows pid, tools, calls and errors; S4: close() leaves no server process behind', async (t) => {
    const source = await openForTest(t, { start: 'startup', config: configOf([fixtureServer('a', { TS_TOOLS: 'echo,hang' }, { timeoutMs: 100 }), fixtureServer('b')]) });
    await source.call('mcp.a.echo', { text: 'x' });
    await assert.rejects(source.call('mcp.a.hang'));
    const [a, b] = source.status();
    assert.equal(a!.state, 'ready');
    assert.equal(a!.tools, 2);
    assert.equal(a!.calls, 2);
    assert.equal(a!.errors, 1);
    assert.equal(a!.transport, 'stdio');
    const pids = [a!.pid, b!.pid];
    assert.ok(pids.every((pid) => typeof pid === 'number' && isAlive(pid)));
    await source.close();
    for (const pid of pids) assert.equal(isAlive(pid!), false, `pid ${pid} is gone`);
    assert.deepEqual(source.status().map((s) => s.state), ['closed', 'closed']);
    await assert.rejects(source.call('mcp.a.echo'), (e: unknown) => e instanceof ClosedError);
  });

  test('S4: close() during a slow start stops that start too', async (t) => {
    const log = tempLog(t, 'ts');
    const source = await openForTest(t, { config: configOf([fixtureServer('slow', { TS_LOG: log, TS_INIT_DELAY_MS: '5000' })]) });
    const discovering = source.tools();
    await until(() => starts(log) > 0, 'the slow server to start');
    const pid = Number(readFileSync(log, 'utf8').split('\n')[0]!.split(' ')[1]);
    await source.close();
    await discovering;
    assert.equal(isAlive(pid), false);
  });

  test('S1/C3: a disabled server is never contacted and says why', async (t) => {
    const log = tempLog(t, 'ts');
    const source = await openForTest(t, { start: 'startup', config: configOf([fixtureServer('off', { TS_LOG: log }, { disabled: true })]) });
    assert.equal(source.status()[0]!.state, 'disabled');
    assert.match(source.status()[0]!.reason ?? '', /disabled/);
    assert.equal(starts(log), 0);
    await assert.rejects(source.call('mcp.off.echo'), ConfigError_or_Closed);
  });

  test('T4: a server declared in a form this version cannot start is refused at start with its reason; the others work', async (t) => {
    const source = await openForTest(t, {
      start: 'startup',
      config: configOf([fixtureServer('oauthy', {}, { unsupported: 'the transport "carrier-pigeon" is not supported' }), fixtureServer('plain')]),
    });
    const status = source.status().find((s) => s.key === 'oauthy')!;
    assert.match(status.lastError ?? '', /carrier-pigeon/);
    assert.equal((await source.tools()).length, 1);
  });
});

function ConfigError_or_Closed(e: unknown): boolean {
  return e instanceof Error && ('code' in e) && (e.code === 'config' || e.code === 'closed');
}

describe('S4: a launcher\'s server goes with it', () => {
  test('S4: close() stops a server started through a launcher that ignores SIGTERM and does not forward signals (an npx-style wrapper), grandchild included', async (t) => {
    const log = tempLog(t, 'ts');
    const server = fixtureServer('wrapped', { WRAPPER_PIDS: log, TS_TOOLS: 'echo' });
    const source = await openForTest(t, {
      start: 'startup',
      config: configOf([{ ...server, params: { transport: 'stdio', command: ['sh', WRAPPER, process.execPath, TOOLSOURCE_FIXTURE], env: { WRAPPER_PIDS: log }, server: 'wrapped' } }]),
    });
    assert.equal(source.status()[0]!.state, 'ready');
    const pids = parseWrapperPids(readFileSync(log, 'utf8'));
    assert.ok(pids, 'the launcher reported its pids');
    killAfter(t, pids.server);
    killAfter(t, pids.wrapper);
    assert.ok(isAlive(pids.wrapper) && isAlive(pids.server), 'both running');
    await source.close();
    assert.equal(isAlive(pids.wrapper), false, 'the launcher is gone');
    assert.equal(isAlive(pids.server), false, 'and so is the server it started');
  });
});
