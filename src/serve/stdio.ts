// `mcpwire serve --stdio`: one downstream client on a byte stream pair (the
// process's stdin and stdout), one JSON message per line (MCP transports,
// stdio: "Messages are delimited by newlines, and MUST NOT contain embedded
// newlines"). The end of input ends the session: its calls are cancelled.
// Nothing but messages is written to the output; diagnostics go elsewhere.
// The lines sent during one tick leave in one write (#21 item 1): sixteen
// answers released by one read of the upstream's answers cost one write to
// the pipe (a synchronous syscall for stdout on Linux) and one read on the
// client's side, not sixteen of each. A failed write (EPIPE: the client
// went away) ends the session instead of throwing.

import type { Readable, Writable } from 'node:stream';
import { createLineFramer, DEFAULT_MAX_MESSAGE_BYTES } from '../jsonrpc/line-framer.js';
import { encodeLine } from '../jsonrpc/message.js';
import { ServeSession, type ServeSessionOptions } from './protocol.js';

export interface StdioServeOptions extends Omit<ServeSessionOptions, 'send'> {
  input: Readable;
  output: Writable;
  maxMessageBytes?: number;
}

export interface StdioServe {
  session: ServeSession;
  /** Settles when the input has ended (or close() was called) and the session is closed. */
  closed: Promise<void>;
  close(): void;
}

export function serveStdio(options: StdioServeOptions): StdioServe {
  const { input, output, onProblem } = options;
  let ended = false;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  // The lines of this tick, in the order sent; flushed on the next tick (after the microtasks that produce a read's answers).
  let queued = '';
  const flush = () => {
    const text = queued;
    queued = '';
    if (text !== '' && output.writable) output.write(text);
  };
  const session = new ServeSession({
    ...options,
    send: (message) => {
      if (ended) return;
      if (queued === '') process.nextTick(flush);
      queued += encodeLine(message);
    },
  });
  // A write that fails (the reader closed the pipe) is the client gone: without a listener it would be an uncaught exception.
  output.on('error', (error) => {
    if (!ended) onProblem?.(`the output failed (${(error as NodeJS.ErrnoException).code ?? error.message}): the session ends`);
    queued = '';
    finish();
  });
  const framer = createLineFramer({
    maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    onMessage: (value) => session.receive(value),
    onNoise: (line) => onProblem?.(`a line that is not JSON was skipped: ${line.slice(0, 80)}`),
    onOverflow: (limit) => {
      onProblem?.(`a message over ${limit} bytes: the connection is closed (W2)`);
      finish();
    },
  });
  const onData = (chunk: Buffer) => framer.push(chunk);
  const onEnd = () => {
    framer.end();
    finish();
  };
  input.on('data', onData);
  input.once('end', onEnd);
  input.once('close', onEnd);
  function finish(): void {
    if (ended) return;
    ended = true;
    input.off('data', onData);
    session.close('the downstream client closed its input');
    resolveClosed();
  }
  return { session, closed, close: finish };
}
