/**
 * Every statement of every trigger finds its rows by key. A trigger runs inside each write, so
 * a statement that reads a whole table makes every write cost the size of the database: the
 * custom field counts of migration 19 read all their rows on each custom field written, and
 * seeding three thousand reports took half a minute instead of seconds.
 *
 * SQLite does not plan a trigger's statements on their own, so each is planned as it runs: the
 * body's `new.` and `old.` columns replaced by values of their columns' types. A scan of a
 * subquery the statement materialises (one report's values) or of a table-valued function
 * (json_each over one value) is allowed; a scan of a stored table is not.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../db/database';
import customFieldCountsByKey from '../../db/migrations/020-custom-field-counts-by-key';
import { CUSTOM_FIELD_RECOUNT } from '../../db/read-model';
import { makeReport } from '../support/service-fixture';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { ReportStore } from '../../db/report-store';
import { reportFromBundle } from '../../service/report-from-bundle';

const dir = temporaryFolder('labeldesk-trigger-plans-');

const REPORTS = Array.from({ length: 40 }, (_, i) =>
  makeReport(`t${i}`, {
    companyId: i % 3 === 0 ? 'nordic' : 'acme',
    customFields: [
      { customFieldId: 'batch', value: [`B-${i % 7}`] },
      { customFieldId: 'pallets', value: [i % 5, i % 5] },
    ],
  }),
);

/** The statements of each trigger, with the row the trigger sees replaced by literals. */
function triggerStatements(db: Database.Database): { trigger: string; sql: string }[] {
  const triggers = db.prepare("SELECT name, tbl_name AS tbl, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all() as {
    name: string;
    tbl: string;
    sql: string;
  }[];
  return triggers.flatMap(({ name, tbl, sql }) => {
    let body = sql.slice(sql.search(/\bBEGIN\b/i) + 'BEGIN'.length, sql.search(/\bEND\s*$/i));
    const columns = db.prepare('SELECT name, type FROM pragma_table_info(?)').all(tbl) as { name: string; type: string }[];
    for (const { name: column, type } of [...columns, { name: 'rowid', type: 'INTEGER' }]) {
      const literal = /INT|REAL|NUM/i.test(type) ? '1' : "'x'";
      body = body.replace(new RegExp(`\\b(new|old)\\.${column}\\b`, 'gi'), literal);
    }
    return body
      .split(/;\s*\n/)
      .map((s) => s.trim().replace(/;$/, ''))
      .filter((s) => s !== '')
      .map((s) => ({ trigger: name, sql: s }));
  });
}

/** The stored tables a statement reads whole. */
function scannedTables(db: Database.Database, sql: string): string[] {
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
  const subqueries = new Set(plan.flatMap(({ detail }) => /^(?:MATERIALIZE|CO-ROUTINE) (\S+)/.exec(detail)?.[1] ?? []));
  return plan
    .map(({ detail }) => /^SCAN (\S+)(.*)$/.exec(detail))
    .filter((m): m is RegExpExecArray => m !== null && !subqueries.has(m[1]) && !/VIRTUAL TABLE|CONSTANT ROW/.test(m[2]) && m[1] !== 'CONSTANT')
    .map((m) => m[1]);
}

function scans(db: Database.Database): string[] {
  return triggerStatements(db).flatMap(({ trigger, sql }) =>
    scannedTables(db, sql).map((table) => `${trigger} reads all of ${table}: ${sql.replace(/\s+/g, ' ').slice(0, 100)}…`),
  );
}

describe('trigger plans', () => {
  it('finds the statements of every trigger', () => {
    const db = databaseAt(join(dir(), 'count.sqlite'), MIGRATIONS.length, []);
    const statements = triggerStatements(db);
    // Each trigger has at least one statement, and every one of them plans (the check below would pass on none).
    const triggers = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'").pluck().get() as number;
    expect(new Set(statements.map((s) => s.trigger)).size).toBe(triggers);
    expect(triggers).toBeGreaterThan(60);
    for (const { sql } of statements) expect(() => db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all()).not.toThrow();
    db.close();
  });

  it('no trigger statement reads a whole stored table, with or without statistics', () => {
    const db = databaseAt(join(dir(), 'current.sqlite'), MIGRATIONS.length, REPORTS);
    expect(scans(db)).toEqual([]);
    db.exec('ANALYZE');
    expect(scans(db)).toEqual([]);
    db.close();
  });

  it("sees the scans of migration 19's element triggers, which migration 20 replaces", () => {
    const db = databaseAt(join(dir(), 'v19.sqlite'), MIGRATIONS.indexOf(customFieldCountsByKey), REPORTS);
    const found = scans(db);
    expect(found.filter((s) => /^listing_custom_field_(counts|totals)_element_(insert|delete) reads all of custom_field_(counts|totals)/.test(s))).toHaveLength(
      found.length,
    );
    expect(new Set(found.map((s) => s.split(' ')[0]))).toEqual(
      new Set(['counts', 'totals'].flatMap((t) => [`listing_custom_field_${t}_element_insert`, `listing_custom_field_${t}_element_delete`])),
    );
    db.close();
  });

  it('after the upgrade, custom field writes keep the counts a recount gives', () => {
    const db = databaseAt(join(dir(), 'upgrade.sqlite'), MIGRATIONS.indexOf(customFieldCountsByKey), REPORTS);
    migrate(db);
    // A test file: no crash to survive, so no waiting on the disk.
    db.pragma('synchronous = OFF');
    const store = new ReportStore(db);
    for (const [i, bundle] of REPORTS.entries()) {
      if (i % 2 === 1) continue;
      const before = reportFromBundle(bundle);
      const fields = i % 4 === 0 ? [{ customFieldId: 'batch', value: [`B-${(i + 1) % 7}`, 'B-x'] }] : [];
      store.write(reportFromBundle(makeReport(bundle.id, { ...bundle, customFields: fields })), before);
    }
    const kept = ['custom_field_counts', 'custom_field_totals'].map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2, 3, 4, 5, 6`).all());
    db.exec(CUSTOM_FIELD_RECOUNT);
    const recounted = ['custom_field_counts', 'custom_field_totals'].map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2, 3, 4, 5, 6`).all());
    expect(kept[0]!.length).toBeGreaterThan(0);
    expect(kept).toEqual(recounted);
    db.close();
  });
});
