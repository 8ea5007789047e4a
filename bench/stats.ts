/** Small timing helpers shared by the benchmarks. */

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/** Runs fn `warmup` times untimed, then returns `runs` timings in milliseconds. */
export function timeMany(fn: () => unknown, runs: number, warmup = Math.min(10, runs)): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return samples;
}
