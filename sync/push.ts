/**
 * The push (decisions §5 "Local edits and push"): each pending entry as one PATCH of its
 * fields with absolute values, so a replay changes nothing. A 200's answer becomes the
 * mirror's state and the entry leaves the outbox; a refusal makes it a dead letter and the
 * rest goes on; anything else (offline, paused) ends the push with the entry kept.
 */
import { patchOf } from '../service/sync-fields';
import type { CycleContext } from './context';
import { RemoteFailure } from './remote-client';

/** Entries read from the outbox at a time. */
const BATCH = 50;

export async function push(ctx: CycleContext): Promise<void> {
  const { service, remote } = ctx;
  const options = { companyId: ctx.companyId, policy: ctx.policy };
  // An entry edited again while its PATCH was on its way waits for the next cycle, which the edit schedules.
  const sent = new Set<string>();
  for (;;) {
    const entries = service.sync.pendingEntries(BATCH + sent.size).filter((e) => !sent.has(e.labelReportId));
    if (entries.length === 0) return;
    for (const entry of entries) {
      sent.add(entry.labelReportId);
      const values = Object.fromEntries(Object.entries(entry.fields).map(([field, { value }]) => [field, value]));
      try {
        const answer = (await remote.patch(entry.labelReportId, patchOf(values))) ?? (await remote.retrieve(entry.labelReportId));
        await ctx.write(() => service.sync.pushAccepted(entry, answer, options));
      } catch (err) {
        if (!(err instanceof RemoteFailure) || err.kind !== 'refused') throw err;
        await ctx.write(() => service.sync.pushRefused(entry, err.status ?? 0, err.message));
      }
      await ctx.checkpoint();
    }
  }
}
