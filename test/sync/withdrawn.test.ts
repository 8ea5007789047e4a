/**
 * The remote stops showing a report (its owner withdraws the company's access): at the next
 * reconciliation it leaves the mirror; when it had a local edit pending, that edit becomes a
 * conflict of kind `gone`. Reports that exist only locally are never pushed nor removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeReport } from '../support/service-fixture';
import { REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { at, plainReports, putReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  const shared = (id: string, updated: number, withAcme: boolean) =>
    makeReport(id, { companyId: 'nordic', updated: at(updated), access: withAcme ? [{ companyId: 'acme', role: 'editor' }] : [] });

  let pair: SyncPair;
  beforeAll(async () => {
    pair = await SyncPair.start({
      remote,
      reports: [...plainReports(2), shared('gone-plain', 10, true), shared('gone-edited', 11, true)],
      worker: { reconcileEverySeconds: 86_400 },
    });
    await pair.cycleOk();
    pair.createLocalCompany();
    putReports(pair.local.service, [makeReport('local-only', { updated: at(12) })]);
  });
  afterAll(async () => {
    await pair?.close();
  });

  describe('access withdrawn by the remote', () => {
    it('the report leaves the mirror at the next reconciliation; a pending edit on it becomes a `gone` conflict', async () => {
      await pair.localEdit('gone-edited', { labelReference: 'edited before it went' });
      await pair.localEdit('local-only', { labelReference: 'mine alone' });
      putReports(pair.remote.service, [shared('gone-plain', 20, false), shared('gone-edited', 21, false)]);
      // A new start reconciles.
      await pair.startWorker();
      pair.proxy.clearLog();
      await pair.settle();

      expect(await pair.localReport('gone-plain')).toBeUndefined();
      expect(await pair.localReport('gone-edited')).toBeUndefined();
      expect(await pair.conflicts()).toEqual([
        { id: expect.any(String), labelReportId: 'gone-edited', field: 'labelReference', kind: 'gone', base: 'REF-gone-edited', local: 'edited before it went', remote: null, at: expect.any(String) },
      ]);
      expect(pair.worker!.status()).toMatchObject({ conflicts: 1, pending: 0 });
      expect(pair.localHistory('gone-plain').at(-1)).toMatchObject({ kind: 'remove', actor: { kind: 'sync' } });
      await pair.expectMirrored(['local-only']);
    });

    it('a report only the local side has is never pushed nor removed', async () => {
      expect(pair.proxy.seen({ method: 'PATCH' }).map((p) => p.path)).toEqual([]);
      expect(pair.proxy.count({ path: /local-only/ })).toBe(0);
      expect((await pair.localReport('local-only')).labelReference).toBe('mine alone');
      expect(await pair.outbox()).toEqual([]);
    });

    it('resolving the `gone` conflict keeping the remote side drops the edit', async () => {
      const [conflict] = await pair.conflicts();
      const answer = await pair.localApi(`/local/sync/conflicts/${conflict.id}`, { method: 'POST', body: { keep: 'remote' } });
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
      expect(await pair.conflicts()).toEqual([]);
      await pair.settle();
      expect(pair.proxy.count({ method: 'PATCH' })).toBe(0);
      await pair.expectMirrored(['local-only']);
    });

    it('shared again, the report comes back whole', async () => {
      putReports(pair.remote.service, [shared('gone-plain', 30, true)]);
      await pair.cycleOk();
      expect(await pair.localReport('gone-plain')).toBeDefined();
      await pair.expectMirrored(['local-only']);
    });
  });
});
