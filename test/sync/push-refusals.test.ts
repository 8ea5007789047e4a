/**
 * What the remote refuses. A role refusal (403 ROLE_FORBIDDEN), an unknown report (404), and
 * other refusals (409, 422, 400) each make a dead letter with the remote's answer while the rest
 * of the queue drains; retry and discard work over HTTP. A 401, or a 403 for the key's
 * permission, pauses sync: no dead letter, no retry on a timer; the edit waits for a better key
 * (or a person asking for a cycle). 5xx and 429 are
 * retried on the worker's own timer, honouring Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeReport } from '../support/service-fixture';
import { eventually, REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { at, plainReports, putReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  const SHARED = [
    makeReport('shared-editor', { companyId: 'nordic', updated: at(10), access: [{ companyId: 'acme', role: 'editor' }] }),
    makeReport('shared-withdrawn', { companyId: 'nordic', updated: at(11), access: [{ companyId: 'acme', role: 'editor' }] }),
  ];

  describe('refusals by the remote', () => {
    let pair: SyncPair;
    beforeAll(async () => {
      pair = await SyncPair.start({ remote, reports: [...plainReports(5), ...SHARED], worker: { reconcileEverySeconds: 86_400 } });
      await pair.cycleOk();
    });
    afterAll(async () => {
      await pair?.close();
    });

    it('a dead letter each for a role refusal, a 404, a 409 and a 422, and the rest drains', async () => {
      await pair.localEdit('shared-editor', { labelReference: 'an editor may' });
      await pair.localEdit('shared-withdrawn', { labelReference: 'still shared here' });
      for (const id of ['r-000', 'r-001', 'r-002', 'r-003', 'r-004']) await pair.localEdit(id, { labelReference: `drained ${id}` });
      // The owner makes acme a viewer of one report and withdraws the other.
      putReports(pair.remote.service, [
        makeReport('shared-editor', { companyId: 'nordic', updated: at(20), access: [{ companyId: 'acme', role: 'viewer' }] }),
        makeReport('shared-withdrawn', { companyId: 'nordic', updated: at(21) }),
      ]);
      pair.proxy.failNext(1, { kind: 'status', status: 409, body: { statusCode: 409, error: 'Conflict', code: 'LOCKED', message: 'the report is locked for review' } }, { method: 'PATCH', path: '/v2/labelReports/r-001' });
      pair.proxy.failNext(1, { kind: 'status', status: 422, body: { statusCode: 422, error: 'Unprocessable Entity', code: 'UNPROCESSABLE', message: 'reference format refused' } }, { method: 'PATCH', path: '/v2/labelReports/r-003' });

      await pair.settle();

      const letters = await pair.deadLetters();
      const byReport = Object.fromEntries(letters.map((l) => [l.labelReportId, l]));
      expect(Object.keys(byReport).sort()).toEqual(['r-001', 'r-003', 'shared-editor', 'shared-withdrawn']);
      expect(byReport['shared-editor']).toMatchObject({ fields: ['labelReference'], status: 403, message: 'Viewers can only update hasFlag and isArchived' });
      expect(byReport['shared-withdrawn']).toMatchObject({ fields: ['labelReference'], status: 404 });
      expect(byReport['shared-withdrawn'].message).toContain('shared-withdrawn');
      expect(byReport['r-001']).toMatchObject({ status: 409, message: 'the report is locked for review' });
      expect(byReport['r-003']).toMatchObject({ status: 422, message: 'reference format refused' });
      for (const id of ['r-000', 'r-002', 'r-004']) expect((await pair.remoteReport(id)).labelReference).toBe(`drained ${id}`);
      expect(pair.worker!.status()).toMatchObject({ deadLetters: 4, pending: 0 });
      expect(pair.worker!.status().state).not.toBe('paused');
      expect(await pair.outbox()).toEqual([]);
    });

    it('retry sends a dead letter again (arriving once the remote accepts it); discard drops it', async () => {
      const letters = await pair.deadLetters();
      const id = (report: string) => letters.find((l) => l.labelReportId === report)!.id;
      // Acme is an editor again: the retried edit goes through.
      putReports(pair.remote.service, [makeReport('shared-editor', { companyId: 'nordic', updated: at(30), access: [{ companyId: 'acme', role: 'editor' }] })]);
      for (const [report, action] of [['shared-editor', 'retry'], ['r-003', 'retry'], ['r-001', 'discard'], ['shared-withdrawn', 'discard']] as const) {
        const answer = await pair.localApi(`/local/sync/dead-letters/${id(report)}`, { method: 'POST', body: { action } });
        expect(answer.status, `${action} ${report}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      }
      expect(await pair.deadLetters()).toEqual([]);
      await pair.settle();
      expect(await pair.deadLetters()).toEqual([]);
      expect((await pair.remoteReport('shared-editor')).labelReference).toBe('an editor may');
      expect((await pair.remoteReport('r-003')).labelReference).toBe('drained r-003');
      expect((await pair.remoteReport('r-001')).labelReference).toBe('REF-r-1');
    });
  });

  describe('refusals that pause sync', () => {
    it('a 403 for the key’s permission pauses with the remote’s message; nothing is retried on its own; the edit goes out with a key that may', async () => {
      const pair = await SyncPair.start({ remote, reports: plainReports(2), remoteKey: 'acmeRead', worker: { reconcileEverySeconds: 86_400, intervalSeconds: 1 } });
      try {
        await pair.cycleOk();
        await pair.localEdit('r-000', { labelReference: 'needs update permission' });
        const outcome = await pair.cycle();
        expect(outcome).toMatchObject({ ok: false, reason: 'paused' });
        expect(pair.worker!.status()).toMatchObject({ state: 'paused', lastError: { message: expect.stringContaining('labelReports:update') } });
        expect(await pair.deadLetters()).toEqual([]);
        expect((await pair.outbox()).map((e) => e.labelReportId)).toEqual(['r-000']);

        // Running on its own, paused: it tries at its start, then waits for a person, with no timer
        // set, however many local edits come.
        const worker = pair.worker!;
        pair.proxy.clearLog();
        worker.start();
        await pair.proxy.waitFor({ method: 'PATCH' });
        await eventually(() => expect(worker.status()).toMatchObject({ state: 'paused', nextAttemptAt: null }));
        await pair.localEdit('r-001', { labelReference: 'waits too' });
        expect(worker.status()).toMatchObject({ state: 'paused', nextAttemptAt: null });
        await worker.stop();

        await pair.startWorker({ remoteKey: pair.remote.keys.acme });
        await pair.settle();
        expect((await pair.remoteReport('r-000')).labelReference).toBe('needs update permission');
        expect((await pair.remoteReport('r-001')).labelReference).toBe('waits too');
        expect(pair.worker!.status().state).not.toBe('paused');
      } finally {
        await pair.close();
      }
    });

    it('a 401 pauses too', async () => {
      const pair = await SyncPair.start({ remote, reports: plainReports(2), worker: { reconcileEverySeconds: 86_400 } });
      try {
        await pair.cycleOk();
        await pair.localEdit('r-001', { status: 'completed' });
        pair.proxy.failAll({ kind: 'status', status: 401, body: { statusCode: 401, error: 'Unauthorized', code: 'API_KEY_INVALID', message: 'the API key is unknown or revoked' } });
        expect(await pair.cycle()).toMatchObject({ ok: false, reason: 'paused' });
        expect(pair.worker!.status()).toMatchObject({ state: 'paused', lastError: { message: expect.stringContaining('revoked') } });
        expect(await pair.deadLetters()).toEqual([]);
      } finally {
        await pair.close();
      }
    });
  });

  describe('temporary failures', () => {
    let pair: SyncPair;
    beforeAll(async () => {
      pair = await SyncPair.start({ remote, reports: plainReports(2), worker: { reconcileEverySeconds: 86_400 } });
      await pair.cycleOk();
    });
    afterAll(async () => {
      await pair?.close();
    });

    for (const status of [503, 500, 429]) {
      it(`a ${status} is retried on the worker's timer, after Retry-After, with no new local write`, async () => {
        const worker = await pair.startWorker();
        worker.start();
        pair.proxy.clearLog();
        pair.proxy.failNext(1, { kind: 'status', status, headers: { 'retry-after': '1' } }, { method: 'PATCH' });
        await pair.localEdit('r-000', { labelReference: `after a ${status}` });
        const [refused] = await pair.proxy.waitFor({ method: 'PATCH' }, 1);
        // The retry is set for when the remote said, not sooner (nextAttemptAt also names the
        // push due after the edit: the one after the refusal is the one later than it).
        const nextAttemptAt = await eventually(() => {
          const next = Date.parse(worker.status().nextAttemptAt ?? '');
          expect(next).toBeGreaterThan(refused.at);
          return next;
        });
        expect(nextAttemptAt - refused.at).toBeGreaterThanOrEqual(1000);
        // The second attempt comes from the timer alone.
        await pair.proxy.waitFor({ method: 'PATCH' }, 2);
        await eventually(async () => {
          expect(worker.status().pending).toBe(0);
          expect((await pair.remoteReport('r-000')).labelReference).toBe(`after a ${status}`);
        });
        const [first, second] = pair.proxy.seen({ method: 'PATCH' });
        expect(first.outcome).toMatchObject({ kind: 'answered', status, injected: true });
        expect(second.outcome).toMatchObject({ kind: 'answered', status: 200 });
        // Not before the remote said it could take it again.
        expect(second.at - first.at).toBeGreaterThanOrEqual(1000);
        expect(await pair.deadLetters()).toEqual([]);
        await worker.stop();
      });
    }
  });
});
