/**
 * The list's LabelDesk extension (docs/sync.md#pull): a first mirror asks each minimal page
 * with the reports whole beside it. From a LabelDesk remote it then makes no retrieve at all,
 * and what it mirrors is what retrieves would have brought, report for report; from a remote
 * that ignores the parameter (the vendor-shaped one, or one that does not know it) or refuses
 * it (400), every new report is retrieved, as before. A kill while a page carrying whole reports
 * is on its way loses nothing and applies nothing twice: the run again goes on from the cursor
 * and retrieves the reports of the pages lost.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { WHOLE_REPORTS_PARAMETER } from '../../query/list-query';
import { SyncPair } from '../support/sync-pair';
import { plainReports, variedReports } from '../support/sync-reports';

const PAGE = 10;
const RETRIEVE = { method: 'GET', path: /^\/v2\/labelReports\/[^?]+$/ };
const LIST = { method: 'GET', path: /^\/v2\/labelReports\?/ };
const PULL_PAGE = { method: 'GET', path: /^\/v2\/labelReports\?.*updated/ };
const asksWhole = (path: string) => new URLSearchParams(path.split('?')[1]).has(WHOLE_REPORTS_PARAMETER);

const pairs: SyncPair[] = [];
afterEach(async () => {
  for (const pair of pairs.splice(0)) await pair.close();
});

async function started(...args: Parameters<typeof SyncPair.start>): Promise<SyncPair> {
  const pair = await SyncPair.start(...args);
  pairs.push(pair);
  return pair;
}

/**
 * The plan of the select by which a new listing row's trigger counts its shipment group
 * (migration 030, keyed on shipment_ref since 035): on a database the mirror filled, statistics lead it to its index, where
 * without them it read every listing row of the company, for each report written.
 */
function shipmentGroupPlan(file: string): string {
  const key = (column: string) => `upper(replace(replace(replace(replace(replace(${column}, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), ''))`;
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM report_listing l WHERE l.ck = ? AND ${key('l.shipment_ref')} = ${key('?')} AND l.shipment_ref <> '' GROUP BY l.ck`).all(1, 'REF-r-1') as { detail: string }[];
    return rows.map((r) => r.detail).join('; ');
  } finally {
    db.close();
  }
}

describe('a first mirror with the whole reports of each page', () => {
  it('from a LabelDesk remote: every list page of the pull asks for them, and no report is retrieved', async () => {
    const reports = plainReports(3 * PAGE + 3);
    const pair = await started({ reports, worker: { pageSize: PAGE } });
    await pair.cycleOk();
    expect(pair.proxy.count(RETRIEVE)).toBe(0);
    const pulled = pair.proxy.seen(PULL_PAGE);
    expect(pulled.length).toBeGreaterThanOrEqual(4);
    for (const r of pulled) expect(asksWhole(r.path), r.path).toBe(true);
    for (const { id } of reports) expect(pair.localHistory(id).map((h) => h.kind), id).toEqual(['create']);
    await pair.expectMirrored();
    expect(shipmentGroupPlan(pair.localDbFile), 'how a new listing row finds its shipment group').toContain('USING INDEX listing_shipment (ck=? AND <expr>=?)');
  });

  it('mirrors each report as retrieves would: what GET /v2/labelReports/:id answers is the same on a desk that retrieved them', async () => {
    const { reports } = variedReports();
    const whole = await started({ reports, worker: { pageSize: 3 } });
    await whole.cycleOk();
    expect(whole.proxy.count(RETRIEVE)).toBe(0);

    const retrieving = await SyncPair.onRemote(whole.remote, whole.remoteKey, { pageSize: 3 });
    pairs.push(retrieving);
    retrieving.proxy.ignoreQueryParameter(WHOLE_REPORTS_PARAMETER);
    await retrieving.cycleOk();
    const ids = await whole.localIds();
    expect(await retrieving.localIds()).toEqual(ids);
    expect(retrieving.proxy.count(RETRIEVE)).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids) {
      const [a, b] = await Promise.all([whole.localReport(id), retrieving.localReport(id)]);
      expect(a, `report ${id} on the desk that took it whole`).toEqual(b);
    }
    await whole.expectMirrored();
  });

  it('from a remote that ignores the parameter: each new report is retrieved once', async () => {
    const reports = plainReports(2 * PAGE + 3);
    const pair = await started({ reports, worker: { pageSize: PAGE }, wholeReports: false });
    await pair.cycleOk();
    const retrieved = pair.proxy.seen(RETRIEVE).map((r) => decodeURIComponent(r.path.slice('/v2/labelReports/'.length)));
    expect(retrieved.sort()).toEqual(reports.map((r) => r.id));
    await pair.expectMirrored();
  });

  it('from the vendor-shaped remote, which answers the page without them: each new report is retrieved once', async () => {
    const reports = plainReports(2 * PAGE + 3);
    const pair = await started({ remote: 'vendor', reports, worker: { pageSize: PAGE } });
    await pair.cycleOk();
    expect(pair.proxy.seen(PULL_PAGE).some((r) => asksWhole(r.path))).toBe(true);
    expect(pair.proxy.count(RETRIEVE)).toBe(reports.length);
    await pair.expectMirrored();
  });

  it('from a remote that refuses the parameter (400): the page is asked again without it, the others never with it, each report retrieved', async () => {
    const reports = plainReports(2 * PAGE + 3);
    const pair = await started({ reports, worker: { pageSize: PAGE } });
    const refusal = { kind: 'status' as const, status: 400, body: { code: 'UNKNOWN_PARAMETER', message: `unknown query parameter '${WHOLE_REPORTS_PARAMETER}'` } };
    pair.proxy.failAll(refusal, { method: 'GET', path: new RegExp(`[?&]${WHOLE_REPORTS_PARAMETER}=`) });
    await pair.cycleOk();
    const lists = pair.proxy.seen(LIST);
    expect(lists.filter((r) => asksWhole(r.path))).toHaveLength(1);
    expect(lists.find((r) => asksWhole(r.path))?.outcome).toMatchObject({ kind: 'answered', status: 400, injected: true });
    expect(pair.proxy.count(RETRIEVE)).toBe(reports.length);
    await pair.expectMirrored();
  });

  it('killed while a page carrying whole reports is on its way: the pages before stay, the run again takes the rest, each report created once', { timeout: 120_000 }, async () => {
    const reports = plainReports(3 * PAGE);
    const pair = await started({ reports });
    pair.createLocalCompany();
    const args = ['--page-size', String(PAGE)];
    // The third page's answer is in from the remote, held before the desk has it.
    const held = pair.proxy.hold(PULL_PAGE, 'response', 3);
    const run = pair.spawnLocal(pair.commandArgs('sync', ['--once', ...args]));
    const ended = run.exited.then((end) => Promise.reject(new Error(`sync ended (${JSON.stringify(end)}) before the kill point:\n${run.stdout()}${run.stderr()}`)));
    await Promise.race([held.arrived, ended]);
    run.child.kill('SIGKILL');
    expect(await run.exited).toEqual({ code: null, signal: 'SIGKILL' });
    held.drop();

    const mirrored = await pair.localIds();
    expect(mirrored).toEqual((await pair.remoteIds()).slice(0, mirrored.length));
    expect(mirrored.length).toBeLessThan(3 * PAGE);
    const again = await pair.syncOnce(args);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    // Going on from its cursor, the pull lists normal pages and retrieves what it has not: the reports of the pages lost, once each.
    const retrieved = pair.proxy.seen(RETRIEVE).map((r) => decodeURIComponent(r.path.slice('/v2/labelReports/'.length)));
    expect(retrieved.sort()).toEqual(reports.map((r) => r.id).filter((id) => !mirrored.includes(id)));
    for (const { id } of reports) expect(pair.localHistory(id).map((h) => h.kind), id).toEqual(['create']);
    await pair.expectMirrored();
  });
});
