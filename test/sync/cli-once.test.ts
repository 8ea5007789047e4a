/**
 * `labeldesk sync --once` as a child process, the remote key in its environment: it exits by
 * itself, 1 (saying which remote) while the remote cannot be reached, 0 once a cycle completes
 * through failures; the worker leaves nothing running that would keep the process alive.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { REMOTE_KINDS, SyncPair } from '../support/sync-pair';
import { plainReports } from '../support/sync-reports';

describe.each(REMOTE_KINDS)('against a %s remote', (remote) => {
  // Each test starts `labeldesk` up to six times: slow on a busy machine.
  const CHILDREN = { timeout: 180_000 };

  let pair: SyncPair;
  afterEach(async () => {
    await pair?.close();
  });

  describe('labeldesk sync --once', () => {
    it('exits by itself: 1 while the remote is unreachable, 0 once a cycle completes', CHILDREN, async () => {
      pair = await SyncPair.start({ remote, reports: plainReports(12, { step: 3600 }) });
      await pair.proxy.offline('refuse');
      const offline = await pair.syncOnce(['--page-size', '4']);
      expect(offline.code, offline.stdout + offline.stderr).toBe(1);
      expect(offline.stdout + offline.stderr).toContain(pair.proxy.url);
      await pair.proxy.online();
      pair.proxy.failNext(3, { kind: 'status', status: 503 });
      let run = await pair.syncOnce(['--page-size', '4']);
      for (let i = 0; i < 4 && run.code !== 0; i++) run = await pair.syncOnce(['--page-size', '4']);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      await pair.expectMirrored();
    });

    it('without a key in the environment it stops, naming LABELDESK_REMOTE_KEY, and asks the remote nothing', CHILDREN, async () => {
      pair = await SyncPair.start({ remote, reports: plainReports(2) });
      const run = await pair.syncOnce([], { LABELDESK_REMOTE_KEY: '' });
      expect(run.code).not.toBe(0);
      expect(run.stdout + run.stderr).toContain('LABELDESK_REMOTE_KEY');
      expect(pair.proxy.requests).toEqual([]);
    });

    it('without --company it asks the remote for its session; a remote of the interface alone has none, and the run asks for --company', CHILDREN, async () => {
      pair = await SyncPair.start({ remote, reports: plainReports(2) });
      const args = pair.commandArgs('sync', ['--once']);
      const at = args.indexOf('--company');
      const run = pair.spawnLocal([...args.slice(0, at), ...args.slice(at + 2)]);
      const { code } = await run.exited;
      const output = run.stdout() + run.stderr();
      expect(pair.proxy.count({ method: 'GET', path: '/local/session' }), output).toBe(1);
      if (remote === 'labeldesk') {
        expect(code, output).toBe(0);
        await pair.expectMirrored();
      } else {
        expect(code, output).not.toBe(0);
        expect(output).toContain('--company');
        expect(pair.proxy.count({ method: 'GET', path: /^\/v2\// }), output).toBe(0);
      }
    });
  });
});
