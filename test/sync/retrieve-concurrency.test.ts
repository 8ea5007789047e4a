/**
 * A page of reports new to the mirror is fetched with retrieves running side by side over the
 * connections kept open: never more requests in flight at the remote than the bound, yet more
 * than one at a time; and a retrieve cut among them is asked again, so the page arrives whole
 * and each report is created once. The remote answers without the list's extension of whole
 * reports (sync-pair.ts), so every new report is retrieved.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { REMOTE_CONNECTIONS } from '../../sync/remote-client';
import { REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { plainReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  const RETRIEVE = { method: 'GET', path: /^\/v2\/labelReports\/[^?]+$/ };
  const PAGE = 3 * REMOTE_CONNECTIONS;

  let pair: SyncPair;
  afterEach(async () => {
    await pair?.close();
  });

  const inFlight = () => pair.proxy.requests.filter((r) => r.outcome.kind === 'pending').length;

  function retrievesById(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const r of pair.proxy.seen(RETRIEVE)) {
      const id = decodeURIComponent(r.path.slice('/v2/labelReports/'.length));
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }

  describe('retrieves of a page side by side', () => {
    it(`keeps at most ${REMOTE_CONNECTIONS} requests in flight, and uses them all`, async () => {
      pair = await SyncPair.start({ remote, reports: plainReports(PAGE), worker: { pageSize: PAGE }, wholeReports: false });
      const holds = Array.from({ length: PAGE }, () => pair.proxy.hold(RETRIEVE));
      const cycle = pair.cycle();

      // Every retrieve is held: the bound fills, and each further one waits for one to be answered.
      await pair.proxy.waitFor(RETRIEVE, REMOTE_CONNECTIONS);
      expect(inFlight()).toBeLessThanOrEqual(REMOTE_CONNECTIONS);
      let mostInFlight = inFlight();
      for (let k = 0; k < PAGE - REMOTE_CONNECTIONS; k++) {
        holds[k].release();
        await pair.proxy.waitFor(RETRIEVE, REMOTE_CONNECTIONS + k + 1);
        expect(inFlight()).toBeLessThanOrEqual(REMOTE_CONNECTIONS);
        mostInFlight = Math.max(mostInFlight, inFlight());
      }
      for (const hold of holds) hold.release();
      expect(await cycle).toEqual({ ok: true });

      expect(mostInFlight).toBe(REMOTE_CONNECTIONS);
      expect(pair.proxy.count(RETRIEVE)).toBe(PAGE);
      await pair.expectMirrored();
    });

    it('a retrieve cut among them is asked again: the page arrives whole, each report created once', async () => {
      const reports = plainReports(PAGE);
      pair = await SyncPair.start({ remote, reports, worker: { pageSize: PAGE }, wholeReports: false });
      const cut = pair.proxy.failEvery(1, { kind: 'reset' }, RETRIEVE, REMOTE_CONNECTIONS + 2);
      const cycle = pair.cycle();
      await pair.proxy.waitFor(RETRIEVE, REMOTE_CONNECTIONS + 2);
      cut.remove();
      expect(await cycle).toEqual({ ok: true });

      expect(cut.fired).toBe(1);
      const counts = retrievesById();
      const askedTwice = [...counts].filter(([, n]) => n === 2).map(([id]) => id);
      expect(askedTwice).toHaveLength(1);
      expect([...counts.values()].every((n) => n === 1 || n === 2)).toBe(true);
      expect([...counts.keys()].sort()).toEqual(reports.map((r) => r.id).sort());
      for (const { id } of reports) expect(pair.localHistory(id).filter((h) => h.kind === 'create'), id).toHaveLength(1);
      await pair.expectMirrored();
    });
  });
});
