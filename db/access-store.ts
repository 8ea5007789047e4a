/**
 * SQL for the record of who viewed, printed or exported which report: one row per access,
 * appended, never changed. The rows form one hash chain in id order, like a report's change log
 * (db/audit-chain.ts): each row's prev_hash is the hash of the row before, its hash covers every
 * other column. Ids come from the table's AUTOINCREMENT counter, which never goes back, so a row
 * deleted from the middle breaks a link and the newest rows deleted leave a gap before the next.
 */
import type { Statement } from 'better-sqlite3';
import type { AccessActor, AccessFormat, AccessKind } from '../schema/report-access';
import { entryHash, type Row } from './audit-chain';
import type { Db } from './database';

export type { AccessActor, AccessFormat, AccessKind } from '../schema/report-access';

export interface AccessEntry {
  at: string;
  reportId: string | null;
  companyId: string | null;
  kind: AccessKind;
  format: AccessFormat;
  detail: string | null;
  actor: AccessActor;
  apiKeyId: string | null;
  apiKeyName: string | null;
  userId: string | null;
  userLogin: string | null;
  userName: string | null;
}

/** A stored entry: its place in the chain and its hashes beside what was recorded. */
export interface AccessRecord extends AccessEntry {
  id: number;
  prevHash: string | null;
  hash: string;
}

export interface AccessProblem {
  id: number;
  kind: 'contentChanged' | 'brokenLink' | 'missingEntry';
  detail: string;
}

export class AccessStore {
  private readonly nextId: Statement;
  private readonly lastHash: Statement;
  private readonly insertRow: Statement;
  private readonly allRows: Statement;
  private readonly rowsOfReport: Statement;
  private readonly countRows: Statement;
  private readonly newestOfReport: Statement;
  private readonly countOfReport: Statement;
  private readonly newest: Statement;
  private readonly hashById: Statement;
  private readonly certificateRow: Statement;

  constructor(db: Db) {
    this.nextId = db.prepare(`SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'report_access'), 0) + 1`).pluck();
    this.lastHash = db.prepare('SELECT hash FROM report_access ORDER BY id DESC LIMIT 1').pluck();
    this.insertRow = db.prepare(
      `INSERT INTO report_access (id, at, label_report_id, company_id, kind, format, detail, actor, api_key_id, api_key_name,
                                  user_id, user_login, user_name, prev_hash, hash)
       VALUES (@id, @at, @label_report_id, @company_id, @kind, @format, @detail, @actor, @api_key_id, @api_key_name,
               @user_id, @user_login, @user_name, @prev_hash, @hash)`,
    );
    this.allRows = db.prepare('SELECT * FROM report_access ORDER BY id');
    this.rowsOfReport = db.prepare('SELECT * FROM report_access WHERE label_report_id = ? ORDER BY id');
    this.countRows = db.prepare('SELECT count(*) FROM report_access').pluck();
    // Walks the report's entries on report_access_report, newest first; the command line's have no company.
    const seenBy = 'label_report_id = @reportId AND (company_id = @companyId OR company_id IS NULL)';
    this.newestOfReport = db.prepare(`SELECT * FROM report_access WHERE ${seenBy} ORDER BY id DESC LIMIT @limit`);
    this.countOfReport = db.prepare(`SELECT count(*) FROM report_access WHERE ${seenBy}`).pluck();
    this.newest = db.prepare('SELECT id, hash FROM report_access ORDER BY id DESC LIMIT 1');
    this.hashById = db.prepare('SELECT hash FROM report_access WHERE id = ?').pluck();
    // Certificates are few beside views and exports: their rows are found by format, then by checksum.
    this.certificateRow = db.prepare(
      // CASE first: the other formats' detail is plain text, which json_extract refuses.
      `SELECT * FROM report_access WHERE CASE WHEN format = 'certificate' THEN json_extract(detail, '$.checksum') END = ? ORDER BY id LIMIT 1`,
    );
  }

  /** Appends one entry, linked to the one before; in the caller's write transaction. Answers its id. */
  append(entry: AccessEntry): number {
    const id = this.nextId.get() as number;
    const row: Row = {
      id,
      at: entry.at,
      label_report_id: entry.reportId,
      company_id: entry.companyId,
      kind: entry.kind,
      format: entry.format,
      detail: entry.detail,
      actor: entry.actor,
      api_key_id: entry.apiKeyId,
      api_key_name: entry.apiKeyName,
      user_id: entry.userId,
      user_login: entry.userLogin,
      user_name: entry.userName,
      prev_hash: (this.lastHash.get() as string | undefined) ?? null,
    };
    this.insertRow.run({ ...row, hash: entryHash('report_access', row) });
    return id;
  }

  /** The stored rows, every column, in id order: all, or one report's. */
  rows(reportId?: string): Iterable<Row> {
    return (reportId === undefined ? this.allRows.iterate() : this.rowsOfReport.iterate(reportId)) as Iterable<Row>;
  }

  /** Every entry, as recorded, in chain order. */
  *entries(): Generator<AccessRecord> {
    for (const row of this.allRows.iterate() as Iterable<Row>) yield recordOf(row);
  }

  /** The newest `limit` entries on one report of one company and of the command line, newest first, and how many there are. */
  newestOf(reportId: string, companyId: string, limit: number): { total: number; entries: AccessRecord[] } {
    const args = { reportId, companyId };
    return {
      total: this.countOfReport.get(args) as number,
      entries: (this.newestOfReport.all({ ...args, limit }) as Row[]).map(recordOf),
    };
  }

  /** Where the chain stands, as a signed checkpoint names it: its entry count, its newest entry and that entry's hash. */
  head(): { entries: number; lastId: number; head: string | null } {
    const newest = this.newest.get() as { id: number; hash: string } | undefined;
    return { entries: this.count(), lastId: newest?.id ?? 0, head: newest?.hash ?? null };
  }

  /** The stored hash of one entry, if it is there. */
  hashOf(id: number): string | undefined {
    return this.hashById.get(id) as string | undefined;
  }

  /** The entry that records the issue of the certificate with this checksum, and whether its hash still matches its content. */
  certificate(checksum: string): { record: AccessRecord; intact: boolean } | undefined {
    const row = this.certificateRow.get(checksum) as Row | undefined;
    return row && { record: recordOf(row), intact: entryHash('report_access', row) === row.hash };
  }

  count(): number {
    return this.countRows.get() as number;
  }

  /** Reads the chain in order; answers the entries read and the first problem, if any. */
  verify(): { checked: number; problem: AccessProblem | null } {
    let checked = 0;
    let previous: { id: number; hash: string } | null = null;
    for (const row of this.allRows.iterate() as Iterable<Row>) {
      checked++;
      const id = row.id as number;
      const expectedId: number = previous ? previous.id + 1 : 1;
      const fail = (kind: AccessProblem['kind'], detail: string) => ({ checked, problem: { id, kind, detail } });
      if (id !== expectedId) return fail('missingEntry', `entries ${expectedId} to ${id - 1} are missing`);
      if ((row.prev_hash ?? null) !== (previous?.hash ?? null)) return fail('brokenLink', 'its prev_hash is not the hash of the entry before');
      if (entryHash('report_access', row) !== row.hash) return fail('contentChanged', 'its hash no longer matches its content');
      previous = { id, hash: row.hash as string };
    }
    const counter = (this.nextId.get() as number) - 1;
    if (counter > (previous?.id ?? 0)) {
      return { checked, problem: { id: counter, kind: 'missingEntry', detail: `the newest entries after ${previous?.id ?? 0} up to ${counter} are missing` } };
    }
    return { checked, problem: null };
  }
}

function recordOf(row: Row): AccessRecord {
  return {
    id: row.id as number,
    at: row.at as string,
    reportId: row.label_report_id as string | null,
    companyId: row.company_id as string | null,
    kind: row.kind as AccessKind,
    format: row.format as AccessFormat,
    detail: row.detail as string | null,
    actor: row.actor as AccessActor,
    apiKeyId: row.api_key_id as string | null,
    apiKeyName: row.api_key_name as string | null,
    userId: row.user_id as string | null,
    userLogin: row.user_login as string | null,
    userName: row.user_name as string | null,
    prevHash: row.prev_hash as string | null,
    hash: row.hash as string,
  };
}
