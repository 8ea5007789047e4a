/**
 * What migration 021's key indexes cost a write, in pages of the write-ahead log: the same
 * writes on the same reports, on a database before the migration and on one just after it. A
 * write that moves no indexed key writes exactly the pages it wrote before; a tap writes at most
 * the leaf pages of the indexes whose key it moved (an entry out, an entry in: a page each at
 * most); a new report adds at most an entry's page or two to each new index.
 */
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { MIGRATIONS } from '../../db/database';
import keyOrderIndexes from '../../db/migrations/021-key-order-indexes';
import { KEY_ORDER_INDEXES, REBUILT_COUNT_INDEXES } from '../../db/read-model';
import type { BundleReport } from '../../schema/bundle';
import { reportFromBundle } from '../../service/report-from-bundle';
import { T0 } from '../support/service-fixture';
import { temporaryFolder } from './migration-fixture';
import { beforeAndAfter, pagesOnBoth, renamedThenTapped, siteLikeReport } from './migration-write-pages';

const dir = temporaryFolder('labeldesk-key-index-writes-');
const BEFORE = MIGRATIONS.indexOf(keyOrderIndexes);
/** Enough reports that each listing index is a tree of more than one level, as at a site. */
const REPORTS = 1000;

function reportAt(i: number, overrides: Partial<BundleReport> = {}): BundleReport {
  return siteLikeReport('k', i, { firstMs: Date.UTC(2026, 0, 1), everyMs: 3_600_000, readingsFrom: T0 + i * 60 }, { numberOfTaps: 1 + (i % 3), ...overrides });
}

const COLUMNS = [...KEY_ORDER_INDEXES, ...REBUILT_COUNT_INDEXES].map(([, column]) => column);

function keysOf(db: Database.Database, id: string): Record<string, unknown> {
  return db.prepare(`SELECT ${COLUMNS.join(', ')} FROM report_listing WHERE id = ?`).get(id) as Record<string, unknown>;
}

it('a write that moves no indexed key writes the same pages as before the migration; a tap and a create, at most a page or two per index they move', () => {
  const copies = beforeAndAfter(dir(), BEFORE, Array.from({ length: REPORTS }, (_, i) => reportAt(i)));
  const { after } = copies;
  try {
    expect(after.db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'listing_number_of_taps'`).pluck().get()).toBe(1);
    const i = REPORTS / 2;
    const { original, renamed, tapped } = renamedThenTapped(reportAt, i, T0 + i * 60, 1 + (i % 3) + 1);

    const rename = pagesOnBoth(copies, (store) => store.write(renamed, original));
    expect(rename[1]).toBe(rename[0]);

    const keysBefore = keysOf(after.db, original.id);
    const tap = pagesOnBoth(copies, (store) => store.write(tapped, renamed));
    const keysAfter = keysOf(after.db, original.id);
    const moved = COLUMNS.filter((column) => keysAfter[column] !== keysBefore[column]);
    // The tap moves the number of taps and the datapoint counts.
    expect(moved).toEqual(expect.arrayContaining(['number_of_taps', 'calc_datapoints_read']));
    expect(tap[1]).toBeGreaterThanOrEqual(tap[0]);
    expect(tap[1] - tap[0]).toBeLessThanOrEqual(2 * moved.length);

    const made = reportFromBundle(reportAt(REPORTS + 1));
    const create = pagesOnBoth(copies, (store) => store.write(made));
    expect(create[1]).toBeGreaterThan(create[0]);
    expect(create[1] - create[0]).toBeLessThanOrEqual(2 * KEY_ORDER_INDEXES.length);
  } finally {
    copies.close();
  }
}, 120_000);
