
/**
 * `npm run bench [-- NAME ...]`: runs the benchmarks and prints their figures. Targets are
 * printed beside the figures, never asserted: timings belong here, not in tests. Each figure is
 * a row (bench/baseline.ts) shown beside the previous run's figure of the same row, kept in
 * bench/baseline.json (BENCH_BASELINE=off leaves it alone, BENCH_BASELINE=FILE uses another).
 */
import { baseline } from './baseline';

const SUITES: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  sense: () => import('./sense'),
  import: () => import('./import'),
  service: () => import('./service'),
  patch: () => import('./patch'),
  chart: () => import('./chart'),
  webhooks: () => import('./webhooks'),
  pdf: () => import('./pdf'),
  sync: () => import('./sync'),
  'sync-hostile': () => import('./sync-hostile'),
  app: () => import('./app'),
  insights: () => import('./insights'),
  alarms: () => import('./alarms'),
  access: () => import('./access'),
  shipments: () => import('./shipments'),
  readers: () => import('./readers'),
};

/** Options that take the next word as their value (`--sizes 100000`): that word is no suite. */
const OPTIONS_WITH_VALUE = new Set(['--sizes']);
const args = process.argv.slice(2);
const wanted = args.filter((a, i) => !a.startsWith('-') && !OPTIONS_WITH_VALUE.has(args[i - 1]));
const unknown = wanted.filter((name) => !(name in SUITES));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(SUITES).join(', ')}`);
  process.exit(2);
}
console.log(baseline.path === null ? 'baseline: off (BENCH_BASELINE=off)' : `baseline: ${baseline.path}`);
for (const name of wanted.length > 0 ? wanted : Object.keys(SUITES)) {
  console.log(`\n== ${name} ==`);
  const suite = await SUITES[name]();
  try {
    await suite.run();
  } finally {
    // The rows measured before a failure are figures all the same.
    const saved = baseline.save();
    if (saved > 0) console.log(`baseline: ${saved} rows of ${name} written`);
  }
}
