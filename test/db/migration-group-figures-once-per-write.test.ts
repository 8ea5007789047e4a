/**
 * Migration 023: a report's write moves its kept group figures once. The same writes on two
 * copies of one database, at 022 and migrated: the kept rows end the same on both, and as a
 * recount writes them; on the migrated copy a tap that moves five listing columns changes each
 * kept row it moves once out and once in, where 022's triggers moved them at every column. The
 * hold leaves nothing behind, and a write that rolls back leaves the figures as they were.
 */
import type Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { MIGRATIONS } from '../../db/database';
import { GROUP_FIGURES_RECOUNT, GROUP_FIGURES_TABLES } from '../../db/read-model';
import groupFiguresOncePerWrite from '../../db/migrations/023-group-figures-once-per-write';
import type { BundleReport } from '../../schema/bundle';
import { reportFromBundle } from '../../service/report-from-bundle';
import { series, T0 } from '../support/service-fixture';
import { temporaryFolder } from './migration-fixture';
import { beforeAndAfter, siteLikeReport } from './migration-write-pages';

const dir = temporaryFolder('labeldesk-group-figures-once-');
const BEFORE = MIGRATIONS.indexOf(groupFiguresOncePerWrite);
const REPORTS = 200;

function reportAt(i: number, overrides: Partial<BundleReport> = {}): BundleReport {
  return siteLikeReport('o', i, { firstMs: Date.UTC(2025, 0, 1), everyMs: 3_600_000, readingsFrom: T0 + i * 3_600 }, overrides);
}

/** The kept rows of every group figures table, as sorted text. */
function keptRows(db: Database.Database): string[] {
  return GROUP_FIGURES_TABLES.flatMap((t) =>
    (db.prepare(`SELECT * FROM ${t}`).raw().all() as unknown[][]).map((r) => `${t} ${JSON.stringify(r.map((v) => (typeof v === 'number' ? Number(v.toFixed(6)) : v)))}`),
  ).sort();
}

/** Counts, in the connection's temporary schema, each row the listing's kept tables write. */
function countKeptRowWrites(db: Database.Database): () => number {
  db.exec('CREATE TEMP TABLE kept_row_writes (n INTEGER NOT NULL)');
  db.exec('INSERT INTO temp.kept_row_writes VALUES (0)');
  for (const table of ['group_figures_time', 'group_figures_split']) {
    for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
      db.exec(`CREATE TEMP TRIGGER count_${table}_${event.toLowerCase()} AFTER ${event} ON main.${table} BEGIN UPDATE kept_row_writes SET n = n + 1; END`);
    }
  }
  return () => {
    const n = db.prepare('SELECT n FROM temp.kept_row_writes').pluck().get() as number;
    db.exec('UPDATE temp.kept_row_writes SET n = 0');
    return n;
  };
}

it('a tap moves each kept row it touches once out and once in, and leaves the same figures as 022 did', () => {
  const copies = beforeAndAfter(dir(), BEFORE, Array.from({ length: REPORTS }, (_, i) => reportAt(i)));
  const { before, after } = copies;
  try {
    const writes = { before: countKeptRowWrites(before.db), after: countKeptRowWrites(after.db) };
    const i = REPORTS / 2;
    const original = reportFromBundle(reportAt(i));
    // Warmer readings: the alert level, the excursions, their duration, the degree-hours and the MKT move.
    const tapped = reportFromBundle(
      reportAt(i, { numberOfTaps: 2, reportedSenseData: { datapoints: series(T0 + i * 3_600, 600, [...Array.from({ length: 20 }, () => 5), 11, 12, 14]) } }),
    );
    const flagged = reportFromBundle(reportAt(i + 1, { companyId: 'nordic' }));

    before.db.transaction(() => before.store.write(tapped, original))();
    after.db.transaction(() => after.store.write(tapped, original))();
    const tap = { before: writes.before(), after: writes.after() };
    if (process.env.LABELDESK_SHOW_PAGES) console.log('kept row writes of a tap', tap);
    // Out of the time table's two rows (created, start) and the split's one, into their new ones;
    // a kept row left empty is deleted.
    expect(tap.after).toBeLessThanOrEqual(2 * 3 + 3);
    expect(tap.before).toBeGreaterThan(2 * tap.after);

    // An owner moved: listing rows leave one company's view and come into another's.
    before.db.transaction(() => before.store.write(flagged, reportFromBundle(reportAt(i + 1))))();
    after.db.transaction(() => after.store.write(flagged, reportFromBundle(reportAt(i + 1))))();

    expect(keptRows(after.db)).toEqual(keptRows(before.db));
    after.db.exec('SAVEPOINT recount');
    const kept = keptRows(after.db);
    after.db.exec(GROUP_FIGURES_RECOUNT);
    expect(keptRows(after.db)).toEqual(kept);
    after.db.exec('ROLLBACK TO recount; RELEASE recount');
    expect(after.db.prepare('SELECT count(*) FROM group_figures_moving').pluck().get()).toBe(0);

    // A held write that rolls back: no hold and no figure is left from it.
    const kept2 = keptRows(after.db);
    expect(() =>
      after.db.transaction(() => {
        after.store.write(original, tapped);
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(keptRows(after.db)).toEqual(kept2);
    expect(after.db.prepare('SELECT count(*) FROM group_figures_moving').pluck().get()).toBe(0);
  } finally {
    copies.close();
  }
});
