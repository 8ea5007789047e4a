/** Test helpers that write fixture rows straight into a real database with plain SQL. */
import type { Db } from '../../db/database';

/**
 * Inserts one row with the given column values. The schema belongs to another part of the
 * project and may still move: values for columns the table does not have are dropped (e.g. the
 * raw datapoints, which may live in their own table), and any other NOT NULL column without a
 * default gets a neutral value of its declared type.
 */
// Per database: a statement or a table's columns belong to the connection that read them.
const statementCaches = new WeakMap<Db, Map<string, { run(...params: unknown[]): unknown }>>();
interface ColumnInfo {
  name: string;
  type: string;
  required: number;
  dflt: string | null;
  hidden: number;
}
const columnCaches = new WeakMap<Db, Map<string, ColumnInfo[]>>();
const tableCaches = new WeakMap<Db, Map<string, boolean>>();

function cacheOf<T>(caches: WeakMap<Db, Map<string, T>>, target: Db): Map<string, T> {
  let cache = caches.get(target);
  if (!cache) caches.set(target, (cache = new Map()));
  return cache;
}

export function insertRow(target: Db, table: string, values: Record<string, unknown>): void {
  const columnCache = cacheOf(columnCaches, target);
  let columns = columnCache.get(table);
  if (!columns) {
    columns = target
      .prepare(`SELECT name, type, "notnull" AS required, dflt_value AS dflt, hidden FROM pragma_table_xinfo(?)`)
      .all(table) as ColumnInfo[];
    columnCache.set(table, columns);
  }
  const row: Record<string, unknown> = {};
  for (const col of columns) {
    if (col.hidden !== 0) continue; // generated columns
    if (col.name in values) row[col.name] = values[col.name];
    else if (col.required && col.dflt === null) {
      const type = col.type.toUpperCase();
      row[col.name] = type === 'BLOB' ? Buffer.alloc(0) : type === 'INTEGER' || type === 'REAL' ? 0 : '';
    }
  }
  const names = Object.keys(row);
  const sql = `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`;
  const statementCache = cacheOf(statementCaches, target);
  let statement = statementCache.get(sql);
  if (!statement) statementCache.set(sql, (statement = target.prepare(sql)));
  statement.run(...names.map((n) => row[n]));
}

export function hasTable(target: Db, table: string): boolean {
  const tableCache = cacheOf(tableCaches, target);
  let exists = tableCache.get(table);
  if (exists === undefined) {
    exists = target.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).get(table) !== undefined;
    tableCache.set(table, exists);
  }
  return exists;
}

