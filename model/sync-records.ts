/**
 * Sync's records (docs/sync.md) as its rules see them: pending fields, outbox entries, the pull
 * cursor, settings, the worker's saved state, conflicts and dead letters. db/sync-store.ts keeps
 * them; sync/ decides what they hold.
 */
import type { SyncState, SyncValue } from '../schema/sync';

/**
 * A pending field: its value before the first pending edit, the newest one, and the values sent
 * in PATCHes whose answer never came (absent when there are none).
 */
export interface PendingField {
  base: SyncValue;
  value: SyncValue;
  sent?: SyncValue[];
}
export type PendingFields = Record<string, PendingField>;

export interface OutboxRecord {
  labelReportId: string;
  fields: PendingFields;
  since: string;
  version: number;
}

/** An entry taken by the push queue: its attempts that failed on the way so far. */
export interface LeasedOutboxRecord extends OutboxRecord {
  attempts: number;
}

/** The highest remote `updated` applied, and the ids applied at it. */
export interface PullCursor {
  updated: string | null;
  ids: string[];
}

export interface SyncSettingsRecord {
  remoteUrl: string | null;
  companyId: string | null;
  cursor: PullCursor;
  lastReconcileAt: string | null;
}

export interface SyncStateRecord {
  state: SyncState;
  lastSuccessAt: string | null;
  lastError: { at: string; message: string } | null;
  nextAttemptAt: string | null;
}

export interface ConflictRecord {
  id: string;
  labelReportId: string;
  field: string;
  kind: 'field' | 'gone';
  base: SyncValue;
  local: SyncValue;
  remote: SyncValue;
  at: string;
}

export interface DeadLetterRecord {
  id: string;
  labelReportId: string;
  fields: PendingFields;
  status: number;
  message: string;
  at: string;
}

/** A report the remote sent that the mirror did not take, and why. */
export interface RefusedRecord {
  labelReportId: string;
  reason: string;
  at: string;
}

/** Whose figures a mirrored report shows: the remote's, or recalculated here after a local edit and not yet answered. */
export type MirrorFigures = 'remote' | 'local';
