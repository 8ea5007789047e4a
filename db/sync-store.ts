/**
 * SQL for sync (docs/sync.md): settings and the pull cursor, the worker's last state, which
 * reports mirror the remote, the outbox of local edits, conflicts and dead letters. Callers own
 * transactions; the rules (merging, when an entry dies) belong to them.
 */
import type { Statement } from 'better-sqlite3';
import type {
  ConflictRecord,
  DeadLetterRecord,
  LeasedOutboxRecord,
  MirrorFigures,
  OutboxRecord,
  PendingFields,
  PullCursor,
  RefusedRecord,
  SyncSettingsRecord,
  SyncStateRecord,
} from '../model/sync-records';
import type { SyncState, SyncValue } from '../schema/sync';
import type { Db } from './database';

interface SettingsRow {
  remote_url: string | null;
  company_id: string | null;
  cursor_updated: string | null;
  cursor_ids: string;
  last_reconcile_at: string | null;
}
interface StateRow {
  state: SyncState;
  last_success_at: string | null;
  last_error_at: string | null;
  last_error_message: string | null;
  next_attempt_at: string | null;
}
interface OutboxRow {
  label_report_id: string;
  fields: string;
  since: string;
  version: number;
  attempts: number;
}
interface ConflictRow {
  id: string;
  label_report_id: string;
  field: string;
  kind: 'field' | 'gone';
  base: string;
  local: string;
  remote: string;
  at: string;
}
interface DeadLetterRow {
  id: string;
  label_report_id: string;
  fields: string;
  status: number;
  message: string;
  at: string;
}

export class SyncStore {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  settings(): SyncSettingsRecord {
    const row = this.statement('SELECT * FROM sync_settings WHERE id = 1').get() as SettingsRow;
    return {
      remoteUrl: row.remote_url,
      companyId: row.company_id,
      cursor: { updated: row.cursor_updated, ids: JSON.parse(row.cursor_ids) as string[] },
      lastReconcileAt: row.last_reconcile_at,
    };
  }

  /** Another remote or company starts the pull from the beginning and reconciles at once. */
  setRemote(remoteUrl: string | null, companyId: string | null): void {
    const now = this.settings();
    const same = now.remoteUrl === remoteUrl && (now.companyId === companyId || now.companyId === null || companyId === null);
    this.statement(
      `UPDATE sync_settings SET remote_url = ?, company_id = ?${same ? '' : ", cursor_updated = NULL, cursor_ids = '[]', last_reconcile_at = NULL"} WHERE id = 1`,
    ).run(remoteUrl, companyId ?? (same ? now.companyId : null));
    // Another remote's refusals say nothing about this one.
    if (!same) this.statement('DELETE FROM sync_refused').run();
  }

  saveCursor(cursor: PullCursor): void {
    this.statement('UPDATE sync_settings SET cursor_updated = ?, cursor_ids = ? WHERE id = 1').run(cursor.updated, JSON.stringify(cursor.ids));
  }

  markReconciled(at: string): void {
    this.statement('UPDATE sync_settings SET last_reconcile_at = ? WHERE id = 1').run(at);
  }

  state(): SyncStateRecord {
    const row = this.statement('SELECT * FROM sync_state WHERE id = 1').get() as StateRow;
    return {
      state: row.state,
      lastSuccessAt: row.last_success_at,
      lastError: row.last_error_at === null ? null : { at: row.last_error_at, message: row.last_error_message ?? '' },
      nextAttemptAt: row.next_attempt_at,
    };
  }

  saveState(state: SyncStateRecord): void {
    this.statement(
      `UPDATE sync_state SET state = ?, last_success_at = ?, last_error_at = ?, last_error_message = ?, next_attempt_at = ? WHERE id = 1`,
    ).run(state.state, state.lastSuccessAt, state.lastError?.at ?? null, state.lastError?.message ?? null, state.nextAttemptAt);
  }

  // The mirror.

  isMirrored(id: string): boolean {
    return this.statement('SELECT 1 FROM sync_mirror WHERE label_report_id = ?').get(id) !== undefined;
  }

  /** The remote `updated` last applied, of those of `ids` that are mirrored. */
  remoteUpdated(ids: readonly string[]): Map<string, string | null> {
    if (ids.length === 0) return new Map();
    const rows = this.statement(
      'SELECT label_report_id AS id, remote_updated AS updated FROM sync_mirror WHERE label_report_id IN (SELECT value FROM json_each(?))',
    ).all(JSON.stringify(ids)) as { id: string; updated: string | null }[];
    return new Map(rows.map((r) => [r.id, r.updated]));
  }

  setMirrored(id: string, remoteUpdated: string | null): void {
    this.statement(
      `INSERT INTO sync_mirror (label_report_id, remote_updated) VALUES (?, ?)
       ON CONFLICT (label_report_id) DO UPDATE SET remote_updated = excluded.remote_updated`,
    ).run(id, remoteUpdated);
  }

  /** Whose figures a mirrored report shows: the remote's, or recalculated here after a local edit. */
  mirrorFigures(id: string): MirrorFigures | undefined {
    return this.statement('SELECT figures FROM sync_mirror WHERE label_report_id = ?').pluck().get(id) as MirrorFigures | undefined;
  }

  setMirrorFigures(id: string, figures: MirrorFigures): void {
    this.statement('UPDATE sync_mirror SET figures = ? WHERE label_report_id = ?').run(figures, id);
  }

  unmirror(id: string): void {
    this.statement('DELETE FROM sync_mirror WHERE label_report_id = ?').run(id);
  }

  /** Mirrored ids after `after` (exclusive) up to `upTo` (inclusive; null: to the end), by id. */
  mirroredIdsBetween(after: string | null, upTo: string | null): string[] {
    return this.statement(
      `SELECT label_report_id FROM sync_mirror
       WHERE (@after IS NULL OR label_report_id > @after) AND (@upTo IS NULL OR label_report_id <= @upTo) ORDER BY label_report_id`,
    )
      .pluck()
      .all({ after, upTo }) as string[];
  }

  mirrorCount(): number {
    return this.statement('SELECT count(*) FROM sync_mirror').pluck().get() as number;
  }

  // The outbox.

  outboxEntry(id: string): OutboxRecord | undefined {
    const row = this.statement('SELECT * FROM sync_outbox WHERE label_report_id = ?').get(id) as OutboxRow | undefined;
    return row && toOutbox(row);
  }

  /** Entries oldest first. */
  outboxEntries(limit = -1): OutboxRecord[] {
    return (this.statement('SELECT * FROM sync_outbox ORDER BY since, label_report_id LIMIT ?').all(limit) as OutboxRow[]).map(toOutbox);
  }

  /** Writes the entry, or removes it when no field is pending. */
  putOutbox(entry: OutboxRecord): void {
    if (Object.keys(entry.fields).length === 0) {
      this.deleteOutbox(entry.labelReportId);
      return;
    }
    this.statement(
      `INSERT INTO sync_outbox (label_report_id, fields, since, version) VALUES (?, ?, ?, ?)
       ON CONFLICT (label_report_id) DO UPDATE SET fields = excluded.fields, since = excluded.since, version = excluded.version`,
    ).run(entry.labelReportId, JSON.stringify(entry.fields), entry.since, entry.version);
  }

  deleteOutbox(id: string): void {
    this.statement('DELETE FROM sync_outbox WHERE label_report_id = ?').run(id);
  }

  outboxCount(): number {
    return this.statement('SELECT count(*) FROM sync_outbox').pluck().get() as number;
  }

  // The outbox as the push queue's jobs (jobs/job-queue.ts): an entry is due whenever no lease holds it.

  /** Up to `limit` entries no lease holds at `now`, oldest first. */
  duePushes(now: string, limit: number): LeasedOutboxRecord[] {
    const rows = this.statement(
      `SELECT * FROM sync_outbox WHERE lease_until IS NULL OR lease_until <= ? ORDER BY since, label_report_id LIMIT ?`,
    ).all(now, limit) as OutboxRow[];
    return rows.map((row) => ({ ...toOutbox(row), attempts: row.attempts }));
  }

  /** The entry is `pid`'s to push until `until`. */
  leasePush(id: string, until: string, pid: number): void {
    this.statement('UPDATE sync_outbox SET lease_until = ?, lease_pid = ? WHERE label_report_id = ?').run(until, pid, id);
  }

  /** When the next entry not held by `pid` is free to push: now for an unleased one, else when its lease runs out. */
  nextPushDueAt(pid: number, now: string): string | undefined {
    return (
      (this.statement(
        `SELECT MIN(CASE WHEN lease_until IS NULL OR lease_until <= @now THEN @now ELSE lease_until END)
           FROM sync_outbox WHERE NOT (lease_pid IS @pid AND lease_until > @now)`,
      )
        .pluck()
        .get({ pid, now }) as string | null) ?? undefined
    );
  }

  /** The processes holding leases on entries. */
  pushLeaseHolders(): number[] {
    return this.statement('SELECT DISTINCT lease_pid FROM sync_outbox WHERE lease_pid IS NOT NULL').pluck().all() as number[];
  }

  /** Every lease of `pid`: its entries are free to push at once. */
  releasePushLeases(pid: number): number {
    return this.statement('UPDATE sync_outbox SET lease_until = NULL, lease_pid = NULL WHERE lease_pid = ?').run(pid).changes;
  }

  /**
   * `pid`'s lease on the entry given back: `untried` (nothing went out), `failed` (an attempt went
   * out and failed: counted), `sent` (what is left was edited since: its count starts again).
   */
  releasePush(id: string, pid: number, outcome: 'untried' | 'failed' | 'sent'): void {
    const attempts = outcome === 'untried' ? 'attempts' : outcome === 'failed' ? 'attempts + 1' : '0';
    this.statement(`UPDATE sync_outbox SET lease_until = NULL, lease_pid = NULL, attempts = ${attempts} WHERE label_report_id = ? AND lease_pid = ?`).run(
      id,
      pid,
    );
  }

  // Conflicts.

  addConflict(conflict: ConflictRecord): void {
    this.statement(
      `INSERT INTO sync_conflicts (id, label_report_id, field, kind, base, local, remote, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      conflict.id,
      conflict.labelReportId,
      conflict.field,
      conflict.kind,
      JSON.stringify(conflict.base),
      JSON.stringify(conflict.local),
      JSON.stringify(conflict.remote),
      conflict.at,
    );
  }

  /** In the order they were recorded: a pull records a page's conflicts within one millisecond. */
  conflicts(): ConflictRecord[] {
    return (this.statement('SELECT * FROM sync_conflicts ORDER BY at, rowid').all() as ConflictRow[]).map(toConflict);
  }

  conflict(id: string): ConflictRecord | undefined {
    const row = this.statement('SELECT * FROM sync_conflicts WHERE id = ?').get(id) as ConflictRow | undefined;
    return row && toConflict(row);
  }

  deleteConflict(id: string): void {
    this.statement('DELETE FROM sync_conflicts WHERE id = ?').run(id);
  }

  conflictCount(): number {
    return this.statement('SELECT count(*) FROM sync_conflicts').pluck().get() as number;
  }

  // Dead letters.

  addDeadLetter(letter: DeadLetterRecord): void {
    this.statement(
      'INSERT INTO sync_dead_letters (id, label_report_id, fields, status, message, at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(letter.id, letter.labelReportId, JSON.stringify(letter.fields), letter.status, letter.message, letter.at);
  }

  /** In the order they were recorded, as the conflicts. */
  deadLetters(): DeadLetterRecord[] {
    return (this.statement('SELECT * FROM sync_dead_letters ORDER BY at, rowid').all() as DeadLetterRow[]).map(toDeadLetter);
  }

  deadLetter(id: string): DeadLetterRecord | undefined {
    const row = this.statement('SELECT * FROM sync_dead_letters WHERE id = ?').get(id) as DeadLetterRow | undefined;
    return row && toDeadLetter(row);
  }

  deleteDeadLetter(id: string): void {
    this.statement('DELETE FROM sync_dead_letters WHERE id = ?').run(id);
  }

  deadLetterCount(): number {
    return this.statement('SELECT count(*) FROM sync_dead_letters').pluck().get() as number;
  }

  // Reports refused from the remote.

  /** Records why the report was not taken (the latest reason replaces an earlier one). */
  refuse(id: string, reason: string, at: string): void {
    this.statement(
      `INSERT INTO sync_refused (label_report_id, reason, at) VALUES (?, ?, ?)
       ON CONFLICT (label_report_id) DO UPDATE SET reason = excluded.reason, at = excluded.at`,
    ).run(id, reason, at);
  }

  forgetRefused(id: string): void {
    this.statement('DELETE FROM sync_refused WHERE label_report_id = ?').run(id);
  }

  /** The newest first. */
  refused(limit = -1): RefusedRecord[] {
    const rows = this.statement('SELECT label_report_id, reason, at FROM sync_refused ORDER BY at DESC, label_report_id LIMIT ?').all(limit) as {
      label_report_id: string;
      reason: string;
      at: string;
    }[];
    return rows.map((r) => ({ labelReportId: r.label_report_id, reason: r.reason, at: r.at }));
  }

  refusedIds(): string[] {
    return this.statement('SELECT label_report_id FROM sync_refused ORDER BY label_report_id').pluck().all() as string[];
  }

  refusedCount(): number {
    return this.statement('SELECT count(*) FROM sync_refused').pluck().get() as number;
  }

  private statement(sql: string): Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }
}

function toOutbox(row: OutboxRow): OutboxRecord {
  return { labelReportId: row.label_report_id, fields: JSON.parse(row.fields) as PendingFields, since: row.since, version: row.version };
}

function toConflict(row: ConflictRow): ConflictRecord {
  return {
    id: row.id,
    labelReportId: row.label_report_id,
    field: row.field,
    kind: row.kind,
    base: JSON.parse(row.base) as SyncValue,
    local: JSON.parse(row.local) as SyncValue,
    remote: JSON.parse(row.remote) as SyncValue,
    at: row.at,
  };
}

function toDeadLetter(row: DeadLetterRow): DeadLetterRecord {
  return {
    id: row.id,
    labelReportId: row.label_report_id,
    fields: JSON.parse(row.fields) as PendingFields,
    status: row.status,
    message: row.message,
    at: row.at,
  };
}
