// The recorder as a stdio MCP server (X2, proxy mode): a client spawns it in
// place of the real server, which runs as its child. Bytes are forwarded
// untouched both ways, chunk by chunk, so neither side can tell the proxy is
// there; a copy of each stream is split into lines for the record. The
// server's stderr passes through to the proxy's stderr. The proxy ends as
// the server does, with its exit status.

import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import type { StdioServerParams } from '../transport/stdio.js';
import { createLineCopy } from './line-copy.js';
import type { OpInference } from './op-inference.js';

export interface StdioProxyOptions {
  server: StdioServerParams;
  inference: OpInference;
  /** Writes the record so far (called when the client is done, when the server exits, and on a signal). */
  save(): void;
  /** The client's side: what it writes to the proxy, and where the proxy writes for it. */
  clientIn: Readable;
  clientOut: Writable;
  /** Where the server's stderr and the proxy's own complaints go. */
  errorOut: Writable;
}

/** Runs until the server exits; resolves with the status the proxy should exit with (the server's, or 128 + signal). */
export function runStdioProxy(options: StdioProxyOptions): Promise<number> {
  const { server, inference, save, clientIn, clientOut, errorOut } = options;
  const argv = typeof server.command === 'string' ? [server.command, ...(server.args ?? [])] : [...server.command, ...(server.args ?? [])];
  const [program, ...args] = argv;
  if (!program) return Promise.reject(new Error('no server command given'));

  let child: ChildProcess;
  try {
    child = spawn(program, args, {
      cwd: server.cwd,
      env: server.inheritEnv === false ? { ...server.env } : { ...process.env, ...server.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (error) {
    return Promise.reject(error);
  }

  const fromClient = createLineCopy({ onMessage: (value) => inference.clientMessage(value), onBytes: () => {} });
  const fromServer = createLineCopy({ onMessage: (value) => inference.serverMessage(value), onBytes: (bytes) => inference.serverBytes(bytes) });

  clientIn.on('data', (chunk: Buffer) => {
    child.stdin!.write(chunk);
    fromClient.push(chunk);
  });
  clientIn.on('end', () => {
    fromClient.end();
    inference.clientClosed();
    save();
    child.stdin!.end();
  });
  // A server that exits while the client still writes: EPIPE is expected then, and its exit is what counts.
  child.stdin!.on('error', () => {});
  child.stdout!.on('data', (chunk: Buffer) => {
    clientOut.write(chunk);
    fromServer.push(chunk);
  });
  child.stderr!.on('data', (chunk: Buffer) => errorOut.write(chunk));

  // The client's signal stops the server too (a client may signal the proxy alone, not its process group).
  const relay = (signal: NodeJS.Signals) => {
    save();
    child.kill(signal);
  };
  process.on('SIGINT', relay);
  process.on('SIGTERM', relay);

  const stdoutEnded = new Promise<void>((resolve) => child.stdout!.once('close', resolve));
  return new Promise<number>((resolve, reject) => {
    child.once('error', (error) => {
      if (child.pid === undefined) reject(error);
    });
    child.once('exit', (code, signal) => {
      // Its last lines may still be in the pipe when the exit is reported.
      void stdoutEnded.then(() => {
        fromServer.end();
        inference.serverGone();
        inference.clientClosed();
        save();
        process.off('SIGINT', relay);
        process.off('SIGTERM', relay);
        // The client's input would keep the process alive: the server is gone, so nothing more is read.
        clientIn.destroy();
        clientOut.end();
        resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 15) : 15));
      });
    });
  });
}
