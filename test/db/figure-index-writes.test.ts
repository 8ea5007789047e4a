/**
 * What migration 018's figure indexes cost a write, in pages of the write-ahead log: the same
 * writes on the same reports, on a database before the migration and on one after it. A write
 * that moves no figure writes exactly the pages it wrote before; a tap writes at most the leaf
 * pages of the indexes whose figure it moved (an entry out, an entry in: one page each at most).
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../db/database';
import figureOrderIndexes, { NEW_FIGURE_INDEXES, REBUILT_FIGURE_INDEXES } from '../../db/migrations/018-figure-order-indexes';
import { ReportStore } from '../../db/report-store';
import type { BundleReport } from '../../schema/bundle';
import { reportFromBundle } from '../../service/report-from-bundle';
import { makeReport, series, T0 } from '../support/service-fixture';
import { databaseAt, temporaryFolder } from './migration-fixture';

const dir = temporaryFolder('labeldesk-figure-index-writes-');
const BEFORE = MIGRATIONS.indexOf(figureOrderIndexes);
/** Enough reports that each listing index is a tree of several levels, as at a site. */
const REPORTS = 3000;

function reportAt(i: number, overrides: Partial<BundleReport> = {}): BundleReport {
  const temperatures = Array.from({ length: 20 }, (_, k) => (k === 7 && i % 5 === 0 ? 9 + (i % 4) : 4 + ((i + k) % 3)));
  return makeReport(`w${String(i).padStart(5, '0')}`, {
    created: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
    labelReference: `PO-${100_000 + i}`,
    reportedSenseData: { datapoints: series(T0 + i * 60, 600, temperatures) },
    ...overrides,
  });
}

/** A report's columns of the new and rebuilt figure indexes, as its listing rows hold them. */
function figuresOf(db: Database.Database, id: string): Record<string, unknown> {
  const columns = [...NEW_FIGURE_INDEXES, ...REBUILT_FIGURE_INDEXES].map(([, column]) => column);
  return db.prepare(`SELECT ${columns.join(', ')} FROM report_listing WHERE id = ?`).get(id) as Record<string, unknown>;
}

it('a write that moves no figure writes the same pages as before the migration; a tap, at most a page in and out per moved figure', () => {
  const template = join(dir(), 'template.sqlite');
  const reports = Array.from({ length: REPORTS }, (_, i) => reportAt(i));
  {
    const db = databaseAt(template, BEFORE, []);
    // A test file: no crash to survive, so one transaction and no waiting on the disk.
    db.pragma('synchronous = OFF');
    const store = new ReportStore(db);
    db.transaction(() => reports.forEach((report) => store.write(reportFromBundle(report))))();
    db.close();
  }
  const open = (name: string, upgrade: boolean) => {
    const file = join(dir(), `${name}.sqlite`);
    copyFileSync(template, file);
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = OFF');
    if (upgrade) migrate(db, BEFORE + 1);
    return { db, store: new ReportStore(db) };
  };
  const before = open('before', false);
  const after = open('after', true);
  try {
    expect(after.db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'listing_start_time'`).pluck().get()).toBe(1);
    /** The pages one write adds to an emptied write-ahead log. */
    const pagesOf = (db: Database.Database, write: () => void) => {
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.transaction(write)();
      const [{ log }] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
      return log;
    };
    const i = REPORTS / 2;
    const original = reportFromBundle(reportAt(i));
    const renamed = reportFromBundle(reportAt(i, { labelReference: 'PO-renamed' }));
    const tapped = reportFromBundle(
      reportAt(i, {
        labelReference: 'PO-renamed',
        numberOfTaps: 2,
        reportedSenseData: { datapoints: series(T0 + i * 60, 600, [...Array.from({ length: 20 }, () => 5), 11, 12, 6]) },
      }),
    );

    const rename = [before, after].map(({ db, store }) => pagesOf(db, () => store.write(renamed, original)));
    expect(rename[1]).toBe(rename[0]);

    const figuresBefore = figuresOf(after.db, original.id);
    const tap = [before, after].map(({ db, store }) => pagesOf(db, () => store.write(tapped, renamed)));
    const figuresAfter = figuresOf(after.db, original.id);
    const moved = Object.keys(figuresAfter).filter((column) => figuresAfter[column] !== figuresBefore[column]);
    // The tap moves the times and counts of datapoints and the excursion figures.
    expect(moved).toEqual(expect.arrayContaining(['calc_current_time', 'calc_elapsed_time', 'calc_violation_duration_all']));
    const newlyIndexed = moved.filter((column) => NEW_FIGURE_INDEXES.some(([, c]) => c === column)).length;
    expect(tap[1]).toBeGreaterThanOrEqual(tap[0]);
    expect(tap[1] - tap[0]).toBeLessThanOrEqual(2 * newlyIndexed);
  } finally {
    before.db.close();
    after.db.close();
  }
}, 120_000);
