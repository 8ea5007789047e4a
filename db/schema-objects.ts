/**
 * What a database's schema holds, read from sqlite_schema and table_info: for the schema's own
 * documentation (scripts/schema-doc.ts), which describes a freshly migrated database.
 */
import type { Db } from './database';

/** One column as table_info gives it. */
export interface SchemaColumn {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

/** Every table of the schema, SQLite's own and FTS5's shadow tables included, by name. */
export function tableNames(db: Db): string[] {
  return db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[];
}

/** The indexes made on `table` by a CREATE INDEX statement, by name, with that statement. */
export function indexesOf(db: Db, table: string): { name: string; sql: string }[] {
  return db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name").all(table) as { name: string; sql: string }[];
}

/** The columns of `table`, in their order. */
export function columnsOf(db: Db, table: string): SchemaColumn[] {
  return db.pragma(`table_info("${table.replaceAll('"', '""')}")`) as SchemaColumn[];
}

/** The tables the statements of a CREATE TRIGGER (on one line, comments removed) write. */
export function tablesWrittenBy(triggerSql: string): string[] {
  const body = triggerSql.replace(/^.*? BEGIN /, '');
  return [...new Set([...body.matchAll(/\b(?:INSERT INTO|UPDATE|DELETE FROM)\s+(?!SET\b)(\w+)/gi)].map((m) => m[1]))];
}
