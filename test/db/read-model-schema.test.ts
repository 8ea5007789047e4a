/**
 * The schema a fresh database gets through every migration is the one the read model declares:
 * every kept table, trigger and index declared exists with the same SQL (comments and whitespace
 * aside), and every trigger, every table a trigger writes and every index of a kept table in the
 * migrated database is declared. A bulk load sets the declared triggers and indexes aside and
 * puts back exactly that schema.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, type Db } from '../../db/database';
import { ReportStore } from '../../db/report-store';
import { bulkLoadPlan, READ_MODEL, type KeptTableDeclaration } from '../../db/read-model';
import { temporaryFolder } from './migration-fixture';

const dir = temporaryFolder('labeldesk-read-model-');

/** SQL as compared: without comments, whitespace collapsed, no final semicolon. */
const normalised = (sql: string) =>
  sql
    .replace(/--[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*;\s*$/, '')
    .trim();

interface SchemaRow {
  type: 'table' | 'index' | 'trigger' | 'view';
  name: string;
  tbl_name: string;
  sql: string | null;
}

const schemaRows = (db: Db) => db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name').all() as SchemaRow[];

/** The tables a trigger body writes. */
function writtenBy(sql: string): string[] {
  const body = sql.slice(sql.indexOf(' BEGIN'));
  // An upsert's DO UPDATE SET names no table.
  return [...body.matchAll(/\b(?:INSERT INTO|UPDATE|DELETE FROM)\s+(?!SET\b)(\w+)/gi)].map((m) => m[1]);
}

/** What differs between a migrated database's schema and a read model; empty when they agree. */
function mismatches(db: Db, model: readonly KeptTableDeclaration[]): string[] {
  const rows = schemaRows(db);
  const live = new Map(rows.filter((r) => r.sql !== null).map((r) => [r.name, r]));
  const found: string[] = [];
  const declared = new Map<string, { kind: string; sql: string }>();
  for (const d of model) {
    for (const [kind, items] of [['table', d.tables], ['trigger', d.triggers], ['index', d.indexes]] as const) {
      for (const item of items) {
        if (declared.has(item.name)) found.push(`${kind} ${item.name} is declared twice`);
        declared.set(item.name, { kind, sql: item.sql });
      }
    }
  }
  for (const [name, { kind, sql }] of declared) {
    const row = live.get(name);
    if (!row) found.push(`${kind} ${name} is declared but not in the migrated schema`);
    else if (row.type !== kind) found.push(`${name} is declared as a ${kind} but is a ${row.type}`);
    else if (normalised(row.sql!) !== normalised(sql)) found.push(`${kind} ${name} differs from its declaration`);
  }
  const keptTables = new Set<string>(model.flatMap((d) => d.tables.map((t) => t.name)));
  for (const row of rows) {
    if (row.type === 'trigger') {
      if (!declared.has(row.name)) found.push(`trigger ${row.name} is in the migrated schema but not declared`);
      for (const written of writtenBy(row.sql!)) {
        if (!keptTables.has(written)) found.push(`table ${written}, which trigger ${row.name} writes, is not a declared kept table`);
      }
    }
    if (row.type === 'index' && row.sql !== null && keptTables.has(row.tbl_name) && !declared.has(row.name)) {
      found.push(`index ${row.name} of the kept table ${row.tbl_name} is not declared`);
    }
  }
  return [...new Set(found)];
}

function migrated(name: string): Db {
  const db = new Database(join(dir(), name));
  migrate(db);
  return db;
}

describe('the read model', () => {
  it('is the schema a fresh database gets through every migration', () => {
    const db = migrated('fresh.sqlite');
    expect(mismatches(db, READ_MODEL)).toEqual([]);
    // Every kind is there to compare: the check is not vacuous.
    const declared = READ_MODEL.flatMap((d) => [...d.tables, ...d.triggers, ...d.indexes]);
    expect(declared.length).toBeGreaterThan(150);
    db.close();
  });

  it('finds a trigger or kept table a migration adds without a declaration, and a declaration no migration made', () => {
    const db = migrated('drift.sqlite');
    db.exec(`CREATE TABLE listing_extra (ck INTEGER NOT NULL, n INTEGER NOT NULL) STRICT;
      CREATE TRIGGER listing_extra_insert AFTER INSERT ON report_listing BEGIN INSERT INTO listing_extra (ck, n) VALUES (new.ck, 1); END;
      CREATE INDEX listing_extra_index ON report_listing (ck, label_name, id)`);
    expect(mismatches(db, READ_MODEL)).toEqual([
      'index listing_extra_index of the kept table report_listing is not declared',
      'trigger listing_extra_insert is in the migrated schema but not declared',
      'table listing_extra, which trigger listing_extra_insert writes, is not a declared kept table',
    ]);
    db.close();

    const fresh = migrated('declared-only.sqlite');
    const [first, ...rest] = READ_MODEL;
    const changed = { ...first, triggers: first.triggers.map((t, i) => (i === 0 ? { ...t, sql: t.sql.replace('BEGIN', 'WHEN 1 BEGIN') } : t)) };
    const added = { ...first, triggers: [...first.triggers, { name: 'listing_never_made', sql: 'CREATE TRIGGER listing_never_made AFTER INSERT ON access BEGIN SELECT 1; END' }] };
    const dropped = { ...first, triggers: first.triggers.slice(1) };
    expect(mismatches(fresh, [changed, ...rest])).toEqual([`trigger ${first.triggers[0].name} differs from its declaration`]);
    expect(mismatches(fresh, [added, ...rest])).toEqual(['trigger listing_never_made is declared but not in the migrated schema']);
    expect(mismatches(fresh, [dropped, ...rest])).toEqual([`trigger ${first.triggers[0].name} is in the migrated schema but not declared`]);
    fresh.close();
  });

  it('sets aside for a bulk load the triggers and indexes of what it rebuilds, and puts back the schema as it was', () => {
    const db = migrated('bulk.sqlite');
    db.pragma('foreign_keys = ON');
    const before = schemaRows(db);
    const plan = bulkLoadPlan();
    // The triggers on the review entries stay: a bulk load brings none.
    expect(plan.triggers.map((t) => t.name)).not.toContain('review_current_decision_entry');
    expect(plan.indexes.map((i) => i.name)).not.toContain('listing_report');
    const seen: string[] = [];
    const store = new ReportStore(db);
    db.transaction(() =>
      store.writingMany(1, () => {
        const names = new Set(schemaRows(db).map((r) => r.name));
        for (const t of plan.triggers) if (names.has(t.name)) seen.push(t.name);
        for (const i of plan.indexes) if (names.has(i.name)) seen.push(i.name);
      }),
    )();
    expect(seen).toEqual([]);
    expect(schemaRows(db)).toEqual(before);
    expect(mismatches(db, READ_MODEL)).toEqual([]);
    db.close();
  });
});
