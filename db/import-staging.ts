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
import type { Report } from '../model/report';
import { reportFromRows, rowsFromReport } from './report-convert';
import { REPORT_COLUMNS, type ReportRow } from './report-rows';
import type { AccessRow, CompanyStateRow, CustomFieldRow } from './report-store';

/** A key as the bundle gives it; its id, creation and revocation are settled at the switch. */
export type StagedApiKey = Pick<ApiKeyRecord, 'keyHash' | 'companyId' | 'name' | 'permissions'> & { revoked: string | undefined };

/** What the change log says of every report that `insertNewReports` wrote. */
export interface StagedLogEntry {
  kind: string;
  changes: string;
  actor: string;
  apiKeyId: string | null;
  at: string;
}

/**
 * The staged reports are kept in the shape of the tables they go to, so that switching them in
 * is a few INSERT … SELECT statements that copy rows inside SQLite, not a round trip of every
 * report through JavaScript. `seq` is the report's index in the bundle.
 */
const STAGED_REPORT_COLUMNS = [...REPORT_COLUMNS, 'datapoints', 'log_companies'] as const;
const ACCESS_COLUMNS = ['id', 'label_report_id', 'company_id', 'role'] as const;
const STATE_COLUMNS = ['company_id', 'label_report_id', 'has_flag', 'is_archived'] as const;
const CUSTOM_FIELD_COLUMNS = ['label_report_id', 'custom_field_id', 'value'] as const;

/**
 * A report as the staging tables take it: the values of a staged report row (the columns of
 * STAGED_REPORT_COLUMNS, in order) and of its access, state and custom field rows. Plain arrays
 * of text, numbers and the datapoint bytes, so that a parse worker can make them and hand them
 * over cheaply; this thread then only binds them.
 */
export type StagedRows = [row: unknown[], access: unknown[][], states: unknown[][], customFields: unknown[][]];

/** A report in the form `ImportStaging.stageReport` takes; needs no database. */
export function stagedRows(report: Report): StagedRows {
  const { row, access, states, customFields } = rowsFromReport(report);
  const values: unknown[] = [];
  for (const column of REPORT_COLUMNS) values.push(row[column]);
  // The change log names the companies that see the report, in the order of its access entries.
  values.push(row.datapoints, JSON.stringify(access.map((a) => a.company_id)));
  return [
    values,
    access.map((a) => [a.id, a.label_report_id, a.company_id, a.role]),
    states.map((st) => [st.company_id, st.label_report_id, st.has_flag, st.is_archived]),
    customFields.map((f) => [f.label_report_id, f.custom_field_id, f.value]),
  ];
}

const placeholders = (n: number) => Array(n).fill('?').join(', ');

/**
 * Indexes on the staged tables in the order of the id indexes their rows land in. The secondary
 * indexes of a WITHOUT ROWID table end with its key (seq, n), so walking them gives a report's
 * repeated rows in bundle order, and the last one still counts.
 */
const STAGED_ORDER_INDEXES = `
  CREATE INDEX IF NOT EXISTS temp.ld_import_staged_reports_id ON ld_import_staged_reports (id);
  CREATE INDEX IF NOT EXISTS temp.ld_import_staged_access_report ON ld_import_staged_access (label_report_id);
  CREATE INDEX IF NOT EXISTS temp.ld_import_staged_states_key ON ld_import_staged_states (company_id, label_report_id);
  CREATE INDEX IF NOT EXISTS temp.ld_import_staged_custom_fields_report ON ld_import_staged_custom_fields (label_report_id);`;

const FRESH = 'seq NOT IN (SELECT seq FROM temp.ld_import_replaced)';

/** What `insertNewReports` runs, the reports first; exported so a test can pin their plans. */
export const NEW_REPORT_INSERTS = [
  `INSERT INTO main.label_reports (${REPORT_COLUMNS.join(', ')})
     SELECT ${REPORT_COLUMNS.join(', ')} FROM temp.ld_import_staged_reports WHERE ${FRESH} ORDER BY id`,
  `INSERT INTO main.report_datapoints (label_report_id, datapoints)
     SELECT id, datapoints FROM temp.ld_import_staged_reports WHERE ${FRESH} ORDER BY id`,
  `INSERT INTO main.access (${ACCESS_COLUMNS.join(', ')})
     SELECT ${ACCESS_COLUMNS.join(', ')} FROM temp.ld_import_staged_access WHERE ${FRESH} ORDER BY label_report_id`,
  `INSERT INTO main.company_report_state (${STATE_COLUMNS.join(', ')})
     SELECT ${STATE_COLUMNS.join(', ')} FROM temp.ld_import_staged_states WHERE ${FRESH} ORDER BY company_id, label_report_id, seq, n
     ON CONFLICT (company_id, label_report_id) DO UPDATE SET has_flag = excluded.has_flag, is_archived = excluded.is_archived`,
  `INSERT INTO main.custom_field_values (${CUSTOM_FIELD_COLUMNS.join(', ')})
     SELECT ${CUSTOM_FIELD_COLUMNS.join(', ')} FROM temp.ld_import_staged_custom_fields WHERE ${FRESH} ORDER BY label_report_id, seq, n
     ON CONFLICT (label_report_id, custom_field_id) DO UPDATE SET value = excluded.value`,
] as const;

export class ImportStaging {
  readonly reportIds: FirstSeen;
  readonly companyIds: FirstSeen;
  readonly keyHashes: FirstSeen;
  private readonly rememberRef: Statement;
  private readonly selectUnknownRefs: Statement;
  private readonly stageCompanyRow: Statement;
  private readonly stageKeyRow: Statement;
  private readonly stageReportRow: Statement;
  private readonly stageAccessRow: Statement;
  private readonly stageStateRow: Statement;
  private readonly stageCustomFieldRow: Statement;
  private readonly companiesPage: Statement;
  private readonly keysPage: Statement;

  constructor(private readonly db: Db) {
    db.exec(`
      CREATE TEMP TABLE ld_import_reports (id TEXT PRIMARY KEY, idx INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TEMP TABLE ld_import_companies (id TEXT PRIMARY KEY, idx INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TEMP TABLE ld_import_keys (hash TEXT PRIMARY KEY, idx INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TEMP TABLE ld_import_refs (company_id TEXT PRIMARY KEY, path TEXT NOT NULL);
      CREATE TEMP TABLE ld_import_staged_companies (seq INTEGER PRIMARY KEY, company TEXT NOT NULL);
      CREATE TEMP TABLE ld_import_staged_keys (seq INTEGER PRIMARY KEY, key TEXT NOT NULL);
      CREATE TEMP TABLE ld_import_staged_reports (seq INTEGER PRIMARY KEY, ${STAGED_REPORT_COLUMNS.join(', ')});
      CREATE TEMP TABLE ld_import_staged_access (
        seq INTEGER NOT NULL, n INTEGER NOT NULL, ${ACCESS_COLUMNS.join(', ')}, PRIMARY KEY (seq, n)) WITHOUT ROWID;
      CREATE TEMP TABLE ld_import_staged_states (
        seq INTEGER NOT NULL, n INTEGER NOT NULL, ${STATE_COLUMNS.join(', ')}, PRIMARY KEY (seq, n)) WITHOUT ROWID;
      CREATE TEMP TABLE ld_import_staged_custom_fields (
        seq INTEGER NOT NULL, n INTEGER NOT NULL, ${CUSTOM_FIELD_COLUMNS.join(', ')}, PRIMARY KEY (seq, n)) WITHOUT ROWID;
      CREATE TEMP TABLE ld_import_replaced (seq INTEGER PRIMARY KEY);
    `);
    this.stageCompanyRow = db.prepare('INSERT INTO temp.ld_import_staged_companies (company) VALUES (?)');
    this.stageKeyRow = db.prepare('INSERT INTO temp.ld_import_staged_keys (key) VALUES (?)');
    // Positional parameters: binding by name looks every column up in an object, per report.
    this.stageReportRow = db.prepare(
      `INSERT INTO temp.ld_import_staged_reports (seq, ${STAGED_REPORT_COLUMNS.join(', ')})
       VALUES (${placeholders(STAGED_REPORT_COLUMNS.length + 1)})`,
    );
    const child = (table: string, columns: readonly string[]) =>
      db.prepare(`INSERT INTO temp.${table} (seq, n, ${columns.join(', ')}) VALUES (${placeholders(columns.length + 2)})`);
    this.stageAccessRow = child('ld_import_staged_access', ACCESS_COLUMNS);
    this.stageStateRow = child('ld_import_staged_states', STATE_COLUMNS);
    this.stageCustomFieldRow = child('ld_import_staged_custom_fields', CUSTOM_FIELD_COLUMNS);
    this.companiesPage = db.prepare('SELECT seq, company FROM temp.ld_import_staged_companies WHERE seq > ? ORDER BY seq LIMIT ?');
    this.keysPage = db.prepare('SELECT seq, key FROM temp.ld_import_staged_keys WHERE seq > ? ORDER BY seq LIMIT ?');
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

  /** Report number `index` of the bundle, in the form `stagedRows` gives; each index is staged once at most. */
  stageReport(index: number, staged: StagedRows): void {
    const [row, access, states, customFields] = staged;
    this.stageReportRow.run(index, ...row);
    for (let n = 0; n < access.length; n++) this.stageAccessRow.run(index, n, ...access[n]);
    for (let n = 0; n < states.length; n++) this.stageStateRow.run(index, n, ...states[n]);
    for (let n = 0; n < customFields.length; n++) this.stageCustomFieldRow.run(index, n, ...customFields[n]);
  }

  /** The staged companies in bundle order, a page at a time (a page is read whole: no statement stays open). */
  *companies(pageSize = 500): Generator<Company[]> {
    yield* pages(this.companiesPage, pageSize, (r: { seq: number; company: string }) => JSON.parse(r.company) as Company);
  }

  *apiKeys(pageSize = 500): Generator<StagedApiKey[]> {
    yield* pages(this.keysPage, pageSize, (r: { seq: number; key: string }) => JSON.parse(r.key) as StagedApiKey);
  }

  /**
   * Sets apart the staged reports whose ids the database holds already (they replace a stored
   * report, which the change log describes by difference) and yields them, a page at a time;
   * `insertNewReports` then writes all the others.
   */
  *replacedReports(pageSize = 200): Generator<Report[]> {
    this.db.exec(`
      DELETE FROM temp.ld_import_replaced;
      INSERT INTO temp.ld_import_replaced (seq)
        SELECT i.idx FROM temp.ld_import_reports i JOIN main.label_reports r ON r.id = i.id
        WHERE i.idx IN (SELECT seq FROM temp.ld_import_staged_reports);`);
    const page = this.db.prepare(
      `SELECT s.* FROM temp.ld_import_staged_reports s
       WHERE s.seq IN (SELECT seq FROM temp.ld_import_replaced WHERE seq > ? ORDER BY seq LIMIT ?) ORDER BY s.seq`,
    );
    const children = (table: string) =>
      this.db.prepare(`SELECT * FROM temp.${table} WHERE seq BETWEEN ? AND ? ORDER BY seq, n`);
    const accessRows = children('ld_import_staged_access');
    const stateRows = children('ld_import_staged_states');
    const fieldRows = children('ld_import_staged_custom_fields');
    let after = -1;
    for (;;) {
      const rows = page.all(after, pageSize) as (ReportRow & { seq: number; log_companies: string })[];
      if (rows.length === 0) return;
      const first = rows[0].seq;
      after = rows[rows.length - 1].seq;
      const bySeq = <T>(statement: Statement) => groupBySeq(statement.all(first, after) as ({ seq: number; n: number } & T)[]);
      const access = bySeq<AccessRow>(accessRows);
      const states = bySeq<CompanyStateRow>(stateRows);
      const fields = bySeq<CustomFieldRow>(fieldRows);
      yield rows.map(({ seq, log_companies: _companies, ...row }) =>
        reportFromRows({
          row: row as ReportRow,
          access: access.get(seq) ?? [],
          states: states.get(seq) ?? [],
          customFields: fields.get(seq) ?? [],
        }),
      );
    }
  }

  /**
   * Writes every staged report that `replacedReports` did not set apart, with its datapoints,
   * access entries, company states and custom fields, as `ReportStore.replace` writes one (a
   * repeated custom field or company state: the last one counts). Returns how many.
   *
   * Rows go in ordered by the report id that keys the indexes they land in, not in bundle order:
   * ids are random, so in bundle order every insert lands on a random page of each id index,
   * and past the page cache each one reads and rewrites a page; in id order they append. The
   * order is read from indexes on the staged tables (STAGED_ORDER_INDEXES), built here in one
   * pass each, not from a sort of the wide staged rows. The change log keeps bundle order
   * (`logNewReports`).
   */
  insertNewReports(): number {
    this.db.exec(STAGED_ORDER_INDEXES);
    const [reports, ...children] = NEW_REPORT_INSERTS;
    const inserted = this.db.prepare(reports).run().changes;
    for (const sql of children) this.db.exec(sql);
    return inserted;
  }

  /** One change log entry per report `insertNewReports` wrote, in bundle order. */
  logNewReports(entry: StagedLogEntry): void {
    this.db
      .prepare(
        `INSERT INTO main.change_log (label_report_id, kind, changes, actor, api_key_id, companies, at)
         SELECT id, ?, ?, ?, ?, log_companies, ? FROM temp.ld_import_staged_reports
         WHERE ${FRESH} ORDER BY seq`,
      )
      .run(entry.kind, entry.changes, entry.actor, entry.apiKeyId, entry.at);
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
      DROP TABLE IF EXISTS temp.ld_import_staged_access;
      DROP TABLE IF EXISTS temp.ld_import_staged_states;
      DROP TABLE IF EXISTS temp.ld_import_staged_custom_fields;
      DROP TABLE IF EXISTS temp.ld_import_replaced;
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

function groupBySeq<T extends { seq: number; n: number }>(rows: T[]): Map<number, Omit<T, 'seq' | 'n'>[]> {
  const map = new Map<number, Omit<T, 'seq' | 'n'>[]>();
  for (const { seq, n: _n, ...row } of rows) {
    const list = map.get(seq);
    if (list) list.push(row);
    else map.set(seq, [row]);
  }
  return map;
}
