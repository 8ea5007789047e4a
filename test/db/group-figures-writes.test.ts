/**
 * What migration 022's kept group figures cost a write, in pages of the write-ahead log: the
 * same writes on the same reports, on a database before the migration and on one after it. A
 * write that moves no figure and no kept split writes exactly the pages it wrote before; a tap
 * and a new report add at most the pages of the kept rows they move (one row per kept time
 * field and one without time; a row's page and, seldom, the one a split adds).
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../db/database';
import groupFigures from '../../db/migrations/022-group-figures';
import { ReportStore } from '../../db/report-store';
import type { BundleReport } from '../../schema/bundle';
import { reportFromBundle } from '../../service/report-from-bundle';
import { makeReport, series, T0 } from '../support/service-fixture';
import { databaseAt, temporaryFolder } from './migration-fixture';

const dir = temporaryFolder('labeldesk-group-figures-writes-');
const BEFORE = MIGRATIONS.indexOf(groupFigures);
/** Enough reports over enough days that the kept tables span several pages, as at a site. */
const REPORTS = 3000;

function reportAt(i: number, overrides: Partial<BundleReport> = {}): BundleReport {
  const temperatures = Array.from({ length: 20 }, (_, k) => (k === 7 && i % 5 === 0 ? 9 + (i % 4) : 4 + ((i + k) % 3)));
  return makeReport(`g${String(i).padStart(5, '0')}`, {
    created: new Date(Date.UTC(2025, 0, 1) + i * 6 * 3_600_000).toISOString(),
    labelReference: `PO-${100_000 + i}`,
    reportedSenseData: { datapoints: series(T0 + i * 21_600, 600, temperatures) },
    ...overrides,
  });
}

it('a write that moves no kept figure writes the same pages as before the migration; a tap and a new report, a few more', () => {
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
    if (upgrade) migrate(db);
    return { db, store: new ReportStore(db) };
  };
  const before = open('before', false);
  const after = open('after', true);
  try {
    expect(after.db.prepare('SELECT count(*) FROM group_figures_time').pluck().get()).toBeGreaterThan(500);
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
        reportedSenseData: { datapoints: series(T0 + i * 21_600, 600, [...Array.from({ length: 20 }, () => 5), 11, 12, 6]) },
      }),
    );
    const created = reportFromBundle(reportAt(REPORTS + 7, { created: new Date(Date.UTC(2025, 0, 1) + i * 6 * 3_600_000 + 60_000).toISOString() }));

    const rename = [before, after].map(({ db, store }) => pagesOf(db, () => store.write(renamed, original)));
    expect(rename[1]).toBe(rename[0]);

    const tap = [before, after].map(({ db, store }) => pagesOf(db, () => store.write(tapped, renamed)));
    const create = [before, after].map(({ db, store }) => pagesOf(db, () => store.write(created)));
    expect(tap[1]).toBeGreaterThanOrEqual(tap[0]);
    expect(tap[1] - tap[0]).toBeLessThanOrEqual(6);
    expect(create[1]).toBeGreaterThanOrEqual(create[0]);
    expect(create[1] - create[0]).toBeLessThanOrEqual(6);
    if (process.env.LABELDESK_SHOW_PAGES) console.log(`pages: rename ${rename.join(' → ')}, tap ${tap.join(' → ')}, create ${create.join(' → ')}`);
  } finally {
    before.db.close();
    after.db.close();
  }
}, 120_000);
