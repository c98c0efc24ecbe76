// The compiled CLI (bin/mcpwire.js, built by `npm test` first) run as a
// person runs it, asynchronously, so that a server the test itself serves on
// 127.0.0.1 keeps answering meanwhile. One runner for the CLI suites.

import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = path.join(ROOT, 'bin', 'mcpwire.js');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Default: the repository. */
  cwd?: string;
  /** Over this process's environment, from which MCPWIRE_CONFIG is always removed (a test names its config). */
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed; without it stdin is closed at once. */
  input?: string;
  /** Told all of stderr so far, on each chunk: for a test that acts on what the CLI prints (a login URL). */
  onStderr?: (stderr: string) => void;
  /** Killed (SIGKILL) past this. Default 60 s. */
  timeoutMs?: number;
}

export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  if (!options.env || !('MCPWIRE_CONFIG' in options.env)) delete env.MCPWIRE_CONFIG;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      options.onStderr?.(stderr);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.stdin.on('error', () => {}).end(options.input ?? '');
  });
}
