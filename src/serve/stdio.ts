// `mcpwire serve --stdio`: one downstream client on a byte stream pair (the
// process's stdin and stdout), one JSON message per line (MCP transports,
// stdio: "Messages are delimited by newlines, and MUST NOT contain embedded
// newlines"). The end of input ends the session: its calls are cancelled.
// Nothing but messages is written to the output; diagnostics go elsewhere.

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
  const session = new ServeSession({
    ...options,
    send: (message) => {
      if (!ended && output.writable) output.write(encodeLine(message));
    },
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
