// W7 at scale: 10,000 calls that all time out (100,000 with
// MCPWIRE_STRESS=1), some with a signal too, over an in-memory transport
// whose server never answers. Each rejects with TimeoutError, each id gets
// exactly one notifications/cancelled, and afterwards no timer or handle is
// left: process.getActiveResourcesInfo() is what it was before.

import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, test } from 'node:test';
import { Connection } from '../src/client/connection.js';
import { TimeoutError } from '../src/errors.js';
import { ScriptedTransport } from '../src/testing/scripted-transport.js';
import { runs } from './helpers/property.js';

const resources = () => process.getActiveResourcesInfo().slice().sort();
const settleLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('W7 timeouts at scale', { timeout: 300_000 }, () => {
  test('W7: 10,000 timed-out calls leave no timer or handle, and each is cancelled exactly once', async (t) => {
    const calls = runs(10_000, 100_000);
    await settleLoop();
    const before = resources();
    const transport = new ScriptedTransport(undefined, { server: 'silent' });
    const connection = new Connection(transport);
    await connection.open();
    const started = performance.now();
    const controller = new AbortController(); // never aborted: its listeners must be removed too
    const pending = Array.from({ length: calls }, (_, i) =>
      connection.request('tools/call', { name: 'slow' }, { timeoutMs: 20 + (i % 5) * 10, ...(i % 2 ? { signal: controller.signal } : {}) }).then(
        () => 'answered',
        (error: unknown) => (error instanceof TimeoutError ? 'timeout' : String(error)),
      ),
    );
    const outcomes = await Promise.all(pending);
    const elapsed = performance.now() - started;
    assert.deepEqual([...new Set(outcomes)], ['timeout']);
    await settleLoop(); // the cancellations go out in the same turn; let their sends finish

    const ids = transport.requests('tools/call').map((m) => m.id);
    assert.equal(ids.length, calls);
    const cancelled = new Map<unknown, number>();
    for (const id of transport.cancellations()) cancelled.set(id, (cancelled.get(id) ?? 0) + 1);
    assert.equal(cancelled.size, calls, 'every call was cancelled');
    for (const id of ids) assert.equal(cancelled.get(id), 1, `request ${String(id)} cancelled ${cancelled.get(id) ?? 0} times`);

    assert.deepEqual(resources(), before, 'timers or handles outlived the calls');
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'abort listeners outlived the calls');
    await connection.close();
    assert.deepEqual(resources(), before);
    t.diagnostic(`${calls} calls timed out in ${elapsed.toFixed(0)} ms; ${cancelled.size} cancellations; resources after: ${JSON.stringify(resources())}`);
  });
});
