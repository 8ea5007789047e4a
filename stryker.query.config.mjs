// @ts-check
/**
 * Mutation testing of the list-query parser and its SQL compiler:
 * `npx stryker run stryker.query.config.mjs`. Survivors that change nothing observable are
 * listed with their reasons in stryker.query.survivors.md.
 */
import { mutationRun } from './stryker.shared.mjs';

export default mutationRun('query', {
  mutate: ['db/query/compile.ts', 'query/list-query.ts'],
  vitestConfig: 'vitest.query-mutation.config.ts',
});
