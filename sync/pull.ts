/**
 * The pull (decisions §5 "Pull"): what changed on the remote since the cursor, page by page,
 * each page and the cursor that covers it committed in one transaction, so a kill at any
 * moment loses nothing and applies nothing twice. A report new to the mirror is fetched whole
 * with retrieve, as the list shows only part of its label. The next page's list is asked for
 * as soon as a page's list has arrived (where it starts depends on that list alone), so the
 * remote answers it while this page's reports are fetched and written; which of its reports
 * to fetch is decided only once this page is committed, so nothing is fetched twice. A kill
 * leaves a prefix of the pages committed.
 */
import { z } from 'zod';
import { describeZodError } from '../contract/zod-messages';
import { remoteMinimalSchema, type RemoteReport } from '../schema/sync';
import { refusalMessage, retrieveAll, type CycleContext, type Retrieved } from './context';
import { isRefused, readRemoteReport, type RefusedReport } from './remote-checks';
import { advanceCursor, firstQuery, listParameters, nextQuery, type Listed, type PageQuery } from './paging';
import { RemoteFailure, type RemotePage } from './remote-client';

const listedSchema = z.array(remoteMinimalSchema);

/** A list page as it arrived: what paging needs of every element, and the elements. */
interface ListedPage {
  query: PageQuery;
  listed: Listed[];
  totalDocuments: number;
  data: unknown[];
}

export async function pull(ctx: CycleContext): Promise<void> {
  const { service, pageSize } = ctx;
  let cursor = service.sync.settings().cursor;
  let done = 0;
  let total = 0;
  let listing: Promise<ListedPage> | null = listPage(ctx, firstQuery(cursor, ctx.overlapSeconds));
  while (listing) {
    const page: ListedPage = await listing;
    const next = nextQuery(page.query, page.listed, pageSize);
    listing = next && listPage(ctx, next);
    // Should this page fail, the list asked ahead is abandoned without an unheard rejection.
    listing?.catch(() => undefined);

    const { reports, refused } = await reportsOf(ctx, page);
    // A tie page counts only its instant; the bound's count covers it already.
    if (page.query.kind !== 'tie') total = done + page.totalDocuments;
    cursor = advanceCursor(cursor, page.listed);
    const applied = await ctx.write(() => service.sync.applyRemote(reports, { companyId: ctx.companyId, policy: ctx.policy, cursor, refused }));
    for (const r of applied.refused) ctx.warn(refusalMessage(r));
    done += page.listed.length;
    ctx.progress(Math.min(done, total), total);
    await ctx.checkpoint();
  }
}

async function listPage(ctx: CycleContext, query: PageQuery): Promise<ListedPage> {
  const page: RemotePage = await ctx.remote.list(listParameters(query, ctx.pageSize));
  return { query, listed: readListed(page.data), totalDocuments: page.totalDocuments, data: page.data };
}

/**
 * The reports of a page the mirror does not hold at their `updated`: those it has stored come
 * from the page, new ones whole from retrieve (their list elements are not even read). Those
 * that cannot be taken are named with why, to be recorded with the page.
 */
async function reportsOf(ctx: CycleContext, page: ListedPage): Promise<Retrieved> {
  const { service, remote } = ctx;
  const { listed } = page;
  const outdated = new Set(service.sync.outdated(listed));
  const stored = service.sync.storedIds([...outdated]);
  const fromPage = new Map<string, RemoteReport>();
  const refused: RefusedReport[] = [];
  page.data.forEach((element, i) => {
    const { id } = listed[i];
    if (!outdated.has(id) || !stored.has(id)) return;
    const report = readRemoteReport(id, element);
    if (isRefused(report)) refused.push(report);
    else fromPage.set(id, report);
  });
  const retrieved = await retrieveAll(remote, [...outdated].filter((id) => !stored.has(id)));
  const fetched = new Map(retrieved.reports.map((r) => [r.id, r]));
  const reports = listed.flatMap(({ id }) => {
    const report = fromPage.get(id) ?? fetched.get(id);
    fromPage.delete(id);
    fetched.delete(id);
    return report ? [report] : [];
  });
  return { reports, refused: [...refused, ...retrieved.refused] };
}

function readListed(data: unknown[]): Listed[] {
  const parsed = listedSchema.safeParse(data);
  if (!parsed.success) {
    throw new RemoteFailure('offline', `a list page from the remote is not what the label report interface answers: ${describeZodError(parsed.error, 'data')}`);
  }
  return parsed.data;
}
