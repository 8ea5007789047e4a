/**
 * The shape of a kept table's declaration. Each file of db/read-model declares one kept table,
 * or a family of kept tables that share one declaration, as data: the tables, what they are made
 * from and their key, the reads that justify them with the figures measured (README.md's
 * Benchmarks section as each came, now docs/benchmarks.md), the triggers and statements a write
 * moves them by, and the SQL a bulk load rebuilds them with. The statements are generated from
 * the declaration; a test checks them against the schema the migrations build
 * (test/db/read-model-schema.test.ts) and docs/schema.md is written from them
 * (scripts/schema-doc.ts).
 */

/** A read a kept table serves, and the figure that justifies keeping it. */
export interface KeptRead {
  read: string;
  figure: string;
}

/** A trigger, by name, and its CREATE TRIGGER statement as the schema holds it. */
export interface DeclaredTrigger {
  name: string;
  sql: string;
}

/** An index, by name, and its CREATE INDEX statement as the schema holds it. */
export interface DeclaredIndex {
  name: string;
  sql: string;
  /** The reads it serves, in words. */
  serves: string;
  /** Kept through a bulk load (the rebuild reads by it); every other index is built again after. */
  keptThroughBulkLoad?: boolean;
}

/** A kept table's CREATE statement as the schema holds it. */
export interface DeclaredTable {
  name: string;
  sql: string;
}

export interface KeptTableDeclaration {
  /** The declaration's name: its one table's, or the family's. */
  name: string;
  tables: readonly DeclaredTable[];
  /** The rows it is made from. */
  madeFrom: string;
  /** Its key, and what one row stands for. */
  key: string;
  /** The reads that use it, each with the figure that justifies it. */
  reads: readonly KeptRead[];
  /** How a write moves it, in words; the triggers and statements follow. */
  writes: string;
  triggers: readonly DeclaredTrigger[];
  /** Statements the write path runs itself (not triggers), by name. */
  statements?: Readonly<Record<string, readonly string[]>>;
  indexes: readonly DeclaredIndex[];
  /**
   * How a bulk load treats it: `rebuilt`, its triggers (and indexes, unless kept through) are
   * set aside for the writes and `rebuild` runs after; `kept`, its triggers stay and keep it row
   * by row (a bulk load does not write what it is made from).
   */
  bulkLoad: 'rebuilt' | 'kept';
  /** The SQL that makes its rows again from what it is made from. */
  rebuild: string;
}

/** A trigger's name, from its CREATE TRIGGER statement. */
export function triggerName(sql: string): string {
  const match = /^\s*CREATE TRIGGER (\w+)/.exec(sql);
  if (!match) throw new Error(`not a CREATE TRIGGER statement: ${sql.slice(0, 80)}`);
  return match[1];
}

/** Triggers from their CREATE TRIGGER statements, each without its final semicolon, as the schema holds it. */
export function triggers(statements: readonly string[]): DeclaredTrigger[] {
  return statements.map((s) => {
    const sql = s.trim().replace(/;$/, '');
    return { name: triggerName(sql), sql };
  });
}

/** An index from its CREATE INDEX statement, and the reads it serves. */
export function index(sql: string, serves: string, keptThroughBulkLoad = false): DeclaredIndex {
  const match = /^CREATE INDEX (\w+)/.exec(sql);
  if (!match) throw new Error(`not a CREATE INDEX statement: ${sql}`);
  return keptThroughBulkLoad ? { name: match[1], sql, serves, keptThroughBulkLoad } : { name: match[1], sql, serves };
}

/** A table from its CREATE statement. */
export function table(sql: string): DeclaredTable {
  const trimmed = sql.trim().replace(/;$/, '');
  const match = /^CREATE (?:VIRTUAL )?TABLE (\w+)/.exec(trimmed);
  if (!match) throw new Error(`not a CREATE TABLE statement: ${trimmed.slice(0, 80)}`);
  return { name: match[1], sql: trimmed };
}

/**
 * The statements that move a kept count table of `key` columns and a count `n` by one row of the
 * table it counts: one more of the combination of `row` (new), or one fewer (old), a combination
 * whose count falls to 0 deleted.
 */
export function countMoves(table: string, key: readonly string[]): { add: (row: 'new') => string; remove: (row: 'old') => string } {
  const same = (row: string) => key.map((c) => `${c} = ${row}.${c}`).join(' AND ');
  return {
    add: (row) => `
  UPDATE ${table} SET n = n + 1 WHERE ${same(row)};
  INSERT INTO ${table} (${key.join(', ')}, n)
    SELECT ${key.map((c) => `${row}.${c}`).join(', ')}, 1
    WHERE NOT EXISTS (SELECT 1 FROM ${table} WHERE ${same(row)})`,
    remove: (row) => `
  UPDATE ${table} SET n = n - 1 WHERE ${same(row)};
  DELETE FROM ${table} WHERE ${same(row)} AND n <= 0`,
  };
}

/** The triggers that keep `table` counting the rows of `source` by `key`: an insert, a delete, and an update of a key column. */
export function countTriggers(table: string, source: string, key: readonly string[]): string[] {
  const { add, remove } = countMoves(table, key);
  return [
    `CREATE TRIGGER ${table}_insert AFTER INSERT ON ${source} BEGIN
  ${add('new')};
END`,
    `CREATE TRIGGER ${table}_delete AFTER DELETE ON ${source} BEGIN
  ${remove('old')};
END`,
    `CREATE TRIGGER ${table}_update AFTER UPDATE OF ${key.join(', ')} ON ${source}
WHEN ${key.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ')} BEGIN
  ${remove('old')};
  ${add('new')};
END`,
  ];
}
