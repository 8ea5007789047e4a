/**
 * A read that failed on the way is asked again after a wait inside the cycle; stop() ends that
 * wait at once: the cycle ends, nothing more is asked, and no timer is left behind.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { plainReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  let pair: SyncPair;
  afterEach(async () => {
    await pair?.close();
  });

  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

  describe('stopping while a read waits to be asked again', () => {
    it('ends the wait: the cycle ends, no further request, no timer left', async () => {
      pair = await SyncPair.start({ remote, reports: plainReports(3) });
      await pair.settle();
      // The jitter is drawn as the wait begins: the point to stop at, known exactly.
      let waiting!: () => void;
      const waitBegins = new Promise<void>((resolve) => (waiting = resolve));
      const random = () => {
        waiting();
        return 0;
      };
      // A wait far longer than the test may take: only stop() can end it.
      const worker = await pair.startWorker({}, { random, readRetry: { attempts: 2, firstDelayMs: 600_000, longestWaitMs: 600_000 } });
      const before = timers();
      pair.proxy.clearLog();
      pair.proxy.failNext(1, { kind: 'reset' });
      const cycle = worker.runCycle();
      await waitBegins;
      expect(timers()).toBe(before + 1);
      await worker.stop();
      pair.worker = undefined;
      expect(await cycle).toMatchObject({ ok: false, message: 'sync stopped' });
      expect(pair.proxy.requests).toHaveLength(1);
      expect(pair.proxy.requests[0].outcome).toMatchObject({ kind: 'cut' });
      expect(timers()).toBeLessThanOrEqual(before);
    });
  });
});
