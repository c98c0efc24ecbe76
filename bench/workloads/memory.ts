// memory-16mib: peak extra memory while framing one 16 MiB message in 64 KiB
// reads, each measurement in a fresh child process (memory-child.ts), in
// multiples of the message size. Baseline: the bytes floor.

import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../../src/jsonrpc/line-framer.js';
import { MIB } from '../data.js';
import type { Contender, ContenderId, Prepared, Workload } from '../harness.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SIZE = 16 * MIB;

/**
 * The children run a copy of bench/ and src/ taken when this module loads,
 * at the start of the run, like every module the parent imports: the code
 * under test may be edited while a run is in progress, and the children,
 * started minutes later, must measure the same version as the rest.
 * (node_modules is linked, not copied.)
 */
const SNAPSHOT = (() => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-bench-'));
  cpSync(path.join(ROOT, 'src'), path.join(dir, 'src'), { recursive: true });
  cpSync(path.join(ROOT, 'bench'), path.join(dir, 'bench'), { recursive: true });
  cpSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
})();
const CHILD = path.join(SNAPSHOT, 'bench', 'workloads', 'memory-child.ts');
const SSE_CHILD = path.join(SNAPSHOT, 'bench', 'workloads', 'memory-sse-child.ts');

function child(id: ContenderId): Contender {
  return {
    id,
    async sample() {
      const { stdout } = await run(process.execPath, ['--expose-gc', '--import', import.meta.resolve('tsx'), CHILD, id, String(SIZE)], {
        maxBuffer: 1024 * 1024,
      });
      const result = JSON.parse(stdout) as { heapExtra: number; rssExtra: number };
      return { 'x size (heap+buffers)': result.heapExtra / SIZE, 'x size (rss)': result.rssExtra / SIZE };
    },
  };
}

/** memory-sse-endless: one child per sample, its peak in multiples of the cap. */
function sseChild(id: ContenderId): Contender {
  return {
    id,
    async sample() {
      const cap = DEFAULT_MAX_MESSAGE_BYTES;
      const { stdout } = await run(process.execPath, ['--expose-gc', '--import', import.meta.resolve('tsx'), SSE_CHILD, id, String(cap)], { maxBuffer: 1024 * 1024 });
      const result = JSON.parse(stdout) as { heapExtra: number; rssExtra: number };
      return { 'x cap (heap+buffers)': result.heapExtra / cap, 'x cap (rss)': result.rssExtra / cap };
    },
  };
}

export const memoryWorkloads: Workload[] = [
  {
    id: 'memory-16mib',
    title: 'peak extra memory while framing one 16 MiB message, 64 KiB reads, fresh process each (× message size)',
    baseline: 'floor-bytes',
    async prepare({ quick }): Promise<Prepared> {
      // Each child costs ~1 s of start-up, and the SDK's and ndjson's quadratic framing 5–6 s more at 16 MiB: --quick measures mcpwire against the floor only.
      const ids: ContenderId[] = quick ? ['floor-bytes', 'mcpwire'] : ['floor-bytes', 'floor-string', 'mcpwire', 'sdk', 'sdk-novalidate', 'ndjson'];
      const notes = quick
        ? ['--quick: floor-bytes and mcpwire only; the full run adds floor-string, sdk, sdk-novalidate and ndjson']
        : ['sdk and sdk-novalidate: maxBufferSize raised past the default 10 MiB so the message is accepted'];
      // Each sample is a whole process: there is no JIT state to warm up in this one, and a slow child is no reason to take fewer samples.
      return { contenders: ids.map(child), plan: { warmups: 0, rounds: quick ? 1 : 3, slowSampleMs: Infinity }, notes };
    },
  },
  {
    id: 'memory-sse-endless',
    title: 'peak extra memory while reading an SSE event that never ends, at the default 32 MiB cap, 64 KiB reads, fresh process each (× cap)',
    baseline: 'floor-bytes',
    async prepare({ quick }): Promise<Prepared> {
      // floor-bytes: the reads held until they pass the cap, the least a reader that delivers events up to the cap holds.
      return { contenders: (['floor-bytes', 'mcpwire'] as const).map(sseChild), plan: { warmups: 0, rounds: quick ? 1 : 3, slowSampleMs: Infinity } };
    },
  },
];
