/**
 * The one write path for label reports. Every change (PATCH, import, demo, activation, taps,
 * and sync pulls as they come) goes through here, and here only is the change log appended,
 * in the same transaction as the change: a change that rolls back leaves no entry, and every
 * committed change has exactly one. A write takes the report as loaded, finds what changed
 * once, writes only that, logs it, tells the listeners (the outboxes, inside the transaction,
 * as hooks) and gives the new report back.
 */
import { actorColumns } from '../db/change-log-store';
import type { DataStore } from '../db/data-store';
import type { StagedLogEntry } from '../db/import-staging';
import type { Report } from '../model/report';
import { diffReports } from '../model/report-diff';
import type { Actor, ChangeKind, ChangeSignature, FieldChange } from '../schema/change-log';

/** A committed change, as listeners inside its transaction see it. */
export interface ReportChange {
  kind: ChangeKind;
  /** Undefined for a new report. */
  before: Report | undefined;
  /** Undefined for a removed report. */
  after: Report | undefined;
  changes: readonly FieldChange[];
  actor: Actor;
  /** What the change is and why, when its caller said. */
  note?: ChangeNote;
}

/** What a caller says of its change, beside who made it. */
export interface ChangeNote {
  /** Why: kept in the change log beside the old and new values. */
  reason?: string;
  /** What made it, when the actor alone does not say (a key's tap is 'tap'). */
  via?: 'tap';
  /** The approver's signature of a signed verdict change (docs/review-and-audit.md#signed-verdict-changes). */
  signature?: ChangeSignature;
}

/** Runs inside the change's transaction: what it writes commits or rolls back with the change. */
export type ReportChangeListener = (change: ReportChange) => void;

/**
 * Reports written in bulk by `createMany`, as listeners inside its transaction see them: each
 * has a `create` entry in the change log after `afterLogId`, so a listener finds them with one
 * set-based query instead of one call per report.
 */
export interface ManyCreated {
  actor: Actor;
  /** The change log's last `seq` before theirs. */
  afterLogId: number;
  count: number;
}

/** Runs inside the transaction of `createMany`, once the listing shows the new reports. */
export type ManyCreatedListener = (created: ManyCreated) => void;

/** Reports the database does not hold yet, written in bulk (an import's staged reports). */
export interface NewReports {
  /** Writes them all; returns how many. */
  insertNewReports(): number;
  /** Appends one change log entry like `entry` for each of them, naming the companies that see it. */
  logNewReports(entry: StagedLogEntry): void;
}

export class ReportWriter {
  private readonly listeners = new Set<ReportChangeListener>();
  private readonly manyListeners = new Set<ManyCreatedListener>();
  /** Inside `writingMany`: the listeners' calls, made once the listing is rebuilt. */
  private deferred: (() => void)[] | undefined;

  constructor(
    private readonly data: DataStore,
    private readonly now: () => Date,
  ) {}

  /** `listener` hears every change from now on, inside its transaction. Returns its removal. */
  onChange(listener: ReportChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `listener` hears of every `createMany` from now on, inside its transaction. Returns its removal. */
  onCreateMany(listener: ManyCreatedListener): () => void {
    this.manyListeners.add(listener);
    return () => this.manyListeners.delete(listener);
  }

  /**
   * `write` as the store's `writingMany` runs it (the listing set aside and rebuilt after, for
   * a write larger than the table). The listeners of every change inside it (a `createMany`, a
   * replaced report) are told after the rebuild, in order, still in the transaction: they judge
   * the reports by their listing rows, which only then hold the new values.
   */
  writingMany<T>(incoming: number, write: () => T): T {
    if (this.deferred) return this.data.reports.writingMany(incoming, write);
    const deferred: (() => void)[] = (this.deferred = []);
    let result: T;
    try {
      result = this.data.reports.writingMany(incoming, write);
    } finally {
      this.deferred = undefined;
    }
    for (const tell of deferred) tell();
    return result;
  }

  /** The report as stored, read whole once. */
  load(id: string): Report | undefined {
    return this.data.reports.load(id);
  }

  /**
   * A whole report (import, demo, sync pull): created, or written over `stored` (the report as
   * loaded, when the caller has it; else it is loaded here) with its own `updated`. Returns
   * whether anything changed.
   */
  put(report: Report, actor: Actor, stored: Report | null | undefined = undefined, note?: ChangeNote): boolean {
    return this.atomically(() => {
      const before = stored === undefined ? this.load(report.id) : (stored ?? undefined);
      if (!before) {
        this.data.reports.write(report);
        // A new report's values are the report itself; the entry says who brought it.
        this.committed({ kind: 'create', before: undefined, after: report, changes: [], actor });
        return true;
      }
      // Written even without a logged change: the order of custom fields is no fact, yet kept.
      this.data.reports.write(report, before);
      const changes = diffReports(before, report);
      if (changes.length > 0) this.committed({ kind: 'update', before, after: report, changes, actor, note });
      return changes.length > 0;
    });
  }

  /**
   * `before` (as loaded) becomes `after`, the rules' edit of it: when any value changed,
   * `updated` moves forward, only what changed is written, and the change is logged. Returns
   * the report as it now stands. `noteOf` says why, given what changed.
   */
  edit(before: Report, after: Report, actor: Actor, noteOf?: ChangeNote | ((changes: readonly FieldChange[]) => ChangeNote | undefined)): Report {
    return this.atomically(() => {
      const changes = diffReports(before, after);
      // A note may depend on what changed (the reason rule); it may refuse the change by throwing.
      const note = typeof noteOf === 'function' ? noteOf(changes) : noteOf;
      if (changes.length === 0) return before;
      const saved = { ...after, updated: nextUpdated(before.updated, this.now()) };
      this.data.reports.write(saved, before);
      this.committed({ kind: 'update', before, after: saved, changes, actor, note });
      return saved;
    });
  }

  /**
   * `put` for many reports at once, none of which the database holds: each is written and logged
   * as a `create` by `actor`, exactly as `put` logs a new report, in the same transaction, and
   * the `onCreateMany` listeners are told once of all of them (inside `writingMany`, at its
   * end). Returns how many were written.
   */
  createMany(reports: NewReports, actor: Actor): number {
    return this.atomically(() => {
      const written = reports.insertNewReports();
      const { actor: kind, apiKeyId } = actorColumns(actor);
      const lastSeq = this.data.audit.lastId('change_log');
      reports.logNewReports({ kind: 'create', changes: JSON.stringify([]), actor: kind, apiKeyId, at: this.now().toISOString() });
      // Written in bulk, so chained here, in the same transaction.
      this.data.audit.sealAfter('change_log', lastSeq);
      if (written > 0) {
        const created: ManyCreated = { actor, afterLogId: lastSeq, count: written };
        this.tell(() => {
          for (const listener of this.manyListeners) listener(created);
        });
      }
      return written;
    });
  }

  /**
   * Removes a report (sync, when the remote no longer shows it), logged as a `remove` naming
   * the companies that could see it. Returns whether there was one.
   */
  remove(id: string, actor: Actor): boolean {
    return this.atomically(() => {
      const before = this.load(id);
      if (!before) return false;
      this.data.reports.remove(id);
      this.committed({ kind: 'remove', before, after: undefined, changes: [], actor });
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

  /** Calls the listeners now, or once the listing is rebuilt inside `writingMany`. */
  private tell(call: () => void): void {
    if (this.deferred) this.deferred.push(call);
    else call();
  }

  private committed(change: ReportChange): void {
    const report = (change.after ?? change.before)!;
    this.data.changes.append({
      reportId: report.id,
      kind: change.kind,
      changes: [...change.changes],
      actor: change.actor,
      companies: report.access.map((a) => a.companyId),
      at: this.now().toISOString(),
      reason: change.note?.reason ?? null,
      signature: change.note?.signature ?? null,
    });
    this.tell(() => {
      for (const listener of this.listeners) listener(change);
    });
  }
}

/** `updated` moves forward on every change, even two changes within one millisecond. */
export function nextUpdated(previous: string, now: Date): string {
  return new Date(Math.max(now.getTime(), Date.parse(previous) + 1)).toISOString();
}
