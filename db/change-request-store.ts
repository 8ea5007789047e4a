/** SQL for the requests of signed verdict changes (docs/review-and-audit.md#signed-verdict-changes). */
import type { Statement } from 'better-sqlite3';
import type { ChangeRequest, ChangeRequestState } from '../model/signed-change';
import type { EntryPerson } from '../model/review-entry';
import type { LocalReportPatch } from '../schema/report';
import type { Db } from './database';

export type NewChangeRequest = Omit<ChangeRequest, 'id' | 'state' | 'closedBy' | 'closedZone' | 'closedNote' | 'closedAt' | 'changeSeq'>;

export interface ChangeRequestClosing {
  state: Exclude<ChangeRequestState, 'pending'>;
  by: EntryPerson;
  zone: string | null;
  note: string | null;
  at: string;
  changeSeq: number | null;
}

interface ChangeRequestRow {
  id: number;
  label_report_id: string;
  company_id: string;
  patch: string;
  values_before: string;
  reason: string;
  meaning: string;
  alert_before: number;
  alert_after: number;
  requested_key_id: string | null;
  requested_key_name: string | null;
  requested_user_id: string | null;
  requested_login: string | null;
  requested_name: string | null;
  requested_at: string;
  state: ChangeRequestState;
  closed_user_id: string | null;
  closed_login: string | null;
  closed_name: string | null;
  closed_zone: string | null;
  closed_note: string | null;
  closed_at: string | null;
  change_seq: number | null;
}

/** The most requests one list answers: a company's open requests are a handful, not thousands. */
export const MAX_LISTED_REQUESTS = 500;

export class ChangeRequestStore {
  private readonly insert: Statement;
  private readonly close: Statement;
  private readonly selectOne: Statement;
  private readonly selectForReport: Statement;
  private readonly selectByState: Statement;

  constructor(db: Db) {
    this.insert = db.prepare(
      `INSERT INTO change_requests (label_report_id, company_id, patch, values_before, reason, meaning, alert_before, alert_after,
         requested_key_id, requested_key_name, requested_user_id, requested_login, requested_name, requested_at, state)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')`,
    );
    // Only a pending request closes: a second approval of the same request changes nothing.
    this.close = db.prepare(
      `UPDATE change_requests SET state = ?, closed_user_id = ?, closed_login = ?, closed_name = ?, closed_zone = ?, closed_note = ?, closed_at = ?, change_seq = ?
        WHERE id = ? AND state = 'pending'`,
    );
    this.selectOne = db.prepare('SELECT * FROM change_requests WHERE id = ? AND company_id = ?');
    this.selectForReport = db.prepare('SELECT * FROM change_requests WHERE label_report_id = ? AND company_id = ? ORDER BY id DESC LIMIT ?');
    this.selectByState = db.prepare('SELECT * FROM change_requests WHERE company_id = ? AND state = ? ORDER BY id DESC LIMIT ?');
  }

  append(request: NewChangeRequest): number {
    const by = request.requestedBy;
    const result = this.insert.run(
      request.reportId,
      request.companyId,
      JSON.stringify(request.patch),
      JSON.stringify(request.valuesBefore),
      request.reason,
      request.meaning,
      request.alertBefore,
      request.alertAfter,
      by.keyId,
      by.keyName,
      by.person?.id ?? null,
      by.person?.login ?? null,
      by.person?.name ?? null,
      request.requestedAt,
    );
    return Number(result.lastInsertRowid);
  }

  /** Closes a pending request; false when it was not pending any more. */
  closeRequest(id: number, closing: ChangeRequestClosing): boolean {
    const { by } = closing;
    return this.close.run(closing.state, by.id, by.login, by.name, closing.zone, closing.note, closing.at, closing.changeSeq, id).changes === 1;
  }

  /** The company's request of this id, or undefined (another company's is not found either). */
  find(companyId: string, id: number): ChangeRequest | undefined {
    const row = this.selectOne.get(id, companyId) as ChangeRequestRow | undefined;
    return row && toRequest(row);
  }

  /** The company's requests of one report, newest first. */
  forReport(reportId: string, companyId: string): ChangeRequest[] {
    return (this.selectForReport.all(reportId, companyId, MAX_LISTED_REQUESTS) as ChangeRequestRow[]).map(toRequest);
  }

  /** The company's requests in one state, newest first. */
  inState(companyId: string, state: ChangeRequestState): ChangeRequest[] {
    return (this.selectByState.all(companyId, state, MAX_LISTED_REQUESTS) as ChangeRequestRow[]).map(toRequest);
  }
}

function personOf(id: string | null, login: string | null, name: string | null): EntryPerson | null {
  return id === null ? null : { id, login: login ?? '', name: name ?? '' };
}

function toRequest(row: ChangeRequestRow): ChangeRequest {
  return {
    id: row.id,
    reportId: row.label_report_id,
    companyId: row.company_id,
    patch: JSON.parse(row.patch) as LocalReportPatch,
    valuesBefore: JSON.parse(row.values_before) as [string, unknown][],
    reason: row.reason,
    meaning: row.meaning,
    alertBefore: row.alert_before,
    alertAfter: row.alert_after,
    requestedBy: {
      person: personOf(row.requested_user_id, row.requested_login, row.requested_name),
      keyId: row.requested_key_id,
      keyName: row.requested_key_name,
    },
    requestedAt: row.requested_at,
    state: row.state,
    closedBy: personOf(row.closed_user_id, row.closed_login, row.closed_name),
    closedZone: row.closed_zone,
    closedNote: row.closed_note,
    closedAt: row.closed_at,
    changeSeq: row.change_seq,
  };
}
