// The "server" process of a stdio replay: a thin relay that McpClient
// spawns through its real StdioTransport. It forwards every byte it reads
// on stdin to the runner over the control socket and does what the runner
// says: write these exact bytes to stdout, or close stdout and exit. It
// holds no transcript logic (that all runs in the runner's event loop), and
// it writes nothing else to stdout: any trouble goes to stderr. Plain
// JavaScript, started with bare node: no loader to wait for.
//
// It exits when its stdin ends (the client closed it), when told to, or
// when the runner goes away, so it can never outlive its case.

import { createConnection } from 'node:net';
import { createFrameDecoder, FRAME_CLOSE, FRAME_WRITE, RELAY_SOCKET_ENV } from './relay-protocol.mjs';

const socketPath = process.env[RELAY_SOCKET_ENV];
if (!socketPath) {
  process.stderr.write(`relay-child: ${RELAY_SOCKET_ENV} is not set; this process is started by the conformance runner\n`);
  process.exit(2);
}

let pendingWrites = 0;
let exitWhenDrained = false;

function exitNow(code) {
  process.exit(code);
}

function maybeExit() {
  if (exitWhenDrained && pendingWrites === 0) exitNow(0);
}

// A client that stopped reading (or died) makes stdout writes fail with EPIPE: a server would just go away.
process.stdout.on('error', () => exitNow(0));

const control = createConnection(socketPath);
control.on('error', (error) => {
  process.stderr.write(`relay-child: control socket ${socketPath}: ${error.message}\n`);
  exitNow(3);
});
// The runner went away: nobody is left to follow.
control.on('close', () => exitNow(0));

control.on('connect', () => {
  // stdin stays paused until now, so no byte the client writes is lost before the runner listens.
  process.stdin.on('data', (chunk) => control.write(chunk));
  process.stdin.on('end', () => control.end(() => exitNow(0)));
  process.stdin.on('error', () => control.end(() => exitNow(0)));
});

control.on(
  'data',
  createFrameDecoder((type, payload) => {
    if (exitWhenDrained) return;
    if (type === FRAME_WRITE) {
      pendingWrites++;
      process.stdout.write(payload, () => {
        pendingWrites--;
        maybeExit();
      });
    } else if (type === FRAME_CLOSE) {
      // Exiting closes stdout; wait for the writes before it so none is cut off.
      exitWhenDrained = true;
      maybeExit();
    } else {
      process.stderr.write(`relay-child: unknown frame type ${type}\n`);
    }
  }),
);
