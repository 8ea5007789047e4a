/**
 * Concurrent edits of one report on both sides. Different fields merge with no conflict, both
 * values on both sides. The same field: one conflict, recorded with base, local and remote
 * values; the remote wins by default (nothing is pushed for that field), `conflicts: local` makes
 * the local value win and go out; resolving through the HTTP endpoints works either way.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncOptions } from '../../sync';
import { REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { plainReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  let pair: SyncPair;
  async function startPair(worker: Partial<SyncOptions> = {}): Promise<void> {
    pair = await SyncPair.start({ remote, reports: plainReports(3), worker: { reconcileEverySeconds: 86_400, ...worker } });
    await pair.cycleOk();
  }
  afterEach(async () => {
    await pair?.close();
  });

  const remoteUpdates = (id: string) => pair.remoteHistory(id).filter((h) => h.kind === 'update');

  describe('edits of different fields on both sides', () => {
    beforeEach(() => startPair());

    it('merge: each side gets the other one’s fields, no conflict', async () => {
      await pair.localEdit('r-000', { labelReference: 'local reference', limits: { maxTemperature: 12 }, customFields: [{ customFieldId: 'dock', value: 'L' }] });
      await pair.remoteEdit('r-000', { status: 'completed', limits: { minTemperature: -5 }, customFields: [{ customFieldId: 'gate', value: 'R' }], hasFlag: true });
      await pair.settle();
      expect(await pair.conflicts()).toEqual([]);
      const remote = await pair.remoteReport('r-000');
      expect(remote).toMatchObject({ labelReference: 'local reference', status: 'completed', hasFlag: true });
      expect(remote.senseConfig.limits).toMatchObject({ minTemperature: -5, maxTemperature: 12 });
      expect(remote.customFields).toEqual(
        expect.arrayContaining([
          { customFieldId: 'dock', value: 'L' },
          { customFieldId: 'gate', value: 'R' },
        ]),
      );
      await pair.expectMirrored();
    });
  });

  describe('edits of the same field on both sides, the remote winning (default)', () => {
    beforeEach(() => startPair());

    it('one conflict with base, local and remote; the remote value stays on both sides; nothing pushed for it', async () => {
      await pair.localEdit('r-001', { labelReference: 'mine', status: 'completed' });
      await pair.remoteEdit('r-001', { labelReference: 'theirs' });
      pair.proxy.clearLog();
      await pair.settle();
      const conflicts = await pair.conflicts();
      expect(conflicts).toEqual([
        { id: expect.any(String), labelReportId: 'r-001', field: 'labelReference', kind: 'field', base: 'REF-r-1', local: 'mine', remote: 'theirs', at: expect.any(String) },
      ]);
      expect(pair.worker!.status().conflicts).toBe(1);
      // The other field of the same edit still went out, alone.
      const patches = pair.proxy.seen({ method: 'PATCH' }).map((p) => JSON.parse(p.body));
      expect(patches).toEqual([{ status: 'completed' }]);
      expect(await pair.remoteReport('r-001')).toMatchObject({ labelReference: 'theirs', status: 'completed' });
      await pair.expectMirrored();
    });

    it('resolved keeping the local value: it is queued again and reaches the remote; the conflict leaves the list', async () => {
      await pair.localEdit('r-001', { labelReference: 'mine' });
      await pair.remoteEdit('r-001', { labelReference: 'theirs' });
      await pair.settle();
      const [conflict] = await pair.conflicts();
      const answer = await pair.localApi(`/local/sync/conflicts/${conflict.id}`, { method: 'POST', body: { keep: 'local' } });
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
      expect(await pair.conflicts()).toEqual([]);
      await pair.settle();
      expect((await pair.remoteReport('r-001')).labelReference).toBe('mine');
      expect(await pair.conflicts()).toEqual([]);
      await pair.expectMirrored();
    });

    it('resolved keeping the remote value: dropped, nothing pushed; the conflict leaves the list', async () => {
      await pair.localEdit('r-002', { labelReference: 'mine' });
      await pair.remoteEdit('r-002', { labelReference: 'theirs' });
      await pair.settle();
      const [conflict] = await pair.conflicts();
      const answer = await pair.localApi(`/local/sync/conflicts/${conflict.id}`, { method: 'POST', body: { keep: 'remote' } });
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
      expect(await pair.conflicts()).toEqual([]);
      pair.proxy.clearLog();
      await pair.settle();
      expect(pair.proxy.count({ method: 'PATCH' })).toBe(0);
      expect((await pair.remoteReport('r-002')).labelReference).toBe('theirs');
      expect(remoteUpdates('r-002')).toHaveLength(1);
      await pair.expectMirrored();
    });

    it('a field absent before, set locally twice, is no conflict when the remote changes something else', async () => {
      await pair.localEdit('r-002', { customFields: [{ customFieldId: 'dock', value: 'D2' }] });
      await pair.localEdit('r-002', { customFields: [{ customFieldId: 'dock', value: 'D1' }] });
      expect(await pair.outbox()).toEqual([expect.objectContaining({ labelReportId: 'r-002', fields: ['customFields.dock'] })]);
      await pair.remoteEdit('r-002', { limits: { maxTemperature: 5 } });
      await pair.settle();
      expect(await pair.conflicts()).toEqual([]);
      expect((await pair.remoteReport('r-002')).customFields).toEqual([{ customFieldId: 'dock', value: 'D1' }]);
      await pair.expectMirrored();
    });

    it('the same value on both sides is no conflict', async () => {
      await pair.localEdit('r-000', { labelReference: 'agreed' });
      await pair.remoteEdit('r-000', { labelReference: 'agreed' });
      await pair.settle();
      expect(await pair.conflicts()).toEqual([]);
      expect(remoteUpdates('r-000')).toHaveLength(1);
      await pair.expectMirrored();
    });
  });

  describe('edits of the same field on both sides, the local value winning (conflicts: local)', () => {
    beforeEach(() => startPair({ conflicts: 'local' }));

    it('the local value stays pending and goes out; the losing remote value is kept in a conflict', async () => {
      await pair.localEdit('r-001', { limits: { maxTemperature: 15 } });
      await pair.remoteEdit('r-001', { limits: { maxTemperature: 9 } });
      await pair.settle();
      expect(await pair.conflicts()).toEqual([
        { id: expect.any(String), labelReportId: 'r-001', field: 'limits.maxTemperature', kind: 'field', base: 8, local: 15, remote: 9, at: expect.any(String) },
      ]);
      expect((await pair.remoteReport('r-001')).senseConfig.limits.maxTemperature).toBe(15);
      await pair.expectMirrored();
    });

    it('a remote edit that ends on the base value is no race: the local value goes out without conflict', async () => {
      await pair.localEdit('r-002', { hasFlag: true, status: 'completed' });
      await pair.remoteEdit('r-002', { status: 'completed', labelReference: 'touched remotely' });
      await pair.remoteEdit('r-002', { status: 'active' });
      await pair.settle();
      expect(await pair.conflicts()).toEqual([]);
      expect(await pair.remoteReport('r-002')).toMatchObject({ hasFlag: true, status: 'completed', labelReference: 'touched remotely' });
      await pair.expectMirrored();
    });

    it('a conflict the local value won leaves the list when resolved, and both sides stay equal', async () => {
      await pair.localEdit('r-000', { labelReference: 'mine' });
      await pair.remoteEdit('r-000', { labelReference: 'theirs' });
      await pair.settle();
      const [conflict] = await pair.conflicts();
      expect(conflict).toMatchObject({ field: 'labelReference', local: 'mine', remote: 'theirs' });
      expect((await pair.remoteReport('r-000')).labelReference).toBe('mine');
      const answer = await pair.localApi(`/local/sync/conflicts/${conflict.id}`, { method: 'POST', body: { keep: 'local' } });
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
      await pair.settle();
      expect(await pair.conflicts()).toEqual([]);
      expect((await pair.remoteReport('r-000')).labelReference).toBe('mine');
      await pair.expectMirrored();
    });
  });
});
