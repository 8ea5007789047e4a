/**
 * `labeldesk serve --remote` as a child process: the service and its sync worker in one
 * process. It mirrors on its own, answers /local/sync in the shape decided (exactly those
 * keys; 401 without a key), pushes a local edit about a second after it is made without being
 * asked; killed (SIGKILL) in the middle of a pull held at the proxy, it starts again and
 * converges with nothing applied twice; SIGTERM exits 0 and `labeldesk sync status` then prints
 * the state it kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncStatusSchema } from '../../schema/sync';
import { eventually, REMOTE_KINDS, type SpawnedLocal, SyncPair } from '../support/sync-pair';
import { freshReports, plainReports, putReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  let pair: SyncPair;
  let manager: string;
  let reader: string;
  beforeAll(async () => {
    pair = await SyncPair.start({ remote, reports: plainReports(8, { step: 3600 }) });
    // The local keys exist before the served process opens the file; this process then lets go of it.
    pair.createLocalCompany();
    manager = pair.localKey('manager');
    reader = pair.localKey('reader');
    await pair.closeLocal();
  });
  afterAll(async () => {
    await pair?.reopenLocal();
    await pair?.close();
  });

  async function serve(): Promise<{ run: SpawnedLocal; url: string }> {
    const run = pair.spawnLocal(pair.commandArgs('serve', ['--interval', '1', '--page-size', '3']));
    const printed = await run.outputMatching(/listening on (http:\/\/\S+)/);
    return { run, url: /listening on (http:\/\/\S+)/.exec(printed)![1] };
  }

  async function call(url: string, path: string, init: { key?: string | null; method?: string; body?: unknown } = {}) {
    const headers: Record<string, string> = {};
    if (init.key !== null) headers['x-api-key'] = init.key ?? reader;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url + path, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  }

  describe('labeldesk serve --remote', () => {
    it('mirrors on its own, answers /local/sync in the decided shape, and pushes a local edit without being asked', { timeout: 120_000 }, async () => {
      const { run, url } = await serve();
      const status = await eventually(async () => {
        const answer = await call(url, '/local/sync');
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ state: 'idle', lastSuccessAt: expect.any(String) });
        return answer.body;
      });
      expect(syncStatusSchema.strict().parse(status)).toMatchObject({ configured: true, remoteUrl: pair.proxy.url, companyId: 'acme', pending: 0, progress: null });
      for (const path of ['/local/sync', '/local/sync/conflicts', '/local/sync/dead-letters', '/local/sync/outbox']) {
        expect(await call(url, path, { key: null }), path).toMatchObject({ status: 401, body: { code: 'API_KEY_MISSING' } });
      }
      expect(await call(url, '/local/sync', { method: 'POST' })).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED' } });
      expect(await call(url, '/local/sync', { method: 'POST', key: manager })).toMatchObject({ status: 202 });

      const patched = await call(url, '/v2/labelReports/r-004', { method: 'PATCH', key: manager, body: { labelReference: 'sent by itself' } });
      expect(patched.status).toBe(200);
      await eventually(async () => expect((await pair.remoteReport('r-004')).labelReference).toBe('sent by itself'), 60_000);
      run.child.kill('SIGTERM');
      expect(await run.exited).toEqual({ code: 0, signal: null });
    });

    it('killed in the middle of a pull, it starts again and converges, nothing applied twice', { timeout: 180_000 }, async () => {
      putReports(pair.remote.service, freshReports(9, 'late'));
      // The second page of the next pull waits at the proxy: the first is committed, the rest not.
      const held = pair.proxy.hold({ method: 'GET', path: /^\/v2\/labelReports\?.*updated/ }, 'request', 2);
      const first = await serve();
      await held.arrived;
      first.run.child.kill('SIGKILL');
      expect(await first.run.exited).toEqual({ code: null, signal: 'SIGKILL' });
      held.drop();

      await pair.remoteEdit('r-001', { status: 'completed' });
      const second = await serve();
      await eventually(async () => {
        const answer = await call(second.url, '/local/sync');
        expect(answer.body).toMatchObject({ state: 'idle', pending: 0 });
        expect((await call(second.url, '/v2/labelReports?output=minimal&pageSize=1')).body.totalDocuments).toBe((await pair.remoteIds()).length);
        expect((await call(second.url, '/v2/labelReports/r-001')).body.status).toBe('completed');
      });
      second.run.child.kill('SIGTERM');
      expect(await second.run.exited).toEqual({ code: 0, signal: null });

      await pair.reopenLocal();
      for (const id of await pair.remoteIds()) {
        expect(pair.localHistory(id).filter((h) => h.kind === 'create'), id).toHaveLength(1);
      }
      expect(pair.localHistory('r-001').filter((h) => h.kind === 'update' && h.actor.kind === 'sync').map((h) => h.changes.map((c) => c.field))).toEqual([['status']]);
      await pair.expectMirrored();
      await pair.closeLocal();
    });

    it('`labeldesk sync status` prints the state the service kept, as JSON', async () => {
      const run = pair.spawnLocal(['sync', 'status', '--db', pair.localDbFile]);
      expect((await run.exited).code).toBe(0);
      const printed = JSON.parse(run.stdout());
      expect(syncStatusSchema.parse(printed)).toMatchObject({ configured: true, remoteUrl: pair.proxy.url, companyId: 'acme', pending: 0, lastSuccessAt: expect.any(String) });
    });
  });
});
