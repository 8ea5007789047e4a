/**
 * Every fifth request failing, cut connections and 503s in turn, for the whole run: the first
 * mirror completes and later edits on both sides converge all the same, driven cycle by cycle
 * and with the worker running on its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { plainReports } from '../support/sync-reports';
import { editBothSides } from '../support/sync-edits';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  let pair: SyncPair;
  afterEach(async () => {
    await pair?.close();
  });

  function everyFifthFails(): void {
    pair.proxy.failEvery(10, { kind: 'reset' }, {}, 5);
    pair.proxy.failEvery(10, { kind: 'status', status: 503, headers: { 'retry-after': '0' } }, {}, 10);
  }

  describe('every fifth request failing', () => {
    it('driven cycle by cycle: the first mirror and three rounds of edits on both sides converge', async () => {
      pair = await SyncPair.start({ remote, reports: plainReports(12, { step: 3600 }), worker: { pageSize: 3 } });
      everyFifthFails();
      await pair.settle(60);
      for (let round = 0; round < 3; round++) {
        await editBothSides(pair, round);
        await pair.settle(60);
      }
      expect(pair.proxy.requests.filter((r) => r.outcome.kind === 'cut').length).toBeGreaterThan(0);
      await pair.proxy.heal();
      expect(await pair.conflicts()).toEqual([]);
      expect(await pair.deadLetters()).toEqual([]);
      await pair.expectMirrored();
    });

    it('running on its own: converges', async () => {
      pair = await SyncPair.start({ remote, reports: plainReports(12, { step: 3600 }), worker: { pageSize: 3, intervalSeconds: 1 } });
      everyFifthFails();
      const worker = await pair.startWorker();
      worker.start();
      await eventually(() => expect(worker.status().lastSuccessAt).not.toBeNull(), 60_000);
      await editBothSides(pair, 0);
      await eventually(async () => {
        expect(worker.status()).toMatchObject({ pending: 0 });
        expect(await pair.localIds()).toEqual(await pair.remoteIds());
      });
      await worker.stop();
      await pair.proxy.heal();
      await pair.expectMirrored();
    }, 120_000);
  });
});
