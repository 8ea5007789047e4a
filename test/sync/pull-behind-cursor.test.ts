/**
 * A report whose `updated` falls behind the cursor (an import on the remote writes reports with
 * the instants of their bundle; another writer's clock lags): within the overlap window the
 * next pull catches it; further behind, the reconciliation at the next start does. Both a report
 * new to the mirror and a known one changed with an older `updated`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeReport } from '../support/service-fixture';
import { REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { at, plainReports, putReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  const OVERLAP = 300;
  let pair: SyncPair;
  /** The cursor: the latest `updated` mirrored, in seconds from `at(0)`. */
  const CURSOR = 1_000;
  beforeAll(async () => {
    pair = await SyncPair.start({
      remote,
      reports: plainReports(10, { prefix: 'base', from: CURSOR - 9 }),
      worker: { pageSize: 4, overlapSeconds: OVERLAP, reconcileEverySeconds: 86_400 },
    });
    await pair.cycleOk();
  });
  afterAll(async () => {
    await pair?.close();
  });

  /** A reconciliation's list pages: minimal, by id (a pull's name `updated`, in their order or filter). */
  const minimalLists = () => pair.proxy.count({ method: 'GET', path: /^\/v2\/labelReports\?(?!.*updated).*output=minimal/ });

  describe('a report behind the cursor', () => {
    it('within the overlap window: the next pull brings it, new or changed, without a reconciliation', async () => {
      const reconciliations = minimalLists();
      putReports(pair.remote.service, [
        makeReport('late-new', { updated: at(CURSOR - OVERLAP / 3) }),
        makeReport('base-003', { updated: at(CURSOR - OVERLAP / 2), labelReference: 'rewritten by an import' }),
      ]);
      await pair.cycleOk();
      expect(minimalLists()).toBe(reconciliations);
      expect(await pair.localReport('late-new')).toBeDefined();
      expect((await pair.localReport('base-003')).labelReference).toBe('rewritten by an import');
      await pair.expectMirrored();
    });

    it('beyond the overlap window: the reconciliation at the next start brings it, new or changed', async () => {
      putReports(pair.remote.service, [
        makeReport('ancient-new', { updated: at(CURSOR - 10 * OVERLAP) }),
        makeReport('base-005', { updated: at(CURSOR - 20 * OVERLAP), labelReference: 'rewritten long before' }),
      ]);
      await pair.startWorker();
      await pair.cycleOk();
      expect(await pair.localReport('ancient-new')).toBeDefined();
      expect((await pair.localReport('base-005')).labelReference).toBe('rewritten long before');
      await pair.expectMirrored();
    });
  });
});
