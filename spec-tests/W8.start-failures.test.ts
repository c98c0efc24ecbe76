// W8 typed failures at start-up, with real processes: every way a stdio
// server can fail to start is a typed error that names the server and says
// what to fix (ClosedError `spawn-failed`, or ConfigError when the
// configuration can never work), connect() rejects rather than throws, and
// the connection still reports its end (onClose, `closed`). A server that
// dies at start-up is reported by its exit, however the race with our first
// write goes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClosedError, ConfigError, McpClient, StdioTransport, connectStdio, type StdioTransportOptions, type TransportEnd } from '../src/index.js';
import { FIXTURE } from './helpers/fault-harness.js';
import { trialCount } from './helpers/trials.js';
import { tempDir } from './helpers/temp.js';

const START_UP_TRIALS = trialCount(20, 500);

const posix = process.platform !== 'win32';

/** Connects, expecting failure; returns the error and how the connection reported its end. */
async function failedStart(params: StdioTransportOptions): Promise<{ error: unknown; ends: TransportEnd[]; closed: TransportEnd }> {
  const ends: TransportEnd[] = [];
  const client = new McpClient(new StdioTransport(params), { onClose: (end) => ends.push(end) });
  let pending: Promise<unknown>;
  try {
    pending = client.connect();
  } catch (error) {
    assert.fail(`connect() threw synchronously: ${String(error)}`);
  }
  const error = await pending.then(
    () => assert.fail('connect() must fail'),
    (e: unknown) => e,
  );
  const closed = await client.closed;
  return { error, ends, closed };
}

test('W8: a cwd that is a file fails with ClosedError spawn-failed naming the working directory', async (t) => {
  const file = join(tempDir(t, 'start'), 'not-a-dir');
  writeFileSync(file, '');
  const { error, ends, closed } = await failedStart({ command: [process.execPath, FIXTURE], cwd: file, server: 'cwd-file' });
  assert.ok(error instanceof ClosedError, `expected ClosedError, got ${String(error)}`);
  assert.equal(error.reason, 'spawn-failed');
  assert.equal(error.server, 'cwd-file');
  assert.ok(error.message.includes(file), error.message);
  assert.match(error.message, /working directory/);
  assert.equal(ends.length, 1, 'onClose fired once');
  assert.equal(closed.reason, 'spawn-failed');
});

test('W8: an argument list too long for the OS (E2BIG) fails with ClosedError spawn-failed saying so', async () => {
  const { error, ends } = await failedStart({ command: [process.execPath, FIXTURE, 'ok', 'x'.repeat(4 * 1024 * 1024)], server: 'e2big' });
  assert.ok(error instanceof ClosedError, `expected ClosedError, got ${String(error)}`);
  assert.equal(error.reason, 'spawn-failed');
  assert.match(error.message, /too (long|large)/);
  assert.match(error.message, /file|stdin/, 'says what to do instead');
  assert.ok(error.message.length < 1_000, 'the message does not quote the argument');
  assert.equal(ends.length, 1);
});

test('W8: a NUL byte in an argument is a ConfigError naming where it is', async () => {
  const { error, ends, closed } = await failedStart({ command: process.execPath, args: [FIXTURE, 'ok', 'a\0b'], server: 'nul-arg' });
  assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
  assert.equal(error.server, 'nul-arg');
  assert.deepEqual(error.path, ['args', 2]);
  assert.match(error.message, /NUL/);
  assert.equal(ends.length, 1);
  assert.equal(closed.reason, 'transport');
});

test('W8: a NUL byte in an environment value is a ConfigError naming the variable', async () => {
  const { error, ends } = await failedStart({ command: [process.execPath, FIXTURE], env: { MCPWIRE_BAD: 'a\0b' }, server: 'nul-env' });
  assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
  assert.deepEqual(error.path, ['env', 'MCPWIRE_BAD']);
  assert.match(error.message, /NUL/);
  assert.equal(ends.length, 1);
});

test('W8: StdioTransport.start() rejects, never throws, for a configuration that cannot work', async (t) => {
  const handlers = { onMessage() {}, onAnswersLost() {}, onSessionExpired() {}, onClose() {} };
  const cases: [StdioTransportOptions, typeof ConfigError | typeof ClosedError][] = [
    [{ command: [] }, ConfigError],
    [{ command: ['x\0'] }, ConfigError],
    [{ command: ['node'], env: { A: '\0' } }, ConfigError],
    [{ command: ['node'], cwd: FIXTURE }, ClosedError],
  ];
  for (const [options, expected] of cases) {
    const transport = new StdioTransport(options);
    t.after(() => transport.close());
    let started: Promise<void> | undefined;
    assert.doesNotThrow(() => {
      started = transport.start(handlers);
    }, JSON.stringify(options));
    await assert.rejects(started!, expected, JSON.stringify(options));
  }
});

test('W8: a script whose interpreter is missing says the file exists but its interpreter could not be run', { skip: !posix }, async (t) => {
  const script = join(tempDir(t, 'start'), 'server.sh');
  writeFileSync(script, '#!/nonexistent/interp\necho never\n');
  chmodSync(script, 0o755);
  const { error } = await failedStart({ command: [script], server: 'bad-interp' });
  assert.ok(error instanceof ClosedError, `expected ClosedError, got ${String(error)}`);
  assert.equal(error.reason, 'spawn-failed');
  assert.doesNotMatch(error.message, /not found.*PATH/, 'not reported as a missing command');
  assert.match(error.message, /exists/);
  assert.match(error.message, /\/nonexistent\/interp/, 'names the interpreter from the #! line');
});

test('W8: a server that closes its input, writes "fatal" to stderr and exits 3 is reported by its exit, not by the write that failed', { skip: !posix }, async () => {
  // Closing stdin first makes our initialize write fail with EPIPE before the exit is seen: the race, every time.
  const { error, closed } = await failedStart({ command: ['sh', '-c', 'exec 0<&-; echo fatal >&2; sleep 0.05; exit 3'], server: 'fatal' });
  assert.ok(error instanceof ClosedError, `expected ClosedError, got ${String(error)}`);
  assert.equal(error.reason, 'exited', error.message);
  assert.equal(error.exitCode, 3);
  assert.match(error.stderrTail ?? '', /fatal/);
  assert.equal(closed.reason, 'exited');
});

test(`W8: a server that fails at start-up is reported the same way every time (${START_UP_TRIALS} trials)`, { skip: !posix }, async () => {
  const seen = new Map<string, number>();
  for (let i = 0; i < START_UP_TRIALS; i++) {
    const error = await connectStdio({ command: ['sh', '-c', 'echo fatal >&2; exit 3'], server: 'fatal' }).then(
      () => assert.fail('must fail'),
      (e: unknown) => e,
    );
    const key = error instanceof ClosedError ? `${error.reason} ${error.exitCode} ${/fatal/.test(error.stderrTail ?? '')}` : String(error);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  assert.deepEqual([...seen], [['exited 3 true', START_UP_TRIALS]]);
});
