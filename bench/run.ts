
/**
 * `npm run bench [-- NAME ...]`: runs the benchmarks and prints their figures. Targets are
 * printed beside the figures, never asserted: timings belong here, not in tests.
 */
export {};

const SUITES: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  sense: () => import('./sense'),
  import: () => import('./import'),
  service: () => import('./service'),
  chart: () => import('./chart'),
  webhooks: () => import('./webhooks'),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((name) => !(name in SUITES));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(SUITES).join(', ')}`);
  process.exit(2);
}
for (const name of wanted.length > 0 ? wanted : Object.keys(SUITES)) {
  console.log(`\n== ${name} ==`);
  const suite = await SUITES[name]();
  await suite.run();
}
