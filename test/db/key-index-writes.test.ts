/**
 * What migration 021's key indexes cost a write, in pages of the write-ahead log: the same
 * writes on the same reports, on a database before the migration and on one just after it. A
 * write that moves no indexed key writes exactly the pages it wrote before; a tap writes at most
 * the leaf pages of the indexes whose key it moved (an entry out, an entry in: a page each at
 * most); a new report adds at most an entry's page or two to each new index.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../db/database';
import keyOrderIndexes, { KEY_ORDER_INDEXES, REBUILT_COUNT_INDEXES } from '../../db/migrations/021-key-order-indexes';
import { ReportStore } from '../../db/report-store';
import type { BundleReport } from '../../schema/bundle';
import { reportFromBundle } from '../../service/report-from-bundle';
import { makeReport, series, T0 } from '../support/service-fixture';
import { databaseAt, temporaryFolder } from './migration-fixture';

const dir = temporaryFolder('labeldesk-key-index-writes-');
const BEFORE = MIGRATIONS.indexOf(keyOrderIndexes);
/** Enough reports that each listing index is a tree of more than one level, as at a site. */
const REPORTS = 1000;

function reportAt(i: number, overrides: Partial<BundleReport> = {}): BundleReport {
  const temperatures = Array.from({ length: 20 }, (_, k) => (k === 7 && i % 5 === 0 ? 9 + (i % 4) : 4 + ((i + k) % 3)));
  return makeReport(`k${String(i).padStart(5, '0')}`, {
    created: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
    labelReference: `PO-${100_000 + i}`,
    numberOfTaps: 1 + (i % 3),
    reportedSenseData: { datapoints: series(T0 + i * 60, 600, temperatures) },
    ...overrides,
  });
}

const COLUMNS = [...KEY_ORDER_INDEXES, ...REBUILT_COUNT_INDEXES].map(([, column]) => column);

function keysOf(db: Database.Database, id: string): Record<string, unknown> {
  return db.prepare(`SELECT ${COLUMNS.join(', ')} FROM report_listing WHERE id = ?`).get(id) as Record<string, unknown>;
}

it('a write that moves no indexed key writes the same pages as before the migration; a tap and a create, at most a page or two per index they move', () => {
  const template = join(dir(), 'template.sqlite');
  {
    const db = databaseAt(template, BEFORE, []);
    // A test file: no crash to survive, so one transaction and no waiting on the disk.
    db.pragma('synchronous = OFF');
    const store = new ReportStore(db);
    db.transaction(() => Array.from({ length: REPORTS }, (_, i) => store.write(reportFromBundle(reportAt(i)))))();
    db.close();
  }
  const open = (name: string, upgrade: boolean) => {
    const file = join(dir(), `${name}.sqlite`);
    copyFileSync(template, file);
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = OFF');
    // This migration alone: later ones have their own costs.
    if (upgrade) migrate(db, BEFORE + 1);
    return { db, store: new ReportStore(db) };
  };
  const before = open('before', false);
  const after = open('after', true);
  try {
    expect(after.db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'listing_number_of_taps'`).pluck().get()).toBe(1);
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
        numberOfTaps: 1 + (i % 3) + 1,
        reportedSenseData: { datapoints: series(T0 + i * 60, 600, [...Array.from({ length: 20 }, () => 5), 11, 12, 6]) },
      }),
    );

    const rename = [before, after].map(({ db, store }) => pagesOf(db, () => store.write(renamed, original)));
    expect(rename[1]).toBe(rename[0]);

    const keysBefore = keysOf(after.db, original.id);
    const tap = [before, after].map(({ db, store }) => pagesOf(db, () => store.write(tapped, renamed)));
    const keysAfter = keysOf(after.db, original.id);
    const moved = COLUMNS.filter((column) => keysAfter[column] !== keysBefore[column]);
    // The tap moves the number of taps and the datapoint counts.
    expect(moved).toEqual(expect.arrayContaining(['number_of_taps', 'calc_datapoints_read']));
    expect(tap[1]).toBeGreaterThanOrEqual(tap[0]);
    expect(tap[1] - tap[0]).toBeLessThanOrEqual(2 * moved.length);

    const made = reportFromBundle(reportAt(REPORTS + 1));
    const create = [before, after].map(({ db, store }) => pagesOf(db, () => store.write(made)));
    expect(create[1]).toBeGreaterThan(create[0]);
    expect(create[1] - create[0]).toBeLessThanOrEqual(2 * KEY_ORDER_INDEXES.length);
  } finally {
    before.db.close();
    after.db.close();
  }
}, 120_000);
