/**
 * The push (decisions §5 "Local edits and push"): each pending entry as one PATCH of its
 * fields with absolute values, so a replay changes nothing. A 200's answer becomes the
 * mirror's state and the entry leaves the outbox; a refusal makes it a dead letter and the
 * rest goes on; anything else (offline, paused) ends the push with the entry kept, unless the
 * PATCH may be sent again at once (see `send`).
 */
import type { LabelReportPatch } from '../schema/report';
import type { RemoteReport } from '../schema/sync';
import { patchOf } from './fields';
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
        await ctx.write(() => service.sync.pushSending(entry, values));
        const answer = (await send(ctx, entry.labelReportId, patchOf(values))) ?? (await remote.retrieve(entry.labelReportId));
        await ctx.write(() => service.sync.pushAccepted(entry, answer, options));
      } catch (err) {
        if (!(err instanceof RemoteFailure) || err.kind !== 'refused') throw err;
        await ctx.write(() => service.sync.pushRefused(entry, err.status ?? 0, err.message));
      }
      await ctx.checkpoint();
    }
  }
}

/**
 * One PATCH. After a transient failure it is sent again inside the cycle only while the remote
 * still shows the report at the `updated` the mirror holds: the lost request then changed
 * nothing there, and no remote change made since the pull is overwritten. Otherwise (the
 * PATCH may have arrived with its answer lost, or someone edited the report) the failure ends
 * the cycle, and the next one pulls before it sends.
 */
async function send(ctx: CycleContext, id: string, body: LabelReportPatch): Promise<RemoteReport | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.remote.patch(id, body);
    } catch (err) {
      if (!(err instanceof RemoteFailure) || !(await ctx.retryWait(attempt, err))) throw err;
      const shown = await ctx.remote.retrieve(id);
      if (!shown || ctx.service.sync.outdated([shown]).length > 0) throw err;
    }
  }
}
