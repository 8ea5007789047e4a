/**
 * The vitest run Stryker repeats for every mutant of the list-query parser and compiler: the
 * parser's and compiler's own tests and the HTTP list tests (which hold the refusals' wording as
 * the API answers it), with only the plain reporter, since the root config's summary line would
 * be printed once per mutant.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/query/**/*.test.ts',
      'test/db/compile*.test.ts',
      'test/db/list-query-*.test.ts',
      'test/http/list.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
