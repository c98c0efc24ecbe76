// T1 stdio transport with real child processes: the two command forms
// [kaged][kestrel], cwd, env merged over the host's environment, spawn
// failures that say what to check, and stderr that is always drained (a
// server flooding stderr must not deadlock) with only a bounded tail kept.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import {
  ClosedError,
  McpClient,
  connectStdio,
} from '../src/index.js';
import { FIXTURE, startedPids, waitGone, start } from './helpers/fault-harness.js';
import { tempDir } from './helpers/temp.js';

interface Report {
  cwd: string;
  argv: string[];
  env: Record<string, string | undefined>;
}

async function report(client: McpClient): Promise<Report> {
  const result = await client.callTool('report');
  const first = result.content[0];
  assert.equal(first?.type, 'text');
  return JSON.parse(String(first.text)) as Report;
}

test('T1: `command` as an argv array [kaged] spawns the program with those arguments', async (t) => {
  const { client } = await start(t, { command: [process.execPath, FIXTURE, 'ok', 'array-form', 'two words'] });
  assert.deepEqual((await report(client)).argv, ['ok', 'array-form', 'two words']);
});

test('T1: `command` + `args` [kestrel] spawns the program with those arguments', async (t) => {
  const { client } = await start(t, { command: process.execPath, args: [FIXTURE, 'ok', 'args-form', 'two words'] });
  assert.deepEqual((await report(client)).argv, ['ok', 'args-form', 'two words']);
});

test('T1: `env` is merged on top of the host environment [kaged]: PATH and host variables stay, configured ones win', async (t) => {
  process.env.MCPWIRE_T1_HOST_ONLY = 'from-host';
  process.env.MCPWIRE_T1_OVERRIDDEN = 'from-host';
  t.after(() => {
    delete process.env.MCPWIRE_T1_HOST_ONLY;
    delete process.env.MCPWIRE_T1_OVERRIDDEN;
  });
  const { client } = await start(t, { env: { MCPWIRE_T1_OVERRIDDEN: 'from-config', MCPWIRE_T1_ADDED: 'added' } });
  const { env } = await report(client);
  assert.ok(process.env.PATH, 'the host has a PATH');
  assert.equal(env.PATH, process.env.PATH, 'PATH is still there');
  assert.equal(env.MCPWIRE_T1_HOST_ONLY, 'from-host');
  assert.equal(env.MCPWIRE_T1_OVERRIDDEN, 'from-config');
  assert.equal(env.MCPWIRE_T1_ADDED, 'added');
});

test('T1: `cwd` is the working directory of the server process', async (t) => {
  const dir = tempDir(t, 't1-cwd');
  assert.notEqual(process.cwd(), dir);
  const { client } = await start(t, { cwd: dir });
  assert.equal((await report(client)).cwd, dir);
});

test('T1: a command that does not exist fails connect with ClosedError spawn-failed that says what to check', async () => {
  const name = 'mcpwire-no-such-command-4f2a';
  await assert.rejects(connectStdio({ command: [name, '--stdio'] }), (error: unknown) => {
    assert.ok(error instanceof ClosedError, `expected ClosedError, got ${String(error)}`);
    assert.equal(error.reason, 'spawn-failed');
    assert.equal((error.cause as NodeJS.ErrnoException | undefined)?.code, 'ENOENT');
    assert.match(error.message, new RegExp(name));
    assert.match(error.message, /check the command and its PATH/);
    return true;
  });
});

test('T1: a cwd that does not exist fails connect with ClosedError spawn-failed that names the missing working directory', async () => {
  const missing = join(tmpdir(), 'mcpwire-t1-no-such-dir-9c1e', 'deeper');
  await assert.rejects(connectStdio({ command: [process.execPath, FIXTURE], cwd: missing }), (error: unknown) => {
    assert.ok(error instanceof ClosedError, `expected ClosedError, got ${String(error)}`);
    assert.equal(error.reason, 'spawn-failed');
    assert.ok(error.message.includes(missing), `the message names the cwd: ${error.message}`);
    assert.match(error.message, /working directory/);
    return true;
  });
});

test('T1: no shell: metacharacters, quotes and %VAR% in arguments reach the server byte for byte', async (t) => {
  const args = ['a; echo injected', 'b && id', 'c | cat', '$(id)', '`id`', "'single' \"double\"", '%PATH%', '$HOME', 'star *', 'new\nline', 'tab\there', '\\back\\slash', 'ünïcödé ✓', ''];
  const { client } = await start(t, { command: [process.execPath, FIXTURE, 'ok', ...args] });
  assert.deepEqual((await report(client)).argv, ['ok', ...args]);
});

test('T1: a one-string command with spaces is a program name, not split into words: spawn-failed', async () => {
  const command = `${process.execPath} ${FIXTURE}`;
  await assert.rejects(connectStdio({ command, server: 'one-string' }), (error: unknown) => {
    assert.ok(error instanceof ClosedError, `expected ClosedError, got ${String(error)}`);
    assert.equal(error.reason, 'spawn-failed');
    assert.equal((error.cause as NodeJS.ErrnoException | undefined)?.code, 'ENOENT');
    assert.match(error.message, /was not found/);
    return true;
  });
});

test('T1: stderr is always drained: a server writing 50 MiB to stderr while answering calls does not deadlock, and only the tail is kept', async (t) => {
  let stderrChars = 0;
  let sawDone = false;
  const { client, transport, pid } = await start(
    t,
    { mode: 'stderr-flood', env: { FAULT_FLOOD_MIB: '50' } },
    {
      onDiagnostic: (d) => {
        if (d.kind !== 'stderr') return;
        stderrChars += d.text.length;
        if (d.text.includes('FLOOD-DONE')) sawDone = true;
      },
    },
  );
  // Calls made while the flood runs. The fixture's stderr writes block (as in
  // a Python or Go server): if stderr were not read, it would stop answering
  // once the pipe filled and these calls would time out.
  const answers: string[] = [];
  while (!sawDone) {
    const batch = await Promise.all([1, 2, 3].map((i) => client.callTool('echo', { text: `call ${answers.length + i}` }, { timeoutMs: 5_000 })));
    for (const result of batch) answers.push(String(result.content[0]?.text));
    if (answers.length > 3_000) break; // bounded: the flood ends long before this
    await delay(5);
  }
  assert.ok(sawDone, 'the whole flood went through the stderr hook');
  assert.ok(answers.length >= 3);
  assert.deepEqual(answers.slice(0, 3), ['call 1', 'call 2', 'call 3']);
  assert.ok(stderrChars >= 50 * 1024 * 1024, `all 50 MiB were read (${stderrChars} chars)`);
  t.diagnostic(`${answers.length} calls answered during a ${(stderrChars / 1024 / 1024).toFixed(1)} MiB stderr flood`);

  // Only the last few KiB are kept, ending with what the server wrote last.
  const tail = transport.stderrTail();
  assert.ok(tail.length > 0 && tail.length <= 8 * 1024, `tail is ${tail.length} chars`);
  assert.match(tail, /FLOOD-DONE bytes=52428800\n$/);

  // And the error of a call that dies with the server carries that bounded tail.
  await assert.rejects(client.callTool('exit', { code: 4, stderr: 'last words\n' }), (error: unknown) => {
    assert.ok(error instanceof ClosedError, `expected ClosedError, got ${String(error)}`);
    assert.equal(error.exitCode, 4);
    assert.ok((error.stderrTail?.length ?? 0) <= 8 * 1024, `stderrTail is ${error.stderrTail?.length} chars`);
    assert.match(error.stderrTail ?? '', /FLOOD-DONE bytes=52428800\nlast words\n$/);
    assert.ok(error.message.length < 10 * 1024, `message is ${error.message.length} chars`);
    return true;
  });
  assert.ok(await waitGone(pid));
});

test('no child process is left behind by this file', async () => {
  assert.ok(startedPids.size >= 5);
  for (const pid of startedPids) assert.ok(await waitGone(pid), `process ${pid} is gone`);
});
