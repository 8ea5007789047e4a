/** Benchmark of the detail chart's downsampling, on a series far longer than any real run. */
import { DEFAULT_TARGET_POINTS, downsampleMinMax } from '../renderer/lib/downsample';
import { median, percentile, timeMany } from './stats';

const N = 1_000_000;

export async function run(): Promise<void> {
  const points = Array.from({ length: N }, (_, x) => ({ x, y: Math.sin(x / 1000) * 10 }));
  const samples = timeMany(() => downsampleMinMax(points), 20, 3);
  console.log(
    `chart: downsampleMinMax ${N} points → ${DEFAULT_TARGET_POINTS}: median ${median(samples).toFixed(1)} ms, p95 ${percentile(samples, 95).toFixed(1)} ms`,
  );
}
