/**
 * A custom field condition many reports meet is tested report by report while the page walks its
 * order (CompiledListQuery.pageWhere); one few reports meet collects its matches from the element
 * index. Both forms pick the same reports: every page of every condition and order, read through
 * the store (which chooses by how many elements match), equals the page read with the
 * collecting form alone, on a real database.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import { compileListQuery } from '../../db/query/compile';
import { parseListQuery } from '../../query/list-query';
import { temporaryFolder } from './migration-fixture';
import { makeReport, writeReportsFile } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-custom-field-walk-');
const REPORTS = 400;

const CONDITIONS = [
  'batch[eq]B-7',
  'batch[gte]B-2',
  'batch[lt]B-3',
  'batch[neq]B-1',
  'batch[like]B-1%',
  'batch[ilike]b-1%',
  'batch[includes]-1',
  'pallets[gte]3',
  'pallets[lt]8',
  'pallets[eq]4',
  'pallets[includes]4',
  'tags[eq]cold',
  'tags[gte]a',
  'batch[gte]B-2,pallets[lt]9',
];

describe('a custom field condition, walked or collected', () => {
  it('gives the same pages either way, for every condition and order', () => {
    const file = join(dir(), 'walk.sqlite');
    writeReportsFile(file, REPORTS, (i) =>
      makeReport(`w${String(i).padStart(4, '0')}`, {
        created: new Date(Date.UTC(2026, 0, 1, 0, i * 7 % 600)).toISOString(),
        companyId: i % 5 === 4 ? 'nordic' : 'acme',
        access: i % 5 === 4 ? [{ companyId: 'acme', role: 'viewer' }] : [],
        customFields: [
          ...(i % 9 === 8 ? [] : [{ customFieldId: 'batch', value: `B-${i % 12}` }]),
          { customFieldId: 'pallets', value: i % 3 === 0 ? String(i % 10) : i % 10 },
          ...(i % 4 === 0 ? [{ customFieldId: 'tags', value: i % 8 === 0 ? ['cold', 'fragile'] : ['dry'] }] : []),
        ],
      }),
    );
    const data = DataStore.open(file);
    try {
      let walked = 0;
      for (const customFields of CONDITIONS) {
        for (const order of ['created[desc]', 'id[asc]', 'numberOfTaps[desc]']) {
          for (const pageNumber of ['1', '2', '7']) {
            const q = parseListQuery({ customFields, order, pageSize: '20', pageNumber, filter: 'isArchived[eq]false' });
            const chosen = data.reports.compile(q);
            const collected = compileListQuery(q);
            expect(collected.pageWhere).toBeUndefined();
            if (chosen.pageWhere) walked++;
            const page = (f: typeof chosen) => data.read(() => data.reports.pageIds('acme', f, q.pageSize, (q.pageNumber - 1) * q.pageSize));
            expect(page(chosen), `${customFields} ${order} page ${pageNumber}`).toEqual(page(collected));
            expect(data.reports.count('acme', chosen)).toBe(data.reports.count('acme', collected));
            // Narrowed by a caller after compiling, the page keeps the narrowing whichever form it reads.
            const narrow = <F extends typeof chosen>(f: F): F => ({ ...f, where: `(${f.where}) AND (l.rk % 2 = ?)`, params: [...f.params, 0] });
            expect(page(narrow(chosen)), `${customFields} ${order} page ${pageNumber}, narrowed`).toEqual(page(narrow(collected)));
          }
        }
      }
      // Both forms were compared: most conditions here are met by many reports, a few by few.
      expect(walked).toBeGreaterThan(CONDITIONS.length);
      expect(walked).toBeLessThan(CONDITIONS.length * 9);
    } finally {
      data.close();
    }
  });
});
