/**
 * The pull's retrieves across pages: the next page's reports are fetched while this page's
 * last ones are still answered, yet pages are committed one by one, in order, each whole or not
 * at all; no report is fetched twice, not even the one two pages share at their boundary; and
 * a remote that answers 429 with a Retry-After pauses the retrieves instead of failing the cycle.
 * The remote answers without the list's extension of whole reports (sync-pair.ts), so every
 * new report is retrieved; test/sync/whole-reports.test.ts has the pull with it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeReport } from '../support/service-fixture';
import { eventually, SyncPair } from '../support/sync-pair';
import { at, plainReports, putReports } from '../support/sync-reports';

const PAGE = 10;
const RETRIEVE = { method: 'GET', path: /^\/v2\/labelReports\/[^?]+$/ };
const retrieveOf = (id: string) => ({ method: 'GET', path: `/v2/labelReports/${id}` });
/** A pull's list pages name `updated` (in their order or filter); a reconciliation's do not. */
const PULL_PAGE = { method: 'GET', path: /^\/v2\/labelReports\?.*updated/ };
const outputOf = (path: string) => new URLSearchParams(path.split('?')[1]).get('output');

let pair: SyncPair;
afterEach(async () => {
  await pair?.close();
});

function retrievesById(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of pair.proxy.seen(RETRIEVE)) {
    const id = decodeURIComponent(r.path.slice('/v2/labelReports/'.length));
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

function expectCreatedOnce(ids: readonly string[]): void {
  for (const id of ids) expect(pair.localHistory(id).filter((h) => h.kind === 'create'), id).toHaveLength(1);
}

describe('retrieves across pages', () => {
  it('the next page is fetched while this one is still answered, but committed only after it; nothing is fetched twice', async () => {
    const reports = plainReports(3 * PAGE);
    pair = await SyncPair.start({ reports, worker: { pageSize: PAGE }, wholeReports: false });
    // The first page's last report, held at the remote's door.
    const held = pair.proxy.hold(retrieveOf('r-009'));
    const cycle = pair.cycle();
    await held.arrived;
    // Retrieves of the second page arrive while the first is not complete, so not committed.
    await pair.proxy.waitFor(RETRIEVE, PAGE + 1);
    expect(retrievesById().has('r-010')).toBe(true);
    expect(await pair.localIds()).toEqual([]);
    expect(pair.local.service.sync.settings().cursor.updated).toBeNull();
    held.release();
    expect(await cycle).toEqual({ ok: true });

    // The second page starts at the first page's last `updated` and names its report again; that one was not fetched again.
    const counts = retrievesById();
    expect([...counts.keys()].sort()).toEqual(reports.map((r) => r.id));
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expectCreatedOnce(reports.map((r) => r.id));
    await pair.expectMirrored();
  });

  it('a retrieve failing for good in the second page: the first page is committed, nothing of the second; the next cycle fetches only what is missing', async () => {
    const reports = plainReports(3 * PAGE);
    pair = await SyncPair.start({ reports, worker: { pageSize: PAGE }, wholeReports: false });
    const refusal = pair.proxy.failAll({ kind: 'status', status: 400, body: { message: 'refused for the test' } }, retrieveOf('r-014'));
    const outcome = await pair.cycle();
    expect(outcome).toMatchObject({ ok: false });
    expect(await pair.localIds()).toEqual(reports.slice(0, PAGE).map((r) => r.id));
    expect(pair.local.service.sync.settings().cursor.updated).toBe(reports[PAGE - 1].updated);
    for (const id of reports.slice(PAGE).map((r) => r.id)) expect(pair.localHistory(id), id).toEqual([]);

    refusal.remove();
    const fetchedBefore = retrievesById();
    await pair.cycleOk();
    const counts = retrievesById();
    for (const { id } of reports.slice(0, PAGE)) expect(counts.get(id), `fetches of ${id}, committed before`).toBe(1);
    for (const [id, n] of counts) expect(n - (fetchedBefore.get(id) ?? 0), `fetches of ${id} in the second cycle`).toBeLessThanOrEqual(1);
    expectCreatedOnce(reports.map((r) => r.id));
    await pair.expectMirrored();
  });

  it('a 429 with a Retry-After of a second pauses the retrieves and the cycle completes, where a read retry would have given it up', async () => {
    const reports = plainReports(2 * PAGE);
    pair = await SyncPair.start({ reports, worker: { pageSize: PAGE }, wholeReports: false });
    const limited = pair.proxy.failNext(1, { kind: 'status', status: 429, headers: { 'retry-after': '1' } }, RETRIEVE);
    expect(await pair.cycle()).toEqual({ ok: true });
    expect(limited.fired).toBe(1);
    expect(pair.proxy.count(RETRIEVE)).toBe(reports.length + 1);
    expectCreatedOnce(reports.map((r) => r.id));
    await pair.expectMirrored();
  });

  it('a first mirror lists minimal pages, as it retrieves every report anyway; a pull from the cursor lists normal ones and takes the changes from them', async () => {
    const reports = plainReports(2 * PAGE);
    pair = await SyncPair.start({ reports, worker: { pageSize: PAGE }, wholeReports: false });
    await pair.cycleOk();
    const firstPull = pair.proxy.seen(PULL_PAGE);
    expect(firstPull.length).toBeGreaterThanOrEqual(2);
    expect(firstPull.map((r) => outputOf(r.path))).toEqual(firstPull.map(() => 'minimal'));
    expect([...retrievesById().values()]).toEqual(reports.map(() => 1));
    await pair.expectMirrored();

    pair.proxy.clearLog();
    await pair.remoteEdit('r-004', { labelReference: 'changed on the remote' });
    await pair.remoteEdit('r-017', { hasFlag: true });
    await pair.cycleOk();
    const incremental = pair.proxy.seen(PULL_PAGE).map((r) => outputOf(r.path));
    expect(incremental.length).toBeGreaterThan(0);
    expect(incremental).toEqual(incremental.map(() => 'normal'));
    expect(pair.proxy.count(RETRIEVE)).toBe(0);
    expect((await pair.localReport('r-004')).labelReference).toBe('changed on the remote');
    await pair.expectMirrored();
  });

  it('a minimal page that names a report the mirror holds at another `updated` retrieves it whole', async () => {
    const reports = plainReports(2 * PAGE);
    pair = await SyncPair.start({ reports, worker: { pageSize: PAGE }, wholeReports: false });
    await pair.cycleOk();
    // Changed on the remote at an instant inside the first page; the remote's address written
    // otherwise forgets the cursor, so the next pull starts from the beginning with a minimal page.
    putReports(pair.remote.service, [makeReport('r-003', { updated: at(3.5), labelReference: 'rewritten in place' })]);
    pair.proxy.clearLog();
    await pair.startWorker({ remoteUrl: `${pair.proxy.url}/` });
    await pair.cycleOk();
    expect(outputOf(pair.proxy.seen(PULL_PAGE)[0].path)).toBe('minimal');
    expect([...retrievesById()]).toEqual([['r-003', 1]]);
    expect((await pair.localReport('r-003')).labelReference).toBe('rewritten in place');
    await pair.expectMirrored();
  });

  it('stopped while the retrieves are paused: the cycle ends at once, the pages before stay committed', async () => {
    const reports = plainReports(2 * PAGE);
    pair = await SyncPair.start({ reports, worker: { pageSize: PAGE }, wholeReports: false });
    // The second page's retrieves meet a remote asking for a long (but not too long) pause.
    const firstPage = new Set(reports.slice(0, PAGE).map((r) => r.id));
    const limited = pair.proxy.failAll(
      { kind: 'status', status: 429, headers: { 'retry-after': '50' } },
      { method: 'GET', path: new RegExp(`^/v2/labelReports/(?!(${[...firstPage].join('|')})$)[^?]+$`) },
    );
    const worker = await pair.startWorker();
    const cycle = worker.runCycle();
    await eventually(() => expect(limited.fired).toBeGreaterThan(0));
    // The pause holds back the second page only: the first is committed meanwhile.
    await eventually(async () => expect(await pair.localIds()).toEqual([...firstPage]));
    const asked = pair.proxy.count(RETRIEVE);
    await worker.stop();
    expect(await cycle).toMatchObject({ ok: false });
    expect(await pair.localIds()).toEqual([...firstPage]);
    expect(pair.proxy.count(RETRIEVE)).toBe(asked);
  });
});
