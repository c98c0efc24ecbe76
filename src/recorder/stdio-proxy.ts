// The recorder as a stdio MCP server (X2, proxy mode): a client spawns it in
// place of the real server, which runs as its child. Bytes are forwarded
// untouched both ways, chunk by chunk, so neither side can tell the proxy is
// there; a copy of each stream is split into lines for the record. The
// server's stderr passes through to the proxy's stderr. The proxy ends as
// the server does, with its exit status.
//
// The server is started as the stdio transport starts one (spawnServerProcess:
// cross-spawn, its own process group, typed start errors), and stop() ends
// the whole group, launcher and server, as the CLI does on a signal (#18
// items 16, 23). The proxy installs no signal handler: the CLI owns them.

import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { HURRY_GRACE_MS, loadSpawn, spawnFailure, spawnServerProcess, type StdioServerParams } from '../transport/stdio.js';
import { redact, redactUrlCredentials } from '../transport/redact.js';
import { createLineCopy } from './line-copy.js';
import type { OpInference } from './op-inference.js';

export interface StdioProxyOptions {
  server: StdioServerParams;
  /** The server's label in errors. */
  label: string;
  /** Values never to print (the config's secrets): scrubbed from a start error. */
  secrets: readonly string[];
  inference: OpInference;
  /** Writes the record so far (called when the client is done, when the server exits, and on stop()). */
  save(): void;
  /** The client's side: what it writes to the proxy, and where the proxy writes for it. */
  clientIn: Readable;
  clientOut: Writable;
  /** Where the server's stderr and the proxy's own complaints go. */
  errorOut: Writable;
}

export interface StdioProxy {
  /** Settles when the server has exited, with the status the proxy should exit with (the server's, or 128 + signal). */
  exited: Promise<number>;
  /** Saves the record and stops the server's whole group: SIGTERM, then SIGKILL after a short grace. Resolves once the group is gone. */
  stop(): Promise<void>;
}

/**
 * Starts the server; rejects with the transport's typed errors when it
 * cannot be started (a ClosedError with reason spawn-failed, a ConfigError
 * for an empty command), as every other command reports them.
 */
export async function startStdioProxy(options: StdioProxyOptions): Promise<StdioProxy> {
  const { server, inference, save, clientIn, clientOut, errorOut } = options;
  const argv = typeof server.command === 'string' ? [server.command, ...(server.args ?? [])] : [...server.command, ...(server.args ?? [])];
  const scrub = (text: string) => redactUrlCredentials(redact(text, options.secrets));
  const spawned = spawnServerProcess(await loadSpawn(), server, argv, options.label, scrub);
  if (spawned instanceof Error) throw spawned;
  const { child, group } = spawned;

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

  const stdoutEnded = new Promise<void>((resolve) => child.stdout!.once('close', resolve));
  const exited = new Promise<number>((resolve) => {
    child.once('exit', (code, signal) => {
      // A launcher that exits can leave its server behind, holding the pipes: the rest of the group goes too.
      if (group?.alive()) void stopGroup();
      // Its last lines may still be in the pipe when the exit is reported.
      void stdoutEnded.then(() => {
        fromServer.end();
        inference.serverGone();
        inference.clientClosed();
        save();
        // The client's input would keep the process alive: the server is gone, so nothing more is read.
        clientIn.destroy();
        clientOut.end();
        resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 15) : 15));
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', (error) => {
      // 'error' before 'spawn': the program could not be started (ENOENT, EACCES).
      if (child.pid === undefined) reject(spawnFailure(error, server, argv, options.label, scrub));
    });
  });

  let stopping: Promise<void> | undefined;
  function stopGroup(): Promise<void> {
    return (stopping ??= (async () => {
      if (!group) return;
      group.signal('SIGTERM');
      const deadline = Date.now() + HURRY_GRACE_MS;
      while (group.alive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      if (group.alive()) group.signal('SIGKILL');
      const killed = Date.now() + HURRY_GRACE_MS;
      while (group.alive() && Date.now() < killed) await new Promise((resolve) => setTimeout(resolve, 20));
      group.release();
    })());
  }

  return {
    exited,
    stop: async () => {
      save();
      await stopGroup();
    },
  };
}
