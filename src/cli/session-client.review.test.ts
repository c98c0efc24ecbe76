// Review: a reply line from the socket that is not JSON rejects request()
// (runInSession then runs the command without the session, or reports the
// failure); it used to throw inside the socket's 'data' listener, an
// uncaught exception that ended the CLI with a stack trace.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import sessionClient from './session-client.cjs';

test('a garbled reply line rejects the request instead of throwing in a listener', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'review-session-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const socket = path.join(dir, 's.sock');
  const server = createServer((connection) => connection.end('this is not JSON\n'));
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  t.after(() => server.close());
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  // node:test reports an uncaught exception as the test's failure; collect it instead, to say what happened.
  process.prependListener('uncaughtException', onUncaught);
  t.after(() => process.off('uncaughtException', onUncaught));
  const outcome = await Promise.race([
    sessionClient.request(socket, { op: 'status' }, () => undefined).then(
      () => 'resolved',
      (error: Error) => `rejected: ${error.message}`,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('unsettled'), 1_000)),
  ]);
  assert.deepEqual(uncaught, []);
  assert.match(outcome, /^rejected: /);
});
