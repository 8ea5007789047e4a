/**
 * The service's side of sync (docs/sync.md): the mirror's writes and reads, each in small
 * transactions through the one write path. Pulled reports are written with actor `sync` (so
 * they never reach the outbox) and announce their webhook events as other writes do; a page
 * and the cursor that covers it commit together.
 */
import { randomUUID } from 'node:crypto';
import type { DataStore } from '../db/data-store';
import type { MirrorFigures, OutboxRecord, PendingFields, PullCursor, SyncSettingsRecord, SyncStateRecord } from '../model/sync-records';
import { ConflictError, NotFoundError } from '../model/errors';
import type { Actor } from '../schema/change-log';
import type {
  ConflictPolicy,
  DeadLetter,
  OutboxEntry,
  RefusedFromRemote,
  RemoteReport,
  ReportSyncState,
  SyncConflict,
  SyncStatus,
  SyncValue,
} from '../schema/sync';
import { afterPush, markSent, mergeRemote, sameValue } from './merge';
import type { Report } from '../model/report';
import { withValues } from '../model/report-fields';
import type { ReportEvents } from '../service/report-events';
import { nextUpdated, type ReportWriter } from '../service/report-writer';
import { syncValue } from './fields';
import { outboxJobs, type PushJobs } from './push-queue';
import type { SyncOutbox } from './outbox';
import { reportFromRemote, UnusableRemoteReport } from './remote-record';
import { inconsistency, type RefusedReport } from './remote-checks';

const SYNC: Actor = { kind: 'sync' };

export interface ApplyOptions {
  /** The remote key's company: its flags are the ones the remote shows. */
  companyId: string;
  policy: ConflictPolicy;
  /** Saved in the same transaction as the reports. */
  cursor?: PullCursor;
  /** Reports of the same page the remote sent in a form the mirror does not take, with why. */
  refused?: readonly RefusedReport[];
}

export interface ApplyResult {
  applied: number;
  /** Reports whose remote `updated` the mirror holds already. */
  skipped: number;
  conflicts: number;
  /** Reports not taken, with why: recorded as refused from the remote and tried again at the next reconciliation. */
  refused: RefusedReport[];
}

export interface SyncCounts {
  pending: number;
  conflicts: number;
  deadLetters: number;
  refused: number;
}

export class SyncMirror {
  constructor(
    private readonly data: DataStore,
    private readonly writer: ReportWriter,
    private readonly outbox: SyncOutbox,
    private readonly events: ReportEvents,
    private readonly now: () => Date,
  ) {}

  private get store() {
    return this.data.sync;
  }

  /** `listener` runs when local edits were queued or queued again (the worker pushes soon after). Returns its removal. */
  onQueued(listener: () => void): () => void {
    return this.outbox.onQueued(listener);
  }

  settings(): SyncSettingsRecord {
    return this.data.read(() => this.store.settings());
  }

  /** Another remote or company than before starts over: the pull from the beginning, a reconciliation first. */
  setRemote(remoteUrl: string | null, companyId: string | null): void {
    this.data.write(() => this.store.setRemote(remoteUrl, companyId));
  }

  /** The remote key's company, named as the remote names it. */
  setCompany(company: { id: string; name: string; shortCode?: string }): void {
    this.data.write(() => {
      const existing = this.data.companies.find(company.id);
      this.data.companies.upsert({ id: company.id, name: company.name, shortCode: company.shortCode ?? existing?.shortCode ?? '' });
      const { remoteUrl } = this.store.settings();
      this.store.setRemote(remoteUrl, company.id);
    });
  }

  savedState(): SyncStateRecord {
    return this.data.read(() => this.store.state());
  }

  saveState(state: SyncStateRecord): void {
    this.data.write(() => this.store.saveState(state));
  }

  markReconciled(at: string): void {
    this.data.write(() => this.store.markReconciled(at));
  }

  /** The status as the database holds it, for when no worker runs in this process (`labeldesk sync status`). */
  savedStatus(): SyncStatus {
    return this.data.read(() => {
      const { remoteUrl, companyId } = this.store.settings();
      const saved = this.store.state();
      return {
        configured: remoteUrl !== null,
        remoteUrl,
        companyId,
        state: remoteUrl === null ? 'off' : saved.state,
        lastSuccessAt: saved.lastSuccessAt,
        lastError: saved.lastError,
        pending: this.store.outboxCount(),
        conflicts: this.store.conflictCount(),
        deadLetters: this.store.deadLetterCount(),
        refused: this.store.refusedCount(),
        progress: null,
        nextAttemptAt: saved.nextAttemptAt,
      };
    });
  }

  counts(): SyncCounts {
    return this.data.read(() => ({
      pending: this.store.outboxCount(),
      conflicts: this.store.conflictCount(),
      deadLetters: this.store.deadLetterCount(),
      refused: this.store.refusedCount(),
    }));
  }

  /** Reports the remote sent that the mirror did not take, newest first. */
  refused(): RefusedFromRemote[] {
    return this.data.read(() => this.store.refused());
  }

  refusedIds(): string[] {
    return this.data.read(() => this.store.refusedIds());
  }

  /** These reports are no longer the remote's to send: their refusals leave the list. */
  forgetRefused(ids: readonly string[]): void {
    this.data.write(() => {
      for (const id of ids) this.store.forgetRefused(id);
    });
  }

  /** Whether the report mirrors the remote, whose figures it shows, and which of its fields wait to be sent. */
  reportState(id: string): ReportSyncState {
    return this.data.read(() => {
      const figures = this.store.mirrorFigures(id);
      return {
        id,
        mirrored: figures !== undefined,
        figures: figures === undefined ? 'here' : figures === 'remote' ? 'remote' : 'local-edit',
        pending: Object.keys(this.store.outboxEntry(id)?.fields ?? {}),
      };
    });
  }

  /** Of `ids`, those with a local report (whose label a list element may leave out). */
  storedIds(ids: readonly string[]): Set<string> {
    return this.data.read(() => this.data.reports.existing(ids));
  }

  /** Of these remote (id, updated) pairs, the ids the mirror does not hold at that `updated`. */
  outdated(reports: readonly { id: string; updated: string }[]): string[] {
    const held = this.data.read(() => this.store.remoteUpdated(reports.map((r) => r.id)));
    return reports.filter((r) => held.get(r.id) !== r.updated).map((r) => r.id);
  }

  mirroredIdsBetween(after: string | null, upTo: string | null): string[] {
    return this.data.read(() => this.store.mirroredIdsBetween(after, upTo));
  }

  /**
   * Remote reports into the mirror, in one transaction with the cursor when one is given.
   * One the mirror holds at its remote `updated` already is skipped; pending local fields meet
   * the remote's values in the three-way merge.
   */
  applyRemote(reports: readonly RemoteReport[], options: ApplyOptions): ApplyResult {
    const result: ApplyResult = { applied: 0, skipped: 0, conflicts: 0, refused: [...(options.refused ?? [])] };
    this.data.write(() => {
      const held = this.store.remoteUpdated(reports.map((r) => r.id));
      for (const remote of reports) {
        if (held.has(remote.id) && held.get(remote.id) === remote.updated) {
          result.skipped++;
          continue;
        }
        const reason = inconsistency(remote, options.companyId) ?? this.accessClash(remote);
        if (reason !== null) {
          result.refused.push({ id: remote.id, reason });
          continue;
        }
        try {
          // A savepoint of its own: a report the database refuses leaves the rest of the page standing.
          result.conflicts += this.data.write(() => this.applyOne(remote, held.has(remote.id), options));
          result.applied++;
          this.store.forgetRefused(remote.id);
        } catch (err) {
          const why = refusalReason(err);
          if (why === null) throw err;
          result.refused.push({ id: remote.id, reason: why });
        }
      }
      const at = this.now().toISOString();
      for (const r of result.refused) this.store.refuse(r.id, r.reason, at);
      if (options.cursor) this.store.saveCursor(options.cursor);
    });
    // A first mirror fills an empty database page by page, and no statistics say what its tables
    // hold: the read model's triggers then plan by guesses, and one of them (the shipment group
    // of a new listing row) read every listing row of the company, so each page cost more than
    // the one before. SQLite analyses a table again only when it has grown tenfold since (a few
    // times in a whole mirror), and otherwise this costs about a millisecond.
    if (result.applied > 0) this.data.optimize();
    if (result.conflicts > 0) this.outbox.notify();
    return result;
  }

  /** Access entry ids are unique across reports here: the remote's must not name another report's entry. */
  private accessClash(remote: RemoteReport): string | null {
    const clash = this.data.reports.accessHeldElsewhere(remote.id, remote.access.map((a) => a.id));
    const [first] = clash;
    return first ? `access entry id '${first[0]}' is that of another label report ('${first[1]}')` : null;
  }

  /** Writes one remote report (inside a transaction); returns the conflicts it recorded. */
  private applyOne(remote: RemoteReport, wasMirrored: boolean, { companyId, policy }: ApplyOptions): number {
    const stored = this.writer.load(remote.id);
    let report = reportFromRemote(remote, stored, companyId, Math.floor(this.now().getTime() / 1000));
    let figures: MirrorFigures = 'remote';
    const entry = this.store.outboxEntry(remote.id);
    let conflicts = 0;
    if (entry) {
      const merge = mergeRemote(entry.fields, (field) => syncValue(report, field, companyId), policy);
      if (Object.keys(merge.keepLocal).length > 0) {
        const shown = report;
        report = withValues(report, new Map(Object.entries(merge.keepLocal)), companyId);
        if (report.figures !== shown.figures) figures = 'local';
        // The mirror shows local values still: its `updated` does not go back before their edit.
        if (stored && stored.updated > report.updated) report = { ...report, updated: stored.updated };
      }
      const at = this.now().toISOString();
      for (const c of merge.conflicts) {
        this.store.addConflict({ id: randomUUID(), labelReportId: remote.id, field: c.field, kind: 'field', base: c.base, local: c.local, remote: c.remote, at });
      }
      conflicts = merge.conflicts.length;
      this.store.putOutbox({ ...entry, fields: merge.pending, version: entry.version + 1 });
    }
    this.ensureCompanies(remote, report);
    this.writer.put(report, SYNC, stored ?? null);
    this.store.setMirrored(remote.id, remote.updated);
    this.store.setMirrorFigures(remote.id, figures);
    if (!stored) {
      if (remote.status === 'active') this.events.reportEvent('labelReport.activated', remote.id);
    } else if (wasMirrored && report.numberOfTaps > stored.numberOfTaps) {
      this.events.reportEvent('labelReport.tapped', remote.id);
    }
    return conflicts;
  }

  /** The owner as the remote names it; companies known only from access entries by their ids. */
  private ensureCompanies(remote: RemoteReport, report: Report): void {
    const { companies } = this.data;
    const owner = companies.find(remote.company.id);
    if (!owner || owner.name !== remote.company.name || owner.shortCode !== remote.company.shortCode) {
      companies.upsert({ id: remote.company.id, name: remote.company.name, shortCode: remote.company.shortCode });
    }
    for (const a of report.access) companies.ensure(a.companyId);
    for (const s of report.states) companies.ensure(s.companyId);
  }

  /**
   * Reports the remote no longer shows leave the mirror; pending edits on one become conflicts
   * of kind `gone`. Reports that exist only locally are never touched. Returns how many left.
   */
  removeGone(ids: readonly string[]): number {
    let removed = 0;
    this.data.write(() => {
      const at = this.now().toISOString();
      for (const id of ids) {
        if (!this.store.isMirrored(id)) continue;
        const entry = this.store.outboxEntry(id);
        for (const [field, { base, value }] of Object.entries(entry?.fields ?? {})) {
          this.store.addConflict({ id: randomUUID(), labelReportId: id, field, kind: 'gone', base, local: value, remote: null, at });
        }
        this.store.deleteOutbox(id);
        this.store.unmirror(id);
        if (this.writer.remove(id, SYNC)) removed++;
      }
    });
    return removed;
  }

  // Push.

  /** Pending entries, oldest first. */
  pendingEntries(limit: number): OutboxRecord[] {
    return this.data.read(() => this.store.outboxEntries(limit));
  }

  /** The outbox as the push queue's jobs (sync/push-queue.ts), on this database. */
  pushJobs(): PushJobs {
    return { database: this.data, store: outboxJobs(this.data) };
  }

  /** The values of `sent` leave in a PATCH now: kept on the entry until an answer says what became of them. */
  pushSending(sent: OutboxRecord, values: Readonly<Record<string, SyncValue>>): void {
    this.data.write(() => {
      const now = this.store.outboxEntry(sent.labelReportId);
      if (now) this.store.putOutbox({ ...now, fields: markSent(now.fields, values), version: now.version + 1 });
    });
  }

  /**
   * The remote accepted `sent`: its answer (or, when it showed too little, the report fetched
   * again) becomes the mirror's state, and what was sent leaves the outbox. Fields edited again
   * meanwhile stay pending. Without `answer` the report is fetched at the next reconciliation.
   */
  pushAccepted(sent: OutboxRecord, answer: RemoteReport | null, options: ApplyOptions): void {
    this.data.write(() => {
      const now = this.store.outboxEntry(sent.labelReportId);
      if (now) this.store.putOutbox({ ...now, fields: afterPush(now.fields, sent.fields), version: now.version + 1 });
      if (!answer) {
        this.store.setMirrored(sent.labelReportId, null);
        return;
      }
      if (this.store.isMirrored(answer.id)) this.applyRemote([answer], { ...options, cursor: undefined });
    });
  }

  /** The remote refused the entry for good: it becomes a dead letter with the remote's answer. */
  pushRefused(sent: OutboxRecord, status: number, message: string): void {
    this.data.write(() => {
      const now = this.store.outboxEntry(sent.labelReportId);
      this.store.addDeadLetter({
        id: randomUUID(),
        labelReportId: sent.labelReportId,
        fields: now?.fields ?? sent.fields,
        status,
        message,
        at: this.now().toISOString(),
      });
      this.store.deleteOutbox(sent.labelReportId);
    });
  }

  /**
   * `owner`'s lease on the entry of `sent` is given back: what is left of it is free for the next
   * push. `failed`: its attempt failed on the way and is counted; `sent`: the count starts again.
   */
  pushReleased(sent: OutboxRecord, owner: number, outcome: 'untried' | 'failed' | 'sent'): void {
    this.data.write(() => this.store.releasePush(sent.labelReportId, owner, outcome));
  }

  // What /local/sync shows, and the actions on it.

  outboxEntries(): OutboxEntry[] {
    return this.data.read(() => this.store.outboxEntries()).map((e) => ({ labelReportId: e.labelReportId, fields: Object.keys(e.fields), since: e.since }));
  }

  conflicts(): SyncConflict[] {
    return this.data.read(() => this.store.conflicts());
  }

  /**
   * `local` queues the local value again (on the value the mirror holds as its base) and shows
   * it; `remote` drops it, and shows the remote value if the local one was still kept. Either
   * way the conflict leaves the list. A report the remote no longer shows has nowhere to send
   * a local value: only `remote` resolves a `gone` conflict.
   */
  resolveConflict(id: string, keep: 'local' | 'remote'): void {
    this.data.write(() => {
      const conflict = this.store.conflict(id);
      if (!conflict) throw new NotFoundError('CONFLICT_NOT_FOUND', `no sync conflict '${id}'`);
      const stored = this.writer.load(conflict.labelReportId);
      if (keep === 'local' && (conflict.kind === 'gone' || !stored)) {
        throw new ConflictError(
          'REPORT_GONE',
          `the remote no longer shows label report '${conflict.labelReportId}', so its local value cannot be sent: keep the remote's instead`,
        );
      }
      this.store.deleteConflict(id);
      if (!stored) return;
      const { companyId } = this.store.settings();
      if (companyId === null) return;
      const entry = this.store.outboxEntry(conflict.labelReportId);
      const pending = entry?.fields[conflict.field];
      const fields: PendingFields = { ...entry?.fields };
      let shown: SyncValue;
      if (keep === 'local') {
        shown = conflict.local;
        const current = syncValue(stored, conflict.field, companyId);
        fields[conflict.field] = { base: pending?.base ?? current, value: conflict.local };
        if (sameValue(fields[conflict.field].base, conflict.local)) delete fields[conflict.field];
      } else {
        if (pending === undefined) return;
        shown = conflict.remote;
        delete fields[conflict.field];
      }
      this.store.putOutbox({
        labelReportId: conflict.labelReportId,
        fields,
        since: entry?.since ?? this.now().toISOString(),
        version: (entry?.version ?? 0) + 1,
      });
      this.showValues(stored, { [conflict.field]: shown }, companyId);
    });
    if (keep === 'local') this.outbox.notify();
  }

  deadLetters(): DeadLetter[] {
    return this.data.read(() => this.store.deadLetters()).map((d) => ({
      id: d.id,
      labelReportId: d.labelReportId,
      fields: Object.keys(d.fields),
      status: d.status,
      message: d.message,
      at: d.at,
    }));
  }

  /**
   * `retry` queues the refused edit again (fields edited since keep their newer value);
   * `discard` drops it and shows the values from before it again, which the remote held.
   */
  actOnDeadLetter(id: string, action: 'retry' | 'discard'): void {
    this.data.write(() => {
      const letter = this.store.deadLetter(id);
      if (!letter) throw new NotFoundError('DEAD_LETTER_NOT_FOUND', `no sync dead letter '${id}'`);
      this.store.deleteDeadLetter(id);
      const stored = this.writer.load(letter.labelReportId);
      const { companyId } = this.store.settings();
      if (!stored || companyId === null || !this.store.isMirrored(letter.labelReportId)) return;
      const entry = this.store.outboxEntry(letter.labelReportId);
      if (action === 'retry') {
        this.store.putOutbox({
          labelReportId: letter.labelReportId,
          fields: { ...letter.fields, ...entry?.fields },
          since: entry?.since ?? this.now().toISOString(),
          version: (entry?.version ?? 0) + 1,
        });
        return;
      }
      const bases = Object.fromEntries(
        Object.entries(letter.fields)
          .filter(([field]) => entry?.fields[field] === undefined)
          .map(([field, { base }]) => [field, base]),
      );
      this.showValues(stored, bases, companyId);
    });
    if (action === 'retry') this.outbox.notify();
  }

  /** Sets fields of a mirrored report locally without queueing them (actor sync), `updated` moving forward. */
  private showValues(stored: Report, values: Record<string, SyncValue>, companyId: string): void {
    if (Object.entries(values).every(([field, value]) => sameValue(syncValue(stored, field, companyId), value))) return;
    const report = withValues(stored, new Map(Object.entries(values)), companyId);
    this.writer.put({ ...report, updated: nextUpdated(stored.updated, this.now()) }, SYNC, stored);
  }
}

/**
 * Why the mirror could not take a report: what reportFromRemote found unusable, or a rule of
 * the database the remote's values break. Null for any other error, which is a fault here.
 */
function refusalReason(err: unknown): string | null {
  if (err instanceof UnusableRemoteReport) return err.message;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT')) return `the database refuses it: ${(err as Error).message}`;
  return null;
}
