/**
 * A hundred local edits of one report travel together: one outbox entry with the newest value
 * of each field, sent as one PATCH by a cycle; with the worker running on its own, as two when
 * the first goes out while the rest are being made (counted at the proxy), and none of the
 * edits made while a PATCH is in flight is lost when its answer comes back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { plainReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  let pair: SyncPair;
  beforeAll(async () => {
    pair = await SyncPair.start({ remote, reports: plainReports(3), worker: { reconcileEverySeconds: 86_400 } });
    await pair.cycleOk();
  });
  afterAll(async () => {
    await pair?.close();
  });

  async function hundredEdits(id: string, tag: string): Promise<void> {
    for (let i = 1; i <= 100; i++) {
      await pair.localEdit(id, { labelReference: `${tag}-${i}`, hasFlag: i % 2 === 0, limits: { maxTemperature: 8 + (i % 7) } });
    }
  }

  describe('a hundred local edits of one report', () => {
    it('one pending entry, sent as one PATCH of the newest values by a cycle', async () => {
      await hundredEdits('r-000', 'driven');
      const outbox = await pair.outbox();
      expect(outbox.map((e) => e.labelReportId)).toEqual(['r-000']);
      pair.proxy.clearLog();
      await pair.cycleOk();
      const patches = pair.proxy.seen({ method: 'PATCH' });
      expect(patches).toHaveLength(1);
      expect(JSON.parse(patches[0].body)).toEqual({ labelReference: 'driven-100', hasFlag: true, limits: { maxTemperature: 10 } });
      expect(pair.remoteHistory('r-000').filter((h) => h.kind === 'update')).toHaveLength(1);
      await pair.expectMirrored();
    });

    it('with the worker running on its own: at most two PATCHes, and edits made while the first is in flight are not lost', async () => {
      const worker = await pair.startWorker();
      worker.start();
      pair.proxy.clearLog();
      // The first edit goes out about a second later; its PATCH waits at the proxy while the other 99 are made.
      const inFlight = pair.proxy.hold({ method: 'PATCH' }, 'request');
      await pair.localEdit('r-001', { labelReference: 'running-1', hasFlag: false, limits: { maxTemperature: 9 } });
      await inFlight.arrived;
      for (let i = 2; i <= 100; i++) {
        await pair.localEdit('r-001', { labelReference: `running-${i}`, hasFlag: i % 2 === 0, limits: { maxTemperature: 8 + (i % 7) } });
      }
      inFlight.release();
      await eventually(async () => {
        expect(worker.status().pending).toBe(0);
        expect((await pair.remoteReport('r-001')).labelReference).toBe('running-100');
      });
      expect(pair.proxy.count({ method: 'PATCH' })).toBe(2);
      expect(JSON.parse(pair.proxy.seen({ method: 'PATCH' })[1].body)).toMatchObject({ labelReference: 'running-100', hasFlag: true, limits: { maxTemperature: 10 } });
      expect(await pair.localReport('r-001')).toMatchObject({ labelReference: 'running-100', hasFlag: true });
      await worker.stop();
      await pair.expectMirrored();
    });
  });
});
