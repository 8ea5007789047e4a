/**
 * The vitest run Stryker repeats for every mutant of sense/: only the sense tests, which are the
 * ones that exercise the engine directly, and only the plain reporter, since the root config's
 * summary line would be printed once per mutant.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/sense/**/*.test.ts'],
    testTimeout: 30_000,
    reporters: ['default'],
  },
});
