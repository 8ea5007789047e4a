/**
 * The pull's retrieves across pages: the next page's reports are fetched while this page's
 * last ones are still answered, yet pages are committed one by one, in order, each whole or not
 * at all; no report is fetched twice, not even the one two pages share at their boundary; and
 * a remote that answers 429 with a Retry-After pauses the retrieves instead of failing the cycle.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, SyncPair } from '../support/sync-pair';
import { plainReports } from '../support/sync-reports';

const PAGE = 10;
const RETRIEVE = { method: 'GET', path: /^\/v2\/labelReports\/[^?]+$/ };
const retrieveOf = (id: string) => ({ method: 'GET', path: `/v2/labelReports/${id}` });

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
    pair = await SyncPair.start({ reports, worker: { pageSize: PAGE } });
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
    pair = await SyncPair.start({ reports, worker: { pageSize: PAGE } });
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
    pair = await SyncPair.start({ reports, worker: { pageSize: PAGE } });
    const limited = pair.proxy.failNext(1, { kind: 'status', status: 429, headers: { 'retry-after': '1' } }, RETRIEVE);
    expect(await pair.cycle()).toEqual({ ok: true });
    expect(limited.fired).toBe(1);
    expect(pair.proxy.count(RETRIEVE)).toBe(reports.length + 1);
    expectCreatedOnce(reports.map((r) => r.id));
    await pair.expectMirrored();
  });

  it('stopped while the retrieves are paused: the cycle ends at once, the pages before stay committed', async () => {
    const reports = plainReports(2 * PAGE);
    pair = await SyncPair.start({ reports, worker: { pageSize: PAGE } });
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
