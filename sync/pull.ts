/**
 * The pull (decisions §5 "Pull"): what changed on the remote since the cursor, page by page,
 * each page and the cursor that covers it committed in one transaction, so a kill at any
 * moment loses nothing and applies nothing twice. A report new to the mirror is fetched whole
 * with retrieve, as the list shows only part of its label.
 */
import { describeZodError } from '../contract/zod-messages';
import { remoteMinimalSchema, type RemoteReport } from '../schema/sync';
import { z } from 'zod';
import { readElement, retrieveAll, type CycleContext } from './context';
import { advanceCursor, firstQuery, listParameters, nextQuery, type Listed, type PageQuery } from './paging';
import { RemoteFailure } from './remote-client';

const listedSchema = z.array(remoteMinimalSchema);

export async function pull(ctx: CycleContext): Promise<void> {
  const { service, remote, pageSize } = ctx;
  let cursor = service.sync.settings().cursor;
  let query: PageQuery | null = firstQuery(cursor, ctx.overlapSeconds);
  let done = 0;
  let total = 0;
  while (query) {
    const page = await remote.list(listParameters(query, pageSize));
    const listed = readListed(page.data);
    // A tie page counts only its instant; the bound's count covers it already.
    if (query.kind !== 'tie') total = done + page.totalDocuments;

    const outdated = new Set(service.sync.outdated(listed));
    const elements = page.data.map((e, i) => (outdated.has(listed[i].id) ? readElement(ctx, e) : null));
    const known = service.sync.storedIds([...outdated]);
    const wanted = elements.filter((r): r is RemoteReport => r !== null);
    const fetched = new Map((await retrieveAll(remote, wanted.filter((r) => !known.has(r.id)).map((r) => r.id))).map((r) => [r.id, r]));
    const reports = wanted.flatMap((r) => (known.has(r.id) ? [r] : (fetched.get(r.id) ?? [])));

    cursor = advanceCursor(cursor, listed);
    const applied = await ctx.write(() => service.sync.applyRemote(reports, { companyId: ctx.companyId, policy: ctx.policy, cursor }));
    for (const { message } of applied.unusable) ctx.warn(message);
    done += listed.length;
    ctx.progress(Math.min(done, total), total);
    query = nextQuery(query, listed, pageSize);
    await ctx.checkpoint();
  }
}

function readListed(data: unknown[]): Listed[] {
  const parsed = listedSchema.safeParse(data);
  if (!parsed.success) {
    throw new RemoteFailure('offline', `a list page from the remote is not what the label report interface answers: ${describeZodError(parsed.error, 'data')}`);
  }
  return parsed.data;
}
