// Audit tests of the stdio read path (W1–W3; issue #20 item 3): what a real
// child process writes last, before it exits or closes its output, without
// a line break after it. The framer holds such a line until the stream
// ends; the transport must end the framer on each way the output can end,
// or that answer is lost. A `node -e` child on a real pipe; each test waits
// for the transport to close, so no process outlives it.

import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { StdioTransport } from '../src/index.js';
import type { TransportEnd } from '../src/transport/transport.js';

/** The child reads one line (a request), answers it with no line break, then does `then` (exit, or close stdout and wait). */
function child(then: 'exit' | 'close-stdout'): string {
  const after = then === 'exit' ? 'process.exit(0)' : "require('node:fs').closeSync(1); setTimeout(() => {}, 30000)";
  return `
    let got = '';
    process.stdin.on('data', (c) => {
      got += c;
      const nl = got.indexOf('\\n');
      if (nl === -1) return;
      const id = JSON.parse(got.slice(0, nl)).id;
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result: { last: true } }), () => { ${after}; });
    });`;
}

async function run(t: TestContext, then: 'exit' | 'close-stdout') {
  const transport = new StdioTransport({ command: [process.execPath, '-e', child(then)], server: 'audit-child' });
  const events: string[] = [];
  const messages: unknown[] = [];
  let closed!: (end: TransportEnd) => void;
  const ended = new Promise<TransportEnd>((resolve) => (closed = resolve));
  t.after(() => transport.close());
  await transport.start({
    onMessage: (value) => {
      events.push('message');
      messages.push(value);
    },
    onAnswersLost: () => {},
    onSessionExpired: () => {},
    onClose: (end) => {
      events.push('close');
      closed(end);
    },
  });
  await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const end = await ended;
  await transport.close();
  return { events, messages, end };
}

describe('W1–W3 stdio read path audit', { timeout: 30_000 }, () => {
  test('W1 audit: a last answer without a line break, then exit: the caller still gets it', async (t) => {
    const { events, messages, end } = await run(t, 'exit');
    assert.deepEqual(messages, [{ jsonrpc: '2.0', id: 1, result: { last: true } }]);
    assert.deepEqual(events, ['message', 'close'], 'the answer comes before the end');
    assert.equal(end.reason, 'exited');
  });

  test('W1 audit: a last answer without a line break, then stdout closed while the process runs on: the caller still gets it', async (t) => {
    const { events, messages, end } = await run(t, 'close-stdout');
    assert.deepEqual(messages, [{ jsonrpc: '2.0', id: 1, result: { last: true } }]);
    assert.deepEqual(events, ['message', 'close']);
    assert.equal(end.reason, 'output-closed');
  });
});
