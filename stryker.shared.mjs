// @ts-check
/**
 * What every mutation run of `npm run test:mutation` shares; each stryker.*.config.mjs names
 * the code it mutates and the vitest config of the tests that judge it.
 * @param {string} name the run's name: its sandboxes and reports go in folders of that name
 * @param {{ mutate: string[], vitestConfig: string }} run
 * @returns {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export function mutationRun(name, { mutate, vitestConfig }) {
  return {
    testRunner: 'vitest',
    vitest: { configFile: vitestConfig, related: false },
    mutate,
    // The machine has two cores shared with other work.
    concurrency: 1,
    // Many tests compute their result in a describe body, where no single test is running, so
    // Stryker counts the mutants reached there as static; ignoring those would leave them unjudged.
    ignoreStatic: false,
    coverageAnalysis: 'perTest',
    reporters: ['clear-text', 'progress', 'html', 'json'],
    htmlReporter: { fileName: `reports/mutation/${name}/index.html` },
    jsonReporter: { fileName: `reports/mutation/${name}/mutation.json` },
    // Runs may go on at the same time: each has its own sandboxes, and none copies another's
    // sandboxes or earlier reports into its own.
    tempDirName: `.stryker-tmp/${name}`,
    ignorePatterns: ['/.stryker-tmp', '/reports', '/test-artifacts'],
    thresholds: { high: 97, low: 90, break: null },
  };
}
