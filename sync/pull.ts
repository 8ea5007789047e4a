/**
 * The pull (decisions §5 "Pull"): what changed on the remote since the cursor, page by page,
 * each page and the cursor that covers it committed in one transaction, so a kill at any
 * moment loses nothing and applies nothing twice. A report new to the mirror is fetched whole
 * with retrieve, as the list shows only part of its label. The next page is asked for only once
 * the previous one is committed, so a kill between the two leaves exactly the committed pages.
 */
import { z } from 'zod';
import { describeZodError } from '../contract/zod-messages';
import { remoteMinimalSchema, type RemoteReport } from '../schema/sync';
import { readElement, retrieveAll, type CycleContext } from './context';
import { advanceCursor, firstQuery, listParameters, nextQuery, type Listed, type PageQuery } from './paging';
import { RemoteFailure } from './remote-client';

const listedSchema = z.array(remoteMinimalSchema);

/** A page as fetched: what paging needs of every element, and the reports to write. */
interface FetchedPage {
  query: PageQuery;
  listed: Listed[];
  totalDocuments: number;
  reports: RemoteReport[];
}

export async function pull(ctx: CycleContext): Promise<void> {
  const { service, pageSize } = ctx;
  let cursor = service.sync.settings().cursor;
  let done = 0;
  let total = 0;
  let query: PageQuery | null = firstQuery(cursor, ctx.overlapSeconds);
  while (query) {
    const page = await fetchPage(ctx, query);
    // A tie page counts only its instant; the bound's count covers it already.
    if (page.query.kind !== 'tie') total = done + page.totalDocuments;
    cursor = advanceCursor(cursor, page.listed);
    const applied = await ctx.write(() => service.sync.applyRemote(page.reports, { companyId: ctx.companyId, policy: ctx.policy, cursor }));
    for (const { message } of applied.unusable) ctx.warn(message);
    done += page.listed.length;
    ctx.progress(Math.min(done, total), total);
    query = nextQuery(page.query, page.listed, pageSize);
    await ctx.checkpoint();
  }
}

/**
 * One list page, and the reports of it the mirror does not hold at their `updated`: those it
 * has stored come from the page, new ones whole from retrieve (their list elements are not
 * even read).
 */
async function fetchPage(ctx: CycleContext, query: PageQuery): Promise<FetchedPage> {
  const { service, remote } = ctx;
  const page = await remote.list(listParameters(query, ctx.pageSize));
  const listed = readListed(page.data);
  const outdated = new Set(service.sync.outdated(listed));
  const stored = service.sync.storedIds([...outdated]);
  const fromPage = new Map<string, RemoteReport>();
  page.data.forEach((element, i) => {
    const { id } = listed[i];
    if (!outdated.has(id) || !stored.has(id)) return;
    const report = readElement(ctx, element);
    if (report) fromPage.set(id, report);
  });
  const fetched = new Map((await retrieveAll(remote, [...outdated].filter((id) => !stored.has(id)))).map((r) => [r.id, r]));
  const reports = listed.flatMap(({ id }) => {
    const report = fromPage.get(id) ?? fetched.get(id);
    fromPage.delete(id);
    fetched.delete(id);
    return report ? [report] : [];
  });
  return { query, listed, totalDocuments: page.totalDocuments, reports };
}

function readListed(data: unknown[]): Listed[] {
  const parsed = listedSchema.safeParse(data);
  if (!parsed.success) {
    throw new RemoteFailure('offline', `a list page from the remote is not what the label report interface answers: ${describeZodError(parsed.error, 'data')}`);
  }
  return parsed.data;
}
