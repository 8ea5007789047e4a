/**
 * The order files are handed to the workers in. vitest starts the files it has timed before
 * with the longest first, but a fresh clone (CI) has no timings and starts the largest files
 * first, which leaves a browser file of a minute or more for the end of the run, when one
 * worker has nothing left to do. So the files known to take longest go first, longest first; the
 * rest follow in vitest's own order, and balance the two workers at the end.
 *
 * The browser files that share the big demo database (test/support/run-cache.ts) are kept apart
 * at the start: the first makes it, and the other worker runs a file of its own meanwhile rather
 * than waiting for it.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first, by the summed file times of `npm test` (vitest's summary names them). */
export const LONGEST_FIRST = [
  'test/e2e/app.test.ts',
  'test/e2e/insights.test.ts',
  'test/e2e/layout.test.ts',
  'test/sync/random-interleavings.property.test.ts',
  'test/sync/faults.test.ts',
  'test/db/compile.property.test.ts',
  'test/sync/faults-every-fifth.test.ts',
  'test/cli/import.test.ts',
  'test/cli/serve.test.ts',
  'test/db/group-figures.test.ts',
  'test/cli/export.test.ts',
  'test/sync/several-desks.property.test.ts',
  'test/sync/cli-once.test.ts',
  'test/db/custom-field-pair-counts.test.ts',
  'test/cli/serve-stop.test.ts',
  'test/sync/kill.test.ts',
  'test/e2e/report-panel.test.ts',
  'test/cli/backup.test.ts',
  'test/host/desktop-service.test.ts',
  'test/e2e/sync-ui.test.ts',
];

export default class SuiteSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FIRST.findIndex((name) => spec.moduleId.endsWith(`/${name}`));
      return at === -1 ? LONGEST_FIRST.length : at;
    };
    // A stable sort: files not listed keep vitest's order among themselves.
    return sorted.map((spec, i) => ({ spec, i })).sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i).map(({ spec }) => spec);
  }
}
