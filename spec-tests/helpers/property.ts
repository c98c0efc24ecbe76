// Seeded property runs for the reliability tests: a fixed count in the
// default run, a large one with MCPWIRE_STRESS=1 (the figures go into
// RELIABILITY.md). The seed is random unless MCPWIRE_SEED is set, and a
// failure names it, so any failing run can be replayed exactly. The
// randomised trials (helpers/trials.ts) take their count and seed from here.

import fc from 'fast-check';

export const STRESS = process.env.MCPWIRE_STRESS === '1';

/** The number of runs: `ci` by default, `stress` under MCPWIRE_STRESS=1. */
export function runs(ci: number, stress: number): number {
  return STRESS ? stress : ci;
}

/**
 * The seed for one run: MCPWIRE_SEED when set, else a fresh one; an unsigned
 * 32-bit integer either way. A negative MCPWIRE_SEED is taken modulo 2^32,
 * which names the same run: fast-check and the trials' PRNG both use the low
 * 32 bits. Anything but an integer is refused rather than read as 0.
 */
export function seedFor(): number {
  const fixed = process.env.MCPWIRE_SEED;
  if (fixed === undefined) return (Math.random() * 2 ** 32) >>> 0;
  const seed = Number(fixed);
  if (fixed.trim() === '' || !Number.isInteger(seed)) throw new Error(`MCPWIRE_SEED must be an integer, not ${JSON.stringify(fixed)}`);
  return seed >>> 0;
}

/** What a finished run reports (for t.diagnostic and the stress table). */
export interface PropertyReport {
  seed: number;
  runs: number;
  ms: number;
}

/** fc.assert with a seed that a failure names: rerun with MCPWIRE_SEED=<seed>. */
export function check<T>(property: fc.IProperty<T>, numRuns: number): PropertyReport {
  const s = seedFor();
  const started = performance.now();
  try {
    fc.assert(property, { numRuns, seed: s });
  } catch (error) {
    throw new Error(`property failed with seed ${s} (rerun with MCPWIRE_SEED=${s})\n${(error as Error).message}`, { cause: error });
  }
  return { seed: s, runs: numRuns, ms: Math.round(performance.now() - started) };
}

export async function checkAsync<T>(property: fc.IAsyncProperty<T>, numRuns: number): Promise<PropertyReport> {
  const s = seedFor();
  const started = performance.now();
  try {
    await fc.assert(property, { numRuns, seed: s });
  } catch (error) {
    throw new Error(`property failed with seed ${s} (rerun with MCPWIRE_SEED=${s})\n${(error as Error).message}`, { cause: error });
  }
  return { seed: s, runs: numRuns, ms: Math.round(performance.now() - started) };
}

export function describeReport(report: PropertyReport): string {
  return `${report.runs} runs, seed ${report.seed}, ${report.ms} ms`;
}
