/**
 * What a migration costs a write, in pages of the write-ahead log: the same reports in two
 * copies of one database made at the version before the migration, one left there and one
 * migrated, and the pages one write adds to an emptied log on each.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from '../../db/database';
import { ReportStore } from '../../db/report-store';
import type { Report } from '../../model/report';
import type { BundleReport } from '../../schema/bundle';
import { reportFromBundle } from '../../service/report-from-bundle';
import { makeReport, series } from '../support/service-fixture';
import { databaseAt } from './migration-fixture';

export interface Copy {
  db: Database.Database;
  store: ReportStore;
}

/**
 * The copies, in folder `dir`: `before` at schema `version` holding `reports`, `after` the same
 * migrated up to `upTo` (the migration alone by default: later ones have costs of their own).
 */
export function beforeAndAfter(dir: string, version: number, reports: readonly BundleReport[], upTo = version + 1): { before: Copy; after: Copy; close(): void } {
  const template = join(dir, 'template.sqlite');
  {
    const db = databaseAt(template, version, []);
    // A test file: no crash to survive, so one transaction and no waiting on the disk.
    db.pragma('synchronous = OFF');
    const store = new ReportStore(db);
    db.transaction(() => reports.forEach((report) => store.write(reportFromBundle(report))))();
    db.close();
  }
  const open = (name: string, upgrade: boolean): Copy => {
    const file = join(dir, `${name}.sqlite`);
    copyFileSync(template, file);
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = OFF');
    if (upgrade) migrate(db, upTo);
    return { db, store: new ReportStore(db) };
  };
  const before = open('before', false);
  const after = open('after', true);
  return {
    before,
    after,
    close: () => {
      before.db.close();
      after.db.close();
    },
  };
}

/** The pages one write adds to an emptied write-ahead log. */
export function pagesOf(db: Database.Database, write: () => void): number {
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.transaction(write)();
  const [{ log }] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
  return log;
}

/** The same write on both copies: its pages before and after the migration. */
export function pagesOnBoth(copies: { before: Copy; after: Copy }, write: (store: ReportStore) => void): [number, number] {
  return [pagesOf(copies.before.db, () => write(copies.before.store)), pagesOf(copies.after.db, () => write(copies.after.store))];
}

/**
 * Report `i` of such a database, as a site holds them: created every `everyMs` from `firstMs`,
 * a purchase-order reference, twenty readings from `readingsFrom`, an excursion in every fifth.
 */
export function siteLikeReport(
  prefix: string,
  i: number,
  spacing: { firstMs: number; everyMs: number; readingsFrom: number },
  overrides: Partial<BundleReport> = {},
): BundleReport {
  const temperatures = Array.from({ length: 20 }, (_, k) => (k === 7 && i % 5 === 0 ? 9 + (i % 4) : 4 + ((i + k) % 3)));
  return makeReport(`${prefix}${String(i).padStart(5, '0')}`, {
    created: new Date(spacing.firstMs + i * spacing.everyMs).toISOString(),
    labelReference: `PO-${100_000 + i}`,
    reportedSenseData: { datapoints: series(spacing.readingsFrom, 600, temperatures) },
    ...overrides,
  });
}

/**
 * Report `i` as `reportAt` makes it, the same renamed, then the renamed one tapped (`taps` taps,
 * warmer readings from `readingsFrom`): the writes each page test compares before and after.
 */
export function renamedThenTapped(
  reportAt: (i: number, overrides?: Partial<BundleReport>) => BundleReport,
  i: number,
  readingsFrom: number,
  taps = 2,
): { original: Report; renamed: Report; tapped: Report } {
  return {
    original: reportFromBundle(reportAt(i)),
    renamed: reportFromBundle(reportAt(i, { labelReference: 'PO-renamed' })),
    tapped: reportFromBundle(
      reportAt(i, {
        labelReference: 'PO-renamed',
        numberOfTaps: taps,
        reportedSenseData: { datapoints: series(readingsFrom, 600, [...Array.from({ length: 20 }, () => 5), 11, 12, 6]) },
      }),
    ),
  };
}
