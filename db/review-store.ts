/**
 * SQL for the review workflow: a company's review entries of a report (comments,
 * acknowledgements, decisions), and the plain-words lookups beside the list (custom field ids
 * in use, the companies seen in access entries).
 */
import type { Statement } from 'better-sqlite3';
import type { CustomFieldUse, ReviewEntry, ReviewKind } from '../model/review-entry';
import type { CurrentDecision } from '../model/report-table';
import type { Decision } from '../schema/review';
import type { AuditChain } from './audit-chain';
import type { Db } from './database';

export type NewReviewEntry = Omit<ReviewEntry, 'id'>;

interface ReviewEntryRow {
  id: number;
  label_report_id: string;
  company_id: string;
  kind: ReviewKind;
  text: string | null;
  decision: Decision | null;
  alert_level: number | null;
  alert_timestamp: number | null;
  api_key_id: string | null;
  api_key_name: string | null;
  user_id: string | null;
  user_login: string | null;
  user_name: string | null;
  meaning: string | null;
  zone: string | null;
  at: string;
}

interface CustomFieldUsageRow {
  custom_field_id: string;
  reports: number;
  has_text: number;
  has_number: number;
}

export class ReviewStore {
  private readonly insert: Statement;
  private readonly selectEntries: Statement;
  private readonly selectFieldUsage: Statement;
  private readonly selectCompanies: Statement;
  private readonly selectDecisions: Statement;

  constructor(
    db: Db,
    private readonly chain: AuditChain,
  ) {
    this.insert = db.prepare(
      `INSERT INTO report_reviews (label_report_id, company_id, kind, text, decision, alert_level, alert_timestamp, api_key_id, api_key_name,
                                   user_id, user_login, user_name, meaning, zone, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectEntries = db.prepare('SELECT * FROM report_reviews WHERE label_report_id = ? AND company_id = ? ORDER BY id');
    // json_tree visits a scalar value as itself and an array's elements one by one.
    // Both read the listing rows by integer keys: the company's own range, each report's
    // elements by its key. Reading every JSON value of every report the company sees took most
    // of a second at 100 000 reports, and the service answers one request at a time.
    this.selectFieldUsage = db.prepare(
      `SELECT e.field AS custom_field_id,
              COUNT(DISTINCT e.rk) AS reports,
              MAX(e.text IS NOT NULL) AS has_text,
              MAX(e.num IS NOT NULL) AS has_number
         FROM report_listing l JOIN custom_field_elements e ON e.rk = l.rk
        WHERE l.ck = (SELECT ck FROM company_keys WHERE company_id = ?)
        GROUP BY e.field
        ORDER BY reports DESC, e.field`,
    );
    // The decision standing (review_current) with its entry: the company's newest decision entry,
    // found by the (report, company, id) index.
    this.selectDecisions = db.prepare(
      `SELECT rc.label_report_id AS id, rc.decision, rr.user_name, rr.user_login, rr.api_key_name, rr.at
         FROM review_current rc
         JOIN report_reviews rr ON rr.id = (SELECT MAX(x.id) FROM report_reviews x
                                             WHERE x.label_report_id = rc.label_report_id AND x.company_id = rc.company_id AND x.kind = 'decision')
        WHERE rc.company_id = ? AND rc.decision IS NOT NULL AND rc.label_report_id IN (SELECT value FROM json_each(?))`,
    );
    // One probe per company (there are few), each ending at the first report both see.
    this.selectCompanies = db.prepare(
      `SELECT c.id, c.name FROM companies c LEFT JOIN company_keys k ON k.company_id = c.id
        WHERE c.id = @company
           OR EXISTS (SELECT 1 FROM report_listing other
                       WHERE other.ck = k.ck
                         AND EXISTS (SELECT 1 FROM report_listing mine
                                      WHERE mine.ck = (SELECT ck FROM company_keys WHERE company_id = @company)
                                        AND mine.rk = other.rk))
        ORDER BY c.name, c.id`,
    );
  }

  /** Returns the entry's id. */
  append(entry: NewReviewEntry): number {
    const result = this.insert.run(
      entry.reportId,
      entry.companyId,
      entry.kind,
      entry.text,
      entry.decision,
      entry.alert?.level ?? null,
      entry.alert?.timestamp ?? null,
      entry.keyId,
      entry.keyName,
      entry.person?.id ?? null,
      entry.person?.login ?? null,
      entry.person?.name ?? null,
      entry.meaning,
      entry.zone,
      entry.at,
    );
    const id = Number(result.lastInsertRowid);
    this.chain.seal('report_reviews', id);
    return id;
  }

  /** The company's review entries of the report, oldest first. */
  entries(reportId: string, companyId: string): ReviewEntry[] {
    return (this.selectEntries.all(reportId, companyId) as ReviewEntryRow[]).map((row) => ({
      id: row.id,
      reportId: row.label_report_id,
      companyId: row.company_id,
      kind: row.kind,
      text: row.text,
      decision: row.decision,
      alert: row.alert_level === null ? null : { level: row.alert_level, timestamp: row.alert_timestamp ?? 0 },
      keyId: row.api_key_id,
      keyName: row.api_key_name,
      person: row.user_id === null ? null : { id: row.user_id, login: row.user_login ?? '', name: row.user_name ?? '' },
      meaning: row.meaning,
      zone: row.zone,
      at: row.at,
    }));
  }

  /** Custom field ids on the reports the company sees, most used first. */
  customFieldUsage(companyId: string): CustomFieldUse[] {
    return (this.selectFieldUsage.all(companyId) as CustomFieldUsageRow[]).map((row) => ({
      customFieldId: row.custom_field_id,
      reports: row.reports,
      hasText: row.has_text === 1,
      hasNumber: row.has_number === 1,
    }));
  }

  /** The company's current decision of each of these reports that has one, by report id. */
  currentDecisions(companyId: string, ids: readonly string[]): Map<string, CurrentDecision> {
    const rows = this.selectDecisions.all(companyId, JSON.stringify(ids)) as {
      id: string;
      decision: Decision;
      user_name: string | null;
      user_login: string | null;
      api_key_name: string | null;
      at: string;
    }[];
    return new Map(
      rows.map((r) => [
        r.id,
        { decision: r.decision, person: r.user_name === null ? null : { name: r.user_name, login: r.user_login ?? '' }, keyName: r.api_key_name, at: r.at },
      ]),
    );
  }

  /** The company itself and every company holding an access entry on a report it sees, by name. */
  companiesSeenBy(companyId: string): { id: string; name: string }[] {
    return this.selectCompanies.all({ company: companyId }) as { id: string; name: string }[];
  }
}
