/**
 * The per-field three-way merge of sync (docs/sync.md#local-edits-and-push), as pure functions over the outbox's
 * pending fields: a field's base (its value before the first pending local edit), the local
 * value, and the remote one.
 */
import type { PendingField, PendingFields } from '../model/sync-records';
import type { ConflictPolicy, SyncValue } from '../schema/sync';

export function sameValue(a: SyncValue, b: SyncValue): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

export interface FieldEdit {
  field: string;
  old: SyncValue;
  new: SyncValue;
}

function pendingField(base: SyncValue, value: SyncValue, sent: readonly SyncValue[] | undefined): PendingField {
  return sent && sent.length > 0 ? { base, value, sent: [...sent] } : { base, value };
}

function wasSent(field: PendingField, remote: SyncValue): boolean {
  return (field.sent ?? []).some((value) => sameValue(value, remote));
}

/**
 * A local edit merged into a report's pending fields: a field's base stays the value before its
 * first pending edit, its value becomes the newest. A field edited back to its base has nothing
 * left to send, unless a value sent for it may have arrived: then the base is sent again, or
 * the remote's showing that earlier value would overwrite the user's newest one.
 */
export function mergeLocalEdit(pending: PendingFields, edits: readonly FieldEdit[]): PendingFields {
  const merged: PendingFields = { ...pending };
  for (const edit of edits) {
    const prior = Object.hasOwn(merged, edit.field) ? merged[edit.field] : undefined;
    const base = prior ? prior.base : edit.old;
    if (sameValue(base, edit.new) && !prior?.sent?.length) delete merged[edit.field];
    else merged[edit.field] = pendingField(base, edit.new, prior?.sent);
  }
  return merged;
}

/**
 * The values of `fields` about to be sent in a PATCH are remembered on the pending entry before
 * the request leaves: its answer may never come (lost, timed out, the process killed) while the
 * remote applied it, and a later pull showing such a value is this desk's own push.
 */
export function markSent(pending: PendingFields, sent: Readonly<Record<string, SyncValue>>): PendingFields {
  const marked: PendingFields = { ...pending };
  for (const [field, value] of Object.entries(sent)) {
    const entry = marked[field];
    if (entry === undefined || wasSent(entry, value)) continue;
    marked[field] = pendingField(entry.base, entry.value, [...(entry.sent ?? []), value]);
  }
  return marked;
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
 * the remote shows a value this desk sent without hearing back → that push arrived: it becomes
 * the base and the newer local value stays pending (docs/sync.md#local-edits-and-push); else another writer changed
 * it differently: a conflict, which the policy decides. The remote value
 * wins by default (the local one is kept only in the conflict record); with 'local' the local
 * value stays pending, on the remote value as its new base, so the next pull that still shows
 * it does not see a conflict again.
 */
export function mergeRemote(pending: PendingFields, remoteValue: (field: string) => SyncValue, policy: ConflictPolicy): RemoteMerge {
  const outcome: RemoteMerge = { keepLocal: {}, pending: {}, conflicts: [] };
  for (const [field, entry] of Object.entries(pending)) {
    const { base, value } = entry;
    const remote = remoteValue(field);
    if (sameValue(remote, base)) {
      outcome.keepLocal[field] = value;
      outcome.pending[field] = entry;
    } else if (sameValue(remote, value)) {
      // The remote holds the local value: nothing left to send.
    } else if (wasSent(entry, remote)) {
      outcome.keepLocal[field] = value;
      outcome.pending[field] = pendingField(remote, value, entry.sent);
    } else {
      outcome.conflicts.push({ field, base, local: value, remote });
      if (policy === 'local') {
        outcome.keepLocal[field] = value;
        outcome.pending[field] = pendingField(remote, value, entry.sent);
      }
    }
  }
  return outcome;
}

/**
 * What stays pending once the remote accepted `sent`: a field edited again while the PATCH was
 * on its way stays, on the value sent as its new base; the others are done. The remote now holds
 * what was sent, so earlier unanswered sends no longer explain anything it shows.
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
