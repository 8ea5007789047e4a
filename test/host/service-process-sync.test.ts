/**
 * Sync in the desktop's service process (forked as in service-process.test.ts): the settings
 * in the database name a remote, the key arrives from the main process as a `sync-key`
 * message, and the service then mirrors the remote beside serving requests; a null key stops it.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ServiceMessage, SyncKeyMessage } from '../../host/service-protocol';
import { syncStatusSchema, type SyncStatus } from '../../schema/sync';
import { openService } from '../../host/open-service';
import { makeReport, startTestService, type TestService } from '../support/service-fixture';
import { seedDatabase } from './seed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const entry = path.join(root, 'host/service-process.ts');

let dir: string;
let dbFile: string;
let remote: TestService;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'labeldesk-service-process-sync-'));
  dbFile = path.join(dir, 'labeldesk.sqlite');
  await seedDatabase(dbFile);
  remote = await startTestService([makeReport('remote-1'), makeReport('remote-2', { labelReference: 'from the remote' })]);
  const service = openService(dbFile);
  service.sync.setRemote(remote.url, null);
  service.close();
});
afterAll(async () => {
  await remote?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('the key from the main process starts sync with the saved settings; a null key stops it', async () => {
  const child = fork(entry, ['--db', dbFile, '--port', '0'], { execArgv: ['--import', 'tsx'], cwd: root, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = await new Promise<ServiceMessage>((resolve) => child.once('message', (m) => resolve(m as ServiceMessage)));
  if (ready.type !== 'ready' || ready.sessionKey === null) throw new Error(`not ready: ${JSON.stringify(ready)}`);
  const get = async (url: string) => (await fetch(ready.url + url, { headers: { 'x-api-key': ready.sessionKey! } })).json();
  const statusUntil = async (predicate: (s: SyncStatus) => boolean) => {
    for (;;) {
      const status = syncStatusSchema.parse(await get('/local/sync'));
      if (predicate(status)) return status;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  try {
    expect(await statusUntil(() => true)).toMatchObject({ configured: true, remoteUrl: remote.url, state: 'paused' });
    expect(await get('/local/sync/settings')).toEqual({ remoteUrl: remote.url, companyId: null, hasKey: false });

    child.send({ type: 'sync-key', remoteKey: remote.keys.acme } satisfies SyncKeyMessage);
    await statusUntil((s) => s.lastSuccessAt !== null && s.state === 'idle');
    expect(await get('/v2/labelReports/remote-2')).toMatchObject({ id: 'remote-2', labelReference: 'from the remote' });
    expect(await get('/local/sync/settings')).toEqual({ remoteUrl: remote.url, companyId: 'acme', hasKey: true });

    child.send({ type: 'sync-key', remoteKey: null } satisfies SyncKeyMessage);
    await statusUntil((s) => s.state === 'paused');
    expect(await get('/local/sync/settings')).toMatchObject({ hasKey: false });
  } finally {
    child.send({ type: 'shutdown' });
    expect(await exit).toBe(0);
  }
});
