// The machine line printed with every run: figures from a shared, noisy
// 2-core box only mean something next to the Node version, the CPU and the
// load the run saw.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src', import.meta.url));

export interface Machine {
  node: string;
  cpu: string;
  cores: number;
  /** 1-minute load average when the run started and when it ended. */
  loadStart: number;
  loadEnd?: number;
  /** The commit measured, and whether src/ had uncommitted changes: the code under test moves while it is tuned. */
  source: string;
  /** A hash of every file under src/ at the start; compared at the end. */
  srcHash: string;
  /** Set at the end when src/ changed during the run. The figures are still of the start version: every module is loaded at start, and memory children run a snapshot taken then. */
  srcChanged?: boolean;
}

/** Content hash of src/ (not git state: an edit saved mid-run changes what later workloads and child processes load). */
function srcHash(): string {
  const hash = createHash('sha1');
  for (const entry of readdirSync(SRC, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).sort((a, b) => path.join(a.parentPath, a.name).localeCompare(path.join(b.parentPath, b.name)))) {
    const file = path.join(entry.parentPath, entry.name);
    hash.update(file).update(readFileSync(file));
  }
  return hash.digest('hex');
}

function sourceVersion(): string {
  try {
    const root = new URL('..', import.meta.url);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = git('status', '--porcelain', '--', 'src') !== '';
    return `commit ${git('rev-parse', '--short', 'HEAD')}${dirty ? ' + uncommitted changes in src/' : ''}`;
  } catch {
    return 'commit unknown (no git)';
  }
}

export function machineAtStart(): Machine {
  const cpus = os.cpus();
  return { node: process.version, cpu: cpus[0]?.model.trim() ?? 'unknown CPU', cores: cpus.length, loadStart: os.loadavg()[0]!, source: sourceVersion(), srcHash: srcHash() };
}

export function machineAtEnd(machine: Machine): Machine {
  return { ...machine, loadEnd: os.loadavg()[0]!, srcChanged: srcHash() !== machine.srcHash };
}

export function machineLine(m: Machine): string {
  const load = `load ${m.loadStart.toFixed(2)}${m.loadEnd === undefined ? '' : ` → ${m.loadEnd.toFixed(2)}`}`;
  return `node ${m.node}, ${m.cpu}, ${m.cores} cores, ${load} (1-min average at start${m.loadEnd === undefined ? '' : ' → end'}); mcpwire ${m.source}${m.srcChanged ? ' (src/ was edited during the run: every figure is of the code as it was at the start)' : ''}`;
}
