// The CLI's start-up, as a person pays it on every command (U1).
// cli-cold-tools: wall time of `mcpwire tools -- node <server-everything>
// stdio` (the compiled bin/mcpwire.js) against a plain Node script that
// spawns the same server, runs initialize and tools/list, prints the names
// and stops it the same way (bench/fixtures/bare-tools-list.mjs): what the
// CLI adds above talking to the server at all. cli-version: `mcpwire
// --version` against `node -e 0`. cli-session-call (#18 item 13): `mcpwire
// call get-sum a=1 b=2` through a running `mcpwire session` over the same
// server-everything, against `node -e 0`: a command in a session should cost
// about a process start. Each sample is a whole process.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Contender, ContenderId, Prepared, Workload } from '../harness.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'mcpwire.js');
const BARE = path.join(ROOT, 'bench', 'fixtures', 'bare-tools-list.mjs');
const EVERYTHING = [process.execPath, path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'), 'stdio'];

function processContender(id: ContenderId, args: string[], env?: NodeJS.ProcessEnv): Contender {
  return {
    id,
    async sample() {
      const start = performance.now();
      // From a folder without mcpwire.json, on this same Node.
      await run(process.execPath, args, { cwd: ROOT, ...(env ? { env } : {}) });
      return { ms: performance.now() - start };
    },
  };
}

function checkBuilt(): void {
  if (!existsSync(path.join(ROOT, 'dist', 'cli.js'))) throw new Error('the CLI workloads run the compiled CLI: dist/cli.js is missing; run npm run build');
}

export const cliColdWorkloads: Workload[] = [
  {
    id: 'cli-cold-tools',
    title: 'mcpwire tools -- node server-everything stdio vs a bare spawn+initialize+tools/list script (ms wall)',
    baseline: 'bare-script',
    async prepare({ quick }): Promise<Prepared> {
      checkBuilt();
      return {
        contenders: [processContender('mcpwire', [BIN, 'tools', '--', ...EVERYTHING]), processContender('bare-script', [BARE, ...EVERYTHING])],
        plan: { warmups: 1, rounds: quick ? 3 : 9, slowSampleMs: Infinity, collectGarbage: false },
        notes: ['target ≤ 1.15× the bare script'],
      };
    },
  },
  {
    id: 'cli-session-call',
    title: 'mcpwire call get-sum through a running session on server-everything vs node -e 0 (ms wall)',
    baseline: 'floor-node',
    async prepare({ quick }): Promise<Prepared> {
      checkBuilt();
      // Its own runtime folder and config: the person's sessions are not touched.
      const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-bench-session-'));
      const runtime = path.join(dir, 'rt');
      mkdirSync(runtime, { mode: 0o700 });
      const config = path.join(dir, 'mcpwire.json');
      writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: EVERYTHING[0], args: EVERYTHING.slice(1) } } }));
      const env = { ...process.env, MCPWIRE_RUNTIME_DIR: runtime };
      delete (env as NodeJS.ProcessEnv).MCPWIRE_NO_SESSION;
      await run(process.execPath, [BIN, 'session', 'start', '--config', config], { cwd: ROOT, env });
      return {
        contenders: [processContender('mcpwire', [BIN, 'call', 'get-sum', 'a=1', 'b=2', '--config', config], env), processContender('floor-node', ['-e', '0'])],
        plan: { warmups: 1, rounds: quick ? 5 : 15, slowSampleMs: Infinity, collectGarbage: false },
        notes: ['target ≤ 1.2× node -e 0 (#18 item 13)'],
        async dispose() {
          await run(process.execPath, [BIN, 'session', 'stop', '--config', config], { cwd: ROOT, env }).catch(() => undefined);
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    id: 'cli-version',
    title: 'mcpwire --version vs node -e 0 (ms wall)',
    baseline: 'floor-node',
    async prepare({ quick }): Promise<Prepared> {
      return {
        contenders: [processContender('mcpwire', [BIN, '--version']), processContender('floor-node', ['-e', '0'])],
        plan: { warmups: 1, rounds: quick ? 5 : 15, slowSampleMs: Infinity, collectGarbage: false },
        notes: ['target ≤ 1.5× node -e 0'],
      };
    },
  },
];
