// W3 garbage tolerance with a real child process: a server that prints a
// banner (and a 100 kB line of '#', and a line that looks like JSON but is
// not) on stdout before its first message, and noise before and between
// every message after that, some of it in the same write as a message and
// some split across writes. The handshake and calls still work, and every
// noise line reaches onDiagnostic as kind 'noise', in bounded excerpts.

import { after, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { DIAGNOSTIC_EXCERPT_CHARS } from '../src/diagnostics.js';
import {
  McpClient,
  StdioTransport,
  type Diagnostic,
  type McpClientOptions,
  type StdioTransportOptions,
} from '../src/index.js';

// --- harness (each spec file keeps its own copy: spec-tests/helpers/ belongs to another suite) ---
const FIXTURE = fileURLToPath(new URL('./fixtures/fault-server.mjs', import.meta.url));
const startedPids = new Set<number>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** Polls until the process is gone (exited and reaped); false if it is still there after `ms`. */
async function waitGone(pid: number, ms = 3_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await delay(20);
  }
  return true;
}

interface Started {
  client: McpClient;
  transport: StdioTransport;
  pid: number;
}

/** Spawns the fault fixture (or `command`) and connects; the child is killed after the test whatever happens. */
async function start(
  t: TestContext,
  transportOptions: Partial<StdioTransportOptions> & { mode?: string },
  clientOptions: McpClientOptions = {},
): Promise<Started> {
  const { mode = 'ok', ...rest } = transportOptions;
  const transport = new StdioTransport({ command: [process.execPath, FIXTURE, mode], server: `fault-${mode}`, ...rest });
  const client = new McpClient(transport, clientOptions);
  t.after(async () => {
    // Normally already closed. After a failure, give close() a moment, then SIGKILL whatever is left.
    await Promise.race([client.close().catch(() => {}), delay(1_000, undefined, { ref: false })]);
    const pid = transport.pid;
    if (pid === undefined) return;
    startedPids.add(pid);
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  });
  await client.connect();
  const pid = transport.pid;
  assert.ok(pid !== undefined, 'the transport reports the child pid');
  startedPids.add(pid);
  return { client, transport, pid };
}

after(() => {
  for (const pid of startedPids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});
// --- end harness ---

test('W3: stdout noise before and between messages is reported as noise and skipped; handshake and calls work', async (t) => {
  const noise: string[] = [];
  const other: Diagnostic[] = [];
  const { client } = await start(
    t,
    { mode: 'banner' },
    {
      onDiagnostic: (d) => {
        if (d.kind === 'noise') noise.push(d.text);
        else if (d.kind !== 'stderr') other.push(d);
      },
    },
  );
  assert.equal(client.state, 'ready');
  assert.equal(client.serverInfo?.serverInfo.name, 'fault-server-banner');

  // The banner before the first message.
  assert.equal(noise[0], 'fault-server 0.0.1 starting up (banner mode)');
  assert.equal(noise[1], '{this is not json');
  // A long noise line reaches the hook as a bounded excerpt, not as 100 kB.
  assert.ok(noise[2]?.startsWith('#'.repeat(DIAGNOSTIC_EXCERPT_CHARS)), 'the long line is reported');
  assert.ok(noise[2]!.length < DIAGNOSTIC_EXCERPT_CHARS + 50, `excerpt of ${noise[2]!.length} chars`);
  assert.ok(noise[2]!.includes('100000'), 'the excerpt says how long the line was');

  // Calls, sequential and concurrent, between noise lines.
  const tools = await client.listTools();
  assert.ok(tools.tools.some((tool) => tool.name === 'echo'));
  assert.equal((await client.callTool('echo', { text: 'one' })).content[0]?.text, 'one');
  const many = await Promise.all(Array.from({ length: 20 }, (_, i) => client.callTool('echo', { text: `n${i}` })));
  assert.deepEqual(
    many.map((r) => r.content[0]?.text),
    Array.from({ length: 20 }, (_, i) => `n${i}`),
  );
  await client.ping();

  // Each answer came with a noise line before it and one split across two writes after it.
  const answers = 1 + 1 + 1 + 20 + 1; // initialize, tools/list, echo, 20 echoes, ping
  const partial = () => noise.filter((text) => /^\[INFO\] partial line \d+ finished$/.test(text));
  // The last answer's trailing noise line is finished in a second write just after it: wait for it, bounded.
  for (let waited = 0; partial().length < answers && waited < 2_000; waited += 20) await delay(20);
  const handling = noise.filter((text) => /^\[fault-server\] handling message \d+$/.test(text));
  assert.equal(handling.length, answers);
  assert.equal(partial().length, answers);
  assert.deepEqual(other, [], 'no other diagnostics: noise is not mistaken for an invalid message');
});

test('no child process is left behind by this file', async () => {
  assert.ok(startedPids.size >= 1);
  for (const pid of startedPids) assert.ok(await waitGone(pid), `process ${pid} is gone`);
});
