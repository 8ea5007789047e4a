// @ts-check
/**
 * Mutation testing of the sense engine: `npx stryker run stryker.sense.config.mjs`.
 * Survivors that change nothing observable are listed with their reasons in
 * stryker.sense.survivors.md.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.sense-mutation.config.ts', related: false },
  mutate: ['sense/**/*.ts'],
  // The machine has two cores shared with other work.
  concurrency: 1,
  // Many tests compute their result in a describe body, where no single test is running, so
  // Stryker counts the mutants reached there as static; ignoring those would leave them unjudged.
  ignoreStatic: false,
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/sense/index.html' },
  jsonReporter: { fileName: 'reports/mutation/sense/mutation.json' },
  // The query config may run at the same time; each needs its own sandboxes.
  tempDirName: '.stryker-tmp/sense',
  thresholds: { high: 97, low: 90, break: null },
};
