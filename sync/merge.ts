/**
 * The per-field three-way merge of sync (decisions §5), as pure functions over the outbox's
 * pending fields: a field's base (its value before the first pending local edit), the local
 * value, and the remote one.
 */
import type { PendingFields } from '../db/sync-store';
import type { ConflictPolicy, SyncValue } from '../schema/sync';

export function sameValue(a: SyncValue, b: SyncValue): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

export interface FieldEdit {
  field: string;
  old: SyncValue;
  new: SyncValue;
}

/**
 * A local edit merged into a report's pending fields: a field's base stays the value before its
 * first pending edit, its value becomes the newest. A field edited back to its base has nothing
 * left to send.
 */
export function mergeLocalEdit(pending: PendingFields, edits: readonly FieldEdit[]): PendingFields {
  const merged: PendingFields = { ...pending };
  for (const edit of edits) {
    const base = Object.hasOwn(merged, edit.field) ? merged[edit.field].base : edit.old;
    if (sameValue(base, edit.new)) delete merged[edit.field];
    else merged[edit.field] = { base, value: edit.new };
  }
  return merged;
}

export interface FieldConflict {
  field: string;
  base: SyncValue;
  local: SyncValue;
  remote: SyncValue;
}

export interface RemoteMerge {
  /** Pending fields whose local value stays in the mirror over the remote one. */
  keepLocal: Record<string, SyncValue>;
  /** What stays pending. */
  pending: PendingFields;
  /** Fields both sides changed to different values. */
  conflicts: FieldConflict[];
}

/**
 * A pulled report met with the report's pending fields. Per field: the remote kept the base →
 * the local value stays, pending; the remote reached the local value → nothing left to send;
 * else both changed it differently: a conflict, which the policy decides. The remote value
 * wins by default (the local one is kept only in the conflict record); with 'local' the local
 * value stays pending, on the remote value as its new base, so the next pull that still shows
 * it does not see a conflict again.
 */
export function mergeRemote(pending: PendingFields, remoteValue: (field: string) => SyncValue, policy: ConflictPolicy): RemoteMerge {
  const outcome: RemoteMerge = { keepLocal: {}, pending: {}, conflicts: [] };
  for (const [field, { base, value }] of Object.entries(pending)) {
    const remote = remoteValue(field);
    if (sameValue(remote, base)) {
      outcome.keepLocal[field] = value;
      outcome.pending[field] = { base, value };
    } else if (!sameValue(remote, value)) {
      outcome.conflicts.push({ field, base, local: value, remote });
      if (policy === 'local') {
        outcome.keepLocal[field] = value;
        outcome.pending[field] = { base: remote, value };
      }
    }
  }
  return outcome;
}

/**
 * What stays pending once the remote accepted `sent`: a field edited again while the PATCH was
 * on its way stays, on the value sent as its new base; the others are done.
 */
export function afterPush(now: PendingFields, sent: PendingFields): PendingFields {
  const left: PendingFields = {};
  for (const [field, entry] of Object.entries(now)) {
    const was = sent[field];
    if (was === undefined) left[field] = entry;
    else if (!sameValue(entry.value, was.value)) left[field] = { base: was.value, value: entry.value };
  }
  return left;
}
