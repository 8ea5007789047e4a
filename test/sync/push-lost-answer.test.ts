/**
 * A PATCH the remote applied but whose answer was lost on the way back: the entry stays and is
 * sent again, which changes nothing (absolute values), so the remote holds exactly one change,
 * and the pull that sees the remote's new `updated` records no phantom conflict. A value this
 * desk sent is its own when the remote shows it, also after the user edited the field again
 * (docs/sync.md#local-edits-and-push): the newest value is sent, never lost to the desk's own earlier one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { plainReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  let pair: SyncPair;
  beforeAll(async () => {
    pair = await SyncPair.start({ remote, reports: plainReports(8), worker: { reconcileEverySeconds: 86_400 } });
    await pair.cycleOk();
  });
  afterAll(async () => {
    await pair?.close();
  });

  const updatesOnRemote = (id: string) => pair.remoteHistory(id).filter((h) => h.kind === 'update');

  describe('a PATCH applied remotely whose answer is lost', () => {
    it('exactly one change remotely, no phantom conflict, both sides equal', async () => {
      await pair.localEdit('r-001', { labelReference: 'sent once', limits: { minTemperature: 1 } });
      pair.proxy.failNext(1, { kind: 'drop-response' }, { method: 'PATCH' });
      await pair.cycle();
      expect(pair.proxy.seen({ method: 'PATCH' })[0].outcome).toEqual({ kind: 'cut', reason: 'drop-response' });
      expect((await pair.remoteReport('r-001')).labelReference).toBe('sent once');
      // Not known to have arrived: still pending.
      expect((await pair.outbox()).map((e) => e.labelReportId)).toEqual(['r-001']);

      await pair.settle();
      expect(updatesOnRemote('r-001')).toHaveLength(1);
      expect(updatesOnRemote('r-001')[0].changes.map((c) => c.field).sort()).toEqual(['labelReference', 'limits.minTemperature']);
      expect(await pair.conflicts()).toEqual([]);
      expect(await pair.outbox()).toEqual([]);
      await pair.expectMirrored();
    });

    it('a remote edit of another field in between merges, still without conflict', async () => {
      await pair.localEdit('r-003', { status: 'completed' });
      pair.proxy.failNext(1, { kind: 'drop-response' }, { method: 'PATCH' });
      await pair.cycle();
      await pair.remoteEdit('r-003', { labelReference: 'edited remotely meanwhile' });
      await pair.settle();
      expect(await pair.conflicts()).toEqual([]);
      expect(await pair.remoteReport('r-003')).toMatchObject({ status: 'completed', labelReference: 'edited remotely meanwhile' });
      expect(updatesOnRemote('r-003').map((h) => h.changes.map((c) => c.field))).toEqual([['status'], ['labelReference']]);
      await pair.expectMirrored();
    });

    it('the user edits the field again after the answer was lost: the newest value reaches the remote, no conflict', async () => {
      await pair.localEdit('r-004', { labelReference: 'first' });
      pair.proxy.failNext(1, { kind: 'drop-response' }, { method: 'PATCH' });
      await pair.cycle();
      expect((await pair.remoteReport('r-004')).labelReference).toBe('first');
      await pair.localEdit('r-004', { labelReference: 'second' });

      await pair.settle();
      expect(await pair.conflicts()).toEqual([]);
      expect(await pair.outbox()).toEqual([]);
      expect((await pair.remoteReport('r-004')).labelReference).toBe('second');
      expect((await pair.localReport('r-004')).labelReference).toBe('second');
      await pair.expectMirrored();
    });

    it('answer lost, edited again, that answer lost too: the newest value still wins, no conflict', async () => {
      await pair.localEdit('r-005', { limits: { maxTemperature: 9 } });
      pair.proxy.failNext(1, { kind: 'drop-response' }, { method: 'PATCH' });
      await pair.cycle();
      await pair.localEdit('r-005', { limits: { maxTemperature: 7 } });
      pair.proxy.failNext(1, { kind: 'drop-response' }, { method: 'PATCH' });
      await pair.cycle();
      expect(pair.proxy.seen({ method: 'PATCH' }).filter((r) => r.outcome.kind === 'cut').length).toBeGreaterThanOrEqual(3);
      await pair.localEdit('r-005', { limits: { maxTemperature: 6 } });

      await pair.settle();
      expect(await pair.conflicts()).toEqual([]);
      expect(await pair.outbox()).toEqual([]);
      expect((await pair.remoteReport('r-005')).senseConfig.limits.maxTemperature).toBe(6);
      await pair.expectMirrored();
    });

    it('an edit back to the value before, after the answer was lost: the remote gets the old value back', async () => {
      const before = (await pair.localReport('r-006')).labelReference;
      await pair.localEdit('r-006', { labelReference: 'briefly' });
      pair.proxy.failNext(1, { kind: 'drop-response' }, { method: 'PATCH' });
      await pair.cycle();
      await pair.localEdit('r-006', { labelReference: before });

      await pair.settle();
      expect(await pair.conflicts()).toEqual([]);
      expect((await pair.remoteReport('r-006')).labelReference).toBe(before);
      await pair.expectMirrored();
    });

    it('answer lost while another writer changes the same field: a real conflict, which the remote wins', async () => {
      await pair.localEdit('r-007', { labelReference: 'mine' });
      pair.proxy.failNext(1, { kind: 'drop-response' }, { method: 'PATCH' });
      await pair.cycle();
      await pair.remoteEdit('r-007', { labelReference: 'theirs' });

      await pair.settle();
      const conflicts = (await pair.conflicts()).filter((c) => c.labelReportId === 'r-007');
      expect(conflicts.map(({ labelReportId, field, kind, local, remote }) => ({ labelReportId, field, kind, local, remote }))).toEqual([
        { labelReportId: 'r-007', field: 'labelReference', kind: 'field', local: 'mine', remote: 'theirs' },
      ]);
      expect((await pair.remoteReport('r-007')).labelReference).toBe('theirs');
      expect(await pair.outbox()).toEqual([]);
      await pair.expectMirrored();
    });
  });
});
