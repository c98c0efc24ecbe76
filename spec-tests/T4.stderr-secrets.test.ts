// #16 item 23 (transport part): a stdio server that prints a secret from its
// environment to stderr (and stdout) and then crashes mid-call. With the
// value in McpClientOptions.secrets, nothing the client hands out holds it:
// not the ClosedError the call rejects with (message, stderrTail, JSON),
// not client.stderrTail(), not a diagnostic (the stderr chunks split inside
// the secret, the stdout noise), also when the tail's cut falls inside it.

import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ClosedError, McpClient, StdioTransport, type Diagnostic, type McpClientOptions } from '../src/index.js';
import { killIfAlive } from './helpers/fault-harness.js';

const LEAKY = fileURLToPath(new URL('./fixtures/leaky-server.mjs', import.meta.url));
const CANARY = 'canary-7f3a9c2e4b1d8e6f5a0c';

async function leaky(t: TestContext, options: McpClientOptions, stderrTailBytes?: number) {
  const transport = new StdioTransport({ command: [process.execPath, LEAKY], server: 'leaky', env: { LEAKY_TOKEN: CANARY }, ...(stderrTailBytes ? { stderrTailBytes } : {}) });
  const client = new McpClient(transport, options);
  t.after(async () => {
    await client.close().catch(() => {});
    const pid = transport.pid;
    if (pid !== undefined) killIfAlive(pid);
  });
  await client.connect();
  return client;
}

/** Every fragment of the canary of 6 characters or more that `text` holds. */
function fragments(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 6 <= CANARY.length; i++) if (text.includes(CANARY.slice(i, i + 6))) found.push(CANARY.slice(i, i + 6));
  return found;
}

test('T4/#16.23: a crash mid-call: the ClosedError, its stderr tail, client.stderrTail() and every diagnostic are scrubbed of McpClientOptions.secrets', async (t) => {
  const diagnostics: Diagnostic[] = [];
  const client = await leaky(t, { secrets: [CANARY], onDiagnostic: (d) => diagnostics.push(d) });
  const error = await client.callTool('crash').then(
    () => assert.fail('the call must fail'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ClosedError, String(error));
  assert.equal(error.reason, 'exited');
  assert.equal(error.exitCode, 3);
  // The error still says what the server said, with the value taken out.
  assert.match(error.message, /fatal: the upstream refused \[redacted\]/);
  assert.match(error.stderrTail ?? '', /DEBUG connecting with token=\[redacted\] to https:\/\/svc\.example/);
  const stderr = diagnostics.flatMap((d) => (d.kind === 'stderr' ? [d.text] : [])).join('');
  assert.match(stderr, /token=\[redacted\] to https/, 'the chunks split inside the secret are reported whole, scrubbed');
  assert.ok(diagnostics.some((d) => d.kind === 'noise' && d.text.includes('[redacted]')), 'the stdout banner is reported, scrubbed');
  for (const [what, text] of [
    ['message', error.message],
    ['stderrTail', error.stderrTail ?? ''],
    ['JSON of the error', JSON.stringify({ ...error, message: error.message })],
    ['client.stderrTail()', client.stderrTail()],
    ['diagnostics', JSON.stringify(diagnostics)],
  ] as const) {
    assert.deepEqual(fragments(text), [], `${what} holds no piece of the canary: ${text}`);
  }
});

test('T4/#16.23: a stderr tail cut inside the secret keeps no piece of it', async (t) => {
  // The last line is "fatal: the upstream refused <canary>\n": a tail of 30 bytes starts inside the canary.
  const client = await leaky(t, { secrets: [CANARY] }, 30);
  const error = (await client.callTool('crash').catch((e: unknown) => e)) as ClosedError;
  assert.ok(error instanceof ClosedError);
  assert.deepEqual(fragments(error.stderrTail ?? ''), [], `tail: ${JSON.stringify(error.stderrTail)}`);
  assert.deepEqual(fragments(error.message), []);
});

test('T4/#16.23: without secrets the same server shows the value (the test can fail)', async (t) => {
  const client = await leaky(t, {});
  const error = (await client.callTool('crash').catch((e: unknown) => e)) as ClosedError;
  assert.ok(error.message.includes(CANARY));
});
