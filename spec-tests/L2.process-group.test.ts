// L2 and S4 "no zombie or orphan process" when the configured command is a
// launcher (npx, uvx, a start script) that starts the real server as its own
// child and does not forward signals. The server must still be stopped by
// close(), when the launcher exits and leaves it holding the pipes, and when
// the host exits without close(). POSIX only: the group is what gets
// signalled, and Windows has none.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClosedError, StdioTransport } from '../src/index.js';
import { liveProcessGroups } from '../src/transport/process-group.js';
import { startedPids, waitGone, isAlive } from './helpers/fault-harness.js';
import { killAfter, parseWrapperPids, startWrapped, wrappedCommand } from './helpers/wrapped.js';
import { tempDir } from './helpers/temp.js';

const posix = process.platform !== 'win32';
const HOST = fileURLToPath(new URL('./fixtures/host-without-close.ts', import.meta.url));

test('L2: close() stops a server whose launcher ignores SIGTERM (and the server ignores end of input)', { skip: !posix }, async (t) => {
  const { client, pids } = await startWrapped(t, 'ignore-eof', { env: { WRAPPER_TERM: 'ignore' }, shutdownStepMs: 200 });
  await client.ping();
  await client.close();
  assert.ok(await waitGone(pids.server, 1_000), `the server ${pids.server} is gone after close()`);
  assert.ok(await waitGone(pids.wrapper, 1_000), `the launcher ${pids.wrapper} is gone after close()`);
});

test('L2: close() stops a server whose launcher dies on SIGTERM without forwarding it', { skip: !posix }, async (t) => {
  const { client, pids } = await startWrapped(t, 'ignore-eof', { env: { WRAPPER_TERM: 'die' }, shutdownStepMs: 200 });
  await client.ping();
  await client.close();
  assert.ok(await waitGone(pids.server, 1_000), `the server ${pids.server} is gone after close()`);
  assert.ok(await waitGone(pids.wrapper, 1_000), `the launcher ${pids.wrapper} is gone after close()`);
});

test('L2: when the launcher exits and the server keeps the pipes open, pending calls fail at once and close() stops the server', { skip: !posix }, async (t) => {
  const { client, pids } = await startWrapped(t, 'ignore-eof', { shutdownStepMs: 200 });
  const pending = client.callTool('hang', {}, { timeoutMs: 20_000 });
  await client.ping();
  process.kill(pids.wrapper, 'SIGUSR1');
  // Sampled in the rejection itself: the call must fail on the launcher's
  // exit, while the grandchild still holds the pipes, not when it goes away.
  const { error, serverAlive } = await pending.then(
    () => assert.fail('hang is never answered'),
    (e: unknown) => ({ error: e, serverAlive: isAlive(pids.server) }),
  );
  assert.ok(error instanceof ClosedError, `expected ClosedError (not a timeout), got ${String(error)}`);
  assert.equal(error.reason, 'exited');
  assert.equal(error.exitCode, 7, 'the launcher exit is what is reported');
  assert.ok(serverAlive, `the server ${pids.server} still ran when the call failed`);
  await client.close();
  assert.ok(await waitGone(pids.server, 1_000), `the server ${pids.server} left behind by its launcher is gone after close()`);
});

test('L2: a host that exits without close() takes its servers along (launcher and server)', { skip: !posix }, async (t) => {
  const dir = tempDir(t, 'host-exit');
  const pidsFile = join(dir, 'pids');
  const host = spawn(process.execPath, ['--import', 'tsx', HOST, 'exit', JSON.stringify(wrappedCommand('ignore-eof'))], {
    env: { ...process.env, WRAPPER_PIDS: pidsFile, WRAPPER_TERM: 'ignore' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.after(() => {
    if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
  });
  let out = '';
  host.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => host.once('exit', (c) => resolve(c)));
  assert.equal(code, 0, `the host ran (stdout: ${out})`);
  assert.match(out, /^ready \d+/);
  const pids = parseWrapperPids(readFileSync(pidsFile, 'utf8'));
  assert.ok(pids, 'the launcher reported its pids');
  killAfter(t, pids.server);
  killAfter(t, pids.wrapper);
  assert.ok(await waitGone(pids.server, 2_000), `the server ${pids.server} is gone after the host exited`);
  assert.ok(await waitGone(pids.wrapper, 2_000), `the launcher ${pids.wrapper} is gone after the host exited`);
});

test('L2: after the host is SIGKILLed nothing of ours runs; a server that stops at end of input still stops', { skip: !posix }, async (t) => {
  const dir = tempDir(t, 'host-kill');
  const pidsFile = join(dir, 'pids');
  const host = spawn(process.execPath, ['--import', 'tsx', HOST, 'wait', JSON.stringify(wrappedCommand('ok'))], {
    env: { ...process.env, WRAPPER_PIDS: pidsFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.after(() => {
    if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
  });
  const exited = new Promise((resolve) => host.once('exit', resolve));
  await new Promise<void>((resolve) => host.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve()));
  const pids = parseWrapperPids(readFileSync(pidsFile, 'utf8'));
  assert.ok(pids);
  killAfter(t, pids.server);
  killAfter(t, pids.wrapper);
  host.kill('SIGKILL');
  await exited;
  // The server's stdin ends with the host (the host held its only write end).
  assert.ok(await waitGone(pids.server, 2_000), 'the server saw the end of its input and exited');
  assert.ok(await waitGone(pids.wrapper, 2_000), 'the launcher followed its server');
});

test('L2: one exit listener for all servers, removed when none is left running', { skip: !posix }, async () => {
  const before = process.listenerCount('exit');
  const transports = [1, 2, 3].map(() => new StdioTransport({ command: wrappedCommand('ok'), server: 'registry' }));
  const handlers = { onMessage() {}, onAnswersLost() {}, onSessionExpired() {}, onClose() {} };
  await Promise.all(transports.map((transport) => transport.start(handlers)));
  for (const transport of transports) startedPids.add(transport.pid!);
  assert.equal(liveProcessGroups(), 3);
  assert.equal(process.listenerCount('exit'), before + 1, 'a single listener, however many servers run');
  await Promise.all(transports.map((transport) => transport.close()));
  assert.equal(liveProcessGroups(), 0);
  assert.equal(process.listenerCount('exit'), before, 'removed once no server is left');
});

test('no process is left behind by this file', async () => {
  for (const pid of startedPids) assert.ok(await waitGone(pid), `process ${pid} is gone`);
  for (const pid of startedPids) assert.ok(!isAlive(pid));
});
