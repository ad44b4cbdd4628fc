/** Timing helpers shared by the benchmarks: medians of repeated runs, never a single sample. */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface Measurement {
  /** Median of the runs, in milliseconds. */
  readonly median_ms: number;
  readonly min_ms: number;
  readonly max_ms: number;
  readonly runs: number;
}

/**
 * Runs `work` `warmup` times unmeasured, then `runs` times measured. Each sample starts after a
 * full collection when the process allows one (`npm run bench` runs with --expose-gc), so a sample
 * does not pay for the garbage its predecessors left.
 */
export async function measure(runs: number, work: () => Promise<unknown>, warmup = 1): Promise<Measurement> {
  for (let index = 0; index < warmup; index++) await work();
  const samples: number[] = [];
  for (let index = 0; index < runs; index++) {
    globalThis.gc?.();
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  return { median_ms: round(median(samples)), min_ms: round(Math.min(...samples)), max_ms: round(Math.max(...samples)), runs };
}

export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
