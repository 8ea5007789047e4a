/**
 * A PATCH the remote applied but whose answer was lost on the way back: the entry stays and is
 * sent again, which changes nothing (absolute values), so the remote holds exactly one change,
 * and the pull that sees the remote's new `updated` records no phantom conflict.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncPair } from '../support/sync-pair';
import { plainReports } from '../support/sync-reports';

let pair: SyncPair;
beforeAll(async () => {
  pair = await SyncPair.start({ reports: plainReports(4), worker: { reconcileEverySeconds: 86_400 } });
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
});
