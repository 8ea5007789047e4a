/**
 * Reconciliation (docs/sync.md#pull): the full list of the ids and `updated` the remote
 * shows (output=minimal, paged by id) compared with the mirror. Reports missing here or held
 * at another `updated` are fetched whole; once the whole list has been read, mirrored reports
 * it did not name are removed (pending edits on them become `gone` conflicts). It catches what
 * the cursor cannot see: a report whose `updated` fell behind it, and access withdrawn.
 */
import { z } from 'zod';
import { describeZodError } from '../contract/zod-messages';
import { remoteMinimalSchema } from '../schema/sync';
import { refusalMessage, retrievePool, splitRetrieved, type CycleContext } from './context';
import { reconcileParameters } from './paging';
import { RemoteFailure } from './remote-client';

/** Minimal elements are small: pages this size keep the requests few. */
export const RECONCILE_PAGE_SIZE = 1000;

const minimalPageSchema = z.array(remoteMinimalSchema);

export async function reconcile(ctx: CycleContext): Promise<void> {
  const { service, remote } = ctx;
  const shown = new Set<string>();
  let afterId: string | null = null;
  // Every batch is awaited whole before the next: nothing is left queued when the loop ends.
  const pool = retrievePool(ctx);
  for (;;) {
    const page = await remote.list(reconcileParameters(afterId, RECONCILE_PAGE_SIZE));
    const parsed = minimalPageSchema.safeParse(page.data);
    if (!parsed.success) {
      throw new RemoteFailure('offline', `a list page from the remote is not what the label report interface answers: ${describeZodError(parsed.error, 'data')}`);
    }
    const rows = parsed.data;
    for (const row of rows) shown.add(row.id);
    const { reports, refused } = splitRetrieved(await pool.fetch(service.sync.outdated(rows)));
    if (reports.length > 0 || refused.length > 0) {
      const applied = await ctx.write(() => service.sync.applyRemote(reports, { companyId: ctx.companyId, policy: ctx.policy, refused }));
      for (const r of applied.refused) ctx.warn(refusalMessage(r));
    }
    if (rows.length < RECONCILE_PAGE_SIZE) break;
    afterId = rows[rows.length - 1].id;
    await ctx.checkpoint();
  }
  const gone = service.sync.mirroredIdsBetween(null, null).filter((id) => !shown.has(id));
  if (gone.length > 0) await ctx.write(() => service.sync.removeGone(gone));
  // A refused report the remote no longer shows is nothing to try again.
  const forgotten = service.sync.refusedIds().filter((id) => !shown.has(id));
  if (forgotten.length > 0) await ctx.write(() => service.sync.forgetRefused(forgotten));
}
