// Repeated randomised trials for the reliability tests: a seeded PRNG (so a
// failure can be replayed with MCPWIRE_SEED), the trial count for this run
// (MCPWIRE_STRESS=1 for the large counts recorded in RELIABILITY.md), and
// measures of what a process holds (open fds, listeners).

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { seededRandom as prng } from '../../src/testing/prng.js';
import { FIXTURE } from './fault-harness.js';
export { prng };

// One reading of MCPWIRE_STRESS and MCPWIRE_SEED for the property runs and the trials.
export { STRESS, runs as trialCount, seedFor } from './property.js';

/** Open file descriptors of this process (Linux), or undefined where /proc/self/fd cannot be read. */
export function openFds(): number | undefined {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return undefined;
  }
}

/** Listeners on `process`, by event name (only the events that have any). */
export function processListeners(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of process.eventNames()) counts[String(name)] = process.listenerCount(name);
  return counts;
}

const TINY_SERVER = fileURLToPath(new URL('../fixtures/tiny-server.pl', import.meta.url));
let perlWorks: boolean | undefined;

/**
 * The argv of a quick server for many trials: tiny-server.pl under Perl
 * (milliseconds to start), else the fault server under Node, which speaks
 * the same subset (initialize, ping, echo, hang; modes ok and ignore-eof).
 */
export function quickServer(mode: 'ok' | 'ignore-eof'): string[] {
  perlWorks ??= spawnSync('perl', ['-e', '1']).status === 0;
  return perlWorks ? ['perl', TINY_SERVER, mode] : [process.execPath, FIXTURE, mode];
}
