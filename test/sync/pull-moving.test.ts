/**
 * The remote changes while a long pull pages through it: reports already pulled are edited
 * (they move past the cursor), reports not yet reached are edited (they move further ahead),
 * and new ones appear. When that same cycle ends, nothing is
 * missed: both sides compare equal in full. Run after the start's reconciliation, so the pull
 * alone has to find them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeReport } from '../support/service-fixture';
import { REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { at, plainReports, putReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  const PAGE = 5;
  let pair: SyncPair;
  beforeAll(async () => {
    pair = await SyncPair.start({ remote, reports: plainReports(2, { prefix: 'first' }), worker: { pageSize: PAGE, reconcileEverySeconds: 86_400 } });
    await pair.cycleOk();
  });
  afterAll(async () => {
    await pair?.close();
  });

  describe('remote edits during a long pull', () => {
    it('nothing is missed: edits behind and ahead of the cursor, new and newly shared reports', async () => {
      putReports(pair.remote.service, plainReports(40, { prefix: 'long', from: 100 }));
      // The fourth page of the pull waits at the proxy while the remote changes.
      const fourthPage = pair.proxy.hold({ method: 'GET', path: /^\/v2\/labelReports\?.*updated/ }, 'request', 4);
      const cycle = pair.cycle();
      await fourthPage.arrived;

      await pair.remoteEdit('long-001', { labelReference: 'edited behind the cursor' });
      await pair.remoteEdit('long-002', { hasFlag: true, limits: { maxTemperature: 12 } });
      await pair.remoteEdit('long-030', { labelReference: 'edited ahead of the cursor', status: 'completed' });
      await pair.remoteEdit('first-000', { customFields: [{ customFieldId: 'dock', value: 'D7' }] });
      putReports(pair.remote.service, [makeReport('new-at-the-end', { updated: at(10_000) })]);
      fourthPage.release();
      expect(await cycle).toEqual({ ok: true });

      const local = await pair.localIds();
      for (const id of ['long-001', 'long-030', 'new-at-the-end', 'long-039']) expect(local).toContain(id);
      expect((await pair.localReport('long-001')).labelReference).toBe('edited behind the cursor');
      expect((await pair.localReport('long-030')).status).toBe('completed');
      await pair.expectMirrored();
    });
  });
});
