/**
 * Scratch tables for one import, inside its transaction: which ids the bundle has used so far
 * (to find duplicates) and which companies it names (checked once every company is known).
 * They need the whole bundle, so they live in temporary tables, which SQLite spills to disk,
 * rather than in memory. A ROLLBACK removes them; `drop` does it before a COMMIT.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';

export class ImportStaging {
  readonly reportIds: FirstSeen;
  readonly companyIds: FirstSeen;
  readonly keyHashes: FirstSeen;
  private readonly rememberRef: Statement;
  private readonly selectUnknownRefs: Statement;

  constructor(private readonly db: Db) {
    db.exec(`
      CREATE TEMP TABLE ld_import_reports (id TEXT PRIMARY KEY, idx INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TEMP TABLE ld_import_companies (id TEXT PRIMARY KEY, idx INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TEMP TABLE ld_import_keys (hash TEXT PRIMARY KEY, idx INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TEMP TABLE ld_import_refs (company_id TEXT PRIMARY KEY, path TEXT NOT NULL);
    `);
    this.reportIds = new FirstSeen(db, 'ld_import_reports', 'id');
    this.companyIds = new FirstSeen(db, 'ld_import_companies', 'id');
    this.keyHashes = new FirstSeen(db, 'ld_import_keys', 'hash');
    this.rememberRef = db.prepare('INSERT OR IGNORE INTO temp.ld_import_refs (company_id, path) VALUES (?, ?)');
    this.selectUnknownRefs = db.prepare(
      `SELECT company_id AS companyId, path FROM temp.ld_import_refs
       WHERE company_id NOT IN (SELECT id FROM main.companies)
         AND company_id NOT IN (SELECT id FROM temp.ld_import_companies)
       ORDER BY rowid`,
    );
  }

  /** Remembers the first path that names a company. */
  reference(companyId: string, path: string): void {
    this.rememberRef.run(companyId, path);
  }

  /** Companies named but neither in the database nor among the bundle's companies, in bundle order. */
  unknownReferences(): { companyId: string; path: string }[] {
    return this.selectUnknownRefs.all() as { companyId: string; path: string }[];
  }

  /** Before COMMIT: temporary tables outlive a transaction, and the next import creates them again. */
  drop(): void {
    this.db.exec(`
      DROP TABLE IF EXISTS temp.ld_import_reports;
      DROP TABLE IF EXISTS temp.ld_import_companies;
      DROP TABLE IF EXISTS temp.ld_import_keys;
      DROP TABLE IF EXISTS temp.ld_import_refs;
    `);
  }
}

/** The ids of one array of the bundle seen so far, with the index of each one's first use. */
export class FirstSeen {
  private readonly remember: Statement;
  private readonly first: Statement;

  constructor(db: Db, table: string, column: string) {
    this.remember = db.prepare(`INSERT OR IGNORE INTO temp.${table} (${column}, idx) VALUES (?, ?)`);
    this.first = db.prepare(`SELECT idx FROM temp.${table} WHERE ${column} = ?`).pluck();
  }

  /** null when `id` is new (it is remembered at `index` then); else the index of its first use. */
  earlier(id: string, index: number): number | null {
    if (this.remember.run(id, index).changes !== 0) return null;
    return this.first.get(id) as number;
  }
}
