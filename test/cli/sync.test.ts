/**
 * `labeldesk sync` through the real binary: the key only from the environment or a file, one
 * cycle against a real remote (exit 0) or an unreachable one (exit 1, saying why), and the
 * state as JSON from `sync status`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { syncStatusSchema } from '../../schema/sync';
import { makeReport, startTestService, type TestService } from '../support/service-fixture';
import { runLabeldesk } from './run-labeldesk';

let dir: string;
let remote: TestService;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-sync-cli-'));
  remote = await startTestService([makeReport('c1'), makeReport('c2', { access: [{ companyId: 'nordic', role: 'viewer' }] })]);
});
afterAll(async () => {
  await remote?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A loopback port that was free a moment ago and has nothing listening on it. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const labeldesk = (args: string[], env: Record<string, string> = {}) => runLabeldesk(dir, args, env);

it('never takes the remote key from the command line, and asks for it', async () => {
  const inArgv = await labeldesk(['sync', '--db', 'a.db', '--remote', remote.url, '--remote-key', remote.keys.acme, '--once']);
  expect(inArgv.code).toBe(2);
  expect(inArgv.stderr).toMatch(/never taken from the command line.*LABELDESK_REMOTE_KEY.*--remote-key-file/);
  const none = await labeldesk(['sync', '--db', 'a.db', '--remote', remote.url, '--once'], { LABELDESK_REMOTE_KEY: '' });
  expect(none.code).toBe(2);
  expect(none.stderr).toMatch(/no remote key: set LABELDESK_REMOTE_KEY or give --remote-key-file/);
  const serve = await labeldesk(['serve', '--db', 'a.db', '--port', '0', '--interval', '5']);
  expect(serve.code).toBe(2);
  expect(serve.stderr).toMatch(/--interval is a sync option: give --remote URL too/);
});

it('runs one cycle with --once: 0 when it completed, 1 when the remote cannot be reached or refuses the key', async () => {
  const db = join(dir, 'mirror.db');
  const once = await labeldesk(['sync', '--db', db, '--remote', remote.url, '--once'], { LABELDESK_REMOTE_KEY: remote.keys.acme });
  expect(once.stderr).toBe('');
  expect(once.code).toBe(0);
  expect(once.stdout).toMatch(/sync completed: 0 pending, 0 conflicts, 0 refused edits, 0 refused reports/);

  const status = await labeldesk(['sync', 'status', '--db', db]);
  expect(status.code).toBe(0);
  expect(syncStatusSchema.parse(JSON.parse(status.stdout))).toMatchObject({ configured: true, remoteUrl: remote.url, companyId: 'acme', state: 'idle', lastError: null });

  const keyFile = join(dir, 'wrong.key');
  writeFileSync(keyFile, 'ldk_not-a-key-of-the-remote\n');
  const refused = await labeldesk(['sync', '--db', db, '--remote', remote.url, '--remote-key-file', keyFile, '--once']);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/the remote refused the key \(401\)/);

  const closed = `http://127.0.0.1:${await closedPort()}`;
  const unreachable = await labeldesk(['sync', '--db', join(dir, 'other.db'), '--remote', closed, '--company', 'acme', '--once'], {
    LABELDESK_REMOTE_KEY: remote.keys.acme,
  });
  expect(unreachable.code).toBe(1);
  expect(unreachable.stderr).toContain(`cannot reach ${closed}: the connection was refused`);
});
