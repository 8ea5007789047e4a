/**
 * SQL for the review workflow: a company's review entries of a report (comments,
 * acknowledgements, decisions), and the plain-words lookups beside the list (custom field ids
 * in use, the companies seen in access entries).
 */
import type { Statement } from 'better-sqlite3';
import type { Decision } from '../schema/review';
import type { Db } from './database';

export type ReviewKind = 'comment' | 'acknowledgement' | 'decision';

export interface NewReviewEntry {
  reportId: string;
  companyId: string;
  kind: ReviewKind;
  text: string | null;
  decision: Decision | null;
  alert: { level: number; timestamp: number } | null;
  keyId: string;
  keyName: string | null;
  at: string;
}

export interface ReviewEntryRow {
  id: number;
  label_report_id: string;
  company_id: string;
  kind: ReviewKind;
  text: string | null;
  decision: Decision | null;
  alert_level: number | null;
  alert_timestamp: number | null;
  api_key_id: string;
  api_key_name: string | null;
  at: string;
}

export interface CustomFieldUsageRow {
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

  constructor(db: Db) {
    this.insert = db.prepare(
      `INSERT INTO report_reviews (label_report_id, company_id, kind, text, decision, alert_level, alert_timestamp, api_key_id, api_key_name, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectEntries = db.prepare('SELECT * FROM report_reviews WHERE label_report_id = ? AND company_id = ? ORDER BY id');
    // json_tree visits a scalar value as itself and an array's elements one by one.
    this.selectFieldUsage = db.prepare(
      `SELECT v.custom_field_id,
              COUNT(*) AS reports,
              MAX(EXISTS (SELECT 1 FROM json_tree(v.value) t WHERE t.type = 'text')) AS has_text,
              MAX(EXISTS (SELECT 1 FROM json_tree(v.value) t WHERE t.type IN ('integer', 'real'))) AS has_number
         FROM access a JOIN custom_field_values v ON v.label_report_id = a.label_report_id
        WHERE a.company_id = ?
        GROUP BY v.custom_field_id
        ORDER BY reports DESC, v.custom_field_id`,
    );
    this.selectCompanies = db.prepare(
      `SELECT c.id, c.name FROM companies c
        WHERE c.id = @company
           OR c.id IN (SELECT other.company_id FROM access mine
                         JOIN access other ON other.label_report_id = mine.label_report_id
                        WHERE mine.company_id = @company)
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
      entry.at,
    );
    return Number(result.lastInsertRowid);
  }

  /** The company's review entries of the report, oldest first. */
  entries(reportId: string, companyId: string): ReviewEntryRow[] {
    return this.selectEntries.all(reportId, companyId) as ReviewEntryRow[];
  }

  /** Custom field ids on the reports the company sees, most used first. */
  customFieldUsage(companyId: string): CustomFieldUsageRow[] {
    return this.selectFieldUsage.all(companyId) as CustomFieldUsageRow[];
  }

  /** The company itself and every company holding an access entry on a report it sees, by name. */
  companiesSeenBy(companyId: string): { id: string; name: string }[] {
    return this.selectCompanies.all({ company: companyId }) as { id: string; name: string }[];
  }
}
