// S5 with T4: what a host reads about a server (its last error, its stderr
// tail, the reason a call is refused) never shows a secret value of the
// config, though the server printed it and the error carries its stderr.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClosedError } from '../src/errors.js';
import { configOf, fixtureServer, openForTest } from './helpers/toolsource.js';

test('S5/T4: a config secret the server prints before it dies is scrubbed from status and from the refusal a call gets', async (t) => {
  // The fixture writes "fatal: cannot start" to stderr and exits 3: declare part of it a secret of the config.
  const secret = 'cannot start';
  const source = await openForTest(t, { start: 'startup', config: configOf([fixtureServer('leaky', { TS_CRASH_AT_START: '1' })], { secrets: [secret] }) });
  const status = source.status()[0]!;
  assert.equal(status.state, 'restarting');
  assert.match(status.lastError ?? '', /exited with code 3/);
  assert.match(status.stderrTail, /fatal: \[redacted\]/);
  assert.doesNotMatch(JSON.stringify(status), new RegExp(secret));
  const refused = await source.call('mcp.leaky.echo').then(
    () => assert.fail('the call should be refused'),
    (e: unknown) => e,
  );
  assert.ok(refused instanceof ClosedError && refused.reason === 'unavailable');
  assert.doesNotMatch(`${refused.message}\n${String((refused.cause as Error).message)}`, new RegExp(secret));
});
