/**
 * Scratch tables for one import, in the connection's temporary database (which SQLite spills
 * to disk): which ids the bundle has used so far (to find duplicates), which companies it names
 * (checked once every company is known), and everything it will write, staged. Writing them
 * takes no lock on the database itself, so a long import keeps no other writer waiting until
 * it switches its staged content in, in one short transaction. `drop` removes them.
 */
import type { Statement } from 'better-sqlite3';
import type { Company } from '../schema/report';
import type { Db } from './database';
import type { ApiKeyRecord } from './key-store';
import { REPORT_COLUMNS, type ReportRow } from './report-rows';
import type { AccessRow, CompanyStateRow, CustomFieldRow } from './report-store';

/** A key as the bundle gives it; its id, creation and revocation are settled at the switch. */
export type StagedApiKey = Pick<ApiKeyRecord, 'keyHash' | 'companyId' | 'name' | 'permissions'> & { revoked: string | undefined };

export interface StagedReport {
  row: ReportRow;
  access: AccessRow[];
  states: CompanyStateRow[];
  customFields: CustomFieldRow[];
}

type StagedReportRow = ReportRow & { seq: number; access: string; states: string; custom_fields: string };

const STAGED_COLUMNS = [...REPORT_COLUMNS, 'datapoints'] as const;

export class ImportStaging {
  readonly reportIds: FirstSeen;
  readonly companyIds: FirstSeen;
  readonly keyHashes: FirstSeen;
  private readonly rememberRef: Statement;
  private readonly selectUnknownRefs: Statement;
  private readonly stageCompanyRow: Statement;
  private readonly stageKeyRow: Statement;
  private readonly stageReportRow: Statement;
  private readonly companiesPage: Statement;
  private readonly keysPage: Statement;
  private readonly reportsPage: Statement;

  constructor(private readonly db: Db) {
    db.exec(`
      CREATE TEMP TABLE ld_import_reports (id TEXT PRIMARY KEY, idx INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TEMP TABLE ld_import_companies (id TEXT PRIMARY KEY, idx INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TEMP TABLE ld_import_keys (hash TEXT PRIMARY KEY, idx INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TEMP TABLE ld_import_refs (company_id TEXT PRIMARY KEY, path TEXT NOT NULL);
      CREATE TEMP TABLE ld_import_staged_companies (seq INTEGER PRIMARY KEY, company TEXT NOT NULL);
      CREATE TEMP TABLE ld_import_staged_keys (seq INTEGER PRIMARY KEY, key TEXT NOT NULL);
      CREATE TEMP TABLE ld_import_staged_reports (
        seq INTEGER PRIMARY KEY, ${STAGED_COLUMNS.join(', ')}, access TEXT, states TEXT, custom_fields TEXT);
    `);
    this.stageCompanyRow = db.prepare('INSERT INTO temp.ld_import_staged_companies (company) VALUES (?)');
    this.stageKeyRow = db.prepare('INSERT INTO temp.ld_import_staged_keys (key) VALUES (?)');
    this.stageReportRow = db.prepare(
      `INSERT INTO temp.ld_import_staged_reports (${STAGED_COLUMNS.join(', ')}, access, states, custom_fields)
       VALUES (${STAGED_COLUMNS.map((c) => '@' + c).join(', ')}, @access, @states, @custom_fields)`,
    );
    this.companiesPage = db.prepare('SELECT seq, company FROM temp.ld_import_staged_companies WHERE seq > ? ORDER BY seq LIMIT ?');
    this.keysPage = db.prepare('SELECT seq, key FROM temp.ld_import_staged_keys WHERE seq > ? ORDER BY seq LIMIT ?');
    this.reportsPage = db.prepare('SELECT * FROM temp.ld_import_staged_reports WHERE seq > ? ORDER BY seq LIMIT ?');
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

  stageCompany(company: Company): void {
    this.stageCompanyRow.run(JSON.stringify(company));
  }

  stageApiKey(key: StagedApiKey): void {
    this.stageKeyRow.run(JSON.stringify(key));
  }

  stageReport({ row, access, states, customFields }: StagedReport): void {
    this.stageReportRow.run({
      ...row,
      access: JSON.stringify(access),
      states: JSON.stringify(states),
      custom_fields: JSON.stringify(customFields),
    });
  }

  /** The staged companies in bundle order, a page at a time (a page is read whole: no statement stays open). */
  *companies(pageSize = 500): Generator<Company[]> {
    yield* pages(this.companiesPage, pageSize, (r: { seq: number; company: string }) => JSON.parse(r.company) as Company);
  }

  *apiKeys(pageSize = 500): Generator<StagedApiKey[]> {
    yield* pages(this.keysPage, pageSize, (r: { seq: number; key: string }) => JSON.parse(r.key) as StagedApiKey);
  }

  *reports(pageSize = 200): Generator<StagedReport[]> {
    yield* pages(this.reportsPage, pageSize, ({ seq: _seq, access, states, custom_fields, ...row }: StagedReportRow) => ({
      row: row as ReportRow,
      access: JSON.parse(access) as AccessRow[],
      states: JSON.parse(states) as CompanyStateRow[],
      customFields: JSON.parse(custom_fields) as CustomFieldRow[],
    }));
  }

  /** Temporary tables outlive transactions; the next import on this connection creates them again. */
  drop(): void {
    this.db.exec(`
      DROP TABLE IF EXISTS temp.ld_import_reports;
      DROP TABLE IF EXISTS temp.ld_import_companies;
      DROP TABLE IF EXISTS temp.ld_import_keys;
      DROP TABLE IF EXISTS temp.ld_import_refs;
      DROP TABLE IF EXISTS temp.ld_import_staged_companies;
      DROP TABLE IF EXISTS temp.ld_import_staged_keys;
      DROP TABLE IF EXISTS temp.ld_import_staged_reports;
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

function* pages<Row extends { seq: number }, T>(statement: Statement, pageSize: number, map: (row: Row) => T): Generator<T[]> {
  let after = 0;
  for (;;) {
    const rows = statement.all(after, pageSize) as Row[];
    if (rows.length === 0) return;
    yield rows.map(map);
    after = rows[rows.length - 1].seq;
  }
}
