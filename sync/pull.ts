/**
 * The pull (docs/sync.md#pull): what changed on the remote since the cursor, page by page,
 * each page and the cursor that covers it committed in one transaction, so a kill at any
 * moment loses nothing and applies nothing twice. A report new to the mirror is fetched whole
 * with retrieve, as the list shows only part of its label.
 *
 * The next page's list is asked for as soon as a page's list has arrived (where it starts
 * depends on that list alone), and once it is in, the retrieves of its reports start in the
 * retrieve pool behind this page's, so the pool does not run dry at every page's end. Which of
 * a report's versions to fetch depends on what the mirror holds, and the page before may still
 * change that for the reports both pages name (a page starts at the `updated` the page before
 * ended on): those are decided only once the page before is committed, so nothing is fetched
 * twice. The others no uncommitted page names, so what the mirror holds of them is settled
 * already. A kill leaves a prefix of the pages committed; a retrieve that fails fails its page
 * before any of it is written.
 *
 * A list page of `output=normal` carries every report's figures and datapoints: several times
 * what the retrieves of its new reports carry again, and most of what the remote spends on a
 * first mirror. Its elements serve only reports the mirror holds already, so in a pull from
 * the beginning (no cursor yet: a first mirror) the first page, and each page that follows one
 * whose reports were all new to the mirror, is asked for as `output=minimal`; should such a page
 * name reports the mirror holds after all (it was filled from another address), they are
 * retrieved whole with the new ones. A pull that goes on from a cursor lists normal pages: a
 * report committed before is never fetched whole again, however it changed meanwhile.
 *
 * A minimal page is asked for with the reports whole beside it (the LabelDesk extension of
 * remote-client.ts): a LabelDesk remote answers in one request what would otherwise take a
 * retrieve per report, each checked as a retrieve is. Only the reports the answer leaves out
 * (a remote without the extension leaves out all) go to the pool.
 */
import { z } from 'zod';
import { describeZodError } from '../contract/zod-messages';
import { remoteMinimalSchema, type RemoteReport } from '../schema/sync';
import { refusalMessage, retrievePool, splitRetrieved, type CycleContext, type Retrieved } from './context';
import { isRefused, readRemoteReport, type RefusedReport } from './remote-checks';
import { advanceCursor, firstQuery, listParameters, nextQuery, type Listed, type PageQuery } from './paging';
import { RemoteFailure, type RemotePage } from './remote-client';
import type { Retrieval, RetrievePool } from './retrieve-pool';

const listedSchema = z.array(remoteMinimalSchema);

type ListOutput = 'normal' | 'minimal';

/** A list page as it arrived: what paging needs of every element, and the elements. */
interface ListedPage {
  query: PageQuery;
  output: ListOutput;
  listed: Listed[];
  totalDocuments: number;
  data: unknown[];
  /** The reports the remote sent whole beside the page, by id (none when it has not the extension). */
  wholes: ReadonlyMap<string, unknown>;
}

/** A page whose reports are on their way: from its list elements, and from the pool. */
interface PlannedPage {
  page: ListedPage;
  /** Its reports in list order (and those refused), once those decided after the page before was committed are asked for too. */
  reports(): Promise<Retrieved>;
  /** Every report it names is new to the mirror (as far as decided when its list arrived). */
  allNew: boolean;
}

export async function pull(ctx: CycleContext): Promise<void> {
  const { service, pageSize } = ctx;
  const pool = retrievePool(ctx);
  try {
    let cursor = service.sync.settings().cursor;
    let done = 0;
    let total = 0;
    const first = firstQuery(cursor, ctx.overlapSeconds);
    const fromTheBeginning = first.kind === 'all';
    let current = plan(ctx, pool, await listPage(ctx, first, fromTheBeginning ? 'minimal' : 'normal'), new Set());
    for (;;) {
      const { page } = current;
      const next = nextQuery(page.query, page.listed, pageSize);
      const uncommitted = new Set(page.listed.map((r) => r.id));
      const ahead = next && listPage(ctx, next, fromTheBeginning && current.allNew ? 'minimal' : 'normal').then((nextPage) => plan(ctx, pool, nextPage, uncommitted));
      // Should this page fail, the page asked ahead is abandoned without an unheard rejection.
      ahead?.catch(() => undefined);

      const { reports, refused } = await current.reports();
      // A tie page counts only its instant; the bound's count covers it already.
      if (page.query.kind !== 'tie') total = done + page.totalDocuments;
      cursor = advanceCursor(cursor, page.listed);
      const applied = await ctx.write(() => service.sync.applyRemote(reports, { companyId: ctx.companyId, policy: ctx.policy, cursor, refused }));
      for (const r of applied.refused) ctx.warn(refusalMessage(r));
      done += page.listed.length;
      ctx.progress(Math.min(done, total), total);
      await ctx.checkpoint();
      await giveWay();
      if (!ahead) break;
      current = await ahead;
    }
  } finally {
    pool.close();
  }
}

/**
 * Turns of the event loop left to the service after a page's write. Its requests take several
 * (the client gate runs a read in a turn after the one it arrived in, the answer is written in
 * another), and with the next page's reports already in, the next write would otherwise come
 * between them: a list request of a desk would wait out two or three page writes instead of one.
 */
const TURNS_GIVEN_WAY = 4;

async function giveWay(): Promise<void> {
  for (let turn = 0; turn < TURNS_GIVEN_WAY; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}

async function listPage(ctx: CycleContext, query: PageQuery, output: ListOutput): Promise<ListedPage> {
  // Whole reports are what a minimal page's reports are retrieved for; a normal page serves the stored ones itself.
  const page: RemotePage = await ctx.remote.list({ ...listParameters(query, ctx.pageSize), output }, { wholeReports: output === 'minimal' });
  return { query, output, listed: readListed(page.data), totalDocuments: page.totalDocuments, data: page.data, wholes: wholesById(page.wholeReports ?? []) };
}

/** Whole reports by the id each names; one without an id, or a second of the same id, is not taken (its report is retrieved). */
function wholesById(wholes: readonly unknown[]): Map<string, unknown> {
  const byId = new Map<string, unknown>();
  const twice = new Set<string>();
  for (const whole of wholes) {
    const id = whole !== null && typeof whole === 'object' ? (whole as { id?: unknown }).id : undefined;
    if (typeof id !== 'string') continue;
    if (byId.has(id)) twice.add(id);
    byId.set(id, whole);
  }
  for (const id of twice) byId.delete(id);
  return byId;
}

/**
 * The reports of a page the mirror does not hold at their `updated`: those it has stored come
 * from the page (from the pool too when the page is minimal), new ones whole from the page's
 * whole reports or else the pool (their list elements are not even read). Those of `uncommitted` (named by a page not yet
 * committed) are decided when `reports()` is called, which the pull does only once that page
 * is committed; the others at once. Those that cannot be taken are named with why, to be
 * recorded with the page.
 */
function plan(ctx: CycleContext, pool: RetrievePool, page: ListedPage, uncommitted: ReadonlySet<string>): PlannedPage {
  const fromPage = new Map<string, RemoteReport>();
  const refused: RefusedReport[] = [];
  const elements = new Map<string, unknown>();
  page.data.forEach((element, i) => elements.set(page.listed[i].id, element));
  const now = page.listed.filter((r) => !uncommitted.has(r.id));
  const later = page.listed.filter((r) => uncommitted.has(r.id));

  /** Reads what the mirror holds of `rows`: the stored ones come from their elements, the new ones go to the pool. */
  const decide = (rows: readonly Listed[]): { allNew: boolean; fetching: Promise<Retrieval[]> } => {
    if (rows.length === 0) return { allNew: true, fetching: Promise.resolve([]) };
    const { service } = ctx;
    const outdated = service.sync.outdated(rows);
    const stored = service.sync.storedIds(outdated);
    const allNew = outdated.length === rows.length && stored.size === 0;
    // A minimal element is no report: the stored ones are retrieved too.
    if (page.output === 'minimal') stored.clear();
    for (const id of outdated) {
      if (!stored.has(id)) continue;
      const report = readRemoteReport(id, elements.get(id));
      if (isRefused(report)) refused.push(report);
      else fromPage.set(id, report);
    }
    // The ones the page carries whole are read as their retrieves would be; the others go to the pool.
    const retrieving: string[] = [];
    for (const id of outdated) {
      if (stored.has(id)) continue;
      if (!page.wholes.has(id)) {
        retrieving.push(id);
        continue;
      }
      const report = readRemoteReport(id, page.wholes.get(id));
      if (isRefused(report)) refused.push(report);
      else fromPage.set(id, report);
    }
    const fetching = pool.fetch(retrieving);
    // Awaited by reports(); a failure before then is not unheard.
    fetching.catch(() => undefined);
    return { allNew, fetching };
  };

  // The reports it shares with the page before were new to the mirror too, or that page would not have been.
  const first = decide(now);
  return {
    page,
    allNew: first.allNew,
    async reports() {
      const second = decide(later);
      const retrieved = splitRetrieved([...(await first.fetching), ...(await second.fetching)]);
      const fetched = new Map(retrieved.reports.map((r) => [r.id, r]));
      const reports = page.listed.flatMap(({ id }) => {
        const report = fromPage.get(id) ?? fetched.get(id);
        fromPage.delete(id);
        fetched.delete(id);
        return report ? [report] : [];
      });
      return { reports, refused: [...refused, ...retrieved.refused] };
    },
  };
}

function readListed(data: unknown[]): Listed[] {
  const parsed = listedSchema.safeParse(data);
  if (!parsed.success) {
    throw new RemoteFailure('offline', `a list page from the remote is not what the label report interface answers: ${describeZodError(parsed.error, 'data')}`);
  }
  return parsed.data;
}
