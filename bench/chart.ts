/** Benchmark of the detail chart's downsampling, on a series far longer than any real run. */
import { DEFAULT_TARGET_POINTS, downsampleMinMax } from '../renderer/lib/downsample';
import { report } from './baseline';
import { median, percentile, timeMany } from './stats';

const N = 1_000_000;

export async function run(): Promise<void> {
  const points = Array.from({ length: N }, (_, x) => ({ x, y: Math.sin(x / 1000) * 10 }));
  const samples = timeMany(() => downsampleMinMax(points), 20, 3);
  const what = `chart: downsampleMinMax ${N} points → ${DEFAULT_TARGET_POINTS}`;
  report({ name: `${what}, median`, value: median(samples), unit: 'ms', better: 'lower' });
  report({ name: `${what}, p95`, value: percentile(samples, 95), unit: 'ms', better: 'lower' });
}
