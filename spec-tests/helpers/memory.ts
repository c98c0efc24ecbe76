// Peak memory growth while some work runs, for the W2 bounded-memory tests.
// Sampling can miss a short peak, so the figures are lower bounds of the
// real peak: the tests use them as upper-bound checks with room to spare.

import { fullGc } from '../../src/testing/gc.js';

/** A full garbage collection, now: one before the baseline makes the growth figure mean something. */
export const gc = fullGc();

export interface Growth {
  rss: number;
  arrayBuffers: number;
  /** heapUsed + external. */
  js: number;
}

/** Samples process.memoryUsage() every `intervalMs` while `work` runs; the peak growth over the baseline. */
export async function peakGrowth<T>(work: () => Promise<T>, intervalMs = 5): Promise<{ growth: Growth; result: PromiseSettledResult<T> }> {
  gc();
  const base = process.memoryUsage();
  const peak: Growth = { rss: 0, arrayBuffers: 0, js: 0 };
  const sample = () => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss - base.rss);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers - base.arrayBuffers);
    peak.js = Math.max(peak.js, now.heapUsed + now.external - (base.heapUsed + base.external));
  };
  const timer = setInterval(sample, intervalMs);
  try {
    const [result] = await Promise.allSettled([work()]);
    sample();
    return { growth: peak, result: result! };
  } finally {
    clearInterval(timer);
  }
}
