// @ts-check
/**
 * Mutation testing of the list-query parser and its SQL compiler:
 * `npx stryker run stryker.query.config.mjs`. Survivors that change nothing observable are
 * listed with their reasons in stryker.query.survivors.md.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.query-mutation.config.ts', related: false },
  mutate: ['db/query/compile.ts', 'query/list-query.ts'],
  // The machine has two cores shared with other work.
  concurrency: 1,
  // Many tests compute their result in a describe body, where no single test is running, so
  // Stryker counts the mutants reached there as static; ignoring those would leave them unjudged.
  ignoreStatic: false,
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/query/index.html' },
  jsonReporter: { fileName: 'reports/mutation/query/mutation.json' },
  // The sense config may run at the same time; each needs its own sandboxes.
  tempDirName: '.stryker-tmp/query',
  // Not copied into the sandbox: the sense run's sandboxes and earlier reports.
  ignorePatterns: ['/.stryker-tmp', '/reports', '/test-artifacts'],
  thresholds: { high: 97, low: 90, break: null },
};
