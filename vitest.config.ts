import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Tests share one machine of two cores with real servers, SQLite files and Chromium.
    maxWorkers: 2,
    // Deadlines, never measures: a test waits for an event or a state, and these only end a
    // test that hangs. They allow ten times what a quiet machine needs, and more, as the suite
    // must pass beside another on the same two cores.
    testTimeout: 120_000,
    hookTimeout: 240_000,
    expect: { poll: { timeout: 30_000 } },
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
