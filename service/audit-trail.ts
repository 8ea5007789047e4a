/**
 * The audit trail as an auditor reads it: every chain verified, against the signed checkpoints
 * too (service/audit-checkpoints.ts), and every entry of the change log and the review as CSV
 * (RFC 4180, like the other CSVs), hashes included, so a copy can be checked against the file
 * later.
 */
import type { StoredCheckpoint } from '../db/audit-checkpoints';
import { AUDIT_TABLES, type AuditTable, type ChainReport, type Row } from '../db/audit-chain';
import type { DataStore } from '../db/data-store';
import type { FieldChange } from '../schema/change-log';
import { requirePermission, type Caller } from './api-keys';
import { AuditCheckpoints } from './audit-checkpoints';
import { notFound } from './label-reports';
import { CSV_BOM, csvLine, type CsvValue } from './report-csv';

/** Who wrote an entry, in the columns of every audit CSV: the key, or the person signed in. */
export const WHO_CSV_COLUMNS = ['apiKeyId', 'apiKeyName', 'userId', 'userLogin', 'userName'] as const;

export const AUDIT_CSV_COLUMNS = [
  'table',
  'reportId',
  'entry',
  'at',
  'kind',
  'companyId',
  'actor',
  ...WHO_CSV_COLUMNS,
  'changes',
  'reason',
  'text',
  'decision',
  'alertLevel',
  'alertTimestamp',
  'meaning',
  'zone',
  'signature',
  'prevHash',
  'hash',
] as const;

export class AuditTrail {
  /** The signed checkpoints: signing, the schedule's question, the check, the history. */
  readonly checkpoints: AuditCheckpoints;

  constructor(
    private readonly data: DataStore,
    now: () => Date = () => new Date(),
  ) {
    this.checkpoints = new AuditCheckpoints(data, now);
  }

  /** Reads every chain; see AuditChain.verify. */
  verify(): ChainReport {
    return this.data.read(() => this.data.audit.verify());
  }

  /**
   * Signs a checkpoint of every chain's head now, in the database and in the file beside it
   * (FILE.checkpoints.jsonl), and returns it: what a backup calls before it copies the database,
   * so each backup holds a checkpoint of the trail it holds. Throws AuditKeyError (in words) when
   * there is no key to sign with; see docs/review-and-audit.md#checkpoints.
   */
  checkpoint(): StoredCheckpoint {
    return this.checkpoints.checkpoint();
  }

  /** Every entry of every report (or of one), change log first, each table in chain order. */
  *csv(reportId?: string): Generator<string> {
    yield csvLine(AUDIT_CSV_COLUMNS);
    const lines: string[] = [];
    this.data.read(() => {
      for (const table of AUDIT_TABLES) for (const row of this.data.audit.rows(table, reportId)) lines.push(csvLine(auditCsvValues(table, row)));
    });
    yield* lines;
  }

  /**
   * A report's trail as its company sees it (the history's download): the change log with other
   * companies' own flag and archive changes left out, and the company's own review entries.
   */
  companyCsv(caller: Caller, reportId: string): string {
    requirePermission(caller, 'labelReports:read');
    return this.data.read(() => {
      if (!this.data.reports.isVisible(caller.companyId, reportId)) throw notFound(reportId);
      let text = CSV_BOM + csvLine(AUDIT_CSV_COLUMNS);
      for (const row of this.data.audit.rows('change_log', reportId)) {
        const all = JSON.parse(row.changes as string) as FieldChange[];
        const own = all.filter((c) => c.companyId === undefined || c.companyId === caller.companyId);
        if (row.kind === 'update' && own.length === 0) continue;
        text += csvLine(auditCsvValues('change_log', { ...row, changes: JSON.stringify(own) }));
      }
      for (const row of this.data.audit.rows('report_reviews', reportId)) {
        if (row.company_id === caller.companyId) text += csvLine(auditCsvValues('report_reviews', row));
      }
      return text;
    });
  }
}

export function auditCsvValues(table: AuditTable, row: Row): CsvValue[] {
  const v = (name: string): CsvValue => (row[name] === undefined ? null : (row[name] as CsvValue));
  const review = table === 'report_reviews';
  // A signed verdict change keeps its signature as JSON (its meaning and zone shown as a review's are).
  const signed = !review && typeof row.signature === 'string' ? (JSON.parse(row.signature) as { meaning: string; zone: string }) : null;
  return [
    table,
    v('label_report_id'),
    review ? v('id') : v('seq'),
    v('at'),
    v('kind'),
    review ? v('company_id') : null,
    review ? null : v('actor'),
    v('api_key_id'),
    v('api_key_name'),
    v('user_id'),
    v('user_login'),
    v('user_name'),
    review ? null : v('changes'),
    v('reason'),
    v('text'),
    v('decision'),
    v('alert_level'),
    v('alert_timestamp'),
    signed ? signed.meaning : v('meaning'),
    signed ? signed.zone : v('zone'),
    review ? null : v('signature'),
    v('prev_hash'),
    v('hash'),
  ];
}
