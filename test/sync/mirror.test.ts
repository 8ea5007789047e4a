/**
 * The first mirror: what the remote shows the company's key (its own reports, those shared with
 * it as editor or viewer, with every value a report carries) arrives whole on an empty local
 * database, and nothing else does; the company comes with it; pages move by `updated`, never
 * by page number; a second cycle with nothing new changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANIES } from '../support/service-fixture';
import { COMPANY, REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { variedReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  const { reports, hidden } = variedReports();
  let pair: SyncPair;
  beforeAll(async () => {
    pair = await SyncPair.start({ reports, remote, worker: { pageSize: 2 } });
  });
  afterAll(async () => {
    await pair?.close();
  });

  describe('the first mirror', () => {
    it('brings every report the key sees, field by field as the remote shows them, and the company with them', async () => {
      expect(pair.local.service.companies.find(COMPANY)).toBeUndefined();
      await pair.cycleOk();
      expect(pair.local.service.companies.find(COMPANY)).toEqual(COMPANIES.find((c) => c.id === COMPANY));
      expect(await pair.localIds()).not.toContain(hidden);
      expect((await pair.remoteIds()).length).toBe(reports.length - 1);
      await pair.expectMirrored();
    });

    it('pages by moving the bound on `updated`, never by page number, and asks only the three /v2 operations', async () => {
      const lists = pair.proxy.seen({ method: 'GET', path: /^\/v2\/labelReports\?/ });
      expect(lists.length).toBeGreaterThan(0);
      for (const list of lists) expect(new URL(list.path, 'http://x').searchParams.get('pageNumber') ?? '1').toBe('1');
      // A pull's pages name `updated` in their order or filter; a reconciliation's go by id alone.
      const pulls = lists.filter((l) => /updated/.test(decodeURIComponent(l.path)));
      // Five reports two to a page: at least three pages, each after the first asked with its own lower bound.
      expect(pulls.length).toBeGreaterThanOrEqual(3);
      const bounds = pulls.slice(1).map((pull) => new URL(pull.path, 'http://x').searchParams.get('filter') ?? '');
      for (const bound of bounds) expect(bound).toMatch(/updated\[(gte|eq)\]/);
      expect(new Set(bounds).size).toBe(bounds.length);
      const other = pair.proxy.requests.filter(
        (r) => !(r.method === 'GET' && /^\/v2\/labelReports(\?|\/)/.test(r.path)) && !(r.method === 'GET' && r.path === '/local/session'),
      );
      expect(other.map((r) => `${r.method} ${r.path}`)).toEqual([]);
      // Against the vendor remote, everything the proxy let through was answered by it, not by the LabelDesk behind it.
      if (pair.vendor) {
        const answered = pair.vendor.requests.map((r) => `${r.method} ${r.path}`);
        const unanswered = pair.proxy.requests.map((r) => `${r.method} ${r.path}`).filter((r) => {
          const at = answered.indexOf(r);
          if (at >= 0) answered.splice(at, 1);
          return at < 0;
        });
        expect(unanswered).toEqual([]);
      }
    });

    it('a cycle with nothing new fetches no report again and writes nothing', async () => {
      const historyBefore = (await pair.localIds()).map((id) => pair.localHistory(id).length);
      pair.proxy.clearLog();
      await pair.cycleOk();
      expect(pair.proxy.count({ method: 'GET', path: /^\/v2\/labelReports\/[^?]/ })).toBe(0);
      expect(pair.proxy.count({ method: 'PATCH' })).toBe(0);
      expect((await pair.localIds()).map((id) => pair.localHistory(id).length)).toEqual(historyBefore);
      await pair.expectMirrored();
    });

    it('each mirrored report was written once, by sync', async () => {
      for (const id of await pair.localIds()) {
        const history = pair.localHistory(id);
        expect(history.map((h) => [h.kind, h.actor.kind]), id).toEqual([['create', 'sync']]);
      }
    });
  });
});
