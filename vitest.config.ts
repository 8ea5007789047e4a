import { configDefaults, defineConfig } from 'vitest/config';
import SuiteSequencer from './test/support/sequencer';

/**
 * Files that replace a module of the project (vi.mock) or change the process's time zone (whose
 * date formatters modules make once) need a module registry of their own; every other file
 * shares its worker's, which saves importing the project again for each file (about a quarter
 * of the suite's time). Sharing means a test leaves no module state behind: caches keyed by
 * connection, spies restored, environment variables put back.
 */
export const OWN_MODULES = [
  'test/service/reads-per-write.test.ts',
  'test/renderer/time-zone.test.ts',
  'test/renderer/chart-ticks.test.ts',
  'test/query/list-query.test.ts',
];

export default defineConfig({
  test: {
    // Tests share one machine of two cores with real servers, SQLite files and Chromium.
    maxWorkers: 2,
    // Deadlines, never measures: a test waits for an event or a state, and these only end a
    // test that hangs. They allow ten times what a quiet machine needs, and more, as the suite
    // must pass beside another on the same two cores.
    testTimeout: 120_000,
    hookTimeout: 240_000,
    expect: { poll: { timeout: 30_000 } },
    reporters: ['default', './test/support/summary-reporter.ts'],
    // The slowest files first, whether or not this clone has timed them (test/support/sequencer.ts).
    sequence: { sequencer: SuiteSequencer },
    // The run's shared folder: the renderer built and demo databases made once per run.
    globalSetup: ['./test/support/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: [...configDefaults.exclude, ...OWN_MODULES],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-modules', include: OWN_MODULES } },
    ],
  },
});
