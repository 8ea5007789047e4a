/**
 * A bad network between the two sides: starting offline, failures three in a row (cut
 * connections, 503s), the remote going away while the worker runs on its own. Both sides
 * converge, and the worker leaves no timer behind: `stop()` resolves and the process holds no
 * more timers than before it started.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { editBothSides } from '../support/sync-edits';
import { plainReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  let pair: SyncPair;
  afterEach(async () => {
    await pair?.close();
  });

  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  /** A day's reports an hour apart, as a remote holds them: the overlap window re-reads a few, not all. */
  const hourly = () => plainReports(12, { step: 3600 });

  describe('a bad network', () => {
    it('starting offline: the cycle says offline, the state too, and it converges once the remote is back', async () => {
      pair = await SyncPair.start({ remote, reports: hourly(), worker: { pageSize: 4 } });
      await pair.proxy.offline('refuse');
      expect(await pair.cycle()).toMatchObject({ ok: false, reason: 'offline' });
      expect(pair.worker!.status()).toMatchObject({ state: 'offline', lastError: { message: expect.any(String) } });
      await pair.proxy.offline('reset');
      expect(await pair.cycle()).toMatchObject({ ok: false, reason: 'offline' });
      await pair.proxy.online();
      await pair.settle();
      expect(pair.worker!.status()).toMatchObject({ state: 'idle', lastSuccessAt: expect.any(String) });
      await pair.expectMirrored();
    });

    it('three failures in a row, cut or 503, at every step: both sides converge', async () => {
      pair = await SyncPair.start({ remote, reports: hourly(), worker: { pageSize: 3 } });
      pair.proxy.failNext(3, { kind: 'reset' });
      await pair.settle();
      for (let round = 0; round < 4; round++) {
        await editBothSides(pair, round);
        pair.proxy.failNext(3, round % 2 === 0 ? { kind: 'reset' } : { kind: 'status', status: 503 }, round < 2 ? {} : { method: 'PATCH' });
        await pair.settle();
      }
      expect(pair.proxy.requests.filter((r) => r.outcome.kind === 'cut' || (r.outcome.kind === 'answered' && r.outcome.injected))).toHaveLength(3 + 4 * 3);
      expect(await pair.conflicts()).toEqual([]);
      expect(await pair.deadLetters()).toEqual([]);
      await pair.expectMirrored();
    });

    it('running on its own while the remote goes away and comes back, then stopped: no timer is left behind', async () => {
      pair = await SyncPair.start({ remote, reports: hourly(), worker: { pageSize: 4, intervalSeconds: 1 } });
      await pair.settle();
      const before = timers();
      const worker = await pair.startWorker();
      await pair.proxy.offline('refuse');
      worker.start();
      await eventually(() => expect(worker.status().state).toBe('offline'));
      await editBothSides(pair, 0);
      await pair.proxy.online();
      pair.proxy.failNext(3, { kind: 'reset' });
      worker.trigger();
      await eventually(async () => {
        expect(worker.status()).toMatchObject({ pending: 0, state: 'idle' });
        expect(await pair.localIds()).toEqual(await pair.remoteIds());
      });
      await worker.stop();
      pair.worker = undefined;
      expect(timers()).toBeLessThanOrEqual(before);
      await pair.expectMirrored();
    });
  });
});
