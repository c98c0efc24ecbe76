// Seeded property runs for the reliability tests: a fixed count in the
// default run, a large one with MCPWIRE_STRESS=1 (the figures go into
// RELIABILITY.md). The seed is random unless MCPWIRE_SEED is set, and a
// failure names it, so any failing run can be replayed exactly.

import fc from 'fast-check';

export const STRESS = process.env.MCPWIRE_STRESS === '1';

/** The number of runs: `ci` by default, `stress` under MCPWIRE_STRESS=1. */
export function runs(ci: number, stress: number): number {
  return STRESS ? stress : ci;
}

function seed(): number {
  const fixed = process.env.MCPWIRE_SEED;
  return fixed !== undefined ? Number(fixed) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
}

/** What a finished run reports (for t.diagnostic and the stress table). */
export interface PropertyReport {
  seed: number;
  runs: number;
  ms: number;
}

/** fc.assert with a seed that a failure names: rerun with MCPWIRE_SEED=<seed>. */
export function check<T>(property: fc.IProperty<T>, numRuns: number): PropertyReport {
  const s = seed();
  const started = performance.now();
  try {
    fc.assert(property, { numRuns, seed: s });
  } catch (error) {
    throw new Error(`property failed with seed ${s} (rerun with MCPWIRE_SEED=${s})\n${(error as Error).message}`, { cause: error });
  }
  return { seed: s, runs: numRuns, ms: Math.round(performance.now() - started) };
}

export async function checkAsync<T>(property: fc.IAsyncProperty<T>, numRuns: number): Promise<PropertyReport> {
  const s = seed();
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
