/**
 * A text search many reports meet, in the default order, walks that order inside
 * listing_archived and tests each entry's text (CompiledListQuery.textWalk), falling back to
 * collecting the trigram index's candidates when the walk leaves the page short; any other
 * search collects. Either way the same reports: every page of every search and filter, read
 * through the store (which chooses the walk), equals the page read by collecting alone, on a
 * real database.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import { compileListQuery } from '../../db/query/compile';
import { parseListQuery } from '../../query/list-query';
import { temporaryFolder } from './migration-fixture';
import { makeReport, writeReportsFile } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-text-walk-');
const REPORTS = 400;

/** Searches many reports meet, few, and one in between; patterns of each kind; one case-sensitive miss. */
const FILTERS = [
  'labelReference[ilike]%po-1%',
  'labelReference[ilike]%PO-%',
  'labelReference[ilike]%po-12%',
  'labelReference[ilike]%-3_1%',
  'labelReference[like]PO-1%',
  'labelReference[like]%po-1%',
  'labelReference[includes]O-2',
  'label.sequenceCode[ilike]%seq-%',
  'label.sequenceCode[includes]SEQ-t01',
  'labelReference[ilike]%po-1%,status[eq]completed',
  'labelReference[ilike]%po-%,mode[eq]airFreight',
  'labelReference[ilike]%po-%,label.sequenceCode[ilike]%t00%',
  'labelReference[ilike]%po-1%,created[gte]2026-01-01T10:00:00.000Z',
  // The search's text is not carried by listing_archived: collected.
  'label.uid[ilike]%uid-%',
];

describe('a text search, walked or collected', () => {
  it('gives the same pages either way, for every search, filter and page', () => {
    const file = join(dir(), 'walk.sqlite');
    writeReportsFile(file, REPORTS, (i) =>
      makeReport(`t${String(i).padStart(4, '0')}`, {
        // Every fifth minute holds two reports: equal created times, ordered by id.
        created: new Date(Date.UTC(2026, 0, 1, 0, Math.floor((i * 7) % 600 / 2) * 2)).toISOString(),
        companyId: i % 5 === 4 ? 'nordic' : 'acme',
        access: i % 5 === 4 ? [{ companyId: 'acme', role: 'viewer' }] : [],
        labelReference: i % 6 === 5 ? `ref-${i}` : `PO-${10_000 + ((i * 37) % 3_000)}`,
        status: i % 3 === 0 ? 'completed' : 'active',
        mode: i % 4 === 0 ? 'airFreight' : 'roadTransport',
      }),
    );
    const data = DataStore.open(file);
    try {
      let walked = 0;
      let collected = 0;
      for (const filter of FILTERS) {
        for (const isArchived of [',isArchived[eq]false', '']) {
          for (const pageNumber of ['1', '2', '9']) {
            const q = parseListQuery({ filter: filter + isArchived, order: 'created[desc]', pageSize: '20', pageNumber });
            const chosen = data.reports.compile(q);
            const collecting = compileListQuery(q);
            expect(collecting.textWalk).toBeUndefined();
            if (chosen.textWalk) walked++;
            else collected++;
            const page = (f: typeof chosen) => data.read(() => data.reports.pageIds('acme', f, q.pageSize, (q.pageNumber - 1) * q.pageSize));
            const label = `${filter}${isArchived} page ${pageNumber}`;
            expect(page(chosen), label).toEqual(page(collecting));
            // Narrowed by a caller after compiling, the page keeps the narrowing whichever form it reads.
            const narrow = <F extends typeof chosen>(f: F): F => ({ ...f, where: `(${f.where}) AND (l.rk % 2 = ?)`, params: [...f.params, 0] });
            expect(page(narrow(chosen)), `${label}, narrowed`).toEqual(page(narrow(collecting)));
            // Every match, as the table export reads them: never walked.
            expect(data.read(() => data.reports.pageIds('acme', chosen, -1, 0)), `${label}, every match`).toEqual(
              data.read(() => data.reports.pageIds('acme', collecting, -1, 0)),
            );
          }
        }
      }
      // Both forms were compared: searches many reports meet walk, the others collect.
      expect(walked).toBeGreaterThan(FILTERS.length);
      expect(collected).toBeGreaterThan(FILTERS.length);
      // Another order collects.
      expect(data.reports.compile(parseListQuery({ filter: 'labelReference[ilike]%po-1%', order: 'created[asc]', pageSize: '20' })).textWalk).toBeUndefined();
    } finally {
      data.close();
    }
  });
});
