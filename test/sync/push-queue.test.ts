/**
 * The push as a job queue on the outbox (sync/push-queue.ts).
 *
 * Two workers on one local file push its outbox together: each entry is leased while its PATCH
 * is out, so the other never sends it at the same time. Counted at the proxy: every entry goes
 * out as one PATCH, every edit arrives once, and an entry edited again while the other worker's
 * PATCH of it is out waits for that PATCH, then goes out with the newest value.
 * - two processes (`labeldesk sync --once`), the first held at the proxy in the middle of its
 *   first PATCH while the second runs a whole cycle;
 * - two workers of this process on two connections, cycling at once with every PATCH slowed.
 * An entry whose PATCH failed on the way is given back with the failed attempt counted, and the
 * next cycle takes it.
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openService, type Service } from '../../host/open-service';
import { createSyncWorker } from '../../sync';
import { REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { plainReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  const REPORTS = 6;
  const PATCH = { method: 'PATCH' };
  // Each test starts `labeldesk` twice: slow on a busy machine.
  const CHILDREN = { timeout: 120_000 };

  let pair: SyncPair;
  const services: Service[] = [];
  beforeEach(async () => {
    pair = await SyncPair.start({ remote, reports: plainReports(REPORTS), worker: { reconcileEverySeconds: 86_400 } });
    await pair.cycleOk();
    // Keys of the local side are made before any other process writes to it.
    pair.localKey('reader');
    pair.localKey('manager');
  });
  afterEach(async () => {
    for (const service of services.splice(0)) service.close();
    await pair?.close();
  });

  const ids = Array.from({ length: REPORTS }, (_, i) => `r-${String(i).padStart(3, '0')}`);

  /** The PATCHes the remote was sent, per report, in the order they arrived. */
  function patchesById(): Map<string, unknown[]> {
    const byId = new Map<string, unknown[]>();
    for (const r of pair.proxy.seen(PATCH)) {
      const id = decodeURIComponent(r.path.slice('/v2/labelReports/'.length));
      byId.set(id, [...(byId.get(id) ?? []), JSON.parse(r.body)]);
    }
    return byId;
  }

  /** Each report shows its newest value on the remote, which logged `updates(id)` updates of it in all (one per PATCH sent). */
  async function expectArrivedOnce(expected: Record<string, string>, updates: (id: string) => number): Promise<void> {
    for (const [id, reference] of Object.entries(expected)) {
      expect((await pair.remoteReport(id)).labelReference, id).toBe(reference);
      expect(pair.remoteHistory(id).filter((h) => h.kind === 'update'), id).toHaveLength(updates(id));
    }
    expect(await pair.outbox()).toEqual([]);
    await pair.expectMirrored();
  }

  describe('two workers on one local file', () => {
    it('two processes: the entry one of them is sending is not sent by the other, which pushes the rest', CHILDREN, async () => {
      for (const id of ids) await pair.localEdit(id, { labelReference: `first ${id}` });
      pair.proxy.clearLog();
      const held = pair.proxy.hold(PATCH, 'request');
      const first = pair.spawnLocal(pair.commandArgs('sync', ['--once']));
      const out = await Promise.race([
        held.arrived,
        first.exited.then((end) => Promise.reject(new Error(`sync ended (${JSON.stringify(end)}) before its PATCH:\n${first.stdout()}${first.stderr()}`))),
      ]);
      const leased = decodeURIComponent(out.path.slice('/v2/labelReports/'.length));
      expect(leased).toBe(ids[0]);
      // Edited again while its PATCH is out: the other process must not send it either.
      await pair.localEdit(leased, { labelReference: `again ${leased}` });

      const second = await pair.syncOnce();
      expect(second.code, second.stdout + second.stderr).toBe(0);
      expect([...patchesById().keys()].sort()).toEqual([...ids].sort());
      expect(patchesById().get(leased)).toHaveLength(1);

      held.release();
      expect((await first.exited).code, first.stdout() + first.stderr()).toBe(0);
      // The first process sent nothing more: every other entry was gone when it looked again.
      expect(pair.proxy.count(PATCH)).toBe(REPORTS);
      for (const id of ids) expect(patchesById().get(id), id).toEqual([{ labelReference: `first ${id}` }]);

      // The edit made meanwhile goes out with the next cycle.
      await pair.cycleOk();
      expect(patchesById().get(leased)).toEqual([{ labelReference: `first ${leased}` }, { labelReference: `again ${leased}` }]);
      await expectArrivedOnce(Object.fromEntries(ids.map((id) => [id, id === leased ? `again ${id}` : `first ${id}`])), (id) => (id === leased ? 2 : 1));
    });

    it('two workers of one process on two connections, cycling at once: each entry goes out once', async () => {
      const other = openService(pair.localDbFile);
      services.push(other);
      const a = await pair.startWorker({}, { pid: 1001, isRunning: () => true });
      const b = createSyncWorker(other, pair.options(), { pid: 1002, isRunning: () => true });
      try {
        for (let round = 1; round <= 3; round++) {
          for (const id of ids) await pair.localEdit(id, { labelReference: `round ${round} ${id}` });
          pair.proxy.clearLog();
          // Slowed, so that both workers' pushes are under way together.
          const slow = pair.proxy.failEvery(1, { kind: 'delay', ms: 20 }, PATCH);
          const outcomes = await Promise.all([a.runCycle(), b.runCycle()]);
          slow.remove();
          expect(outcomes).toEqual([{ ok: true }, { ok: true }]);
          for (const id of ids) expect(patchesById().get(id), `${id} in round ${round}`).toEqual([{ labelReference: `round ${round} ${id}` }]);
          await expectArrivedOnce(Object.fromEntries(ids.map((id) => [id, `round ${round} ${id}`])), () => round);
        }
      } finally {
        await b.stop();
      }
    });
  });

  describe('an entry the push could not send', () => {
    /** The push queue's columns of each outbox entry, as the file holds them. */
    function leases(): { id: string; attempts: number; leasePid: number | null }[] {
      const raw = new Database(pair.localDbFile, { readonly: true });
      try {
        return raw.prepare('SELECT label_report_id AS id, attempts, lease_pid AS leasePid FROM sync_outbox ORDER BY since, label_report_id').all() as never;
      } finally {
        raw.close();
      }
    }

    it('is given back with its failed attempt counted, taken by the next cycle, and leaves the outbox once sent', async () => {
      await pair.localEdit(ids[1], { labelReference: 'sent at last' });
      await pair.localEdit(ids[2], { labelReference: 'behind it' });
      pair.proxy.clearLog();
      for (let failures = 1; failures <= 2; failures++) {
        const cut = pair.proxy.failNext(100, { kind: 'reset' }, PATCH);
        expect(await pair.cycle()).toMatchObject({ ok: false, reason: 'offline' });
        cut.remove();
        // The failure ended the push: the entry behind it was not tried, and no lease is left.
        expect(leases()).toEqual([
          { id: ids[1], attempts: failures, leasePid: null },
          { id: ids[2], attempts: 0, leasePid: null },
        ]);
      }
      expect(new Set(pair.proxy.seen(PATCH).map((r) => r.path))).toEqual(new Set([`/v2/labelReports/${ids[1]}`]));
      await pair.cycleOk();
      expect(leases()).toEqual([]);
      await expectArrivedOnce({ [ids[1]]: 'sent at last', [ids[2]]: 'behind it' }, () => 1);
    });
  });
});
