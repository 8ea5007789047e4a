/**
 * Migration 024: listing_archived carries the texts the report browser searches, analysed at
 * once. On a database at 023 with reports: the index holds them afterwards with statistics. A
 * new reference moves the report's entry of that index, a page at most; a tap that moves the
 * alert level rewrote that entry before too, and its longer entries may take a page more.
 */
import { expect, it } from 'vitest';
import { MIGRATIONS } from '../../db/database';
import searchWalksDefaultOrder from '../../db/migrations/024-search-walks-default-order';
import { WALKED_TEXTS } from '../../db/read-model';
import type { BundleReport } from '../../schema/bundle';
import { T0 } from '../support/service-fixture';
import { temporaryFolder } from './migration-fixture';
import { beforeAndAfter, pagesOnBoth, renamedThenTapped, siteLikeReport } from './migration-write-pages';

const dir = temporaryFolder('labeldesk-migration-search-walks-');
const BEFORE = MIGRATIONS.indexOf(searchWalksDefaultOrder);
/** Enough reports that listing_archived is a tree of several levels, as at a site. */
const REPORTS = 3000;

function reportAt(i: number, overrides: Partial<BundleReport> = {}): BundleReport {
  return siteLikeReport('s', i, { firstMs: Date.UTC(2026, 2, 1), everyMs: 3_600_000, readingsFrom: T0 + i * 60 }, overrides);
}

it('listing_archived carries the searched texts, analysed; a write costs a page more at most', () => {
  const copies = beforeAndAfter(dir(), BEFORE, Array.from({ length: REPORTS }, (_, i) => reportAt(i)));
  const { before, after } = copies;
  try {
    const columns = (db: typeof after.db) => (db.prepare(`SELECT name FROM pragma_index_info('listing_archived') ORDER BY seqno`).pluck().all() as string[]).slice(-2);
    expect(columns(before.db)).not.toEqual([...WALKED_TEXTS]);
    expect(columns(after.db)).toEqual([...WALKED_TEXTS]);
    // Every listing row has its entry, and the planner knows the index's size.
    expect(after.db.prepare('SELECT count(*) FROM report_listing INDEXED BY listing_archived WHERE ck > 0').pluck().get()).toBe(
      after.db.prepare('SELECT count(*) FROM report_listing').pluck().get(),
    );
    expect(after.db.prepare(`SELECT stat FROM sqlite_stat1 WHERE idx = 'listing_archived'`).pluck().get()).toMatch(/^\d+ /);

    const i = REPORTS / 2;
    const { original, renamed, tapped } = renamedThenTapped(reportAt, i, T0 + i * 60);
    const rename = pagesOnBoth(copies, (store) => store.write(renamed, original));
    expect(rename[1]).toBeGreaterThanOrEqual(rename[0]);
    expect(rename[1] - rename[0]).toBeLessThanOrEqual(1);
    const tap = pagesOnBoth(copies, (store) => store.write(tapped, renamed));
    expect(tap[1]).toBeGreaterThanOrEqual(tap[0]);
    expect(tap[1] - tap[0]).toBeLessThanOrEqual(1);
    if (process.env.LABELDESK_SHOW_PAGES) console.log(`pages: rename ${rename.join(' → ')}, tap ${tap.join(' → ')}`);
  } finally {
    copies.close();
  }
}, 120_000);
