/**
 * The sync outbox's side of the write path (docs/sync.md#local-edits-and-push): a change an
 * API key makes to a mirrored report is recorded, in the transaction of the change (it listens
 * to the writer), as the report's one pending entry, per field its base and its newest value.
 */
import type { DataStore } from '../db/data-store';
import type { ReportChange } from '../service/report-writer';
import { mergeLocalEdit } from './merge';
import { syncEditsOf } from './fields';

export class SyncOutbox {
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly data: DataStore,
    private readonly now: () => Date,
  ) {}

  /** The writer's listener, inside the change's transaction. Pulls (actor sync) never reach the outbox: no echo. */
  recordChange({ kind, before, after, actor, changes }: ReportChange): void {
    if (kind !== 'update' || actor.kind !== 'apiKey' || !after) return;
    const { sync } = this.data;
    if (!sync.isMirrored(after.id)) return;
    // Recalculated here (a limit, trim or alert rule edited): the desk says so until the remote's figures come back.
    if (before && after.figures !== before.figures) sync.setMirrorFigures(after.id, 'local');
    const { companyId } = sync.settings();
    if (companyId === null) return;
    const edits = syncEditsOf(changes, companyId);
    if (edits.length === 0) return;
    const entry = sync.outboxEntry(after.id);
    sync.putOutbox({
      labelReportId: after.id,
      fields: mergeLocalEdit(entry?.fields ?? {}, edits),
      since: entry?.since ?? this.now().toISOString(),
      version: (entry?.version ?? 0) + 1,
    });
    this.notify();
  }

  /** `listener` runs after a local edit was queued (the worker pushes about a second later). Returns its removal. */
  onQueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Listeners only schedule their work, which runs after the transaction. */
  notify(): void {
    for (const listener of this.listeners) listener();
  }
}
