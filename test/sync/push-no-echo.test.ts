/**
 * No echo: a local edit is pushed as one PATCH of absolute values, the remote's answer becomes
 * the mirrored state, and the next pull, which sees the report changed on the remote, makes no
 * outbox entry, no conflict and no PATCH, and writes nothing locally.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { plainReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  let pair: SyncPair;
  beforeAll(async () => {
    pair = await SyncPair.start({ remote, reports: plainReports(5), worker: { reconcileEverySeconds: 86_400 } });
    await pair.cycleOk();
  });
  afterAll(async () => {
    await pair?.close();
  });

  const EDIT = {
    labelReference: 'SHP-2026-0042',
    status: 'completed',
    hasFlag: true,
    limits: { maxTemperature: 11 },
    customFields: [{ customFieldId: 'dock', value: 'D1' }],
  };

  describe('no echo', () => {
    it('a local edit goes out as one PATCH of its fields with absolute values', async () => {
      await pair.localEdit('r-002', EDIT);
      expect((await pair.outbox()).map((e) => [e.labelReportId, [...e.fields].sort()])).toEqual([
        ['r-002', ['customFields.dock', 'hasFlag', 'labelReference', 'limits.maxTemperature', 'status']],
      ]);
      pair.proxy.clearLog();
      await pair.cycleOk();
      const patches = pair.proxy.seen({ method: 'PATCH' });
      expect(patches.map((p) => p.path)).toEqual(['/v2/labelReports/r-002']);
      expect(JSON.parse(patches[0].body)).toEqual(EDIT);
      const remote = await pair.remoteReport('r-002');
      expect(remote).toMatchObject({ labelReference: EDIT.labelReference, status: 'completed', hasFlag: true, customFields: EDIT.customFields });
      expect(remote.senseConfig.limits.maxTemperature).toBe(11);
      expect(await pair.outbox()).toEqual([]);
      await pair.expectMirrored();
    });

    it('the next pulls bring no outbox entry, no conflict, no PATCH, and write nothing', async () => {
      const history = pair.localHistory('r-002').length;
      pair.proxy.clearLog();
      await pair.cycleOk();
      await pair.cycleOk();
      expect(pair.proxy.count({ method: 'PATCH' })).toBe(0);
      expect(await pair.outbox()).toEqual([]);
      expect(await pair.conflicts()).toEqual([]);
      expect(pair.worker!.status()).toMatchObject({ pending: 0, conflicts: 0, deadLetters: 0 });
      expect(pair.localHistory('r-002').length).toBe(history);
      // The remote heard of the edit once.
      expect(pair.remoteHistory('r-002').filter((h) => h.kind === 'update')).toHaveLength(1);
      await pair.expectMirrored();
    });

    it('a remote edit after the push comes back as a plain pull, again without echo', async () => {
      await pair.remoteEdit('r-002', { labelReference: 'changed on the remote afterwards' });
      pair.proxy.clearLog();
      await pair.cycleOk();
      await pair.cycleOk();
      expect(pair.proxy.count({ method: 'PATCH' })).toBe(0);
      expect(await pair.outbox()).toEqual([]);
      expect(await pair.conflicts()).toEqual([]);
      expect((await pair.localReport('r-002')).labelReference).toBe('changed on the remote afterwards');
      await pair.expectMirrored();
    });
  });
});
