/**
 * The one write path for label reports. Every change (PATCH, import, demo, activation, taps,
 * and sync pulls as they come) goes through here, and here only is the change log appended,
 * in the same transaction as the change: a change that rolls back leaves no entry, and every
 * committed change has exactly one. Sync and webhook delivery read that log.
 */
import { actorColumns } from '../db/change-log-store';
import type { DataStore } from '../db/data-store';
import type { StagedLogEntry } from '../db/import-staging';
import type { ReportRow } from '../db/report-rows';
import type { Actor, ChangeKind, FieldChange } from '../schema/change-log';
import { diffFacts, reportFacts } from './report-facts';
import type { ReportRecord } from './report-record';
import type { SyncOutbox } from '../sync/outbox';

/** An edit of a stored report's values, decided by the service's rules. */
export interface ReportEdit {
  /** label_reports columns to set (the sense figures with them when an input changed). */
  columns?: Partial<Omit<ReportRow, 'id' | 'datapoints' | 'updated'>>;
  /** The editing company's own flag and archive state. */
  state?: { companyId: string; hasFlag: boolean; isArchived: boolean };
  /** In order; a null value clears the field. */
  customFields?: readonly { customFieldId: string; json: string | null }[];
  /** The raw datapoints, replaced whole (encoded; `columns` then carries the figures computed from them). */
  datapoints?: Buffer;
}

/** Reports the database does not hold yet, written in bulk (an import's staged reports). */
export interface NewReports {
  /** Writes them all; returns how many. */
  insertNewReports(): number;
  /** Appends one change log entry like `entry` for each of them, naming the companies that see it. */
  logNewReports(entry: StagedLogEntry): void;
}

export class ReportWriter {
  constructor(
    private readonly data: DataStore,
    private readonly now: () => Date,
    /** Records the edits of mirrored reports for sync to send back, in the edit's transaction. */
    private readonly syncOutbox?: SyncOutbox,
  ) {}

  /**
   * A whole report (import, demo, sync pull): created, or replaced when its id is known, with
   * its own `updated`. Returns whether anything changed.
   */
  put(record: ReportRecord, actor: Actor): boolean {
    return this.atomically(() => {
      const before = this.snapshot(record.row.id);
      this.data.reports.replace(record, before);
      if (!before) {
        // A new report's values are the report itself; the entry says who brought it.
        this.log(record, 'create', [], actor);
        return true;
      }
      const changes = diffFacts(reportFacts(before), reportFacts(record));
      if (changes.length > 0) this.log(record, 'update', changes, actor);
      return changes.length > 0;
    });
  }

  /**
   * `put` for many reports at once, none of which the database holds: each is written and logged
   * as a `create` by `actor`, exactly as `put` logs a new report, in the same transaction.
   * Returns how many were written.
   */
  createMany(reports: NewReports, actor: Actor): number {
    return this.atomically(() => {
      const written = reports.insertNewReports();
      const { actor: kind, apiKeyId } = actorColumns(actor);
      reports.logNewReports({ kind: 'create', changes: JSON.stringify([]), actor: kind, apiKeyId, at: this.now().toISOString() });
      return written;
    });
  }

  /**
   * Applies an edit to a stored report; when any value changed, `updated` moves forward and the
   * change is logged. Returns whether anything changed.
   */
  edit(id: string, actor: Actor, edit: ReportEdit): boolean {
    return this.atomically(() => {
      const { reports } = this.data;
      const before = this.snapshot(id);
      if (!before) throw new Error(`no label report '${id}' to edit`);
      if (edit.columns) reports.updateColumns(id, edit.columns);
      if (edit.datapoints) reports.replaceDatapoints(id, edit.datapoints);
      if (edit.state) {
        reports.setCompanyState({
          company_id: edit.state.companyId,
          label_report_id: id,
          has_flag: edit.state.hasFlag ? 1 : 0,
          is_archived: edit.state.isArchived ? 1 : 0,
        });
      }
      for (const { customFieldId, json } of edit.customFields ?? []) {
        if (json === null) reports.clearCustomField(id, customFieldId);
        else reports.setCustomField(id, customFieldId, json);
      }
      const after = this.snapshot(id)!;
      const changes = diffFacts(reportFacts(before), reportFacts(after));
      if (changes.length === 0) return false;
      reports.updateColumns(id, { updated: nextUpdated(before.row.updated, this.now()) });
      this.log(after, 'update', changes, actor);
      this.syncOutbox?.recordChange(id, actor, changes);
      return true;
    });
  }

  /**
   * Removes a report (sync, when the remote no longer shows it), logged as a `remove` naming
   * the companies that could see it. Returns whether there was one.
   */
  remove(id: string, actor: Actor): boolean {
    return this.atomically(() => {
      const before = this.snapshot(id);
      if (!before) return false;
      this.data.reports.remove(id);
      this.log(before, 'remove', [], actor);
      return true;
    });
  }

  /**
   * In the caller's transaction when there is one (an import, a PATCH: whoever opened it rolls
   * all of it back on failure), else in its own. No savepoint per report: an import writes
   * tens of thousands.
   */
  private atomically<T>(fn: () => T): T {
    return this.data.inTransaction ? fn() : this.data.write(fn);
  }

  /** The report as stored: its row, access entries, company states and custom fields. */
  stored(id: string): ReportRecord | undefined {
    return this.snapshot(id);
  }

  private snapshot(id: string): ReportRecord | undefined {
    const stored = this.data.reports.findStored(id);
    return stored && { row: stored.row, access: [...stored.access], states: [...stored.states], customFields: [...stored.customFields] };
  }

  private log(record: ReportRecord, kind: ChangeKind, changes: FieldChange[], actor: Actor): void {
    this.data.changes.append({
      reportId: record.row.id,
      kind,
      changes,
      actor,
      companies: record.access.map((a) => a.company_id),
      at: this.now().toISOString(),
    });
  }
}

/** `updated` moves forward on every change, even two changes within one millisecond. */
export function nextUpdated(previous: string, now: Date): string {
  return new Date(Math.max(now.getTime(), Date.parse(previous) + 1)).toISOString();
}
