/**
 * `labeldesk sync --once` killed (SIGKILL) at exact points, held there by the proxy: after
 * pages and their cursor were committed, while the next page is asked for; in the middle of a page
 * (some of its new reports fetched, none applied); and after the remote applied a PATCH whose
 * answer had not yet arrived. Run again, nothing is lost and nothing is applied twice: every
 * report is fetched whole once it is committed and never again, the change logs of both sides
 * hold each change once, and both sides compare equal. The remote answers without the list's
 * extension of whole reports, so the kill can fall among a page's retrieves; a kill with the
 * extension is in test/sync/whole-reports.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { plainReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  const PAGE = 10;
  const PULL_PAGE = { method: 'GET', path: /^\/v2\/labelReports\?.*updated/ };
  const RETRIEVE = { method: 'GET', path: /^\/v2\/labelReports\/[^?]+$/ };
  const ARGS = ['--page-size', String(PAGE)];

  // Each test starts `labeldesk` two or three times: slow on a busy machine.
  const CHILDREN = { timeout: 120_000 };

  let pair: SyncPair;
  beforeEach(async () => {
    pair = await SyncPair.start({ remote, reports: plainReports(3 * PAGE), wholeReports: false });
    // Keys of the local side are made before any process writes to it.
    pair.createLocalCompany();
    pair.localKey('reader');
    pair.localKey('manager');
  });
  afterEach(async () => {
    await pair?.close();
  });

  /**
   * Starts `labeldesk sync --once`, kills it once `held` is held (and `until` passed, when given),
   * and lets the held request go.
   */
  async function killAt(held: { arrived: Promise<unknown>; drop(): void }, until?: () => Promise<void>): Promise<void> {
    const run = pair.spawnLocal(pair.commandArgs('sync', ['--once', ...ARGS]));
    const ended = run.exited.then((end) => Promise.reject(new Error(`sync ended (${JSON.stringify(end)}) before the kill point:\n${run.stdout()}${run.stderr()}`)));
    await Promise.race([held.arrived, ended]);
    if (until) await Promise.race([until(), ended]);
    run.child.kill('SIGKILL');
    expect(await run.exited).toEqual({ code: null, signal: 'SIGKILL' });
    held.drop();
  }

  async function runToEnd(): Promise<void> {
    const run = await pair.syncOnce(ARGS);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  }

  /**
   * How many times each report arrived whole at the desk. An attempt that got no report (cut by
   * the kill, or given up by the client after its deadline on a starved machine and asked again,
   * or answered with an error) brought nothing to apply twice, so it is not a fetch.
   */
  function retrievesById(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const r of pair.proxy.seen(RETRIEVE)) {
      if (r.outcome.kind !== 'answered' || r.outcome.status !== 200) continue;
      const id = decodeURIComponent(r.path.slice('/v2/labelReports/'.length));
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }

  function expectCreatedOnce(ids: readonly string[]): void {
    for (const id of ids) {
      const creates = pair.localHistory(id).filter((h) => h.kind === 'create');
      expect(creates, `local creates of ${id}`).toHaveLength(1);
    }
  }

  describe('sync killed at a held point', () => {
    it('after pages and their cursor were committed, while the next page is asked for: the run again starts after them', CHILDREN, async () => {
      await killAt(pair.proxy.hold(PULL_PAGE, 'request', 3));
      // The third page is asked for once the second has arrived, which is written while the third
      // is on its way: one or two pages committed, a prefix of the remote's reports in `updated`
      // order (the second page may start at the last report of the first), fewer than all.
      const mirrored = await pair.localIds();
      expect(mirrored).toEqual((await pair.remoteIds()).slice(0, mirrored.length));
      expect(mirrored.length).toBeGreaterThanOrEqual(PAGE);
      expect(mirrored.length).toBeLessThan(3 * PAGE);
      expectCreatedOnce(mirrored);

      await pair.remoteEdit('r-003', { labelReference: 'edited while the desk was down' });
      await pair.remoteEdit('r-025', { status: 'completed' });
      await runToEnd();

      // What was committed before the kill was not fetched again; a page fetched but not yet
      // written when the process died was fetched once more, and nothing more than that.
      const retrieves = retrievesById();
      for (const id of mirrored) expect(retrieves.get(id), `fetches of ${id}, committed before the kill`).toBe(1);
      for (const [id, n] of retrieves) expect(n, `fetches of ${id}`).toBeLessThanOrEqual(2);
      expectCreatedOnce(await pair.remoteIds());
      expect(pair.localHistory('r-003').filter((h) => h.kind === 'update').map((h) => h.changes.map((c) => c.field))).toEqual([['labelReference']]);
      expect(pair.localHistory('r-025').map((h) => h.kind)).toEqual(['create']);
      await pair.expectMirrored();
    });

    it('in the middle of a page, its new reports partly fetched: nothing of that page applied, all of it later, once', CHILDREN, async () => {
      // The fifth report fetched whole of the second page: answered by the remote, held on the way back.
      // The second page's retrieves start while the first page's last ones are answered: the kill
      // waits for the first page to be committed, which the held retrieve does not stop.
      await killAt(pair.proxy.hold(RETRIEVE, 'response', PAGE + 5), () => eventually(async () => expect(await pair.localIds()).toHaveLength(PAGE)));
      const mirrored = await pair.localIds();
      expect(mirrored).toEqual((await pair.remoteIds()).slice(0, PAGE));

      await runToEnd();
      const retrieves = retrievesById();
      for (const id of mirrored) expect(retrieves.get(id), `fetches of ${id}, committed before the kill`).toBe(1);
      expectCreatedOnce(await pair.remoteIds());
      for (const id of await pair.remoteIds()) expect(pair.localHistory(id).map((h) => h.kind), id).toEqual(['create']);
      await pair.expectMirrored();
    });

    it('after the remote applied a PATCH, before its answer arrived: one change on the remote, no conflict, nothing pending', CHILDREN, async () => {
      await runToEnd();
      await pair.localEdit('r-007', { labelReference: 'sent just before the kill', hasFlag: true });
      await killAt(pair.proxy.hold({ method: 'PATCH' }, 'response'));
      expect((await pair.remoteReport('r-007')).labelReference).toBe('sent just before the kill');

      await runToEnd();
      expect(pair.remoteHistory('r-007').filter((h) => h.kind === 'update')).toHaveLength(1);
      expect(await pair.conflicts()).toEqual([]);
      expect(await pair.outbox()).toEqual([]);
      await pair.expectMirrored();
    });
  });
});
