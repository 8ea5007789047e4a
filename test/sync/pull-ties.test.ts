/**
 * Three pages of reports that share one `updated` (an import writes many at one instant): the
 * pull pages through the tie by id, every report arrives, and the cycle ends. Run after the
 * start's reconciliation, so the pull alone has to bring them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { at, plainReports, putReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  const PAGE = 10;
  let pair: SyncPair;
  beforeAll(async () => {
    pair = await SyncPair.start({ remote, reports: plainReports(3, { prefix: 'before' }), worker: { pageSize: PAGE, reconcileEverySeconds: 86_400 } });
    await pair.cycleOk();
  });
  afterAll(async () => {
    await pair?.close();
  });

  describe('reports sharing one `updated`', () => {
    it('three pages of them all arrive through the pull, and the cycle ends', async () => {
      const tied = plainReports(3 * PAGE, { prefix: 'tie', from: 100, step: 0 });
      expect(new Set(tied.map((r) => r.updated)).size).toBe(1);
      putReports(pair.remote.service, tied);
      pair.proxy.clearLog();

      await pair.cycleOk();

      expect(await pair.localIds()).toEqual(await pair.remoteIds());
      await pair.expectMirrored();
      // The pull did it: no full id list was asked for.
      const lists = pair.proxy.seen({ method: 'GET', path: /^\/v2\/labelReports\?/ }).map((r) => new URL(r.path, 'http://x').searchParams);
      // (A reconciliation's pages are minimal and go by id alone; a pull's name `updated`.)
      const reconciling = (q: URLSearchParams) => q.get('output') === 'minimal' && !/updated/.test(`${q.get('order')} ${q.get('filter')}`);
      expect(lists.filter(reconciling)).toEqual([]);
      // Through the tie by id, and in a bounded number of pages (three full ones, then the end).
      const continued = lists.filter((q) => /^updated\[eq\][^,]+,id\[gt\]tie-\d+$/.test(q.get('filter') ?? ''));
      expect(continued.length).toBeGreaterThanOrEqual(2);
      for (const q of continued) {
        expect(new Date(q.get('filter')!.slice('updated[eq]'.length).split(',')[0]).toISOString()).toBe(at(100));
        expect(q.get('order')).toBe('id[asc]');
      }
      // Three full pages of the tie, a page before it with the overlap, the end: no page asked twice in a loop.
      expect(lists.length).toBeLessThanOrEqual(8);
      for (const q of lists) expect(q.get('pageNumber') ?? '1').toBe('1');
    });

    it('one more report at that same instant, after the tie was paged, arrives at the next cycle', async () => {
      putReports(pair.remote.service, plainReports(1, { prefix: 'tie-late', from: 100, step: 0 }));
      await pair.cycleOk();
      expect(await pair.localIds()).toContain('tie-late-000');
      await pair.expectMirrored();
    });
  });
});
