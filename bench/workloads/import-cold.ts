// import-cold: wall time for a fresh `node` process to import a client
// library's entry and exit, the price a CLI or a short-lived host pays on
// every start. mcpwire (the compiled dist/, as consumers load it) beside the
// official SDK v1 client (Client + StdioClientTransport) and the SDK v2
// client package, with `node -e 0` as the floor and the baseline. Each
// sample is a whole process, so there is nothing to warm up.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Contender, ContenderId, Prepared, Workload } from '../harness.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MCPWIRE_ENTRY = path.join(ROOT, 'dist', 'index.js');

/** What each contender's process evaluates: the imports a host writes to get a stdio client. */
const PROGRAMS: Record<Extract<ContenderId, 'floor-node' | 'mcpwire' | 'sdk' | 'sdk-v2'>, string> = {
  'floor-node': '0',
  mcpwire: `await import(${JSON.stringify(pathToFileURL(MCPWIRE_ENTRY).href)});`,
  sdk: "await Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/client/stdio.js')]);",
  'sdk-v2': "await Promise.all([import('@modelcontextprotocol/client'), import('@modelcontextprotocol/client/stdio')]);",
};

function child(id: keyof typeof PROGRAMS): Contender {
  return {
    id,
    async sample() {
      const start = performance.now();
      // From the repo root, so the SDKs' bare specifiers resolve in its node_modules; on this same Node.
      await run(process.execPath, ['--input-type=module', '-e', PROGRAMS[id]], { cwd: ROOT });
      return { ms: performance.now() - start };
    },
  };
}

export const importColdWorkloads: Workload[] = [
  {
    id: 'import-cold',
    title: 'fresh node process: import the client entry and exit (ms wall; baseline: node -e 0)',
    baseline: 'floor-node',
    async prepare({ quick }): Promise<Prepared> {
      if (!existsSync(MCPWIRE_ENTRY)) throw new Error(`import-cold measures the compiled package: ${MCPWIRE_ENTRY} is missing; run npm run build`);
      const ids = Object.keys(PROGRAMS) as (keyof typeof PROGRAMS)[];
      // Process start-up is noisy on a shared machine: many short samples, medians over them.
      return {
        contenders: ids.map(child),
        plan: { warmups: 1, rounds: quick ? 5 : 15, slowSampleMs: Infinity, collectGarbage: false },
        notes: ['judged on time above the floor: (mcpwire − floor-node) / (sdk-v2 − floor-node), target ≤ 0.2'],
      };
    },
  },
];
