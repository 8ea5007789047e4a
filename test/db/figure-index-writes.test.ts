/**
 * What migration 018's figure indexes cost a write, in pages of the write-ahead log: the same
 * writes on the same reports, on a database before the migration and on one after it. A write
 * that moves no figure writes exactly the pages it wrote before; a tap writes at most the leaf
 * pages of the indexes whose figure it moved (an entry out, an entry in: one page each at most).
 */
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { MIGRATIONS } from '../../db/database';
import figureOrderIndexes from '../../db/migrations/018-figure-order-indexes';
import { NEW_FIGURE_INDEXES, REBUILT_FIGURE_INDEXES } from '../../db/read-model';
import type { BundleReport } from '../../schema/bundle';
import { T0 } from '../support/service-fixture';
import { temporaryFolder } from './migration-fixture';
import { beforeAndAfter, pagesOnBoth, renamedThenTapped, siteLikeReport } from './migration-write-pages';

const dir = temporaryFolder('labeldesk-figure-index-writes-');
const BEFORE = MIGRATIONS.indexOf(figureOrderIndexes);
/** Enough reports that each listing index is a tree of several levels, as at a site. */
const REPORTS = 3000;

function reportAt(i: number, overrides: Partial<BundleReport> = {}): BundleReport {
  return siteLikeReport('w', i, { firstMs: Date.UTC(2026, 0, 1), everyMs: 3_600_000, readingsFrom: T0 + i * 60 }, overrides);
}

/** A report's columns of the new and rebuilt figure indexes, as its listing rows hold them. */
function figuresOf(db: Database.Database, id: string): Record<string, unknown> {
  const columns = [...NEW_FIGURE_INDEXES, ...REBUILT_FIGURE_INDEXES].map(([, column]) => column);
  return db.prepare(`SELECT ${columns.join(', ')} FROM report_listing WHERE id = ?`).get(id) as Record<string, unknown>;
}

it('a write that moves no figure writes the same pages as before the migration; a tap, at most a page in and out per moved figure', () => {
  const reports = Array.from({ length: REPORTS }, (_, i) => reportAt(i));
  const copies = beforeAndAfter(dir(), BEFORE, reports);
  const { after } = copies;
  try {
    expect(after.db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'listing_start_time'`).pluck().get()).toBe(1);
    const i = REPORTS / 2;
    const { original, renamed, tapped } = renamedThenTapped(reportAt, i, T0 + i * 60);

    const rename = pagesOnBoth(copies, (store) => store.write(renamed, original));
    expect(rename[1]).toBe(rename[0]);

    const figuresBefore = figuresOf(after.db, original.id);
    const tap = pagesOnBoth(copies, (store) => store.write(tapped, renamed));
    const figuresAfter = figuresOf(after.db, original.id);
    const moved = Object.keys(figuresAfter).filter((column) => figuresAfter[column] !== figuresBefore[column]);
    // The tap moves the times and counts of datapoints and the excursion figures.
    expect(moved).toEqual(expect.arrayContaining(['calc_current_time', 'calc_elapsed_time', 'calc_violation_duration_all']));
    const newlyIndexed = moved.filter((column) => NEW_FIGURE_INDEXES.some(([, c]) => c === column)).length;
    expect(tap[1]).toBeGreaterThanOrEqual(tap[0]);
    expect(tap[1] - tap[0]).toBeLessThanOrEqual(2 * newlyIndexed);
  } finally {
    copies.close();
  }
}, 120_000);
