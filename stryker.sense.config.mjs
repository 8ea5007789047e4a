// @ts-check
/**
 * Mutation testing of the sense engine: `npx stryker run stryker.sense.config.mjs`. Equivalent
 * mutants are marked in the source with their reasons and listed in stryker.sense.survivors.md.
 */
import { mutationRun } from './stryker.shared.mjs';

export default mutationRun('sense', { mutate: ['sense/**/*.ts'], vitestConfig: 'vitest.sense-mutation.config.ts' });
