/**
 * The review list's conditions read where each review stands from `review_current`, never a
 * report's review entries: no plan of the count or the page of any condition touches
 * `report_reviews`, and a decision condition reads the decided reports from their index.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../db/database';
import { DataStore } from '../../db/data-store';
import { parseListQuery } from '../../query/list-query';
import { REVIEW_CONDITIONS } from '../../schema/review-list';
import { reviewWhere } from '../../service/review-list';
import { makeReport } from '../support/service-fixture';
import { databaseAt, temporaryFolder } from './migration-fixture';

const dir = temporaryFolder('labeldesk-review-plans-');

it('no review condition walks the review entries', () => {
  const file = join(dir(), 'plans.sqlite');
  databaseAt(file, SCHEMA_VERSION, [makeReport('r1'), makeReport('r2')]).close();
  const data = DataStore.open(file);
  try {
    const query = parseListQuery({ filter: 'isArchived[eq]false', order: 'created[desc]', pageSize: '100', output: 'minimal' });
    const compiled = data.reports.compile(query);
    for (const condition of REVIEW_CONDITIONS) {
      const narrow = reviewWhere([condition], 'acme')!;
      const plans = data.reports.plans('acme', { ...compiled, where: `(${compiled.where}) AND (${narrow.sql})`, params: [...compiled.params, ...narrow.params] }, 100, 0);
      const lines = [...plans.count, ...plans.page];
      expect(lines.filter((line) => /report_reviews/.test(line)), condition).toEqual([]);
      if (condition.startsWith('decision.') && condition !== 'decision.none') {
        expect(lines.some((line) => /review_current_decision/.test(line)), `${condition}: ${lines.join(' | ')}`).toBe(true);
      }
    }
  } finally {
    data.close();
  }
});
