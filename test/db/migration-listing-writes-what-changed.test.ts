/**
 * Migration 017 (the listing writes what changed): on any sequence of report writes, the
 * per-column triggers leave exactly the listing rows and kept counts that the one trigger they
 * replace left; and a write names in report_listing only the columns whose values moved, so an
 * index of columns that did not move is not rewritten.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import DatabaseFile from 'better-sqlite3';
import type Database from 'better-sqlite3';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../db/database';
import listingWritesWhatChanged from '../../db/migrations/017-listing-writes-what-changed';
import { ReportStore } from '../../db/report-store';
import type { BundleReport } from '../../schema/bundle';
import { reportFromBundle } from '../../service/report-from-bundle';
import type { Report } from '../../model/report';
import { makeReport, series, T0 } from '../support/service-fixture';
import { assertProperty } from '../support/property';
import { databaseAt, temporaryFolder } from './migration-fixture';

const dir = temporaryFolder('labeldesk-migration-listing-writes-');
const BEFORE = MIGRATIONS.indexOf(listingWritesWhatChanged);
const IDS = ['r0', 'r1', 'r2'];

/** One write of a report: the fields it sets on top of the fixture's report. */
type Variant = Partial<BundleReport>;

const variantArb: fc.Arbitrary<Variant> = fc.record(
  {
    labelReference: fc.constantFrom('REF-a', 'PO-123456', 'PO-123457'),
    status: fc.constantFrom('active', 'completed'),
    mode: fc.constantFrom('roadTransport', 'airFreight'),
    companyId: fc.constantFrom('acme', 'nordic'),
    subCompany: fc.constantFrom(null, { id: 'north' }, { id: 'south', name: 'South' }),
    numberOfTaps: fc.integer({ min: 1, max: 3 }),
    reportedSenseData: fc.constantFrom(
      { datapoints: series(T0, 600, [4, 5, 5, 4]) },
      { datapoints: series(T0, 600, [4, 5, 9, 10, 5]) },
      { datapoints: series(T0, 600, [4, 12, 14, 12, 13, 1]) },
    ),
  },
  { requiredKeys: [] },
);

const writeArb = fc.record({ id: fc.constantFrom(...IDS), variant: variantArb });

/** The listing rows and counts; `like` reads only the listing columns that database has (later migrations add some). */
function listingOf(db: Database.Database, like: Database.Database = db) {
  const columns = (like.prepare('SELECT name FROM pragma_table_info(?)').all('report_listing') as { name: string }[]).map((c) => c.name).join(', ');
  return {
    rows: db.prepare(`SELECT ${columns} FROM report_listing ORDER BY ck, rk`).all(),
    counts: db.prepare('SELECT * FROM listing_counts ORDER BY 1, 2, 3, 4, 5, 6, 7, 8').all(),
  };
}

/** A version-16 database holding the reports, made once: each run writes on copies of it. */
let template = '';
function copyOfTemplate(file: string): Database.Database {
  if (!template) {
    template = join(dir(), 'template.sqlite');
    databaseAt(template, BEFORE, IDS.map((id) => makeReport(id))).close();
  }
  copyFileSync(template, file);
  const db = new DatabaseFile(file);
  db.pragma('foreign_keys = ON');
  // A test file: no crash to survive, so no waiting on the disk.
  db.pragma('synchronous = OFF');
  return db;
}

/** The same writes on a database kept by the old trigger and on one upgraded to the new ones. */
function pair(name: string) {
  const reports = IDS.map((id) => makeReport(id));
  const old = copyOfTemplate(join(dir(), `${name}-old.sqlite`));
  const upgraded = copyOfTemplate(join(dir(), `${name}-new.sqlite`));
  migrate(upgraded);
  const current = new Map<string, Report>(reports.map((r) => [r.id, reportFromBundle(r)]));
  const stores = [old, upgraded].map((db) => ({ db, store: new ReportStore(db) }));
  const write = (id: string, variant: Variant) => {
    const next = reportFromBundle(makeReport(id, variant));
    // One transaction a write, as the service's writer makes it.
    for (const { db, store } of stores) db.transaction(() => store.write(next, current.get(id)))();
    current.set(id, next);
  };
  return { old, upgraded, write, close: () => [old, upgraded].forEach((db) => db.close()) };
}

it('keeps the listing rows and counts the one update trigger kept, on any sequence of writes', () => {
  let run = 0;
  assertProperty(
    fc.property(fc.array(writeArb, { minLength: 1, maxLength: 12 }), (writes) => {
      const { old, upgraded, write, close } = pair(`p${run++}`);
      try {
        expect(listingOf(upgraded, old)).toEqual(listingOf(old));
        for (const { id, variant } of writes) {
          write(id, variant);
          expect(listingOf(upgraded, old)).toEqual(listingOf(old));
        }
      } finally {
        close();
      }
    }),
    { numRuns: 40 },
  );
});

it('names in report_listing only the columns whose values moved', () => {
  const { upgraded, write, close } = pair('witness');
  try {
    // A witness per indexed column the write below must leave alone.
    upgraded.exec(`CREATE TEMP TABLE named (col TEXT);`);
    for (const col of ['mode', 'status', 'alert_level', 'calc_mean_kinetic_temperature', 'created', 'owner_ck', 'label_name']) {
      upgraded.exec(`CREATE TEMP TRIGGER witness_${col} AFTER UPDATE OF ${col} ON main.report_listing BEGIN INSERT INTO named VALUES ('${col}'); END;`);
    }
    upgraded.exec(`CREATE TEMP TRIGGER witness_reference AFTER UPDATE OF label_reference ON main.report_listing BEGIN INSERT INTO named VALUES ('label_reference'); END;`);
    write('r1', { labelReference: 'PO-777777' });
    expect(upgraded.prepare('SELECT col FROM named').pluck().all()).toEqual(['label_reference']);
    expect(upgraded.prepare(`SELECT label_reference FROM report_listing WHERE id = 'r1'`).pluck().get()).toBe('PO-777777');
  } finally {
    close();
  }
});

it('replaces the one update trigger by one per listing column', () => {
  const { upgraded, close } = pair('triggers');
  try {
    const names = upgraded.prepare(`SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'listing_report_update%'`).pluck().all();
    expect(names).not.toContain('listing_report_update');
    expect(names).toEqual(expect.arrayContaining(['listing_report_update_owner_ck', 'listing_report_update_alert_level', 'listing_report_update_calc_mean_kinetic_temperature']));
  } finally {
    close();
  }
});
