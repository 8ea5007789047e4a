/**
 * The vitest run Stryker repeats for every mutant of the list-query parser and compiler: the
 * parser's and compiler's example tests, with only the plain reporter, since the root config's
 * summary line would be printed once per mutant.
 *
 * Left out for speed, since nearly every mutant reaches them: the compiler's property test (a
 * thousand databases, 10 to 30 s a run) and the HTTP list tests (a service over 60 reports);
 * with them a run of the ~1000 mutants took hours on this machine. What they check is held by
 * the example tests here, which the survivors list (stryker.query.survivors.md) is judged by.
 */
import { defineConfig } from 'vitest/config';

// Stryker runs the tests in worker threads, where a test cannot change the process's time zone;
// set here, before any worker starts, it holds for all of them. A zone other than UTC shows
// whether an instant without a zone is read in the server's zone (the test of that sets the same
// zone itself under the forked workers of a plain vitest run).
process.env.TZ = 'America/New_York';

export default defineConfig({
  test: {
    include: [
      'test/query/**/*.test.ts',
      'test/db/compile.test.ts',
      'test/db/compile-*.test.ts',
      'test/db/list-query-*.test.ts',
    ],
    testTimeout: 30_000,
    reporters: ['default'],
  },
});
